// Python bindings of the indexing family (indexing/indexing.h).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/checks.h"
#include "common/gil.h"
#include "common/registry.h"
#include "indexing/indexing.h"

using torch_core::checked_output;
using torch_core::same_dtype;

namespace py = pybind11;

namespace {

// Arrays come as (outer, dim, inner) views: C-contiguous, of one dtype, indices int64.

template <typename T>
T* writable_3d(py::array& out) {
  if (out.ndim() != 3) throw std::invalid_argument("indexing: output must be 3-d");
  return checked_output<T>(out, "indexing");
}

template <typename T>
py::array_t<T, py::array::c_style> input_3d(const py::array& a, const char* what) {
  auto result = py::array_t<T, py::array::c_style>::ensure(a);
  if (!result || !same_dtype(py::dtype::of<T>(), a.dtype()) || result.ndim() != 3) {
    throw py::type_error(std::string("indexing: ") + what +
                         " must be a 3-d C-contiguous array of the output's dtype");
  }
  return result;
}

py::array_t<std::int64_t, py::array::c_style> indices(const py::array& a, py::ssize_t ndim) {
  auto result = py::array_t<std::int64_t, py::array::c_style>::ensure(a);
  if (!result || !same_dtype(py::dtype::of<std::int64_t>(), a.dtype()) || result.ndim() != ndim) {
    throw py::type_error("indexing: index must be a C-contiguous int64 array of " +
                         std::to_string(ndim) + " dims");
  }
  return result;
}

template <typename T>
void index_accumulate_typed(py::array& out, const py::array& index, const py::array& src,
                            double alpha, int threads) {
  T* target = writable_3d<T>(out);
  auto idx = indices(index, 1);
  auto values = input_3d<T>(src, "source");
  const torch_core::AlongDim g{out.shape(0), out.shape(1), out.shape(2), idx.shape(0)};
  if (values.shape(0) != g.outer || values.shape(1) != g.count || values.shape(2) != g.inner) {
    throw std::invalid_argument("index_accumulate: source must be (outer, len(index), inner)");
  }
  const std::int64_t* ip = idx.data();
  const T* sp = values.data();
  torch_core::GilRelease nogil;
  torch_core::index_accumulate(g, target, ip, sp, static_cast<T>(alpha), threads);
}

template <typename T>
void scatter_accumulate_typed(py::array& out, const py::array& index, const py::array& src,
                              int threads) {
  T* target = writable_3d<T>(out);
  auto idx = indices(index, 3);
  auto values = input_3d<T>(src, "source");
  const torch_core::AlongDim g{out.shape(0), out.shape(1), out.shape(2), idx.shape(1)};
  if (idx.shape(0) != g.outer || idx.shape(2) != g.inner ||
      !std::equal(idx.shape(), idx.shape() + 3, values.shape())) {
    throw std::invalid_argument("scatter_accumulate: index and source must be (outer, n, inner)");
  }
  const std::int64_t* ip = idx.data();
  const T* sp = values.data();
  torch_core::GilRelease nogil;
  torch_core::scatter_accumulate(g, target, ip, sp, threads);
}

template <typename T>
py::array gather_along_typed(const py::array& src, const py::array& index, int threads) {
  auto values = input_3d<T>(src, "source");
  auto idx = indices(index, 3);
  const torch_core::AlongDim g{values.shape(0), values.shape(1), values.shape(2), idx.shape(1)};
  if (idx.shape(0) != g.outer || idx.shape(2) != g.inner) {
    throw std::invalid_argument("gather_along: index must be (outer, n, inner) of the source");
  }
  py::array_t<T> out({g.outer, g.count, g.inner});
  const std::int64_t* ip = idx.data();
  const T* sp = values.data();
  T* op = out.mutable_data();
  {
    torch_core::GilRelease nogil;
    torch_core::gather_along(g, sp, ip, op, threads);
  }
  return out;
}

// Calls body<T>() for the dtype of `a` among float32, float64, int64, int32.
#define TORCH_CORE_INDEXING_DISPATCH(a, call)                                        \
  do {                                                                                \
    if (same_dtype(py::dtype::of<float>(), (a).dtype())) { call(float); }                      \
    else if (same_dtype(py::dtype::of<double>(), (a).dtype())) { call(double); }               \
    else if (same_dtype(py::dtype::of<std::int64_t>(), (a).dtype())) { call(std::int64_t); }   \
    else if (same_dtype(py::dtype::of<std::int32_t>(), (a).dtype())) { call(std::int32_t); }   \
    else throw py::type_error("indexing: dtype must be float32, float64, int64 or int32"); \
  } while (0)

void index_accumulate(py::array out, const py::array& index, const py::array& src,
                      double alpha, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
#define CALL(T) index_accumulate_typed<T>(out, index, src, alpha, threads)
  TORCH_CORE_INDEXING_DISPATCH(out, CALL);
#undef CALL
}

void scatter_accumulate(py::array out, const py::array& index, const py::array& src,
                        int threads) {
  threads = torch_core::checks::threads_or_default(threads);
#define CALL(T) scatter_accumulate_typed<T>(out, index, src, threads)
  TORCH_CORE_INDEXING_DISPATCH(out, CALL);
#undef CALL
}

py::array gather_along(const py::array& src, const py::array& index, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
#define CALL(T) return gather_along_typed<T>(src, index, threads)
  TORCH_CORE_INDEXING_DISPATCH(src, CALL);
#undef CALL
}

}  // namespace

void register_indexing(py::module_& m) {
  m.def("index_accumulate", &index_accumulate, py::arg("out"), py::arg("index"), py::arg("src"),
        py::arg("alpha") = 1.0, py::arg("threads") = 0,
        "out[o, index[j], k] += alpha * src[o, j, k] on 3-d views, in place.");
  m.def("scatter_accumulate", &scatter_accumulate, py::arg("out"), py::arg("index"),
        py::arg("src"), py::arg("threads") = 0,
        "out[o, index[o, j, k], k] += src[o, j, k] on 3-d views, in place.");
  m.def("gather_along", &gather_along, py::arg("src"), py::arg("index"), py::arg("threads") = 0,
        "src[o, index[o, j, k], k] for every (o, j, k) of a 3-d index.");
}
