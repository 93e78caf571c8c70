// Vectorised elementwise exponential and logistic function over large contiguous float
// arrays, split across threads. Why native: NumPy's exp runs on one core; PyTorch's runs a SIMD polynomial
// on every core. The loops are written branch-free so the compiler vectorises them
// (compiled per instruction-set tier, common/isa.h).
#pragma once

#include <cstddef>

namespace torch_core {

// out[i] = exp(a[i]) within about 1 ulp; +-inf, NaN, overflow to inf and gradual
// underflow to subnormals and zero behave as the C library's exp.
template <typename T>
void exp(const T* a, T* out, std::size_t n, int threads);

// out[i] = 1 / (1 + exp(-a[i])) with the exponential above: 0 and 1 at -inf and +inf (and
// where exp(-a[i]) overflows or underflows), NaN for NaN.
template <typename T>
void sigmoid(const T* a, T* out, std::size_t n, int threads);

}  // namespace torch_core
