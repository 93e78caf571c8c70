#include "random/mt19937.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <utility>

#include "random/kernels.h"

namespace torch_core {

namespace {
constexpr int kShift = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfU;
constexpr uint32_t kUpperMask = 0x80000000U;
constexpr uint32_t kLowerMask = 0x7fffffffU;

inline uint32_t mix(uint32_t upper_from, uint32_t lower_from, uint32_t far) {
  uint32_t y = (upper_from & kUpperMask) | (lower_from & kLowerMask);
  return far ^ (y >> 1) ^ ((y & 1U) ? kMatrixA : 0U);
}
}  // namespace

void MT19937::seed_with(uint64_t seed) {
  key_[0] = static_cast<uint32_t>(seed & 0xffffffffULL);
  for (int i = 1; i < kStateSize; ++i) {
    key_[i] = 1812433253U * (key_[i - 1] ^ (key_[i - 1] >> 30)) + static_cast<uint32_t>(i);
  }
  pos_ = kStateSize;
  has_cached_normal = false;
}

void MT19937::twist() {
  int i = 0;
  for (; i < kStateSize - kShift; ++i) key_[i] = mix(key_[i], key_[i + 1], key_[i + kShift]);
  for (; i < kStateSize - 1; ++i)
    key_[i] = mix(key_[i], key_[i + 1], key_[i + kShift - kStateSize]);
  key_[kStateSize - 1] = mix(key_[kStateSize - 1], key_[0], key_[kShift - 1]);
  pos_ = 0;
}

void MT19937::set_state(const uint32_t* key, int pos) {
  std::memcpy(key_, key, sizeof(key_));
  pos_ = pos;
}

void MT19937::fill_u32(uint32_t* out, std::size_t n) {
  while (n > 0) {
    if (pos_ >= kStateSize) twist();
    const std::size_t m = std::min(n, static_cast<std::size_t>(kStateSize - pos_));
    const uint32_t* key = key_ + pos_;
    for (std::size_t i = 0; i < m; ++i) out[i] = temper(key[i]);
    pos_ += static_cast<int>(m);
    out += m;
    n -= m;
  }
}

namespace random {
namespace {
// Words per block: the conversion loops read them from the stack, not the engine.
constexpr std::size_t kWordBlock = 1024;
auto pick_uniform_f32() { return TORCH_CORE_PICK(uniform_f32); }
auto pick_uniform_f64() { return TORCH_CORE_PICK(uniform_f64); }
}  // namespace
}  // namespace random

void MT19937::fill_uniform_f32(float* out, std::size_t n, float low, float high) {
  const auto convert = random::pick_uniform_f32();
  uint32_t words[random::kWordBlock];
  for (std::size_t i = 0; i < n; i += random::kWordBlock) {
    const std::size_t m = std::min(random::kWordBlock, n - i);
    fill_u32(words, m);
    convert(words, out + i, m, low, high - low);
  }
}

void MT19937::fill_uniform_f64(double* out, std::size_t n, double low, double high) {
  const auto convert = random::pick_uniform_f64();
  constexpr std::size_t kBlock = random::kWordBlock / 2;  // two words per double
  uint32_t words[random::kWordBlock];
  for (std::size_t i = 0; i < n; i += kBlock) {
    const std::size_t m = std::min(kBlock, n - i);
    fill_u32(words, 2 * m);
    convert(words, out + i, m, low, high - low);
  }
}

namespace {
constexpr double kTwoPi = 6.283185307179586476925286766559;

// Box-Muller over one block of 16 uniforms in place: slot j pairs with slot j + 8.
template <typename T>
void box_muller_16(T* data, double mean, double stddev) {
  for (int j = 0; j < 8; ++j) {
    const double u1 = 1.0 - static_cast<double>(data[j]);
    const double u2 = static_cast<double>(data[j + 8]);
    const double radius = std::sqrt(-2.0 * std::log(u1));
    const double theta = kTwoPi * u2;
    data[j] = static_cast<T>(radius * std::cos(theta) * stddev + mean);
    data[j + 8] = static_cast<T>(radius * std::sin(theta) * stddev + mean);
  }
}
}  // namespace

double MT19937::next_normal(double mean, double stddev) {
  if (has_cached_normal) {
    has_cached_normal = false;
    return cached_normal * stddev + mean;
  }
  const double u1 = next_uniform_f64();
  const double u2 = next_uniform_f64();
  const double radius = std::sqrt(-2.0 * std::log1p(-u2));
  const double theta = kTwoPi * u1;
  cached_normal = radius * std::sin(theta);
  has_cached_normal = true;
  return radius * std::cos(theta) * stddev + mean;
}

namespace {
// The normal fill of either dtype: short runs draw one at a time (next_normal, with its
// cached second draw); longer ones fill uniforms and turn them into normals 16 at a time,
// the last 16 redrawn from the end so that no element is left over.
template <typename T>
void fill_normal_typed(MT19937& gen, T* out, std::size_t n, double mean, double stddev) {
  // Uniform [0, 1) numbers are fma(x, 1, 0) = x: the uniform fill makes them.
  auto fill_uniform = [&gen](T* data, std::size_t count) {
    if constexpr (std::is_same_v<T, float>) {
      gen.fill_uniform_f32(data, count, 0.0f, 1.0f);
    } else {
      gen.fill_uniform_f64(data, count, 0.0, 1.0);
    }
  };
  if (n < 16) {
    for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<T>(gen.next_normal(mean, stddev));
    return;
  }
  fill_uniform(out, n);
  for (std::size_t i = 0; i + 16 <= n; i += 16) box_muller_16(out + i, mean, stddev);
  if (n % 16 != 0) {
    T* tail = out + n - 16;
    fill_uniform(tail, 16);
    box_muller_16(tail, mean, stddev);
  }
}
}  // namespace

void MT19937::fill_normal_f32(float* out, std::size_t n, double mean, double stddev) {
  fill_normal_typed(*this, out, n, mean, stddev);
}

void MT19937::fill_normal_f64(double* out, std::size_t n, double mean, double stddev) {
  fill_normal_typed(*this, out, n, mean, stddev);
}

void MT19937::randperm(int64_t* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = i;
  const bool wide = n >= static_cast<int64_t>(0xffffffffULL / 20);
  for (int64_t i = 0; i + 1 < n; ++i) {
    const uint64_t draw = wide ? next_u64() : next_u32();
    const int64_t z = static_cast<int64_t>(draw % static_cast<uint64_t>(n - i));
    std::swap(out[i], out[z + i]);
  }
}

}  // namespace torch_core
