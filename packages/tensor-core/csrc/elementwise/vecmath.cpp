#include "elementwise/vecmath.h"

#include <cstddef>

#include "common/isa.h"
#include "common/parallel.h"

namespace torch_core {

// One set of loops per instruction-set tier, from elementwise/exp_kernels.inc.
#define TORCH_CORE_DECLARE_EXP(tier)                                              \
  namespace tier {                                                                \
  void exp_range_f32(const float* a, float* out, std::size_t begin, std::size_t end);   \
  void exp_range_f64(const double* a, double* out, std::size_t begin, std::size_t end); \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_EXP)
#undef TORCH_CORE_DECLARE_EXP

namespace {

using ExpF32 = void (*)(const float*, float*, std::size_t, std::size_t);
using ExpF64 = void (*)(const double*, double*, std::size_t, std::size_t);
ExpF32 exp_range(const float*) { return TORCH_CORE_PICK(exp_range_f32); }
ExpF64 exp_range(const double*) { return TORCH_CORE_PICK(exp_range_f64); }

}  // namespace

template <typename T>
void exp(const T* a, T* out, std::size_t n, int threads) {
  const auto range = exp_range(a);
  // exp costs more per item than a streaming add: smaller parts balance as well
  constexpr std::size_t kGrain = 1 << 12;
  GuidedParts(n, threads, kGrain).run([&](std::size_t begin, std::size_t end, int) {
    range(a, out, begin, end);
  });
}

template void exp<float>(const float*, float*, std::size_t, int);
template void exp<double>(const double*, double*, std::size_t, int);

}  // namespace torch_core
