// Python bindings of the random family: the MT19937 engine (random/mt19937.h). Its methods
// keep the GIL: it is what serialises two threads drawing from one generator (PyTorch uses
// a mutex for the same purpose).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/checks.h"
#include "common/registry.h"
#include "random/mt19937.h"

using torch_core::checked_output;
using torch_core::same_dtype;

namespace py = pybind11;

using torch_core::MT19937;

namespace {

void set_state(MT19937& gen, py::array_t<uint32_t, py::array::c_style | py::array::forcecast> key,
               int pos) {
  if (key.ndim() != 1 || key.shape(0) != MT19937::kStateSize) {
    throw std::invalid_argument("MT19937 state must be 624 uint32 words, got " +
                                std::to_string(key.size()) + " words");
  }
  if (pos < 0 || pos > MT19937::kStateSize) {
    throw std::invalid_argument("MT19937 position must be in [0, 624], got " +
                                std::to_string(pos));
  }
  gen.set_state(key.data(), pos);
}

py::tuple get_state(const MT19937& gen) {
  py::array_t<uint32_t> key(MT19937::kStateSize);
  std::copy(gen.key(), gen.key() + MT19937::kStateSize, key.mutable_data());
  return py::make_tuple(key, gen.pos());
}

}  // namespace

void register_random(py::module_& m) {
  py::class_<MT19937>(m, "MT19937", "Mersenne Twister engine, bit-compatible with PyTorch's CPU generator.")
      .def(py::init<uint64_t>(), py::arg("seed") = 5489)
      .def("seed", &MT19937::seed_with, py::arg("seed"))
      .def("get_state", &get_state)
      .def("set_state", &set_state, py::arg("key"), py::arg("pos"))
      .def(
          "random_raw",
          [](MT19937& gen, py::ssize_t n) {
            if (n < 0) throw std::invalid_argument("random_raw: n must be non-negative");
            py::array_t<uint32_t> out(n);
            gen.fill_u32(out.mutable_data(), static_cast<std::size_t>(n));
            return out;
          },
          py::arg("n"))
      .def(
          "fill_uniform",
          [](MT19937& gen, py::array out, double low, double high) {
            const auto n = static_cast<std::size_t>(out.size());
            if (same_dtype(py::dtype::of<float>(), out.dtype())) {
              float* data = checked_output<float>(out, "fill_uniform");
              gen.fill_uniform_f32(data, n, static_cast<float>(low), static_cast<float>(high));
            } else if (same_dtype(py::dtype::of<double>(), out.dtype())) {
              double* data = checked_output<double>(out, "fill_uniform");
              gen.fill_uniform_f64(data, n, low, high);
            } else {
              throw py::type_error("fill_uniform: output must be float32 or float64");
            }
          },
          py::arg("out"), py::arg("low"), py::arg("high"))
      .def(
          "fill_normal",
          [](MT19937& gen, py::array out, double mean, double stddev) {
            const auto n = static_cast<std::size_t>(out.size());
            if (same_dtype(py::dtype::of<float>(), out.dtype())) {
              gen.fill_normal_f32(checked_output<float>(out, "fill_normal"), n, mean, stddev);
            } else if (same_dtype(py::dtype::of<double>(), out.dtype())) {
              gen.fill_normal_f64(checked_output<double>(out, "fill_normal"), n, mean, stddev);
            } else {
              throw py::type_error("fill_normal: output must be float32 or float64");
            }
          },
          py::arg("out"), py::arg("mean"), py::arg("std"))
      .def(
          "randperm",
          [](MT19937& gen, int64_t n) {
            if (n < 0) throw std::invalid_argument("randperm: n must be non-negative");
            py::array_t<int64_t> out(n);
            gen.randperm(out.mutable_data(), n);
            return out;
          },
          py::arg("n"))
      .def_property(
          "cached_normal",
          [](const MT19937& gen) -> py::object {
            if (!gen.has_cached_normal) return py::none();
            return py::float_(gen.cached_normal);
          },
          [](MT19937& gen, py::object value) {
            gen.has_cached_normal = !value.is_none();
            gen.cached_normal = value.is_none() ? 0.0 : value.cast<double>();
          });
}
