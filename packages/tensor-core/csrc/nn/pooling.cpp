// Native pieces of torch.nn's hot training paths, pooling part: max pooling that remembers
// where each maximum was (and its backward), and relu's backward. Why native: NumPy needs
// a pass (and a temporary) per comparison, and these run once per kernel position; one
// loop here reads each element once. References: torch._ops.nn_fused (the NumPy versions, also used when
// TORCH_NATIVE=0).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/gil.h"
#include "common/parallel.h"
#include "common/registry.h"
#include "nn/arrays.h"
#include "nn/kernels.h"

using torch_core::same_dtype;
using namespace torch_core::nn;  // NOLINT: the family's own helpers

namespace py = pybind11;

namespace {

// Below this many output elements one thread does the work.
constexpr std::int64_t kParallelMinOutputs = 1 << 14;

// ------------------------------------------------------------------ max pooling

struct Pool2d {
  std::int64_t planes, height, width, out_h, out_w;
  std::int64_t kh, kw, sh, sw, ph, pw, dh, dw;
};

// The maximum of each window and its flat position in the unpadded plane. Positions are
// visited row-major over the kernel; a later value wins only when strictly greater or when
// it is NaN and the current maximum is not (the first NaN wins, as in PyTorch). A window
// whose first position lies in the padding starts from -inf at the clipped position.
// One output row: the window maxima of output row oy, kernel position by position.
// Within a position the columns whose input lies inside the plane form one interval, so
// the inner loop has no bounds checks and its loads are unconditional: the compiler turns
// the data-dependent choice into selects (branches here would mispredict half the time).
template <typename T>
TORCH_NN_INLINE void max_pool_row(const Pool2d& g, const T* plane, std::int64_t oy, T* best,
                                  std::int64_t* where, bool has_nan) {
  const std::int64_t y0 = oy * g.sh - g.ph;
  // the window's first position, possibly in the padding (-inf at the clipped position)
  const std::int64_t clipped_y = std::clamp<std::int64_t>(y0, 0, g.height - 1);
  for (std::int64_t ox = 0; ox < g.out_w; ++ox) {
    const std::int64_t x0 = ox * g.sw - g.pw;
    const bool inside = y0 >= 0 && y0 < g.height && x0 >= 0 && x0 < g.width;
    const std::int64_t at = clipped_y * g.width + std::clamp<std::int64_t>(x0, 0, g.width - 1);
    best[ox] = inside ? plane[at] : -std::numeric_limits<T>::infinity();
    where[ox] = at;
  }
  // Only kernel rows inside the plane, and kernel columns that reach a column of it for
  // some output, do anything: the loops skip the others arithmetically, so a huge kernel
  // over a small plane costs what the plane does (the validation bounds these products).
  const std::int64_t ky_begin = y0 >= 0 ? 0 : (-y0 + g.dh - 1) / g.dh;
  const std::int64_t ky_end = std::min(g.kh, g.height - y0 <= 0 ? 0 : (g.height - y0 + g.dh - 1) / g.dh);
  const std::int64_t reach_left = g.pw - (g.out_w - 1) * g.sw;  // kx * dw >= this
  const std::int64_t kx_begin = reach_left <= 0 ? 0 : (reach_left + g.dw - 1) / g.dw;
  const std::int64_t kx_end = std::min(g.kw, (g.width + g.pw + g.dw - 1) / g.dw);
  for (std::int64_t ky = ky_begin; ky < ky_end; ++ky) {
    const std::int64_t y = y0 + ky * g.dh;
    if (y < 0 || y >= g.height) continue;
    const T* line = plane + y * g.width;
    for (std::int64_t kx = std::max<std::int64_t>(kx_begin, ky == 0 ? 1 : 0); kx < kx_end; ++kx) {
      const std::int64_t shift = kx * g.dw - g.pw;  // input column = ox * sw + shift
      // columns with 0 <= ox * sw + shift < width
      const std::int64_t lo = shift >= 0 ? 0 : (-shift + g.sw - 1) / g.sw;
      const std::int64_t hi =
          g.width - shift <= 0 ? 0 : std::min(g.out_w, (g.width - shift + g.sw - 1) / g.sw);
      const std::int64_t base = y * g.width + shift;
      if (!has_nan) {
        // the first maximum wins; the index moves by arithmetic, not a jump
        for (std::int64_t ox = lo; ox < hi; ++ox) {
          const T value = line[ox * g.sw + shift];
          const T current = best[ox];
          const std::int64_t take = current < value;
          best[ox] = current < value ? value : current;
          where[ox] += take * (base + ox * g.sw - where[ox]);
        }
        continue;
      }
      for (std::int64_t ox = lo; ox < hi; ++ox) {
        const std::int64_t column = ox * g.sw + shift;
        const T value = line[column];
        const T current = best[ox];
        // the first maximum wins; a NaN wins once seen and stays
        const bool take = (value > current) | (!std::isnan(current) & std::isnan(value));
        best[ox] = take ? value : current;
        where[ox] = take ? y * g.width + column : where[ox];
      }
    }
  }
}

// The commonest pooling, 2x2 windows with stride 2 and no padding, on a plane without
// NaN: the four candidates of a window are compared in kernel order (the first maximum
// wins) with selects only, a loop the compiler vectorises.
inline void max_pool_2x2_plane(const float* plane, std::int64_t width, std::int64_t out_h,
                               std::int64_t out_w, float* best, std::int64_t* where) {
  TORCH_CORE_PICK_AVX2(max_pool_2x2_plane_f32)(plane, width, out_h, out_w, best, where);
}
inline void max_pool_2x2_plane(const double* plane, std::int64_t width, std::int64_t out_h,
                               std::int64_t out_w, double* best, std::int64_t* where) {
  TORCH_CORE_PICK_AVX2(max_pool_2x2_plane_f64)(plane, width, out_h, out_w, best, where);
}

template <typename T>
void max_pool2d_typed(const Pool2d& g, const T* x, T* values, std::int64_t* indices,
                      int threads) {
  const bool two_by_two = g.kh == 2 && g.kw == 2 && g.sh == 2 && g.sw == 2 && g.ph == 0 &&
                          g.pw == 0 && g.dh == 1 && g.dw == 1 && 2 * g.out_h <= g.height &&
                          2 * g.out_w <= g.width;
  const std::int64_t per_plane = g.out_h * g.out_w;
  const std::int64_t total = g.planes * per_plane;
  const int used = total < kParallelMinOutputs ? 1 : threads;
  torch_core::parallel_for(
      static_cast<std::size_t>(g.planes), used, [&](std::size_t p0, std::size_t p1, int) {
        for (std::size_t p = p0; p < p1; ++p) {
          const T* plane = x + static_cast<std::int64_t>(p) * g.height * g.width;
          // planes without NaN (nearly all) take the plain comparison
          bool has_nan = false;
          for (std::int64_t i = 0; i < g.height * g.width; ++i) has_nan |= plane[i] != plane[i];
          if (two_by_two && !has_nan) {
            const std::int64_t start = static_cast<std::int64_t>(p) * per_plane;
            max_pool_2x2_plane(plane, g.width, g.out_h, g.out_w, values + start, indices + start);
            continue;
          }
          for (std::int64_t oy = 0; oy < g.out_h; ++oy) {
            const std::int64_t row = static_cast<std::int64_t>(p) * per_plane + oy * g.out_w;
            max_pool_row(g, plane, oy, values + row, indices + row, has_nan);
          }
        }
      });
}

// x (planes, H, W) C-contiguous float; returns (values, indices) of shape
// (planes, out_h, out_w).
py::tuple max_pool2d_with_indices(const py::array& x, std::vector<std::int64_t> kernel,
                                  std::vector<std::int64_t> stride,
                                  std::vector<std::int64_t> padding,
                                  std::vector<std::int64_t> dilation, std::int64_t out_h,
                                  std::int64_t out_w, int threads) {
  if (x.ndim() != 3) throw std::invalid_argument("max_pool2d: input must be (planes, H, W)");
  if (kernel.size() != 2 || stride.size() != 2 || padding.size() != 2 || dilation.size() != 2) {
    throw std::invalid_argument("max_pool2d: kernel, stride, padding, dilation need 2 values");
  }
  Pool2d g{x.shape(0), x.shape(1),  x.shape(2),  out_h,       out_w,       kernel[0], kernel[1],
           stride[0],  stride[1],   padding[0],  padding[1],  dilation[0], dilation[1]};
  if (g.height < 1 || g.width < 1 || out_h < 0 || out_w < 0 || g.kh < 1 || g.kw < 1 ||
      g.sh < 1 || g.sw < 1 || g.ph < 0 || g.pw < 0 || g.dh < 1 || g.dw < 1) {
    throw std::invalid_argument("max_pool2d: sizes must be positive");
  }
  // Every window must start inside the padded plane, and every position the kernel
  // computes (window starts, their last positions, column bounds) must fit in int64: the
  // extent of the windows is computed with checked arithmetic once here.
  namespace ck = torch_core::checks;
  const char* what = "max_pool2d";
  for (const auto& [out, stride, pad, size, k, d] :
       {std::array<std::int64_t, 6>{out_h, g.sh, g.ph, g.height, g.kh, g.dh},
        std::array<std::int64_t, 6>{out_w, g.sw, g.pw, g.width, g.kw, g.dw}}) {
    const std::int64_t last_start = ck::mul(out > 0 ? out - 1 : 0, stride, what);
    if (last_start - pad >= ck::add(size, pad, what)) {
      throw std::invalid_argument("max_pool2d: output size " + std::to_string(out) +
                                  " is larger than the padded input (" + std::to_string(size) +
                                  " + 2 * " + std::to_string(pad) + ") allows");
    }
    const std::int64_t reach = ck::add(last_start, ck::mul(k - 1, d, what), what);
    ck::add(ck::add(reach, ck::add(size, pad, what), what), ck::add(stride, pad, what), what);
    ck::add(ck::add(ck::add(size, pad, what), d, what), stride, what);
  }
  threads = torch_core::checks::threads_or_default(threads);
  py::array values(x.dtype(), {g.planes, out_h, out_w});
  py::array_t<std::int64_t> indices({g.planes, out_h, out_w});
  std::int64_t* index_data = indices.mutable_data();
  if (same_dtype(x.dtype(), py::dtype::of<float>())) {
    run_kernel(x.size(), max_pool2d_typed<float>, g, input_data<float>(x, "max_pool2d"),
                            output_data<float>(values, "max_pool2d"), index_data, threads);
  } else if (same_dtype(x.dtype(), py::dtype::of<double>())) {
    run_kernel(x.size(), max_pool2d_typed<double>, g, input_data<double>(x, "max_pool2d"),
                             output_data<double>(values, "max_pool2d"), index_data, threads);
  } else {
    throw py::type_error("max_pool2d: input must be float32 or float64");
  }
  return py::make_tuple(values, indices);
}

// grad (planes, n) and indices (planes, n) -> (planes, plane_size): each gradient added at
// its maximum's position within its plane.
template <typename T>
void max_pool_backward_typed(const T* grad, const std::int64_t* indices, T* out,
                             std::int64_t planes, std::int64_t n, std::int64_t plane_size,
                             int threads) {
  for (std::int64_t i = 0; i < planes * n; ++i) {
    if (indices[i] < 0 || indices[i] >= plane_size) {
      throw std::out_of_range("max_pool backward: index " + std::to_string(indices[i]) +
                              " is out of bounds for a plane of " + std::to_string(plane_size));
    }
  }
  const int used = planes * n < kParallelMinOutputs ? 1 : threads;
  torch_core::parallel_for(
      static_cast<std::size_t>(planes), used, [&](std::size_t p0, std::size_t p1, int) {
        for (std::size_t p = p0; p < p1; ++p) {
          T* target = out + static_cast<std::int64_t>(p) * plane_size;
          std::fill(target, target + plane_size, T(0));
          const T* g = grad + static_cast<std::int64_t>(p) * n;
          const std::int64_t* at = indices + static_cast<std::int64_t>(p) * n;
          for (std::int64_t i = 0; i < n; ++i) target[at[i]] += g[i];
        }
      });
}

py::array max_pool_backward(const py::array& grad, const py::array_t<std::int64_t>& indices,
                            std::int64_t planes, std::int64_t plane_size, int threads) {
  if (planes < 0 || plane_size < 0 || grad.size() != indices.size() ||
      (planes > 0 && grad.size() % planes != 0) || (planes == 0 && grad.size() != 0)) {
    throw std::invalid_argument("max_pool backward: gradient and indices do not match");
  }
  if (!(indices.flags() & py::array::c_style)) {
    throw std::invalid_argument("max_pool backward: indices must be C-contiguous");
  }
  threads = torch_core::checks::threads_or_default(threads);
  const std::int64_t n = planes > 0 ? grad.size() / planes : 0;
  py::array out(grad.dtype(), {planes, plane_size});
  // nothing to write: without this, 2**48 empty planes took the kernel days to walk
  if (out.size() == 0 && grad.size() == 0) return out;
  if (same_dtype(grad.dtype(), py::dtype::of<float>())) {
    run_kernel(grad.size(), max_pool_backward_typed<float>, input_data<float>(grad, "max_pool backward"), indices.data(),
                                   output_data<float>(out, "max_pool backward"), planes, n,
                                   plane_size, threads);
  } else if (same_dtype(grad.dtype(), py::dtype::of<double>())) {
    run_kernel(grad.size(), max_pool_backward_typed<double>, input_data<double>(grad, "max_pool backward"),
                                    indices.data(), output_data<double>(out, "max_pool backward"),
                                    planes, n, plane_size, threads);
  } else {
    throw py::type_error("max_pool backward: gradient must be float32 or float64");
  }
  return out;
}

// ------------------------------------------------------------------------- relu

template <typename T>
void relu_backward_typed(const T* grad, const T* result, T* out, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    const T g = grad[i], r = result[i];  // both loaded: the select vectorises
    out[i] = r > T(0) ? g : T(0);
  }
}

// grad where the relu's result is positive, else 0 (also where grad is NaN or inf).
py::array relu_backward(const py::array& grad, const py::array& result) {
  const char* what = "relu_backward";
  check_size(result, grad.size(), what);
  py::array out(grad.dtype(), std::vector<py::ssize_t>(grad.shape(), grad.shape() + grad.ndim()));
  if (same_dtype(grad.dtype(), py::dtype::of<float>())) {
    run_kernel(grad.size(), relu_backward_typed<float>, input_data<float>(grad, what), input_data<float>(result, what),
                               output_data<float>(out, what), grad.size());
  } else if (same_dtype(grad.dtype(), py::dtype::of<double>())) {
    run_kernel(grad.size(), relu_backward_typed<double>, input_data<double>(grad, what), input_data<double>(result, what),
                                output_data<double>(out, what), grad.size());
  } else {
    throw py::type_error("relu_backward: arrays must be float32 or float64");
  }
  return out;
}

}  // namespace

void register_nn_pooling(py::module_& m) {
  m.def("max_pool2d_with_indices", &max_pool2d_with_indices, py::arg("input"), py::arg("kernel"),
        py::arg("stride"), py::arg("padding"), py::arg("dilation"), py::arg("out_h"),
        py::arg("out_w"), py::arg("threads") = 0,
        "Max pooling of (planes, H, W) float planes: (values, flat indices in each plane).");
  m.def("max_pool_backward", &max_pool_backward, py::arg("grad"), py::arg("indices"),
        py::arg("planes"), py::arg("plane_size"), py::arg("threads") = 0,
        "Gradients added at their maxima's flat positions: (planes, plane_size).");
  m.def("relu_backward", &relu_backward, py::arg("grad"), py::arg("result"),
        "grad where result > 0, else 0 (C-contiguous float arrays of one dtype and size).");
}
