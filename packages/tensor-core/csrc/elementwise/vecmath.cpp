#include "elementwise/vecmath.h"

#include <cstddef>

#include "common/isa.h"
#include "common/parallel.h"

namespace torch_core {

// One set of loops per instruction-set tier, from elementwise/exp_kernels.inc.
#define TORCH_CORE_DECLARE_EXP(tier)                                                        \
  namespace tier {                                                                          \
  void exp_range_f32(const float* a, float* out, std::size_t begin, std::size_t end);       \
  void exp_range_f64(const double* a, double* out, std::size_t begin, std::size_t end);     \
  void sigmoid_range_f32(const float* a, float* out, std::size_t begin, std::size_t end);   \
  void sigmoid_range_f64(const double* a, double* out, std::size_t begin, std::size_t end); \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_EXP)
#undef TORCH_CORE_DECLARE_EXP

namespace {

template <typename T>
using Range = void (*)(const T*, T*, std::size_t, std::size_t);
Range<float> exp_range(const float*) { return TORCH_CORE_PICK(exp_range_f32); }
Range<double> exp_range(const double*) { return TORCH_CORE_PICK(exp_range_f64); }
Range<float> sigmoid_range(const float*) { return TORCH_CORE_PICK(sigmoid_range_f32); }
Range<double> sigmoid_range(const double*) { return TORCH_CORE_PICK(sigmoid_range_f64); }

// range over [0, n) in parts across threads; these loops cost more per item than a
// streaming add, so smaller parts balance as well
template <typename T>
void run_range(Range<T> range, const T* a, T* out, std::size_t n, int threads) {
  constexpr std::size_t kGrain = 1 << 12;
  GuidedParts(n, threads, kGrain).run([&](std::size_t begin, std::size_t end, int) {
    range(a, out, begin, end);
  });
}

}  // namespace

template <typename T>
void exp(const T* a, T* out, std::size_t n, int threads) {
  run_range(exp_range(a), a, out, n, threads);
}

template <typename T>
void sigmoid(const T* a, T* out, std::size_t n, int threads) {
  run_range(sigmoid_range(a), a, out, n, threads);
}

template void exp<float>(const float*, float*, std::size_t, int);
template void exp<double>(const double*, double*, std::size_t, int);
template void sigmoid<float>(const float*, float*, std::size_t, int);
template void sigmoid<double>(const double*, double*, std::size_t, int);

}  // namespace torch_core
