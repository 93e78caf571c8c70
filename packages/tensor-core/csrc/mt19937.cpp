#include "mt19937.h"

#include <cmath>
#include <cstring>

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
  for (std::size_t i = 0; i < n; ++i) out[i] = next_u32();
}

void MT19937::fill_uniform_f32(float* out, std::size_t n, float low, float high) {
  const float span = high - low;
  const float scale = 1.0f / static_cast<float>(1U << 24);
  for (std::size_t i = 0; i < n; ++i) {
    float x = static_cast<float>(next_u32() & ((1U << 24) - 1)) * scale;
    out[i] = std::fma(x, span, low);
  }
}

void MT19937::fill_uniform_f64(double* out, std::size_t n, double low, double high) {
  const double span = high - low;
  const double scale = 1.0 / static_cast<double>(1ULL << 53);
  for (std::size_t i = 0; i < n; ++i) {
    double x = static_cast<double>(next_u64() & ((1ULL << 53) - 1)) * scale;
    out[i] = std::fma(x, span, low);
  }
}

}  // namespace torch_core
