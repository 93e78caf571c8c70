// Native pieces of torch.nn's hot training paths: max pooling that remembers where each
// maximum was (and its backward), and the pointwise part of one LSTM step (forward and
// backward). Why native: NumPy needs a pass (and a temporary) per comparison or gate
// formula, and these run once per kernel position or per time step; one loop here reads
// each element once. References: torch._ops.nn_fused (the NumPy versions, also used when
// TORCH_NATIVE=0).
#include <dlfcn.h>
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

#include "checks.h"
#include "gil.h"
#include "parallel.h"
#include "vecmath.h"

using torch_core::same_dtype;

namespace py = pybind11;

namespace {

// Below this many output elements one thread does the work.
constexpr std::int64_t kParallelMinOutputs = 1 << 14;

// The LSTM loops are compiled per instruction set and picked at load time (as vecmath's).
#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TORCH_NN_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#define TORCH_NN_INLINE inline __attribute__((always_inline))
#else
#define TORCH_NN_CLONES
#define TORCH_NN_INLINE inline
#endif

template <typename T>
const T* input_data(const py::array& a, const char* what) {
  if (!same_dtype(py::dtype::of<T>(), a.dtype())) {
    throw py::type_error(std::string(what) + ": arrays must share one float dtype");
  }
  if (!(a.flags() & py::array::c_style)) {
    throw std::invalid_argument(std::string(what) + ": arrays must be C-contiguous");
  }
  return static_cast<const T*>(a.data());
}

template <typename T>
T* output_data(py::array& a, const char* what) {
  if (!a.writeable()) throw std::invalid_argument(std::string(what) + ": output is read-only");
  return const_cast<T*>(input_data<T>(a, what));
}

// Runs kernel(args...) without the GIL when it touches at least kReleaseFrom elements
// (below that, releasing and taking back the GIL costs more than the other thread gains).
// The arguments are evaluated, and checked, before: the kernel sees raw pointers only.
constexpr std::int64_t kReleaseFrom = 1 << 12;

template <typename F, typename... Args>
void run_kernel(std::int64_t elements, F&& kernel, Args... args) {
  if (elements < kReleaseFrom) {
    kernel(args...);
    return;
  }
  torch_core::GilRelease nogil;
  kernel(args...);
}

// An optional bias (None: absent) must be an array: a TypeError for anything else.
py::array optional_array(const py::object& obj, const char* what, const char* name) {
  if (obj.is_none()) return py::array();
  return torch_core::checks::array_arg(obj, what, name);
}

void check_size(const py::array& a, std::int64_t expected, const char* what) {
  if (a.size() != expected) {
    throw std::invalid_argument(std::string(what) + ": expected " + std::to_string(expected) +
                                " elements, got " + std::to_string(a.size()));
  }
}

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
template <typename T>
TORCH_NN_INLINE void max_pool_2x2_row(const T* plane, std::int64_t width, std::int64_t oy,
                                      std::int64_t out_w, T* best, std::int64_t* where) {
  const T* top = plane + 2 * oy * width;
  const T* bottom = top + width;
  const std::int64_t base = 2 * oy * width;
  for (std::int64_t ox = 0; ox < out_w; ++ox) {
    const T a = top[2 * ox], b = top[2 * ox + 1], c = bottom[2 * ox], d = bottom[2 * ox + 1];
    const std::int64_t at = base + 2 * ox;
    T value = a;
    std::int64_t index = at;
    index = b > value ? at + 1 : index;
    value = b > value ? b : value;
    index = c > value ? at + width : index;
    value = c > value ? c : value;
    index = d > value ? at + width + 1 : index;
    value = d > value ? d : value;
    best[ox] = value;
    where[ox] = index;
  }
}

TORCH_NN_CLONES void max_pool_2x2_plane_f32(const float* plane, std::int64_t width,
                                            std::int64_t out_h, std::int64_t out_w,
                                            float* best, std::int64_t* where) {
  for (std::int64_t oy = 0; oy < out_h; ++oy) {
    max_pool_2x2_row(plane, width, oy, out_w, best + oy * out_w, where + oy * out_w);
  }
}
TORCH_NN_CLONES void max_pool_2x2_plane_f64(const double* plane, std::int64_t width,
                                            std::int64_t out_h, std::int64_t out_w,
                                            double* best, std::int64_t* where) {
  for (std::int64_t oy = 0; oy < out_h; ++oy) {
    max_pool_2x2_row(plane, width, oy, out_w, best + oy * out_w, where + oy * out_w);
  }
}
inline void max_pool_2x2_plane(const float* plane, std::int64_t width, std::int64_t out_h,
                               std::int64_t out_w, float* best, std::int64_t* where) {
  max_pool_2x2_plane_f32(plane, width, out_h, out_w, best, where);
}
inline void max_pool_2x2_plane(const double* plane, std::int64_t width, std::int64_t out_h,
                               std::int64_t out_w, double* best, std::int64_t* where) {
  max_pool_2x2_plane_f64(plane, width, out_h, out_w, best, where);
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

// ------------------------------------------------------------------- LSTM step
// Gates are laid out per row as [input, forget, cell, output] blocks of `hidden` columns,
// PyTorch's order.

// tanh(x) from e = exp(-2|x|): (1 - e) / (1 + e) with x's sign, and a short odd
// polynomial near 0 where 1 - e would cancel (its error there is below 1e-12 relative).
// Both are computed and blended arithmetically (no select: the loop vectorises without
// -fno-trapping-math); the polynomial's argument is clamped so that it stays finite.
constexpr double kTanhSeries = 0.0625;

template <typename T>
TORCH_NN_INLINE T tanh_from_exp(T x, T e) {
  const T small = std::min(std::max(x, T(-kTanhSeries)), T(kTanhSeries));
  const T s2 = small * small;
  const T poly =
      small * (T(1) + s2 * (T(-1.0 / 3) + s2 * (T(2.0 / 15) + s2 * T(-17.0 / 315))));
  const T far = std::copysign((T(1) - e) / (T(1) + e), x);
  const T near = static_cast<T>(std::fabs(x) < T(kTanhSeries));
  return near * poly + (T(1) - near) * far;
}

// z (batch, 4 * hidden): pre-activations in, activated gates out (sigmoid, sigmoid, tanh,
// sigmoid). c = f * c_prev + i * g, tanh_c = tanh(c), h = o * tanh_c. The exponentials
// go through the vectorised exp in the arrays' precision; scratch holds
// (batch * 5 * hidden) values.
template <typename T>
TORCH_NN_INLINE void lstm_forward_typed(T* z, const T* c_prev, T* c, T* h, T* tanh_c,
                                        std::int64_t batch, std::int64_t hidden, T* scratch) {
  const std::int64_t gates = 4 * hidden;
  const std::int64_t n = batch * gates;
  T* e = scratch;
  // exponents per gate block, branch-free so the loops vectorise
  for (std::int64_t r = 0; r < batch; ++r) {
    const T* row = z + r * gates;
    T* out = e + r * gates;
    for (std::int64_t k = 0; k < 2 * hidden; ++k) out[k] = -row[k];
    for (std::int64_t k = 2 * hidden; k < 3 * hidden; ++k) out[k] = T(-2) * std::fabs(row[k]);
    for (std::int64_t k = 3 * hidden; k < gates; ++k) out[k] = -row[k];
  }
  torch_core::exp<T>(e, e, static_cast<std::size_t>(n), 1);
  for (std::int64_t r = 0; r < batch; ++r) {
    T* row = z + r * gates;
    const T* ex = e + r * gates;
    for (std::int64_t k = 0; k < 2 * hidden; ++k) row[k] = T(1) / (T(1) + ex[k]);
    for (std::int64_t k = 2 * hidden; k < 3 * hidden; ++k) row[k] = tanh_from_exp(row[k], ex[k]);
    for (std::int64_t k = 3 * hidden; k < gates; ++k) row[k] = T(1) / (T(1) + ex[k]);
  }
  T* ec = e + n;
  for (std::int64_t r = 0; r < batch; ++r) {
    const T* row = z + r * gates;
    for (std::int64_t k = 0; k < hidden; ++k) {
      const std::int64_t at = r * hidden + k;
      const T next = row[hidden + k] * c_prev[at] + row[k] * row[2 * hidden + k];
      c[at] = next;
      ec[at] = T(-2) * std::fabs(next);
    }
  }
  torch_core::exp<T>(ec, ec, static_cast<std::size_t>(batch * hidden), 1);
  for (std::int64_t r = 0; r < batch; ++r) {
    const T* row = z + r * gates;
    for (std::int64_t k = 0; k < hidden; ++k) {
      const std::int64_t at = r * hidden + k;
      const T tc = tanh_from_exp(c[at], ec[at]);
      tanh_c[at] = tc;
      h[at] = row[3 * hidden + k] * tc;
    }
  }
}

// Backward of one step: from the activated gates, c_prev and tanh(c), the gradients dh of
// h and dc of c (dc is overwritten with the gradient of c_prev) give dz, the gradient of
// the pre-activations.
template <typename T>
TORCH_NN_INLINE void lstm_backward_typed(const T* z, const T* c_prev, const T* tanh_c, const T* dh, T* dc,
                         T* dz, std::int64_t batch, std::int64_t hidden) {
  const std::int64_t gates = 4 * hidden;
  for (std::int64_t r = 0; r < batch; ++r) {
    const T* row = z + r * gates;
    T* drow = dz + r * gates;
    for (std::int64_t k = 0; k < hidden; ++k) {
      const std::int64_t at = r * hidden + k;
      const T i = row[k], f = row[hidden + k], g = row[2 * hidden + k], o = row[3 * hidden + k];
      const T tc = tanh_c[at];
      const T dct = dc[at] + dh[at] * o * (T(1) - tc * tc);
      drow[k] = dct * g * i * (T(1) - i);
      drow[hidden + k] = dct * c_prev[at] * f * (T(1) - f);
      drow[2 * hidden + k] = dct * i * (T(1) - g * g);
      drow[3 * hidden + k] = dh[at] * tc * o * (T(1) - o);
      dc[at] = dct * f;
    }
  }
}

// out (rows, n) += a (rows, k) @ b (k, n), all row-major. Blocks of two rows by kBlock
// columns accumulate in registers over the whole k (each row of b loaded once per block
// and used twice), then are added to out; the innermost loops run over contiguous
// columns and vectorise.
constexpr std::int64_t kBlock = 32;

template <typename T>
TORCH_NN_INLINE void add_rows_times(const T* a, const T* b, T* out, std::int64_t rows,
                                    std::int64_t k, std::int64_t n) {
  std::int64_t r = 0;
  for (; r + 1 < rows; r += 2) {
    const T* a0 = a + r * k;
    const T* a1 = a0 + k;
    std::int64_t c = 0;
    for (; c + kBlock <= n; c += kBlock) {
      T acc0[kBlock] = {}, acc1[kBlock] = {};
      for (std::int64_t j = 0; j < k; ++j) {
        const T s0 = a0[j], s1 = a1[j];
        const T* row = b + j * n + c;
        for (std::int64_t i = 0; i < kBlock; ++i) {
          acc0[i] += s0 * row[i];
          acc1[i] += s1 * row[i];
        }
      }
      T* o0 = out + r * n + c;
      T* o1 = o0 + n;
      for (std::int64_t i = 0; i < kBlock; ++i) {
        o0[i] += acc0[i];
        o1[i] += acc1[i];
      }
    }
    for (; c < n; ++c) {
      T acc0 = 0, acc1 = 0;
      for (std::int64_t j = 0; j < k; ++j) {
        acc0 += a0[j] * b[j * n + c];
        acc1 += a1[j] * b[j * n + c];
      }
      out[r * n + c] += acc0;
      out[(r + 1) * n + c] += acc1;
    }
  }
  for (; r < rows; ++r) {  // an odd last row
    T* o = out + r * n;
    for (std::int64_t j = 0; j < k; ++j) {
      const T scale = a[r * k + j];
      const T* row = b + j * n;
      for (std::int64_t i = 0; i < n; ++i) o[i] += scale * row[i];
    }
  }
}

// The per-step products of the LSTM loops can go to the CBLAS library that blas.cpp loaded
// (MKL: about 3x faster than the loop above on these small shapes); nn_use_blas looks its
// gemm functions up in that same library (dlopen of a loaded library returns its handle).
using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                         int, float, float*, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double*, int,
                         const double*, int, double, double*, int);
struct StepBlas {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
};
StepBlas step_blas;

bool nn_use_blas(const std::string& path) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) return false;
  auto sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "cblas_sgemm"));
  auto dgemm = reinterpret_cast<DgemmFn>(dlsym(handle, "cblas_dgemm"));
  if (!sgemm || !dgemm) return false;
  step_blas.sgemm = sgemm;
  step_blas.dgemm = dgemm;
  return true;
}

// out (rows, n) += a (rows, k) @ b (k, n), row-major, through the library when there is one.
constexpr int kRowMajor = 101, kNoTrans = 111;

TORCH_NN_INLINE void add_product(const float* a, const float* b, float* out, std::int64_t rows,
                                 std::int64_t k, std::int64_t n) {
  if (step_blas.sgemm && rows < INT32_MAX && k < INT32_MAX && n < INT32_MAX) {
    step_blas.sgemm(kRowMajor, kNoTrans, kNoTrans, int(rows), int(n), int(k), 1.0f, a, int(k), b,
                    int(n), 1.0f, out, int(n));
    return;
  }
  add_rows_times(a, b, out, rows, k, n);
}

TORCH_NN_INLINE void add_product(const double* a, const double* b, double* out,
                                 std::int64_t rows, std::int64_t k, std::int64_t n) {
  if (step_blas.dgemm && rows < INT32_MAX && k < INT32_MAX && n < INT32_MAX) {
    step_blas.dgemm(kRowMajor, kNoTrans, kNoTrans, int(rows), int(n), int(k), 1.0, a, int(k), b,
                    int(n), 1.0, out, int(n));
    return;
  }
  add_rows_times(a, b, out, rows, k, n);
}

// The time loop of one LSTM layer: z_t = b_hh + h_(t-1) W_hh^T, then + the input's
// projection (which holds x_t W_ih^T + b_ih), then the pointwise step. hs and cs hold the
// initial state in row 0 and receive every later one.
template <typename T>
TORCH_NN_INLINE void lstm_layer_forward_typed(const T* projected, const T* w_hh_t, const T* b_hh,
                                              T* hs, T* cs, T* gates, T* tanh_cs,
                                              std::int64_t steps, std::int64_t batch,
                                              std::int64_t hidden) {
  const std::int64_t width = 4 * hidden, state = batch * hidden;
  std::vector<T> scratch(static_cast<std::size_t>(batch * 5 * hidden));
  for (std::int64_t t = 0; t < steps; ++t) {
    T* z = gates + t * batch * width;
    for (std::int64_t r = 0; r < batch; ++r) {
      for (std::int64_t i = 0; i < width; ++i) z[r * width + i] = b_hh ? b_hh[i] : T(0);
    }
    add_product(hs + t * state, w_hh_t, z, batch, hidden, width);
    const T* p = projected + t * batch * width;
    for (std::int64_t i = 0; i < batch * width; ++i) z[i] = p[i] + z[i];
    lstm_forward_typed(z, cs + t * state, cs + (t + 1) * state, hs + (t + 1) * state,
                       tanh_cs + t * state, batch, hidden, scratch.data());
  }
}

// Back through time: grad (T + 1, B, H) holds the gradient of each step's h and, in its
// last row, of the final c. Writes dz (T, B, 4H) and the gradients of h0 and c0.
template <typename T>
TORCH_NN_INLINE void lstm_layer_backward_typed(const T* grad, const T* gates, const T* cs,
                                               const T* tanh_cs, const T* w_hh, T* dz, T* dh0,
                                               T* dc0, std::int64_t steps, std::int64_t batch,
                                               std::int64_t hidden) {
  const std::int64_t width = 4 * hidden, state = batch * hidden;
  std::vector<T> dh(static_cast<std::size_t>(state));
  std::fill(dh0, dh0 + state, T(0));  // dh0 carries the gradient from the later step
  std::copy(grad + steps * state, grad + (steps + 1) * state, dc0);  // dc0 carries dc
  for (std::int64_t t = steps - 1; t >= 0; --t) {
    const T* g = grad + t * state;
    for (std::int64_t i = 0; i < state; ++i) dh[i] = g[i] + dh0[i];
    T* dzt = dz + t * batch * width;
    lstm_backward_typed(gates + t * batch * width, cs + t * state, tanh_cs + t * state,
                        dh.data(), dc0, dzt, batch, hidden);
    std::fill(dh0, dh0 + state, T(0));
    add_product(dzt, w_hh, dh0, batch, width, hidden);
  }
}

TORCH_NN_CLONES void lstm_cell_forward_f32(float* z, const float* c_prev, float* c, float* h,
                                           float* tanh_c, std::int64_t batch,
                                           std::int64_t hidden) {
  std::vector<float> scratch(static_cast<std::size_t>(batch * 5 * hidden));
  lstm_forward_typed(z, c_prev, c, h, tanh_c, batch, hidden, scratch.data());
}
TORCH_NN_CLONES void lstm_cell_forward_f64(double* z, const double* c_prev, double* c, double* h,
                                           double* tanh_c, std::int64_t batch,
                                           std::int64_t hidden) {
  std::vector<double> scratch(static_cast<std::size_t>(batch * 5 * hidden));
  lstm_forward_typed(z, c_prev, c, h, tanh_c, batch, hidden, scratch.data());
}
TORCH_NN_CLONES void lstm_cell_backward_f32(const float* z, const float* c_prev,
                                            const float* tanh_c, const float* dh, float* dc,
                                            float* dz, std::int64_t batch, std::int64_t hidden) {
  lstm_backward_typed(z, c_prev, tanh_c, dh, dc, dz, batch, hidden);
}
TORCH_NN_CLONES void lstm_cell_backward_f64(const double* z, const double* c_prev,
                                            const double* tanh_c, const double* dh, double* dc,
                                            double* dz, std::int64_t batch, std::int64_t hidden) {
  lstm_backward_typed(z, c_prev, tanh_c, dh, dc, dz, batch, hidden);
}
TORCH_NN_CLONES void lstm_layer_forward_f32(const float* projected, const float* w_hh_t,
                                            const float* b_hh, float* hs, float* cs,
                                            float* gates, float* tanh_cs, std::int64_t steps,
                                            std::int64_t batch, std::int64_t hidden) {
  lstm_layer_forward_typed(projected, w_hh_t, b_hh, hs, cs, gates, tanh_cs, steps, batch, hidden);
}
TORCH_NN_CLONES void lstm_layer_forward_f64(const double* projected, const double* w_hh_t,
                                            const double* b_hh, double* hs, double* cs,
                                            double* gates, double* tanh_cs, std::int64_t steps,
                                            std::int64_t batch, std::int64_t hidden) {
  lstm_layer_forward_typed(projected, w_hh_t, b_hh, hs, cs, gates, tanh_cs, steps, batch, hidden);
}
TORCH_NN_CLONES void lstm_layer_backward_f32(const float* grad, const float* gates,
                                             const float* cs, const float* tanh_cs,
                                             const float* w_hh, float* dz, float* dh0,
                                             float* dc0, std::int64_t steps, std::int64_t batch,
                                             std::int64_t hidden) {
  lstm_layer_backward_typed(grad, gates, cs, tanh_cs, w_hh, dz, dh0, dc0, steps, batch, hidden);
}
TORCH_NN_CLONES void lstm_layer_backward_f64(const double* grad, const double* gates,
                                             const double* cs, const double* tanh_cs,
                                             const double* w_hh, double* dz, double* dh0,
                                             double* dc0, std::int64_t steps,
                                             std::int64_t batch, std::int64_t hidden) {
  lstm_layer_backward_typed(grad, gates, cs, tanh_cs, w_hh, dz, dh0, dc0, steps, batch, hidden);
}

void lstm_cell_forward(py::array& z, const py::array& c_prev, py::array& c, py::array& h,
                       py::array& tanh_c) {
  if (z.ndim() != 2 || z.shape(1) % 4 != 0) {
    throw std::invalid_argument("lstm_cell_forward: gates must be (batch, 4 * hidden)");
  }
  const std::int64_t batch = z.shape(0), hidden = z.shape(1) / 4;
  for (const py::array* a : {&c_prev, static_cast<const py::array*>(&c),
                             static_cast<const py::array*>(&h),
                             static_cast<const py::array*>(&tanh_c)}) {
    check_size(*a, batch * hidden, "lstm_cell_forward");
  }
  const char* what = "lstm_cell_forward";
  if (same_dtype(z.dtype(), py::dtype::of<float>())) {
    run_kernel(z.size(), lstm_cell_forward_f32, output_data<float>(z, what), input_data<float>(c_prev, what),
                          output_data<float>(c, what), output_data<float>(h, what),
                          output_data<float>(tanh_c, what), batch, hidden);
  } else if (same_dtype(z.dtype(), py::dtype::of<double>())) {
    run_kernel(z.size(), lstm_cell_forward_f64, output_data<double>(z, what), input_data<double>(c_prev, what),
                          output_data<double>(c, what), output_data<double>(h, what),
                          output_data<double>(tanh_c, what), batch, hidden);
  } else {
    throw py::type_error("lstm_cell_forward: arrays must be float32 or float64");
  }
}

void lstm_cell_backward(const py::array& z, const py::array& c_prev, const py::array& tanh_c,
                        const py::array& dh, py::array& dc, py::array& dz) {
  if (z.ndim() != 2 || z.shape(1) % 4 != 0) {
    throw std::invalid_argument("lstm_cell_backward: gates must be (batch, 4 * hidden)");
  }
  const std::int64_t batch = z.shape(0), hidden = z.shape(1) / 4;
  for (const py::array* a : {&c_prev, &tanh_c, &dh, static_cast<const py::array*>(&dc)}) {
    check_size(*a, batch * hidden, "lstm_cell_backward");
  }
  check_size(dz, batch * 4 * hidden, "lstm_cell_backward");
  const char* what = "lstm_cell_backward";
  if (same_dtype(z.dtype(), py::dtype::of<float>())) {
    run_kernel(dz.size(), lstm_cell_backward_f32, input_data<float>(z, what), input_data<float>(c_prev, what),
                               input_data<float>(tanh_c, what), input_data<float>(dh, what),
                               output_data<float>(dc, what), output_data<float>(dz, what), batch,
                               hidden);
  } else if (same_dtype(z.dtype(), py::dtype::of<double>())) {
    run_kernel(dz.size(), lstm_cell_backward_f64, input_data<double>(z, what), input_data<double>(c_prev, what),
                                input_data<double>(tanh_c, what), input_data<double>(dh, what),
                                output_data<double>(dc, what), output_data<double>(dz, what),
                                batch, hidden);
  } else {
    throw py::type_error("lstm_cell_backward: arrays must be float32 or float64");
  }
}

// ------------------------------------------------------------------- GRU layer
// Gates per row as [reset, update, new] blocks of `hidden` columns, PyTorch's order:
// r = sigmoid(x_r + h_r), z = sigmoid(x_z + h_z), n = tanh(x_n + r * h_n),
// h' = (1 - z) * n + z * h, where x_* hold x W_ih^T + b_ih and h_* hold h W_hh^T + b_hh.

// The time loop: hs (T + 1, B, H) holds h0 in row 0 and receives every later state;
// gates (T, B, 3H) receive r, z, n and hn (T, B, H) the h_n part of h W_hh^T + b_hh.
template <typename T>
TORCH_NN_INLINE void gru_layer_forward_typed(const T* projected, const T* w_hh_t, const T* b_hh,
                                             T* hs, T* gates, T* hn, std::int64_t steps,
                                             std::int64_t batch, std::int64_t hidden,
                                             T* scratch) {
  const std::int64_t width = 3 * hidden, state = batch * hidden;
  T* gh = scratch;                  // (B, 3H): h W_hh^T + b_hh
  T* e = scratch + batch * width;  // (B, 3H): exponentials
  for (std::int64_t t = 0; t < steps; ++t) {
    for (std::int64_t r = 0; r < batch; ++r) {
      for (std::int64_t i = 0; i < width; ++i) gh[r * width + i] = b_hh ? b_hh[i] : T(0);
    }
    const T* h = hs + t * state;
    add_product(h, w_hh_t, gh, batch, hidden, width);
    const T* x = projected + t * batch * width;
    T* g = gates + t * batch * width;
    for (std::int64_t r = 0; r < batch; ++r) {
      for (std::int64_t k = 0; k < 2 * hidden; ++k) {
        e[r * width + k] = -(x[r * width + k] + gh[r * width + k]);
      }
    }
    torch_core::exp<T>(e, e, static_cast<std::size_t>(batch * width), 1);
    for (std::int64_t r = 0; r < batch; ++r) {
      for (std::int64_t k = 0; k < 2 * hidden; ++k) {
        g[r * width + k] = T(1) / (T(1) + e[r * width + k]);
      }
      for (std::int64_t k = 0; k < hidden; ++k) {
        const T h_n = gh[r * width + 2 * hidden + k];
        hn[t * state + r * hidden + k] = h_n;
        const T pre = x[r * width + 2 * hidden + k] + g[r * width + k] * h_n;
        g[r * width + 2 * hidden + k] = pre;
        e[r * width + 2 * hidden + k] = T(-2) * std::fabs(pre);
      }
    }
    for (std::int64_t r = 0; r < batch; ++r) {
      T* ex = e + r * width + 2 * hidden;
      torch_core::exp<T>(ex, ex, static_cast<std::size_t>(hidden), 1);
    }
    T* next = hs + (t + 1) * state;
    for (std::int64_t r = 0; r < batch; ++r) {
      T* row = g + r * width;
      for (std::int64_t k = 0; k < hidden; ++k) {
        const T n = tanh_from_exp(row[2 * hidden + k], e[r * width + 2 * hidden + k]);
        row[2 * hidden + k] = n;
        const T z = row[hidden + k];
        next[r * hidden + k] = (T(1) - z) * n + z * h[r * hidden + k];
      }
    }
  }
}

// Back through time: grad (T, B, H) holds the gradient of each step's h (the final h is
// the last step's). Writes dgx (T, B, 3H) (the gradient of x W_ih^T + b_ih), dgh (T, B,
// 3H) (of h W_hh^T + b_hh) and the gradient of h0.
template <typename T>
TORCH_NN_INLINE void gru_layer_backward_typed(const T* grad, const T* hs, const T* gates,
                                              const T* hn, const T* w_hh, T* dgx, T* dgh, T* dh0,
                                              std::int64_t steps, std::int64_t batch,
                                              std::int64_t hidden) {
  const std::int64_t width = 3 * hidden, state = batch * hidden;
  std::fill(dh0, dh0 + state, T(0));  // carries the gradient from the later step
  for (std::int64_t t = steps - 1; t >= 0; --t) {
    const T* h = hs + t * state;
    const T* g = gates + t * batch * width;
    T* gx = dgx + t * batch * width;
    T* gh = dgh + t * batch * width;
    for (std::int64_t r = 0; r < batch; ++r) {
      for (std::int64_t k = 0; k < hidden; ++k) {
        const std::int64_t at = r * hidden + k;
        const T dh = grad[t * state + at] + dh0[at];
        const T reset = g[r * width + k], update = g[r * width + hidden + k];
        const T n = g[r * width + 2 * hidden + k];
        const T dn = dh * (T(1) - update) * (T(1) - n * n);
        const T dz = dh * (h[at] - n) * update * (T(1) - update);
        const T dr = dn * hn[t * state + at] * reset * (T(1) - reset);
        gx[r * width + k] = dr;
        gx[r * width + hidden + k] = dz;
        gx[r * width + 2 * hidden + k] = dn;
        gh[r * width + k] = dr;
        gh[r * width + hidden + k] = dz;
        gh[r * width + 2 * hidden + k] = dn * reset;
        dh0[at] = dh * update;  // the direct path; the product path is added below
      }
    }
    add_product(gh, w_hh, dh0, batch, width, hidden);
  }
}

TORCH_NN_CLONES void gru_layer_forward_f32(const float* projected, const float* w_hh_t,
                                           const float* b_hh, float* hs, float* gates, float* hn,
                                           std::int64_t steps, std::int64_t batch,
                                           std::int64_t hidden) {
  std::vector<float> scratch(static_cast<std::size_t>(batch * 6 * hidden));
  gru_layer_forward_typed(projected, w_hh_t, b_hh, hs, gates, hn, steps, batch, hidden,
                          scratch.data());
}
TORCH_NN_CLONES void gru_layer_forward_f64(const double* projected, const double* w_hh_t,
                                           const double* b_hh, double* hs, double* gates,
                                           double* hn, std::int64_t steps, std::int64_t batch,
                                           std::int64_t hidden) {
  std::vector<double> scratch(static_cast<std::size_t>(batch * 6 * hidden));
  gru_layer_forward_typed(projected, w_hh_t, b_hh, hs, gates, hn, steps, batch, hidden,
                          scratch.data());
}
TORCH_NN_CLONES void gru_layer_backward_f32(const float* grad, const float* hs,
                                            const float* gates, const float* hn,
                                            const float* w_hh, float* dgx, float* dgh, float* dh0,
                                            std::int64_t steps, std::int64_t batch,
                                            std::int64_t hidden) {
  gru_layer_backward_typed(grad, hs, gates, hn, w_hh, dgx, dgh, dh0, steps, batch, hidden);
}
TORCH_NN_CLONES void gru_layer_backward_f64(const double* grad, const double* hs,
                                            const double* gates, const double* hn,
                                            const double* w_hh, double* dgx, double* dgh,
                                            double* dh0, std::int64_t steps, std::int64_t batch,
                                            std::int64_t hidden) {
  gru_layer_backward_typed(grad, hs, gates, hn, w_hh, dgx, dgh, dh0, steps, batch, hidden);
}

// projected (T, B, 3H), w_hh_t (H, 3H), b_hh (3H) or None; hs (T + 1, B, H) with row 0 set;
// gates (T, B, 3H) and hn (T, B, H) written.
void gru_layer_forward(const py::array& projected, const py::array& w_hh_t, const py::object& b_hh,
                       py::array& hs, py::array& gates, py::array& hn) {
  const char* what = "gru_layer_forward";
  if (projected.ndim() != 3 || projected.shape(2) % 3 != 0 || w_hh_t.ndim() != 2) {
    throw std::invalid_argument("gru_layer_forward: projected must be (T, B, 3 * hidden)");
  }
  const std::int64_t steps = projected.shape(0), batch = projected.shape(1);
  const std::int64_t hidden = projected.shape(2) / 3;
  if (w_hh_t.shape(0) != hidden || w_hh_t.shape(1) != 3 * hidden) {
    throw std::invalid_argument("gru_layer_forward: w_hh_t must be (hidden, 3 * hidden)");
  }
  check_size(hs, (steps + 1) * batch * hidden, what);
  check_size(gates, steps * batch * 3 * hidden, what);
  check_size(hn, steps * batch * hidden, what);
  const py::array bias = optional_array(b_hh, what, "b_hh");
  if (!b_hh.is_none()) {
    check_size(bias, 3 * hidden, what);
  }
  if (same_dtype(projected.dtype(), py::dtype::of<float>())) {
    run_kernel(projected.size(), gru_layer_forward_f32, input_data<float>(projected, what), input_data<float>(w_hh_t, what),
                          b_hh.is_none() ? nullptr : input_data<float>(bias, what),
                          output_data<float>(hs, what), output_data<float>(gates, what),
                          output_data<float>(hn, what), steps, batch, hidden);
  } else if (same_dtype(projected.dtype(), py::dtype::of<double>())) {
    run_kernel(projected.size(), gru_layer_forward_f64, input_data<double>(projected, what), input_data<double>(w_hh_t, what),
                          b_hh.is_none() ? nullptr : input_data<double>(bias, what),
                          output_data<double>(hs, what), output_data<double>(gates, what),
                          output_data<double>(hn, what), steps, batch, hidden);
  } else {
    throw py::type_error("gru_layer_forward: arrays must be float32 or float64");
  }
}

// grad (T, B, H); hs, gates, hn as gru_layer_forward left them; w_hh (3H, H). Writes
// dgx, dgh (T, B, 3H) and dh0 (B, H).
void gru_layer_backward(const py::array& grad, const py::array& hs, const py::array& gates,
                        const py::array& hn, const py::array& w_hh, py::array& dgx,
                        py::array& dgh, py::array& dh0) {
  const char* what = "gru_layer_backward";
  if (gates.ndim() != 3 || gates.shape(2) % 3 != 0 || w_hh.ndim() != 2) {
    throw std::invalid_argument("gru_layer_backward: gates must be (T, B, 3 * hidden)");
  }
  const std::int64_t steps = gates.shape(0), batch = gates.shape(1);
  const std::int64_t hidden = gates.shape(2) / 3;
  if (w_hh.shape(0) != 3 * hidden || w_hh.shape(1) != hidden) {
    throw std::invalid_argument("gru_layer_backward: w_hh must be (3 * hidden, hidden)");
  }
  check_size(grad, steps * batch * hidden, what);
  check_size(hs, (steps + 1) * batch * hidden, what);
  check_size(hn, steps * batch * hidden, what);
  check_size(dgx, steps * batch * 3 * hidden, what);
  check_size(dgh, steps * batch * 3 * hidden, what);
  check_size(dh0, batch * hidden, what);
  if (same_dtype(gates.dtype(), py::dtype::of<float>())) {
    run_kernel(dgx.size(), gru_layer_backward_f32, input_data<float>(grad, what), input_data<float>(hs, what),
                           input_data<float>(gates, what), input_data<float>(hn, what),
                           input_data<float>(w_hh, what), output_data<float>(dgx, what),
                           output_data<float>(dgh, what), output_data<float>(dh0, what), steps,
                           batch, hidden);
  } else if (same_dtype(gates.dtype(), py::dtype::of<double>())) {
    run_kernel(dgx.size(), gru_layer_backward_f64, input_data<double>(grad, what), input_data<double>(hs, what),
                           input_data<double>(gates, what), input_data<double>(hn, what),
                           input_data<double>(w_hh, what), output_data<double>(dgx, what),
                           output_data<double>(dgh, what), output_data<double>(dh0, what), steps,
                           batch, hidden);
  } else {
    throw py::type_error("gru_layer_backward: arrays must be float32 or float64");
  }
}

// ------------------------------------------------------------------- RNN layer
// h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh), act tanh or relu.

template <typename T>
TORCH_NN_INLINE void rnn_layer_forward_typed(const T* projected, const T* w_hh_t, const T* b_hh,
                                             T* hs, std::int64_t steps, std::int64_t batch,
                                             std::int64_t hidden, bool relu, T* e) {
  const std::int64_t state = batch * hidden;
  for (std::int64_t t = 0; t < steps; ++t) {
    T* z = hs + (t + 1) * state;  // the pre-activation, then the state, in place
    for (std::int64_t r = 0; r < batch; ++r) {
      for (std::int64_t i = 0; i < hidden; ++i) z[r * hidden + i] = b_hh ? b_hh[i] : T(0);
    }
    add_product(hs + t * state, w_hh_t, z, batch, hidden, hidden);
    const T* x = projected + t * state;
    for (std::int64_t i = 0; i < state; ++i) z[i] = x[i] + z[i];
    if (relu) {
      for (std::int64_t i = 0; i < state; ++i) z[i] = z[i] < T(0) ? T(0) : z[i];  // NaN stays
      continue;
    }
    for (std::int64_t i = 0; i < state; ++i) e[i] = T(-2) * std::fabs(z[i]);
    torch_core::exp<T>(e, e, static_cast<std::size_t>(state), 1);
    for (std::int64_t i = 0; i < state; ++i) z[i] = tanh_from_exp(z[i], e[i]);
  }
}

// grad (T, B, H): the gradient of each step's h. Writes dz (T, B, H), the gradient of the
// pre-activations, and the gradient of h0.
template <typename T>
TORCH_NN_INLINE void rnn_layer_backward_typed(const T* grad, const T* hs, const T* w_hh, T* dz,
                                              T* dh0, std::int64_t steps, std::int64_t batch,
                                              std::int64_t hidden, bool relu) {
  const std::int64_t state = batch * hidden;
  std::fill(dh0, dh0 + state, T(0));
  for (std::int64_t t = steps - 1; t >= 0; --t) {
    const T* h = hs + (t + 1) * state;
    T* d = dz + t * state;
    for (std::int64_t i = 0; i < state; ++i) {
      const T dh = grad[t * state + i] + dh0[i];
      const T y = h[i];
      d[i] = relu ? (y > T(0) ? dh : T(0)) : dh * (T(1) - y * y);
    }
    std::fill(dh0, dh0 + state, T(0));
    add_product(d, w_hh, dh0, batch, hidden, hidden);
  }
}

TORCH_NN_CLONES void rnn_layer_forward_f32(const float* projected, const float* w_hh_t,
                                           const float* b_hh, float* hs, std::int64_t steps,
                                           std::int64_t batch, std::int64_t hidden, bool relu) {
  std::vector<float> scratch(static_cast<std::size_t>(batch * hidden));
  rnn_layer_forward_typed(projected, w_hh_t, b_hh, hs, steps, batch, hidden, relu,
                          scratch.data());
}
TORCH_NN_CLONES void rnn_layer_forward_f64(const double* projected, const double* w_hh_t,
                                           const double* b_hh, double* hs, std::int64_t steps,
                                           std::int64_t batch, std::int64_t hidden, bool relu) {
  std::vector<double> scratch(static_cast<std::size_t>(batch * hidden));
  rnn_layer_forward_typed(projected, w_hh_t, b_hh, hs, steps, batch, hidden, relu,
                          scratch.data());
}
TORCH_NN_CLONES void rnn_layer_backward_f32(const float* grad, const float* hs,
                                            const float* w_hh, float* dz, float* dh0,
                                            std::int64_t steps, std::int64_t batch,
                                            std::int64_t hidden, bool relu) {
  rnn_layer_backward_typed(grad, hs, w_hh, dz, dh0, steps, batch, hidden, relu);
}
TORCH_NN_CLONES void rnn_layer_backward_f64(const double* grad, const double* hs,
                                            const double* w_hh, double* dz, double* dh0,
                                            std::int64_t steps, std::int64_t batch,
                                            std::int64_t hidden, bool relu) {
  rnn_layer_backward_typed(grad, hs, w_hh, dz, dh0, steps, batch, hidden, relu);
}

// projected (T, B, H) (x W_ih^T + b_ih), w_hh_t (H, H), b_hh (H) or None; hs (T + 1, B, H)
// with h0 in row 0 receives every later state.
void rnn_layer_forward(const py::array& projected, const py::array& w_hh_t,
                       const py::object& b_hh, py::array& hs, bool relu) {
  const char* what = "rnn_layer_forward";
  if (projected.ndim() != 3 || w_hh_t.ndim() != 2) {
    throw std::invalid_argument("rnn_layer_forward: projected must be (T, B, hidden)");
  }
  const std::int64_t steps = projected.shape(0), batch = projected.shape(1);
  const std::int64_t hidden = projected.shape(2);
  if (w_hh_t.shape(0) != hidden || w_hh_t.shape(1) != hidden) {
    throw std::invalid_argument("rnn_layer_forward: w_hh_t must be (hidden, hidden)");
  }
  check_size(hs, (steps + 1) * batch * hidden, what);
  const py::array bias = optional_array(b_hh, what, "b_hh");
  if (!b_hh.is_none()) {
    check_size(bias, hidden, what);
  }
  if (same_dtype(projected.dtype(), py::dtype::of<float>())) {
    run_kernel(hs.size(), rnn_layer_forward_f32, input_data<float>(projected, what), input_data<float>(w_hh_t, what),
                          b_hh.is_none() ? nullptr : input_data<float>(bias, what),
                          output_data<float>(hs, what), steps, batch, hidden, relu);
  } else if (same_dtype(projected.dtype(), py::dtype::of<double>())) {
    run_kernel(hs.size(), rnn_layer_forward_f64, input_data<double>(projected, what), input_data<double>(w_hh_t, what),
                          b_hh.is_none() ? nullptr : input_data<double>(bias, what),
                          output_data<double>(hs, what), steps, batch, hidden, relu);
  } else {
    throw py::type_error("rnn_layer_forward: arrays must be float32 or float64");
  }
}

// grad (T, B, H), hs as rnn_layer_forward left it, w_hh (H, H); writes dz (T, B, H), dh0.
void rnn_layer_backward(const py::array& grad, const py::array& hs, const py::array& w_hh,
                        py::array& dz, py::array& dh0, bool relu) {
  const char* what = "rnn_layer_backward";
  if (hs.ndim() != 3 || hs.shape(0) < 1 || w_hh.ndim() != 2) {
    throw std::invalid_argument("rnn_layer_backward: hs must be (T + 1, B, hidden)");
  }
  const std::int64_t steps = hs.shape(0) - 1, batch = hs.shape(1), hidden = hs.shape(2);
  if (w_hh.shape(0) != hidden || w_hh.shape(1) != hidden) {
    throw std::invalid_argument("rnn_layer_backward: w_hh must be (hidden, hidden)");
  }
  check_size(grad, steps * batch * hidden, what);
  check_size(dz, steps * batch * hidden, what);
  check_size(dh0, batch * hidden, what);
  if (same_dtype(hs.dtype(), py::dtype::of<float>())) {
    run_kernel(hs.size(), rnn_layer_backward_f32, input_data<float>(grad, what), input_data<float>(hs, what),
                           input_data<float>(w_hh, what), output_data<float>(dz, what),
                           output_data<float>(dh0, what), steps, batch, hidden, relu);
  } else if (same_dtype(hs.dtype(), py::dtype::of<double>())) {
    run_kernel(hs.size(), rnn_layer_backward_f64, input_data<double>(grad, what), input_data<double>(hs, what),
                           input_data<double>(w_hh, what), output_data<double>(dz, what),
                           output_data<double>(dh0, what), steps, batch, hidden, relu);
  } else {
    throw py::type_error("rnn_layer_backward: arrays must be float32 or float64");
  }
}

// projected (T, B, 4H), w_hh_t (H, 4H), b_hh (4H) or None; hs, cs (T + 1, B, H) with row
// 0 set; gates (T, B, 4H) and tanh_cs (T, B, H) written.
void lstm_layer_forward(const py::array& projected, const py::array& w_hh_t,
                        const py::object& b_hh, py::array& hs, py::array& cs, py::array& gates,
                        py::array& tanh_cs) {
  const char* what = "lstm_layer_forward";
  if (projected.ndim() != 3 || projected.shape(2) % 4 != 0 || w_hh_t.ndim() != 2) {
    throw std::invalid_argument("lstm_layer_forward: projected must be (T, B, 4 * hidden)");
  }
  const std::int64_t steps = projected.shape(0), batch = projected.shape(1);
  const std::int64_t hidden = projected.shape(2) / 4;
  if (w_hh_t.shape(0) != hidden || w_hh_t.shape(1) != 4 * hidden) {
    throw std::invalid_argument("lstm_layer_forward: w_hh_t must be (hidden, 4 * hidden)");
  }
  check_size(hs, (steps + 1) * batch * hidden, what);
  check_size(cs, (steps + 1) * batch * hidden, what);
  check_size(gates, steps * batch * 4 * hidden, what);
  check_size(tanh_cs, steps * batch * hidden, what);
  const py::array bias = optional_array(b_hh, what, "b_hh");
  if (!b_hh.is_none()) {
    check_size(bias, 4 * hidden, what);
  }
  if (same_dtype(projected.dtype(), py::dtype::of<float>())) {
    run_kernel(projected.size(), lstm_layer_forward_f32, input_data<float>(projected, what), input_data<float>(w_hh_t, what),
                           b_hh.is_none() ? nullptr : input_data<float>(bias, what),
                           output_data<float>(hs, what), output_data<float>(cs, what),
                           output_data<float>(gates, what), output_data<float>(tanh_cs, what),
                           steps, batch, hidden);
  } else if (same_dtype(projected.dtype(), py::dtype::of<double>())) {
    run_kernel(projected.size(), lstm_layer_forward_f64, input_data<double>(projected, what), input_data<double>(w_hh_t, what),
                           b_hh.is_none() ? nullptr : input_data<double>(bias, what),
                           output_data<double>(hs, what), output_data<double>(cs, what),
                           output_data<double>(gates, what), output_data<double>(tanh_cs, what),
                           steps, batch, hidden);
  } else {
    throw py::type_error("lstm_layer_forward: arrays must be float32 or float64");
  }
}

// grad (T + 1, B, H); gates, cs, tanh_cs as lstm_layer_forward left them; w_hh (4H, H).
// Writes dz (T, B, 4H), dh0 and dc0 (B, H).
void lstm_layer_backward(const py::array& grad, const py::array& gates, const py::array& cs,
                         const py::array& tanh_cs, const py::array& w_hh, py::array& dz,
                         py::array& dh0, py::array& dc0) {
  const char* what = "lstm_layer_backward";
  if (gates.ndim() != 3 || gates.shape(2) % 4 != 0 || w_hh.ndim() != 2) {
    throw std::invalid_argument("lstm_layer_backward: gates must be (T, B, 4 * hidden)");
  }
  const std::int64_t steps = gates.shape(0), batch = gates.shape(1);
  const std::int64_t hidden = gates.shape(2) / 4;
  if (w_hh.shape(0) != 4 * hidden || w_hh.shape(1) != hidden) {
    throw std::invalid_argument("lstm_layer_backward: w_hh must be (4 * hidden, hidden)");
  }
  check_size(grad, (steps + 1) * batch * hidden, what);
  check_size(cs, (steps + 1) * batch * hidden, what);
  check_size(tanh_cs, steps * batch * hidden, what);
  check_size(dz, steps * batch * 4 * hidden, what);
  check_size(dh0, batch * hidden, what);
  check_size(dc0, batch * hidden, what);
  if (same_dtype(gates.dtype(), py::dtype::of<float>())) {
    run_kernel(dz.size(), lstm_layer_backward_f32, input_data<float>(grad, what), input_data<float>(gates, what),
                            input_data<float>(cs, what), input_data<float>(tanh_cs, what),
                            input_data<float>(w_hh, what), output_data<float>(dz, what),
                            output_data<float>(dh0, what), output_data<float>(dc0, what), steps,
                            batch, hidden);
  } else if (same_dtype(gates.dtype(), py::dtype::of<double>())) {
    run_kernel(dz.size(), lstm_layer_backward_f64, input_data<double>(grad, what), input_data<double>(gates, what),
                            input_data<double>(cs, what), input_data<double>(tanh_cs, what),
                            input_data<double>(w_hh, what), output_data<double>(dz, what),
                            output_data<double>(dh0, what), output_data<double>(dc0, what), steps,
                            batch, hidden);
  } else {
    throw py::type_error("lstm_layer_backward: arrays must be float32 or float64");
  }
}

}  // namespace

void register_nn(py::module_& m) {
  m.def("max_pool2d_with_indices", &max_pool2d_with_indices, py::arg("input"), py::arg("kernel"),
        py::arg("stride"), py::arg("padding"), py::arg("dilation"), py::arg("out_h"),
        py::arg("out_w"), py::arg("threads") = 0,
        "Max pooling of (planes, H, W) float planes: (values, flat indices in each plane).");
  m.def("max_pool_backward", &max_pool_backward, py::arg("grad"), py::arg("indices"),
        py::arg("planes"), py::arg("plane_size"), py::arg("threads") = 0,
        "Gradients added at their maxima's flat positions: (planes, plane_size).");
  m.def("nn_use_blas", &nn_use_blas, py::arg("path"),
        "Use the CBLAS library at path (already loaded by blas_load) in the LSTM loops.");
  m.def("relu_backward", &relu_backward, py::arg("grad"), py::arg("result"),
        "grad where result > 0, else 0 (C-contiguous float arrays of one dtype and size).");
  m.def("lstm_cell_forward", &lstm_cell_forward, py::arg("gates"), py::arg("c_prev"),
        py::arg("c"), py::arg("h"), py::arg("tanh_c"),
        "One LSTM step's pointwise part: activates gates in place, writes c, h and tanh(c).");
  m.def("lstm_cell_backward", &lstm_cell_backward, py::arg("gates"), py::arg("c_prev"),
        py::arg("tanh_c"), py::arg("dh"), py::arg("dc"), py::arg("dz"),
        "Backward of lstm_cell_forward: dz from dh and dc; dc becomes the gradient of c_prev.");
  m.def("lstm_layer_forward", &lstm_layer_forward, py::arg("projected"), py::arg("w_hh_t"),
        py::arg("b_hh"), py::arg("hs"), py::arg("cs"), py::arg("gates"), py::arg("tanh_cs"),
        "The time loop of one LSTM layer (see lstm_cell_forward), states written into hs, cs.");
  m.def("lstm_layer_backward", &lstm_layer_backward, py::arg("grad"), py::arg("gates"),
        py::arg("cs"), py::arg("tanh_cs"), py::arg("w_hh"), py::arg("dz"), py::arg("dh0"),
        py::arg("dc0"), "Back through the time loop of lstm_layer_forward.");
  m.def("rnn_layer_forward", &rnn_layer_forward, py::arg("projected"), py::arg("w_hh_t"),
        py::arg("b_hh"), py::arg("hs"), py::arg("relu"),
        "The time loop of one tanh or relu RNN layer, states written into hs.");
  m.def("rnn_layer_backward", &rnn_layer_backward, py::arg("grad"), py::arg("hs"),
        py::arg("w_hh"), py::arg("dz"), py::arg("dh0"), py::arg("relu"),
        "Back through the time loop of rnn_layer_forward.");
  m.def("gru_layer_forward", &gru_layer_forward, py::arg("projected"), py::arg("w_hh_t"),
        py::arg("b_hh"), py::arg("hs"), py::arg("gates"), py::arg("hn"),
        "The time loop of one GRU layer, states written into hs.");
  m.def("gru_layer_backward", &gru_layer_backward, py::arg("grad"), py::arg("hs"),
        py::arg("gates"), py::arg("hn"), py::arg("w_hh"), py::arg("dgx"), py::arg("dgh"),
        py::arg("dh0"), "Back through the time loop of gru_layer_forward.");
}
