// Python bindings of the elementwise family: threaded arithmetic, exp and sums over large
// arrays, PyTorch-order small sums and the special functions NumPy lacks.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/gil.h"
#include "common/registry.h"
#include "elementwise/cascade_sum.h"
#include "elementwise/elementwise.h"
#include "elementwise/special.h"
#include "elementwise/vecmath.h"

using torch_core::same_dtype;

namespace py = pybind11;

namespace {

// Elementwise special functions over float32/float64 arrays: the input is read as a
// C-contiguous array of its own dtype (a copy when it is not), the result is new.
template <typename T>
py::array_t<T> map_special(const py::array& input, double (*fn)(double)) {
  auto in = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(input);
  if (!in) throw py::type_error("special function: input must be a float array");
  py::array_t<T> out(std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
  const T* src = in.data();
  T* dst = out.mutable_data();
  const auto n = static_cast<std::size_t>(in.size());
  {
    torch_core::GilRelease nogil;  // no Python objects are touched in the loop
    for (std::size_t i = 0; i < n; ++i) dst[i] = static_cast<T>(fn(static_cast<double>(src[i])));
  }
  return out;
}

double erf_d(double x) { return std::erf(x); }
double erfc_d(double x) { return std::erfc(x); }
double lgamma_d(double x) { return std::lgamma(x); }
// the C library's log1p, as PyTorch's CPU exponential_ calls it (NumPy's SIMD log1p can
// differ in the last bit)
double log1p_d(double x) { return std::log1p(x); }

py::array special(const std::string& name, const py::array& input) {
  double (*fn)(double) = nullptr;
  if (name == "erf") fn = erf_d;
  else if (name == "erfc") fn = erfc_d;
  else if (name == "erfinv") fn = torch_core::erfinv;
  else if (name == "lgamma") fn = lgamma_d;
  else if (name == "log1p") fn = log1p_d;
  else if (name == "digamma") fn = torch_core::digamma;
  else if (name == "trigamma") fn = torch_core::trigamma;
  else throw std::invalid_argument("unknown special function: " + name);
  if (same_dtype(py::dtype::of<float>(), input.dtype())) return map_special<float>(input, fn);
  if (same_dtype(py::dtype::of<double>(), input.dtype())) return map_special<double>(input, fn);
  throw py::type_error("special function " + name + ": input must be float32 or float64");
}

// Whether the bytes of two arrays overlap without being the same elements in the same
// order (out = a is an in-place operation; any other overlap would read values the loop
// has already written).
bool overlaps_partly(const py::array& out, const py::array& in) {
  const auto* o = static_cast<const char*>(out.data());
  const auto* i = static_cast<const char*>(in.data());
  const auto o_end = o + out.nbytes(), i_end = i + in.nbytes();
  return o < i_end && i < o_end && !(o == i && out.nbytes() == in.nbytes());
}

template <typename T>
py::array binary_typed(torch_core::BinaryOp op, const py::array& a, const py::array& b,
                       int threads, const py::object& into) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  auto y = py::array_t<T, py::array::c_style>::ensure(b);
  if (!x || !y) throw py::type_error("binary: operands must be C-contiguous of one float dtype");
  if (x.ndim() != y.ndim() || !std::equal(x.shape(), x.shape() + x.ndim(), y.shape())) {
    throw std::invalid_argument("binary: operands must have the same shape");
  }
  py::array out;
  if (into.is_none()) {
    out = py::array_t<T>(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
  } else {
    out = torch_core::checks::array_arg(into, "binary", "out");
    torch_core::checked_output<T>(out, "binary");
    if (out.ndim() != x.ndim() || !std::equal(x.shape(), x.shape() + x.ndim(), out.shape())) {
      throw std::invalid_argument("binary: out must have the operands' shape");
    }
    if (overlaps_partly(out, x) || overlaps_partly(out, y)) {
      throw std::invalid_argument("binary: out overlaps an operand without being it");
    }
  }
  const T* xp = x.data();
  const T* yp = y.data();
  T* op_out = static_cast<T*>(out.mutable_data());
  const auto n = static_cast<std::size_t>(x.size());
  {
    torch_core::GilRelease nogil;  // reads and writes only the buffers held above
    torch_core::binary(op, xp, yp, op_out, n, threads);
  }
  return out;
}

py::array binary(const std::string& name, const py::array& a, const py::array& b,
                 int threads, const py::object& out) {
  torch_core::BinaryOp op;
  if (name == "add") op = torch_core::BinaryOp::kAdd;
  else if (name == "sub") op = torch_core::BinaryOp::kSub;
  else if (name == "mul") op = torch_core::BinaryOp::kMul;
  else if (name == "div") op = torch_core::BinaryOp::kDiv;
  else throw std::invalid_argument("binary: unknown op " + name);
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), a.dtype()))
    return binary_typed<float>(op, a, b, threads, out);
  if (same_dtype(py::dtype::of<double>(), a.dtype()))
    return binary_typed<double>(op, a, b, threads, out);
  throw py::type_error("binary: operands must be float32 or float64");
}

template <typename T>
void fill_typed(py::array& out, double value, int threads) {
  T* data = torch_core::checked_output<T>(out, "fill");
  const auto n = static_cast<std::size_t>(out.size());
  torch_core::GilRelease nogil;  // writes only the buffer held by the caller
  torch_core::fill(data, static_cast<T>(value), n, threads);
}

void fill(py::handle out_arg, double value, int threads) {
  py::array out = torch_core::checks::array_arg(out_arg, "fill", "out");
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), out.dtype())) return fill_typed<float>(out, value, threads);
  if (same_dtype(py::dtype::of<double>(), out.dtype())) return fill_typed<double>(out, value, threads);
  throw py::type_error("fill: output array must be float32 or float64");
}

template <typename T>
py::array unary_typed(const std::string& name, const py::array& a, int threads) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  if (!x) throw py::type_error("unary: input must be C-contiguous");
  py::array_t<T> out(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
  const T* in = x.data();
  T* result = out.mutable_data();
  const auto n = static_cast<std::size_t>(x.size());
  void (*kernel)(const T*, T*, std::size_t, int) = nullptr;
  if (name == "exp") kernel = torch_core::exp<T>;
  else if (name == "sigmoid") kernel = torch_core::sigmoid<T>;
  else throw std::invalid_argument("unary: unknown op " + name);
  {
    torch_core::GilRelease nogil;  // reads and writes only the buffers held above
    kernel(in, result, n, threads);
  }
  return out;
}

py::array unary(const std::string& name, const py::array& a, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), a.dtype())) return unary_typed<float>(name, a, threads);
  if (same_dtype(py::dtype::of<double>(), a.dtype())) return unary_typed<double>(name, a, threads);
  throw py::type_error("unary: input must be float32 or float64");
}

template <typename T>
double sum_typed(const py::array& a, int threads) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  if (!x) throw py::type_error("sum: input must be C-contiguous");
  const T* data = x.data();
  const auto n = static_cast<std::size_t>(x.size());
  torch_core::GilRelease nogil;
  return torch_core::sum(data, n, threads);
}

double sum_all(const py::array& a, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), a.dtype())) return sum_typed<float>(a, threads);
  if (same_dtype(py::dtype::of<double>(), a.dtype())) return sum_typed<double>(a, threads);
  throw py::type_error("sum: input must be float32 or float64");
}

template <typename T>
double cascade_sum_typed(const py::array& a) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  if (!x) throw py::type_error("cascade_sum: input must be C-contiguous");
  const T* data = x.data();
  const auto n = static_cast<std::size_t>(x.size());
  torch_core::GilRelease nogil;
  return static_cast<double>(torch_core::cascade_sum(data, n));
}

double cascade_sum(const py::array& a) {
  if (same_dtype(py::dtype::of<float>(), a.dtype())) return cascade_sum_typed<float>(a);
  if (same_dtype(py::dtype::of<double>(), a.dtype())) return cascade_sum_typed<double>(a);
  throw py::type_error("cascade_sum: input must be float32 or float64");
}

}  // namespace

void register_elementwise(py::module_& m) {
  m.def("binary", &binary, py::arg("op"), py::arg("a"), py::arg("b"), py::arg("threads") = 0,
        py::arg("out") = py::none(),
        "a (op) b for same-shape C-contiguous float arrays, split across threads; into `out` "
        "(which may be a or b itself) when given.");
  m.def("fill", &fill, py::arg("out"), py::arg("value"), py::arg("threads") = 0,
        "Write `value` into every element of a C-contiguous float array, split across threads.");
  m.def("unary", &unary, py::arg("op"), py::arg("a"), py::arg("threads") = 0,
        "op(a) (op: 'exp' or 'sigmoid') of a C-contiguous float array, vectorised and split "
        "across threads.");
  m.def("sum_all", &sum_all, py::arg("a"), py::arg("threads") = 0,
        "Sum of a C-contiguous float array in double precision, split across threads.");
  m.def("cascade_sum", &cascade_sum, py::arg("a"),
        "Sum of a C-contiguous float array in PyTorch's CPU summation order (rounded to its dtype).");
  m.def("special", &special, py::arg("name"), py::arg("input"),
        "Elementwise erf, erfc, erfinv, lgamma, log1p, digamma or trigamma of a float array.");
}
