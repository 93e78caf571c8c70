// Stride-1 convolution (1-, 2- and 3-d, any padding, dilation and groups) for float32 and
// float64, forward and weight gradient. Why native: the NumPy path unfolds the whole
// batch into a column matrix (K times the input, written and read once more by BLAS);
// here each image is padded into a small per-thread buffer and multiplied without any
// unfolding: for stride 1, the input row a kernel position reads is the padded image
// shifted by a constant, so the "columns" are pointers into that buffer.
//
// Shapes are given as 3-d (depth, height, width); 1-d and 2-d callers use 1 for the
// leading sizes. The input gradient of a stride-1 convolution is itself a stride-1
// convolution (of the output gradient with the flipped, transposed weight), so Python
// calls conv_forward for it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace torch_core {

struct ConvShape {
  std::int64_t batch, in_channels, out_channels, groups;
  std::int64_t in[3];        // input spatial sizes
  std::int64_t kernel[3];    // kernel sizes
  std::int64_t dilation[3];  // dilations
  std::int64_t pad_lo[3];    // padding before each spatial dim (>= 0)
  std::int64_t pad_hi[3];    // padding after each spatial dim (>= 0)
  std::int64_t out[3];       // output spatial sizes (stride 1)
};

// Throws std::invalid_argument when the sizes do not describe a stride-1 convolution.
void check_conv_shape(const ConvShape& s);

// out (N, C_out, *out) = conv(x (N, C_in, *in), w (C_out, C_in/groups, *kernel)) + bias.
template <typename T>
void conv_forward(const ConvShape& s, const T* x, const T* w, const T* bias, T* out,
                  int threads);

// grad_w (C_out, C_in/groups, *kernel) = d(sum(grad_out * conv(x, w))) / dw.
template <typename T>
void conv_weight_grad(const ConvShape& s, const T* x, const T* grad_out, T* grad_w, int threads);

}  // namespace torch_core
