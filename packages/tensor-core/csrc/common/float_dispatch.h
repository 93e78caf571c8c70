// One entry point for the float32 and float64 instances of a kernel template.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include "common/checks.h"

namespace torch_core {

// fn(float{}) or fn(double{}) by `dtype`, the tag choosing the template instance
// (`[&](auto tag) { return kernel<decltype(tag)>(...); }`); another dtype raises
// TypeError(message).
template <typename F>
decltype(auto) by_float_dtype(const pybind11::dtype& dtype, const char* message, F&& fn) {
  if (same_dtype(dtype, pybind11::dtype::of<float>())) return fn(float{});
  if (same_dtype(dtype, pybind11::dtype::of<double>())) return fn(double{});
  throw pybind11::type_error(message);
}

}  // namespace torch_core
