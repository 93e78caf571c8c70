#include "conv/conv.h"

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/isa.h"

namespace torch_core {

// One set of kernels per instruction-set tier, from conv/kernels.inc.
#define TORCH_CORE_DECLARE_CONV(tier)                                                      \
  namespace tier {                                                                         \
  template <typename T>                                                                    \
  void conv_forward(const ConvShape&, const T*, const T*, const T*, T*, int);              \
  template <typename T>                                                                    \
  void conv_weight_grad(const ConvShape&, const T*, const T*, T*, int);                    \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_CONV)
#undef TORCH_CORE_DECLARE_CONV

namespace {

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument("convolution: " + message);
}

}  // namespace

void check_conv_shape(const ConvShape& s) {
  require(s.batch >= 0 && s.in_channels > 0 && s.out_channels > 0 && s.groups > 0,
          "batch, channels and groups must be positive");
  require(s.in_channels % s.groups == 0 && s.out_channels % s.groups == 0,
          "channels must be divisible by groups");
  for (int i = 0; i < 3; ++i) {
    require(s.in[i] > 0 && s.kernel[i] > 0 && s.dilation[i] > 0, "sizes must be positive");
    require(s.pad_lo[i] >= 0 && s.pad_hi[i] >= 0, "padding must be non-negative");
    const std::int64_t expected =
        s.in[i] + s.pad_lo[i] + s.pad_hi[i] - s.dilation[i] * (s.kernel[i] - 1);
    require(expected >= 1 && s.out[i] == expected,
            "output size " + std::to_string(s.out[i]) + " does not match a stride-1 convolution");
  }
  // The kernels size per-thread buffers from the padded volume (an image of every input
  // channel, a tile per output channel, plus a vector of slack each) and index them in
  // int64: those sizes must not overflow.
  std::int64_t padded = 1, image = 0, tiles = 0;
  bool overflow = false;
  for (int i = 0; i < 3; ++i) {
    std::int64_t extent;
    overflow |= __builtin_add_overflow(s.in[i], s.pad_lo[i], &extent);
    overflow |= __builtin_add_overflow(extent, s.pad_hi[i], &extent);
    overflow |= __builtin_mul_overflow(padded, extent, &padded);
  }
  constexpr std::int64_t kSlack = 64;  // more than a tile's width of any instruction set
  overflow = overflow || padded > (INT64_MAX - kSlack) / 2 ||
             __builtin_mul_overflow(2 * padded + kSlack, s.in_channels, &image) ||
             __builtin_mul_overflow(padded + kSlack, s.out_channels + kSlack * s.groups, &tiles);
  require(!overflow, "the padded input is too large");
}

template <typename T>
void conv_forward(const ConvShape& s, const T* x, const T* w, const T* bias, T* out,
                  int threads) {
  TORCH_CORE_PICK(conv_forward<T>)(s, x, w, bias, out, threads);
}

template <typename T>
void conv_weight_grad(const ConvShape& s, const T* x, const T* grad_out, T* grad_w,
                      int threads) {
  TORCH_CORE_PICK(conv_weight_grad<T>)(s, x, grad_out, grad_w, threads);
}

template void conv_forward<float>(const ConvShape&, const float*, const float*, const float*,
                                  float*, int);
template void conv_forward<double>(const ConvShape&, const double*, const double*,
                                   const double*, double*, int);
template void conv_weight_grad<float>(const ConvShape&, const float*, const float*, float*, int);
template void conv_weight_grad<double>(const ConvShape&, const double*, const double*, double*,
                                       int);

}  // namespace torch_core
