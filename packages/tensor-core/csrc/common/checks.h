// Argument checks shared by every torch._C entry point. Native code trusts nothing it is
// given: sizes, products of sizes, strides, dtypes and the very type of each argument are
// checked before a pointer is borrowed, and a bad argument is a Python exception
// (std::invalid_argument -> ValueError, py::type_error -> TypeError,
// std::out_of_range -> IndexError), never a crash. Every check is O(ndim).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "common/parallel.h"

namespace torch_core {

// Whether two dtypes are one type. Not dtype::is, which compares the objects: NumPy
// makes a new, equal dtype object when it unpickles one, so arrays that came through
// pickle (DataLoader batches, torch.multiprocessing, copy.deepcopy) were refused.
inline bool same_dtype(const pybind11::dtype& a, const pybind11::dtype& b) {
  return a.is(b) || pybind11::detail::npy_api::get().PyArray_EquivTypes_(a.ptr(), b.ptr());
}

// Output buffers must be writable, C-contiguous, and of exactly the kernel's dtype: the
// kernel writes through the raw pointer, so anything else is refused before it runs.
template <typename T>
T* checked_output(pybind11::array& out, const char* what) {
  namespace py = pybind11;
  if (!py::isinstance<py::array_t<T>>(out) || !same_dtype(py::dtype::of<T>(), out.dtype())) {
    throw py::type_error(std::string(what) + ": output array has the wrong dtype");
  }
  if (!(out.flags() & py::array::c_style)) {
    throw std::invalid_argument(std::string(what) + ": output array must be C-contiguous");
  }
  if (!out.writeable()) {
    throw std::invalid_argument(std::string(what) + ": output array is read-only");
  }
  return static_cast<T*>(out.mutable_data());
}


namespace checks {

namespace py = pybind11;

// a * b, a + b and a - b in int64, or a ValueError naming both operands (signed overflow
// is undefined behaviour: the compiler may assume it never happens).
template <char Op>
inline std::int64_t checked(std::int64_t a, std::int64_t b, const char* what) {
  static_assert(Op == '*' || Op == '+' || Op == '-', "checked: * + or -");
  std::int64_t result;
  bool overflowed;
  if constexpr (Op == '*') {
    overflowed = __builtin_mul_overflow(a, b, &result);
  } else if constexpr (Op == '+') {
    overflowed = __builtin_add_overflow(a, b, &result);
  } else {
    overflowed = __builtin_sub_overflow(a, b, &result);
  }
  if (overflowed) {
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(a) + " " + Op + " " +
                                std::to_string(b) + " overflows a 64-bit size");
  }
  return result;
}

inline std::int64_t mul(std::int64_t a, std::int64_t b, const char* what) {
  return checked<'*'>(a, b, what);
}

inline std::int64_t add(std::int64_t a, std::int64_t b, const char* what) {
  return checked<'+'>(a, b, what);
}

inline std::int64_t sub(std::int64_t a, std::int64_t b, const char* what) {
  return checked<'-'>(a, b, what);
}

inline std::int64_t product(std::initializer_list<std::int64_t> sizes, const char* what) {
  std::int64_t result = 1;
  for (std::int64_t s : sizes) result = mul(result, s, what);
  return result;
}

// A size or count argument: >= 0.
inline void non_negative(std::int64_t value, const char* what, const char* name) {
  if (value < 0) {
    throw std::invalid_argument(std::string(what) + ": " + name + " must be non-negative, got " +
                                std::to_string(value));
  }
}

// The `threads` argument of a kernel: < 1 means the default; more than the pool can use
// runs the extra parts one after another, so a huge value is cut (it sizes per-thread
// scratch).
constexpr int kMostThreads = 64;
inline int threads_or_default(int threads) {
  if (threads < 1) return default_threads();
  return std::min(threads, kMostThreads);
}

// `obj` as an array, without conversion: a TypeError when it is something else. Arrays
// must be checked before anything reads them as PyArrayObject (size, shape, data).
inline py::array array_arg(py::handle obj, const char* what, const char* name) {
  if (!py::isinstance<py::array>(obj)) {
    throw py::type_error(std::string(what) + ": " + name + " must be a NumPy array, got " +
                         std::string(py::str(py::type::handle_of(obj).attr("__name__"))));
  }
  return py::reinterpret_borrow<py::array>(obj);
}

// An optional list argument (None: absent): a TypeError for anything but a list.
inline bool optional_list(const py::object& obj, const char* what, const char* name) {
  if (obj.is_none()) return false;
  if (!py::isinstance<py::list>(obj)) {
    throw py::type_error(std::string(what) + ": " + name + " must be a list or None");
  }
  return true;
}

// The data of `a`, which must be C-contiguous with exactly T's dtype (writable too when
// `write`): a kernel reads and writes through the raw pointer, so anything else is refused.
template <typename T>
T* data(const py::array& a, const char* what, bool write) {
  if (!same_dtype(py::dtype::of<T>(), a.dtype())) {
    throw py::type_error(std::string(what) + ": expected an array of dtype " +
                         std::string(py::str(py::dtype::of<T>())) + ", got " +
                         std::string(py::str(a.dtype())));
  }
  if (!(a.flags() & py::array::c_style)) {
    throw std::invalid_argument(std::string(what) + ": arrays must be C-contiguous");
  }
  if (write && !a.writeable()) {
    throw std::invalid_argument(std::string(what) + ": output array is read-only");
  }
  return static_cast<T*>(const_cast<void*>(a.data()));
}

// Number of dimensions, or a ValueError naming it.
inline void ndim(const py::array& a, py::ssize_t expected, const char* what, const char* name) {
  if (a.ndim() != expected) {
    throw std::invalid_argument(std::string(what) + ": " + name + " must be " +
                                std::to_string(expected) + "-d, got " + std::to_string(a.ndim()) +
                                "-d");
  }
}

}  // namespace checks
}  // namespace torch_core
