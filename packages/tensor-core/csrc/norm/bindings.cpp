// Python bindings of the norm family (norm/kernels.h): layer normalisation forward and
// backward, softmax forward and backward over the last dim, relu, batch normalisation
// statistics, application and backward. Why native: NumPy needs
// five to ten passes over the data (and as many temporaries) for what one pass per row
// does here, and runs them on one core. Every array is checked before a pointer is
// borrowed; work above kParallelFrom elements is split over rows and runs without the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/checks.h"
#include "common/float_dispatch.h"
#include "common/gil.h"
#include "common/parallel.h"
#include "common/registry.h"
#include "elementwise/vecmath.h"
#include "norm/kernels.h"

namespace py = pybind11;
namespace ck = torch_core::checks;

namespace torch_core {
namespace norm {
namespace {

// Below this many elements a kernel runs on the calling thread, with the GIL held
// (handing rows to the pool, or releasing the GIL, costs more than it saves).
constexpr std::int64_t kParallelFrom = 1 << 15;

// body(begin, end) over row ranges: on the pool without the GIL when the work is large.
template <typename F>
void over_rows(std::int64_t rows, std::int64_t cols, int threads, F&& body) {
  const std::int64_t elements = rows * cols;
  if (elements < kParallelFrom) {
    body(std::int64_t{0}, rows, 0);
    return;
  }
  const int wanted = static_cast<int>(std::min<std::int64_t>(
      ck::threads_or_default(threads), std::max<std::int64_t>(1, elements / kParallelFrom)));
  GilRelease nogil;
  parallel_for(static_cast<std::size_t>(rows), wanted,
               [&](std::size_t begin, std::size_t end, int t) {
                 body(static_cast<std::int64_t>(begin), static_cast<std::int64_t>(end), t);
               });
}

// A (rows, cols) C-contiguous float array of dtype T.
template <typename T>
const T* matrix(const py::array& a, const char* what, const char* name) {
  ck::ndim(a, 2, what, name);
  return ck::data<T>(a, what, false);
}

// An optional vector of `cols` elements of dtype T (None: nullptr).
template <typename T>
const T* optional_vector(const py::object& obj, std::int64_t cols, const char* what,
                         const char* name) {
  if (obj.is_none()) return nullptr;
  py::array a = ck::array_arg(obj, what, name);
  if (a.ndim() != 1 || a.shape(0) != cols) {
    throw std::invalid_argument(std::string(what) + ": " + name + " must have " +
                                std::to_string(cols) + " elements");
  }
  return ck::data<T>(a, what, false);
}

template <typename T>
const T* row_vector(const py::array& a, std::int64_t rows, const char* what, const char* name) {
  if (a.ndim() != 1 || a.shape(0) != rows) {
    throw std::invalid_argument(std::string(what) + ": " + name + " must have one value per row");
  }
  return ck::data<T>(a, what, false);
}

void same_shape(const py::array& a, const py::array& b, const char* what) {
  if (a.ndim() != b.ndim() || !std::equal(a.shape(), a.shape() + a.ndim(), b.shape())) {
    throw std::invalid_argument(std::string(what) + ": arrays must have one shape");
  }
}

template <typename T>
py::tuple layer_norm_typed(const py::array& x, const py::object& weight, const py::object& bias,
                           double eps, int threads) {
  const char* what = "layer_norm";
  const T* xp = matrix<T>(x, what, "input");
  const std::int64_t rows = x.shape(0), cols = x.shape(1);
  const T* w = optional_vector<T>(weight, cols, what, "weight");
  const T* b = optional_vector<T>(bias, cols, what, "bias");
  py::array_t<T> out({rows, cols}), mean(rows), rstd(rows);
  T *o = out.mutable_data(), *m = mean.mutable_data(), *s = rstd.mutable_data();
  const auto kernel = TORCH_CORE_PICK(layer_norm_rows<T>);
  over_rows(rows, cols, threads, [&](std::int64_t begin, std::int64_t end, int) {
    kernel(xp, w, b, o, m, s, cols, eps, begin, end);
  });
  return py::make_tuple(out, mean, rstd);
}

py::tuple layer_norm(const py::array& x, const py::object& weight, const py::object& bias,
                     double eps, int threads) {
  const char* refusal = "layer_norm: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return layer_norm_typed<decltype(tag)>(x, weight, bias, eps, threads);
  });
}

template <typename T>
py::array layer_norm_input_grad_typed(const py::array& grad, const py::array& x,
                                      const py::array& mean, const py::array& rstd,
                                      const py::object& weight, int threads) {
  const char* what = "layer_norm_backward";
  same_shape(grad, x, what);
  const T* g = matrix<T>(grad, what, "grad");
  const T* xp = matrix<T>(x, what, "input");
  const std::int64_t rows = x.shape(0), cols = x.shape(1);
  const T* m = row_vector<T>(mean, rows, what, "mean");
  const T* s = row_vector<T>(rstd, rows, what, "rstd");
  const T* w = optional_vector<T>(weight, cols, what, "weight");
  py::array_t<T> out({rows, cols});
  T* o = out.mutable_data();
  const auto kernel = TORCH_CORE_PICK(layer_norm_input_grad_rows<T>);
  over_rows(rows, cols, threads, [&](std::int64_t begin, std::int64_t end, int) {
    kernel(g, xp, m, s, w, o, cols, begin, end);
  });
  return out;
}

py::array layer_norm_input_grad(const py::array& grad, const py::array& x, const py::array& mean,
                                const py::array& rstd, const py::object& weight, int threads) {
  const char* refusal = "layer_norm_backward: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return layer_norm_input_grad_typed<decltype(tag)>(grad, x, mean, rstd, weight, threads);
  });
}

// (grad_weight, grad_bias): per-thread double partial sums over rows, added in thread order
template <typename T>
py::tuple layer_norm_param_grads_typed(const py::array& grad, const py::array& x,
                                       const py::array& mean, const py::array& rstd,
                                       int threads) {
  const char* what = "layer_norm_backward";
  same_shape(grad, x, what);
  const T* g = matrix<T>(grad, what, "grad");
  const T* xp = matrix<T>(x, what, "input");
  const std::int64_t rows = x.shape(0), cols = x.shape(1);
  const T* m = row_vector<T>(mean, rows, what, "mean");
  const T* s = row_vector<T>(rstd, rows, what, "rstd");
  const int parts = ck::threads_or_default(threads);
  std::vector<double> partial(static_cast<std::size_t>(ck::product({parts, 2, cols}, what)), 0.0);
  const auto kernel = TORCH_CORE_PICK(layer_norm_param_grad_rows<T>);
  over_rows(rows, cols, parts, [&](std::int64_t begin, std::int64_t end, int t) {
    double* mine = partial.data() + static_cast<std::size_t>(t) * 2 * cols;
    kernel(g, xp, m, s, mine, mine + cols, cols, begin, end);
  });
  py::array_t<T> grad_w(cols), grad_b(cols);
  T *dw = grad_w.mutable_data(), *db = grad_b.mutable_data();
  for (std::int64_t c = 0; c < cols; ++c) {
    double w_total = 0, b_total = 0;
    for (int t = 0; t < parts; ++t) {
      w_total += partial[static_cast<std::size_t>(t) * 2 * cols + c];
      b_total += partial[static_cast<std::size_t>(t) * 2 * cols + cols + c];
    }
    dw[c] = static_cast<T>(w_total);
    db[c] = static_cast<T>(b_total);
  }
  return py::make_tuple(grad_w, grad_b);
}

py::tuple layer_norm_param_grads(const py::array& grad, const py::array& x, const py::array& mean,
                                 const py::array& rstd, int threads) {
  const char* refusal = "layer_norm_backward: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return layer_norm_param_grads_typed<decltype(tag)>(grad, x, mean, rstd, threads);
  });
}

template <typename T>
py::array softmax_typed(const py::array& x, int threads) {
  const char* what = "softmax";
  const T* xp = matrix<T>(x, what, "input");
  const std::int64_t rows = x.shape(0), cols = x.shape(1);
  py::array_t<T> out({rows, cols});
  std::vector<T> row_max(static_cast<std::size_t>(rows));
  T* o = out.mutable_data();
  const auto shift = TORCH_CORE_PICK(softmax_shift_rows<T>);
  const auto finish = TORCH_CORE_PICK(softmax_finish_rows<T>);
  over_rows(rows, cols, threads, [&](std::int64_t begin, std::int64_t end, int) {
    shift(xp, o, row_max.data(), cols, begin, end);
    // the vectorised exp of elementwise/vecmath.h, on this thread's rows
    T* part = o + begin * cols;
    const std::size_t count = static_cast<std::size_t>((end - begin) * cols);
    torch_core::exp(part, part, count, 1);
    finish(o, cols, false, begin, end);
  });
  return out;
}

py::array softmax(const py::array& x, int threads) {
  const char* refusal = "softmax: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return softmax_typed<decltype(tag)>(x, threads);
  });
}

template <typename T>
py::array softmax_backward_typed(const py::array& grad, const py::array& y, bool log,
                                 int threads) {
  const char* what = "softmax_backward";
  same_shape(grad, y, what);
  const T* g = matrix<T>(grad, what, "grad");
  const T* yp = matrix<T>(y, what, "result");
  const std::int64_t rows = y.shape(0), cols = y.shape(1);
  py::array_t<T> out({rows, cols});
  T* o = out.mutable_data();
  const auto kernel = TORCH_CORE_PICK(softmax_backward_rows<T>);
  over_rows(rows, cols, threads, [&](std::int64_t begin, std::int64_t end, int) {
    kernel(g, yp, o, cols, log, begin, end);
  });
  return out;
}

py::array softmax_backward(const py::array& grad, const py::array& y, bool log, int threads) {
  const char* refusal = "softmax_backward: arrays must be float32 or float64";
  return by_float_dtype(y.dtype(), refusal, [&](auto tag) {
    return softmax_backward_typed<decltype(tag)>(grad, y, log, threads);
  });
}

template <typename T>
py::array relu_typed(const py::array& x, int threads) {
  const T* xp = ck::data<T>(x, "relu", false);
  py::array out(x.dtype(), std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
  T* o = static_cast<T*>(out.mutable_data());
  const auto kernel = TORCH_CORE_PICK(relu_range<T>);
  over_rows(x.size(), 1, threads, [&](std::int64_t begin, std::int64_t end, int) {
    kernel(xp, o, begin, end);
  });
  return out;
}

py::array relu(const py::array& x, int threads) {
  const char* refusal = "relu: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return relu_typed<decltype(tag)>(x, threads);
  });
}

// ------------------------------------------------------------------ batch norm
// x is (batch, channels, plane): an (N, C, *spatial) input with its spatial dims flattened.

template <typename T>
const T* batch_array(const py::array& a, const char* what, const char* name) {
  ck::ndim(a, 3, what, name);
  return ck::data<T>(a, what, false);
}

// Channels split over threads when the work is large (each channel is a whole unit).
template <typename F>
void over_channels(std::int64_t channels, std::int64_t elements, int threads, F&& body) {
  if (elements < kParallelFrom) {
    body(std::int64_t{0}, channels);
    return;
  }
  const int wanted = static_cast<int>(std::min<std::int64_t>(
      ck::threads_or_default(threads), std::max<std::int64_t>(1, elements / kParallelFrom)));
  GilRelease nogil;
  parallel_for(static_cast<std::size_t>(channels), wanted,
               [&](std::size_t begin, std::size_t end, int) {
                 body(static_cast<std::int64_t>(begin), static_cast<std::int64_t>(end));
               });
}

template <typename T>
py::tuple batch_norm_stats_typed(const py::array& x, int threads) {
  const char* what = "batch_norm_stats";
  const T* xp = batch_array<T>(x, what, "input");
  const std::int64_t batch = x.shape(0), channels = x.shape(1), plane = x.shape(2);
  py::array_t<double> mean(channels), var(channels);
  double *m = mean.mutable_data(), *v = var.mutable_data();
  const auto kernel = TORCH_CORE_PICK(batch_norm_stats_channels<T>);
  over_channels(channels, x.size(), threads, [&](std::int64_t begin, std::int64_t end) {
    kernel(xp, batch, channels, plane, m, v, begin, end);
  });
  return py::make_tuple(mean, var);
}

py::tuple batch_norm_stats(const py::array& x, int threads) {
  const char* refusal = "batch_norm_stats: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return batch_norm_stats_typed<decltype(tag)>(x, threads);
  });
}

template <typename T>
py::array batch_norm_apply_typed(const py::array& x, const py::array& scale,
                                 const py::array& shift, int threads) {
  const char* what = "batch_norm_apply";
  const T* xp = batch_array<T>(x, what, "input");
  const std::int64_t batch = x.shape(0), channels = x.shape(1), plane = x.shape(2);
  const T* a = row_vector<T>(scale, channels, what, "scale");
  const T* b = row_vector<T>(shift, channels, what, "shift");
  py::array_t<T> out({batch, channels, plane});
  T* o = out.mutable_data();
  const auto kernel = TORCH_CORE_PICK(batch_norm_apply_planes<T>);
  over_rows(batch * channels, plane, threads, [&](std::int64_t begin, std::int64_t end, int) {
    kernel(xp, a, b, o, channels, plane, begin, end);
  });
  return out;
}

py::array batch_norm_apply(const py::array& x, const py::array& scale, const py::array& shift,
                           int threads) {
  const char* refusal = "batch_norm_apply: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return batch_norm_apply_typed<decltype(tag)>(x, scale, shift, threads);
  });
}

// (grad_input or None, sum of grad, sum of grad * (x - mean)) per channel, the sums in double
template <typename T>
py::tuple batch_norm_backward_typed(const py::array& grad, const py::array& x,
                                    const py::array& mean, const py::array& invstd,
                                    const py::object& weight, bool input_grad, int threads) {
  const char* what = "batch_norm_backward";
  same_shape(grad, x, what);
  const T* g = batch_array<T>(grad, what, "grad");
  const T* xp = batch_array<T>(x, what, "input");
  const std::int64_t batch = x.shape(0), channels = x.shape(1), plane = x.shape(2);
  const T* m = row_vector<T>(mean, channels, what, "mean");
  const T* s = row_vector<T>(invstd, channels, what, "invstd");
  const T* w = optional_vector<T>(weight, channels, what, "weight");
  py::array_t<double> sum_g(channels), sum_gx(channels);
  double *sg = sum_g.mutable_data(), *sgx = sum_gx.mutable_data();
  py::object grad_x = py::none();
  T* dx = nullptr;
  if (input_grad) {
    py::array_t<T> out({batch, channels, plane});
    dx = out.mutable_data();
    grad_x = out;
  }
  const auto kernel = TORCH_CORE_PICK(batch_norm_backward_channels<T>);
  over_channels(channels, x.size(), threads, [&](std::int64_t begin, std::int64_t end) {
    kernel(g, xp, m, s, w, dx, sg, sgx, batch, channels, plane, begin, end);
  });
  return py::make_tuple(grad_x, sum_g, sum_gx);
}

py::tuple batch_norm_backward(const py::array& grad, const py::array& x, const py::array& mean,
                              const py::array& invstd, const py::object& weight,
                              bool input_grad, int threads) {
  const char* refusal = "batch_norm_backward: input must be float32 or float64";
  return by_float_dtype(x.dtype(), refusal, [&](auto tag) {
    return batch_norm_backward_typed<decltype(tag)>(grad, x, mean, invstd, weight, input_grad,
                                                    threads);
  });
}

}  // namespace
}  // namespace norm
}  // namespace torch_core

void register_norm(py::module_& m) {
  using namespace torch_core::norm;
  m.def("layer_norm", &layer_norm, py::arg("input"), py::arg("weight"), py::arg("bias"),
        py::arg("eps"), py::arg("threads") = 0,
        "Layer norm of each row of a (rows, cols) float array: (output, mean, rstd).");
  m.def("layer_norm_input_grad", &layer_norm_input_grad, py::arg("grad"), py::arg("input"),
        py::arg("mean"), py::arg("rstd"), py::arg("weight"), py::arg("threads") = 0,
        "The input gradient of layer_norm (rows, cols).");
  m.def("layer_norm_param_grads", &layer_norm_param_grads, py::arg("grad"), py::arg("input"),
        py::arg("mean"), py::arg("rstd"), py::arg("threads") = 0,
        "(grad_weight, grad_bias) of layer_norm: sums over the rows.");
  m.def("softmax", &softmax, py::arg("input"), py::arg("threads") = 0,
        "Softmax of each row of a (rows, cols) float array.");
  m.def("softmax_backward", &softmax_backward, py::arg("grad"), py::arg("result"),
        py::arg("log"), py::arg("threads") = 0,
        "The input gradient of softmax (log: of log_softmax) from its result, per row.");
  m.def("relu", &relu, py::arg("input"), py::arg("threads") = 0,
        "max(x, 0) of a C-contiguous float array (NaN stays NaN).");
  m.def("batch_norm_stats", &batch_norm_stats, py::arg("input"), py::arg("threads") = 0,
        "(mean, biased variance) per channel of a (batch, channels, plane) array, in float64.");
  m.def("batch_norm_apply", &batch_norm_apply, py::arg("input"), py::arg("scale"),
        py::arg("shift"), py::arg("threads") = 0,
        "input * scale[c] + shift[c] for each channel c of a (batch, channels, plane) array.");
  m.def("batch_norm_backward", &batch_norm_backward, py::arg("grad"), py::arg("input"),
        py::arg("mean"), py::arg("invstd"), py::arg("weight"), py::arg("input_grad"),
        py::arg("threads") = 0,
        "(grad_input or None, sum(grad), sum(grad * (x - mean))) per channel of batch norm.");
}
