// The row kernels of the norm family, compiled per instruction-set tier (norm/kernels.inc,
// common/isa.h): layer normalisation forward and backward over the last dim of a
// (rows, cols) array, softmax and log-softmax backward over rows, relu, and batch
// normalisation of an (N, C, plane) array per channel. Each works on
// a range of rows (or elements, or channels) so that norm/bindings.cpp can split the work over
// threads; the bindings check every array before these see a pointer.
#pragma once

#include <cstdint>

#include "common/isa.h"

namespace torch_core {
namespace norm {

#define TORCH_CORE_DECLARE_NORM(tier)                                                       \
  namespace tier {                                                                          \
  template <typename T>                                                                     \
  void layer_norm_rows(const T* x, const T* weight, const T* bias, T* out, T* mean, T* rstd, \
                       std::int64_t cols, double eps, std::int64_t begin, std::int64_t end); \
  template <typename T>                                                                     \
  void layer_norm_input_grad_rows(const T* grad, const T* x, const T* mean, const T* rstd,  \
                                  const T* weight, T* grad_x, std::int64_t cols,            \
                                  std::int64_t begin, std::int64_t end);                    \
  template <typename T>                                                                     \
  void layer_norm_param_grad_rows(const T* grad, const T* x, const T* mean, const T* rstd,  \
                                  double* grad_w, double* grad_b, std::int64_t cols,        \
                                  std::int64_t begin, std::int64_t end);                    \
  template <typename T>                                                                     \
  void softmax_backward_rows(const T* grad, const T* y, T* out, std::int64_t cols, bool log, \
                             std::int64_t begin, std::int64_t end);                         \
  template <typename T>                                                                     \
  void softmax_shift_rows(const T* x, T* out, T* row_max, std::int64_t cols,                \
                          std::int64_t begin, std::int64_t end);                            \
  template <typename T>                                                                     \
  void softmax_finish_rows(T* out, std::int64_t cols, bool log, std::int64_t begin,         \
                           std::int64_t end);                                               \
  template <typename T>                                                                     \
  void relu_range(const T* x, T* out, std::int64_t begin, std::int64_t end);                \
  template <typename T>                                                                     \
  void batch_norm_stats_channels(const T* x, std::int64_t batch, std::int64_t channels,     \
                                 std::int64_t plane, double* mean, double* var,             \
                                 std::int64_t begin, std::int64_t end);                     \
  template <typename T>                                                                     \
  void batch_norm_apply_planes(const T* x, const T* scale, const T* shift, T* out,          \
                               std::int64_t channels, std::int64_t plane, std::int64_t begin, \
                               std::int64_t end);                                           \
  template <typename T>                                                                     \
  void batch_norm_backward_channels(const T* grad, const T* x, const T* mean,               \
                                    const T* invstd, const T* weight, T* grad_x,            \
                                    double* sum_g, double* sum_gx, std::int64_t batch,      \
                                    std::int64_t channels, std::int64_t plane,              \
                                    std::int64_t begin, std::int64_t end);                  \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_NORM)
#undef TORCH_CORE_DECLARE_NORM

}  // namespace norm
}  // namespace torch_core
