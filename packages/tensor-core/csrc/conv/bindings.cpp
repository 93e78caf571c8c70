// Python bindings of the convolution family (conv/conv.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/float_dispatch.h"
#include "common/gil.h"
#include "common/registry.h"
#include "conv/conv.h"

using torch_core::by_float_dtype;
using torch_core::same_dtype;

namespace py = pybind11;

namespace {

// x (N, C_in, D, H, W) and w (C_out, C_in / groups, kD, kH, kW), both C-contiguous of one
// float dtype: the 5-d shapes carry every size, so only padding and dilation are passed.

torch_core::ConvShape conv_shape(const py::array& x, const py::array& w, std::int64_t groups,
                                 const std::vector<std::int64_t>& dilation,
                                 const std::vector<std::int64_t>& pad_lo,
                                 const std::vector<std::int64_t>& pad_hi) {
  if (x.ndim() != 5 || w.ndim() != 5) {
    throw std::invalid_argument("convolution: input and weight must be 5-d");
  }
  if (dilation.size() != 3 || pad_lo.size() != 3 || pad_hi.size() != 3) {
    throw std::invalid_argument("convolution: dilation and padding need 3 values each");
  }
  namespace ck = torch_core::checks;
  const char* what = "convolution";
  torch_core::ConvShape s{};
  s.batch = x.shape(0);
  s.in_channels = x.shape(1);
  s.out_channels = w.shape(0);
  s.groups = groups;
  if (groups < 1 || ck::mul(w.shape(1), groups, what) != s.in_channels) {
    throw std::invalid_argument("convolution: weight channels (" + std::to_string(w.shape(1)) +
                                ") times groups (" + std::to_string(groups) +
                                ") must equal the input's (" + std::to_string(s.in_channels) +
                                ")");
  }
  for (int i = 0; i < 3; ++i) {
    s.in[i] = x.shape(2 + i);
    s.kernel[i] = w.shape(2 + i);
    s.dilation[i] = dilation[i];
    s.pad_lo[i] = pad_lo[i];
    s.pad_hi[i] = pad_hi[i];
    // checked: a dilation * (kernel - 1) that wrapped around gave a plausible output size
    // and the kernel then read far outside the input
    s.out[i] = ck::sub(ck::add(ck::add(s.in[i], pad_lo[i], what), pad_hi[i], what),
                       ck::mul(dilation[i], s.kernel[i] - 1, what), what);
  }
  torch_core::check_conv_shape(s);
  return s;
}

// The result's shape: (leading sizes) then the last spatial_dims of the three spatial
// sizes, which must leave out only sizes of 1 (a 1- or 2-d convolution seen as 3-d).
std::vector<py::ssize_t> result_shape(std::int64_t first, std::int64_t second,
                                      const std::int64_t (&spatial)[3], int spatial_dims) {
  if (spatial_dims < 1 || spatial_dims > 3) {
    throw std::invalid_argument("convolution: spatial_dims must be 1, 2 or 3");
  }
  std::vector<py::ssize_t> shape{first, second};
  for (int i = 0; i < 3; ++i) {
    if (i >= 3 - spatial_dims) {
      shape.push_back(spatial[i]);
    } else if (spatial[i] != 1) {
      throw std::invalid_argument("convolution: spatial_dims leaves out a size other than 1");
    }
  }
  return shape;
}

template <typename T>
py::array_t<T, py::array::c_style> conv_operand(const py::array& a, const char* what) {
  auto result = py::array_t<T, py::array::c_style>::ensure(a);
  if (!result || !same_dtype(py::dtype::of<T>(), a.dtype())) {
    throw py::type_error(std::string("convolution: ") + what +
                         " must be a C-contiguous array of the input's dtype");
  }
  return result;
}

template <typename T>
py::array conv_forward_typed(const py::array& x, const py::array& w, const py::object& bias,
                             const torch_core::ConvShape& s, int threads,
                             const std::vector<py::ssize_t>& shape) {
  auto xs = conv_operand<T>(x, "input");
  auto ws = conv_operand<T>(w, "weight");
  py::array_t<T, py::array::c_style> bs;
  const T* bias_data = nullptr;
  if (!bias.is_none()) {
    bs = conv_operand<T>(bias, "bias");
    if (bs.ndim() != 1 || bs.shape(0) != s.out_channels) {
      throw std::invalid_argument("convolution: bias must have one value per output channel");
    }
    bias_data = bs.data();
  }
  py::array_t<T> out(shape);
  const T* xd = xs.data();
  const T* wd = ws.data();
  T* od = out.mutable_data();
  if (s.batch == 0) return out;  // nothing to compute (the kernel would still plan buffers)
  {
    torch_core::GilRelease nogil;
    torch_core::conv_forward(s, xd, wd, bias_data, od, threads);
  }
  return out;
}

py::array conv_forward(const py::array& x, const py::array& w, const py::object& bias,
                       const std::vector<std::int64_t>& dilation,
                       const std::vector<std::int64_t>& pad_lo,
                       const std::vector<std::int64_t>& pad_hi, std::int64_t groups,
                       int threads, int spatial_dims) {
  const auto s = conv_shape(x, w, groups, dilation, pad_lo, pad_hi);
  const auto shape = result_shape(s.batch, s.out_channels, s.out, spatial_dims);
  threads = torch_core::checks::threads_or_default(threads);
  const char* refusal = "convolution: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return conv_forward_typed<decltype(tag)>(x, w, bias, s, threads, shape);
  });
}

template <typename T>
py::array conv_weight_grad_typed(const py::array& x, const py::array& grad_out,
                                 const torch_core::ConvShape& s,
                                 const std::vector<py::ssize_t>& weight_shape, int threads) {
  auto xs = conv_operand<T>(x, "input");
  auto gs = conv_operand<T>(grad_out, "output gradient");
  const std::vector<py::ssize_t> expected{s.batch, s.out_channels, s.out[0], s.out[1], s.out[2]};
  if (gs.ndim() != 5 || !std::equal(expected.begin(), expected.end(), gs.shape())) {
    throw std::invalid_argument("convolution: output gradient has the wrong shape");
  }
  py::array_t<T> grad_w(weight_shape);
  const T* xd = xs.data();
  const T* gd = gs.data();
  T* wd = grad_w.mutable_data();
  if (s.batch == 0) {  // no image: the gradient is zero (the kernel would still plan buffers)
    std::fill(wd, wd + grad_w.size(), T(0));
    return grad_w;
  }
  {
    torch_core::GilRelease nogil;
    torch_core::conv_weight_grad(s, xd, gd, wd, threads);
  }
  return grad_w;
}

py::array conv_weight_grad(const py::array& x, const py::array& grad_out, const py::array& w,
                           const std::vector<std::int64_t>& dilation,
                           const std::vector<std::int64_t>& pad_lo,
                           const std::vector<std::int64_t>& pad_hi, std::int64_t groups,
                           int threads, int spatial_dims) {
  const auto s = conv_shape(x, w, groups, dilation, pad_lo, pad_hi);
  const auto shape = result_shape(w.shape(0), w.shape(1), s.kernel, spatial_dims);
  threads = torch_core::checks::threads_or_default(threads);
  const char* refusal = "convolution: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return conv_weight_grad_typed<decltype(tag)>(x, grad_out, s, shape, threads);
  });
}

}  // namespace

void register_conv(py::module_& m) {
  m.def("conv_forward", &conv_forward, py::arg("input"), py::arg("weight"), py::arg("bias"),
        py::arg("dilation"), py::arg("pad_lo"), py::arg("pad_hi"), py::arg("groups"),
        py::arg("threads") = 0, py::arg("spatial_dims") = 3,
        "Stride-1 convolution of 5-d float arrays (N, C, D, H, W) with (C_out, C/groups, kD, kH, "
        "kW); the result keeps the last spatial_dims spatial sizes.");
  m.def("conv_weight_grad", &conv_weight_grad, py::arg("input"), py::arg("grad_output"),
        py::arg("weight"), py::arg("dilation"), py::arg("pad_lo"), py::arg("pad_hi"),
        py::arg("groups"), py::arg("threads") = 0, py::arg("spatial_dims") = 3,
        "Weight gradient of conv_forward (the weight gives the shape only; the result keeps "
        "its last spatial_dims kernel sizes).");
}
