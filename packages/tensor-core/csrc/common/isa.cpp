#include "common/isa.h"

#include <cstdlib>
#include <cstring>

namespace torch_core {
namespace isa {

namespace {

Tier probe() {
#if defined(__GNUC__) && defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma")) {
    return Tier::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return Tier::kAvx2;
#endif
  return Tier::kBaseline;
}

// TORCH_CPU_ISA may only lower the tier (a higher one would fault on this CPU).
Tier capped(Tier found) {
  const char* cap = std::getenv("TORCH_CPU_ISA");
  if (cap == nullptr) return found;
  if (std::strcmp(cap, "baseline") == 0) return Tier::kBaseline;
  if (std::strcmp(cap, "avx2") == 0 && found > Tier::kAvx2) return Tier::kAvx2;
  return found;
}

}  // namespace

Tier cpu_tier() {
  static const Tier tier = capped(probe());
  return tier;
}

const char* tier_name(Tier tier) {
  switch (tier) {
    case Tier::kAvx512: return "avx512";
    case Tier::kAvx2: return "avx2";
    default: return "baseline";
  }
}

}  // namespace isa
}  // namespace torch_core
