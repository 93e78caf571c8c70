// torch._C.small_matmul(a, b): a @ b of two small, non-empty float32 or float64 matrices,
// as a new C-contiguous array (with C strides); None where it does not apply (callers then use NumPy's matmul, the
// reference). Why native: NumPy's matmul spends about 0.8 us in its ufunc machinery on an
// 8x8 product whose arithmetic takes 0.05 us, and `a @ b` on 8x8 tensors costs little more
// than that call. A plain CPython function (no pybind11 dispatch), like all_c_contiguous.
#define NPY_NO_DEPRECATED_API NPY_1_22_API_VERSION
#define NPY_TARGET_VERSION NPY_1_22_API_VERSION
#include <Python.h>
#include <numpy/arrayobject.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>

namespace py = pybind11;

namespace {

// The most multiply-adds taken here: Python's fast path sends nothing larger (its
// _UNTHREADED_WORK), and larger products belong to a BLAS.
constexpr npy_intp kMostWork = 4096;

// out (m, n) = a (m, k) @ b (k, n); a and b by byte strides, out C-contiguous. Each
// element is summed in the order of k. B's rows are read as arrays when they are
// contiguous, so the inner loop vectorises.
template <typename T>
void multiply(const char* a, npy_intp a0, npy_intp a1, const char* b, npy_intp b0, npy_intp b1,
              T* out, npy_intp m, npy_intp k, npy_intp n) {
  for (npy_intp i = 0; i < m; ++i) {
    T* row = out + i * n;
    std::fill(row, row + n, T(0));
    for (npy_intp p = 0; p < k; ++p) {
      const T scale = *reinterpret_cast<const T*>(a + i * a0 + p * a1);
      const char* b_row = b + p * b0;
      if (b1 == static_cast<npy_intp>(sizeof(T))) {
        const T* values = reinterpret_cast<const T*>(b_row);
        for (npy_intp j = 0; j < n; ++j) row[j] += scale * values[j];
      } else {
        for (npy_intp j = 0; j < n; ++j) row[j] += scale * *reinterpret_cast<const T*>(b_row + j * b1);
      }
    }
  }
}

// A 2-D aligned array in the machine's byte order, of type float32 or float64; else null.
PyArrayObject* matrix(PyObject* obj) {
  if (!PyArray_CheckExact(obj)) return nullptr;
  PyArrayObject* array = reinterpret_cast<PyArrayObject*>(obj);
  if (PyArray_NDIM(array) != 2 || !PyArray_ISALIGNED(array) || !PyArray_ISNOTSWAPPED(array)) {
    return nullptr;
  }
  const int type = PyArray_TYPE(array);
  return type == NPY_FLOAT || type == NPY_DOUBLE ? array : nullptr;
}

PyObject* small_matmul(PyObject*, PyObject* const* args, Py_ssize_t count) {
  if (count != 2) {
    PyErr_SetString(PyExc_TypeError, "small_matmul() takes exactly 2 arguments");
    return nullptr;
  }
  PyArrayObject* a = matrix(args[0]);
  PyArrayObject* b = matrix(args[1]);
  if (a == nullptr || b == nullptr || PyArray_TYPE(a) != PyArray_TYPE(b)) Py_RETURN_NONE;
  const npy_intp m = PyArray_DIM(a, 0), k = PyArray_DIM(a, 1), n = PyArray_DIM(b, 1);
  if (PyArray_DIM(b, 0) != k || m == 0 || k == 0 || n == 0 || m > kMostWork ||
      n > kMostWork || k > kMostWork || m * n * k > kMostWork) {
    Py_RETURN_NONE;  // mismatched (NumPy raises), empty, or too large
  }
  npy_intp shape[2] = {m, n};
  const int type = PyArray_TYPE(a);
  PyObject* out = PyArray_SimpleNew(2, shape, type);
  if (out == nullptr) return nullptr;
  const char* a_data = PyArray_BYTES(a);
  const char* b_data = PyArray_BYTES(b);
  const npy_intp a0 = PyArray_STRIDE(a, 0), a1 = PyArray_STRIDE(a, 1);
  const npy_intp b0 = PyArray_STRIDE(b, 0), b1 = PyArray_STRIDE(b, 1);
  void* result = PyArray_DATA(reinterpret_cast<PyArrayObject*>(out));
  if (type == NPY_FLOAT) {
    multiply(a_data, a0, a1, b_data, b0, b1, static_cast<float*>(result), m, k, n);
  } else {
    multiply(a_data, a0, a1, b_data, b0, b1, static_cast<double*>(result), m, k, n);
  }
  return out;
}

PyMethodDef small_matmul_def = {
    "small_matmul",
    reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(small_matmul)),
    METH_FASTCALL,
    "a @ b of two float32/float64 matrices of one dtype with at most 4096 multiply-adds, as "
    "a new C-contiguous array; None where it does not apply.",
};

}  // namespace

void register_small_matmul(py::module_& m) {
  if (PyArray_ImportNumPyAPI() < 0) throw py::error_already_set();
  PyObject* function = PyCFunction_NewEx(&small_matmul_def, nullptr, m.attr("__name__").ptr());
  if (function == nullptr) throw py::error_already_set();
  m.add_object("small_matmul", py::reinterpret_steal<py::object>(function));
}
