// Mersenne Twister (MT19937), bit-compatible with PyTorch's CPU generator.
//
// Why native: PyTorch's random functions consume the engine one draw at a time and
// transform each draw on the spot (24-bit floats, 53-bit doubles from two draws, fused
// multiply-add for ranges). NumPy exposes only raw draws as uint64 arrays, so the pure
// path needs several passes and temporaries per call; this kernel draws and transforms in
// one pass. The pure path (torch/_mt19937_ref.py) stays the test oracle.
#pragma once

#include <cstddef>
#include <cstdint>

namespace torch_core {

class MT19937 {
 public:
  static constexpr int kStateSize = 624;

  explicit MT19937(uint64_t seed = 5489) { seed_with(seed); }

  // Same seeding as std::mt19937 and PyTorch: only the low 32 bits of the seed matter.
  void seed_with(uint64_t seed);  // also clears the cached normal

  uint32_t next_u32() {
    if (pos_ >= kStateSize) twist();
    return temper(key_[pos_++]);
  }

  // PyTorch's random64(): the first draw gives the high word.
  uint64_t next_u64() {
    uint64_t hi = next_u32();
    uint64_t lo = next_u32();
    return (hi << 32) | lo;
  }

  // The next n draws, tempered a block of the state at a time (the same words as n calls
  // of next_u32, in one vectorisable loop per twist).
  void fill_u32(uint32_t* out, std::size_t n);
  // Uniform on [low, high): float from 24 random bits, double from 53, low + x * (high - low)
  // with one rounding (fused multiply-add), as PyTorch's CPU kernels compute it.
  void fill_uniform_f32(float* out, std::size_t n, float low, float high);
  void fill_uniform_f64(double* out, std::size_t n, double low, double high);

  // Normal numbers as PyTorch's CPU kernels make them: for 16 or more, uniform numbers
  // of the output's precision turned into normals by Box-Muller in blocks of 16 (the last
  // block redrawn when n is not a multiple of 16); for fewer, one double-precision
  // Box-Muller pair per two outputs, the second kept in the engine's cache.
  void fill_normal_f32(float* out, std::size_t n, double mean, double stddev);
  void fill_normal_f64(double* out, std::size_t n, double mean, double stddev);
  double next_normal(double mean, double stddev);
  // Fisher-Yates as PyTorch's randperm: out[i] swaps with out[i + draw % (n - i)].
  void randperm(int64_t* out, int64_t n);

  bool has_cached_normal = false;
  double cached_normal = 0.0;

  // The state in NumPy's MT19937 layout: 624 words and the read position (624 = refill next).
  const uint32_t* key() const { return key_; }
  int pos() const { return pos_; }
  void set_state(const uint32_t* key, int pos);

 private:
  static uint32_t temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
  }
  void twist();
  double next_uniform_f64() {
    return static_cast<double>(next_u64() & ((1ULL << 53) - 1)) / static_cast<double>(1ULL << 53);
  }

  uint32_t key_[kStateSize];
  int pos_ = kStateSize;
};

}  // namespace torch_core
