// Instruction-set tiers: the one way torch._C chooses vector instructions.
//
// A kernel family that is worth compiling per instruction set keeps its loops in one
// `.inc` file inside `namespace TORCH_CORE_TIER { ... }`. CMake's torch_core_tiers()
// compiles that file once per tier the family lists, each time with the tier's flags and
// TORCH_CORE_TIER set to the tier's name (avx512, avx2 or baseline), so every kernel
// exists as avx512::f, avx2::f and baseline::f. Callers take the one to run from
// TORCH_CORE_PICK(f) (or TORCH_CORE_PICK_AVX2(f) for a family without an AVX-512 tier):
// the best tier that both the CPU runs and the family has. The CPU is probed once.
#pragma once

namespace torch_core {
namespace isa {

enum class Tier : int { kBaseline = 0, kAvx2 = 1, kAvx512 = 2 };

// The best tier this CPU runs: AVX-512 needs avx512f, AVX2 needs avx2 and fma. The
// environment variable TORCH_CPU_ISA=avx2|baseline caps it (read once, at the first
// kernel call), to test or compare the lower tiers on a newer CPU.
Tier cpu_tier();
const char* tier_name(Tier tier);

// The kernel of the best tier the CPU runs among those given (nullptr: the family has no
// such tier).
template <typename Fn>
Fn pick(Fn avx512, Fn avx2, Fn baseline) {
  const Tier tier = cpu_tier();
  if (tier >= Tier::kAvx512 && avx512 != nullptr) return avx512;
  if (tier >= Tier::kAvx2 && avx2 != nullptr) return avx2;
  return baseline;
}

}  // namespace isa
}  // namespace torch_core

// The tier namespaces of a family: declare its kernels once, for every tier.
#define TORCH_CORE_FOR_EACH_TIER(DECLARE) DECLARE(avx512) DECLARE(avx2) DECLARE(baseline)

#define TORCH_CORE_PICK(fn) ::torch_core::isa::pick(avx512::fn, avx2::fn, baseline::fn)
#define TORCH_CORE_PICK_AVX2(fn) \
  ::torch_core::isa::pick<decltype(&baseline::fn)>(nullptr, avx2::fn, baseline::fn)
