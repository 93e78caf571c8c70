// Argument handling shared by the nn family's bindings: every array is checked before a
// pointer is borrowed from it, and large kernels run without the GIL.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/checks.h"
#include "common/gil.h"

namespace torch_core {
namespace nn {

namespace py = pybind11;

template <typename T>
inline const T* input_data(const py::array& a, const char* what) {
  if (!same_dtype(py::dtype::of<T>(), a.dtype())) {
    throw py::type_error(std::string(what) + ": arrays must share one float dtype");
  }
  if (!(a.flags() & py::array::c_style)) {
    throw std::invalid_argument(std::string(what) + ": arrays must be C-contiguous");
  }
  return static_cast<const T*>(a.data());
}

template <typename T>
inline T* output_data(py::array& a, const char* what) {
  if (!a.writeable()) throw std::invalid_argument(std::string(what) + ": output is read-only");
  return const_cast<T*>(input_data<T>(a, what));
}

// Runs kernel(args...) without the GIL when it touches at least kReleaseFrom elements
// (below that, releasing and taking back the GIL costs more than the other thread gains).
// The arguments are evaluated, and checked, before: the kernel sees raw pointers only.
constexpr std::int64_t kReleaseFrom = 1 << 12;

template <typename F, typename... Args>
inline void run_kernel(std::int64_t elements, F&& kernel, Args... args) {
  if (elements < kReleaseFrom) {
    kernel(args...);
    return;
  }
  torch_core::GilRelease nogil;
  kernel(args...);
}

// An optional bias (None: absent) must be an array: a TypeError for anything else.
inline py::array optional_array(const py::object& obj, const char* what, const char* name) {
  if (obj.is_none()) return py::array();
  return torch_core::checks::array_arg(obj, what, name);
}

inline void check_size(const py::array& a, std::int64_t expected, const char* what) {
  if (a.size() != expected) {
    throw std::invalid_argument(std::string(what) + ": expected " + std::to_string(expected) +
                                " elements, got " + std::to_string(a.size()));
  }
}

}  // namespace nn
}  // namespace torch_core
