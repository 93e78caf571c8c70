#include "vecmath.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "parallel.h"

namespace torch_core {

namespace {

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TORCH_CORE_VEC_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TORCH_CORE_VEC_CLONES
#endif

// Both exponentials reduce x = k*ln2 + r with |r| <= ln2/2 (k rounded to nearest by
// adding 1.5 * 2^mantissa_bits, which leaves k in the low bits of the sum), evaluate a
// polynomial for exp(r), and scale by 2^k in two halves so that results in the subnormal
// range are rounded once, like the C library's. The bit pattern of 2^j is built from the
// rounding sum itself: (bits(j + magic) + bias) << mantissa_bits drops the magic's bits.

inline float bits_to_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint32_t float_to_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline double bits_to_double(uint64_t u) {
  double d;
  std::memcpy(&d, &u, sizeof d);
  return d;
}

inline uint64_t double_to_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, sizeof u);
  return u;
}

inline double pow2_f64(double integral) {
  const double magic = 6755399441055744.0;  // 1.5 * 2^52
  return bits_to_double((double_to_bits(integral + magic) + 1023u) << 52);
}

inline float exp_f32(float x) {
  // Beyond these bounds exp is inf or rounds to zero; clamping keeps 2^k representable.
  // std::max/min return their first argument when it is NaN, so NaN flows through to the
  // polynomial and out (the scale built from its garbage bits cannot turn it into a number).
  const float xc = std::min(std::max(x, -104.0f), 89.0f);
  const float magic = 12582912.0f;
  const float shifted = xc * 1.44269504088896341f + magic;
  const float k = shifted - magic;
  float r = std::fma(k, -0.693145751953125f, xc);
  r = std::fma(k, -1.428606765330187045e-06f, r);
  // Minimax coefficients of (exp(r) - 1 - r) / r^2 on [-ln2/2, ln2/2] (Cephes expf).
  float p = 1.9875691500e-4f;
  p = std::fma(p, r, 1.3981999507e-3f);
  p = std::fma(p, r, 8.3334519073e-3f);
  p = std::fma(p, r, 4.1665795894e-2f);
  p = std::fma(p, r, 1.6666665459e-1f);
  p = std::fma(p, r, 5.0000001201e-1f);
  const float e = std::fma(p, r * r, r) + 1.0f;
  // k in [-150, 128] as an integer, split into halves whose powers of two are normal
  const int32_t ki = static_cast<int32_t>(float_to_bits(shifted) - float_to_bits(magic));
  const int32_t k1 = ki >> 1;
  const int32_t k2 = ki - k1;
  const float s1 = bits_to_float(static_cast<uint32_t>(k1 + 127) << 23);
  const float s2 = bits_to_float(static_cast<uint32_t>(k2 + 127) << 23);
  return e * s1 * s2;
}

inline double exp_f64(double x) {
  double xc = x > 710.0 ? 710.0 : x;
  xc = xc < -746.0 ? -746.0 : xc;
  const double magic = 6755399441055744.0;
  const double k = (xc * 1.4426950408889634074 + magic) - magic;
  double r = std::fma(k, -6.93147180369123816490e-01, xc);
  r = std::fma(k, -1.90821492927058770002e-10, r);
  // Taylor series to r^13: the first omitted term is below 2^-57 for |r| <= ln2/2.
  double p = 1.0 / 6227020800.0;
  p = std::fma(p, r, 1.0 / 479001600.0);
  p = std::fma(p, r, 1.0 / 39916800.0);
  p = std::fma(p, r, 1.0 / 3628800.0);
  p = std::fma(p, r, 1.0 / 362880.0);
  p = std::fma(p, r, 1.0 / 40320.0);
  p = std::fma(p, r, 1.0 / 5040.0);
  p = std::fma(p, r, 1.0 / 720.0);
  p = std::fma(p, r, 1.0 / 120.0);
  p = std::fma(p, r, 1.0 / 24.0);
  p = std::fma(p, r, 1.0 / 6.0);
  p = std::fma(p, r, 0.5);
  const double e = std::fma(p, r * r, r) + 1.0;
  const double k1 = std::floor(k * 0.5);
  const double result = e * pow2_f64(k1) * pow2_f64(k - k1);
  return x != x ? x : result;
}

TORCH_CORE_VEC_CLONES void exp_range_f32(const float* a, float* out, std::size_t begin,
                                         std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) out[i] = exp_f32(a[i]);
}

TORCH_CORE_VEC_CLONES void exp_range_f64(const double* a, double* out, std::size_t begin,
                                         std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) out[i] = exp_f64(a[i]);
}

void exp_range(const float* a, float* out, std::size_t begin, std::size_t end) {
  exp_range_f32(a, out, begin, end);
}

void exp_range(const double* a, double* out, std::size_t begin, std::size_t end) {
  exp_range_f64(a, out, begin, end);
}

}  // namespace

template <typename T>
void exp(const T* a, T* out, std::size_t n, int threads) {
  parallel_for(n, threads, [&](std::size_t begin, std::size_t end, int) {
    exp_range(a, out, begin, end);
  });
}

template void exp<float>(const float*, float*, std::size_t, int);
template void exp<double>(const double*, double*, std::size_t, int);

}  // namespace torch_core
