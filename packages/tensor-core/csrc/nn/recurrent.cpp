// Native pieces of torch.nn's hot training paths, recurrent part: the time loops of the
// LSTM, GRU and RNN layers and the pointwise part of one LSTM step (forward and backward).
// Why native: NumPy needs a pass (and a temporary) per gate formula, and these run once
// per time step; one loop here reads each element once. References: torch._ops.nn_fused
// (the NumPy versions, also used when TORCH_NATIVE=0).
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
#include <type_traits>
#include <utility>
#include <vector>

#include "common/checks.h"
#include "common/float_dispatch.h"
#include "common/gil.h"
#include "common/parallel.h"
#include "common/registry.h"
#include "nn/arrays.h"
#include "nn/kernels.h"

using torch_core::same_dtype;
using namespace torch_core::nn;  // NOLINT: the family's own helpers

namespace py = pybind11;

namespace {

// Tells the loops to use the CBLAS library at `path` (loaded already by blas_load, as
// Python calls it); false, and the loops unchanged, when it cannot be loaded or lacks GEMM.
bool nn_use_blas(const std::string& path) {
  void* handle = torch_core::dynlib::open(path, nullptr);
  if (!handle) return false;
  const torch_core::cblas::Gemm gemm = torch_core::cblas::find_gemm(handle);
  if (!gemm.complete()) return false;
  step_gemm = gemm;
  return true;
}

// The tier-picked kernel `fn_f32` or `fn_f64` for the float type T of a dtype dispatch.
template <typename T, typename F32, typename F64>
auto for_float(F32 f32, F64 f64) {
  if constexpr (std::is_same_v<T, float>) {
    return f32;
  } else {
    return f64;
  }
}
#define PICK_FLOAT(T, fn) for_float<T>(TORCH_CORE_PICK(fn##_f32), TORCH_CORE_PICK(fn##_f64))

// The dtype dispatch of every binding here: fn(T{}) for float32 or float64 arrays.
template <typename F>
void by_float(const py::array& a, const char* what, F&& fn) {
  const std::string refusal = std::string(what) + ": arrays must be float32 or float64";
  torch_core::by_float_dtype(a.dtype(), refusal.c_str(), std::forward<F>(fn));
}

// "k * hidden" as the shape errors write a width of k gates (just "hidden" for one).
std::string gate_width(int gates) {
  return gates == 1 ? "hidden" : std::to_string(gates) + " * hidden";
}

struct LayerDims {
  std::int64_t steps, batch, hidden;
};

// The sizes of a layer's time loop from its (T, B, gates * hidden) per-step array `name`
// and its recurrent weight, (hidden, gates * hidden) when `transposed` (w_hh_t), else
// (gates * hidden, hidden) (w_hh).
LayerDims layer_dims(const py::array& per_step, const char* name, const py::array& w,
                     bool transposed, int gates, const char* what) {
  const std::string width = gate_width(gates);
  if (per_step.ndim() != 3 || per_step.shape(2) % gates != 0 || w.ndim() != 2) {
    throw std::invalid_argument(std::string(what) + ": " + name + " must be (T, B, " + width +
                                ")");
  }
  LayerDims d{per_step.shape(0), per_step.shape(1), per_step.shape(2) / gates};
  const std::int64_t rows = transposed ? d.hidden : gates * d.hidden;
  const std::int64_t cols = transposed ? gates * d.hidden : d.hidden;
  if (w.shape(0) != rows || w.shape(1) != cols) {
    const std::string shape = transposed ? "(hidden, " + width + ")" : "(" + width + ", hidden)";
    throw std::invalid_argument(std::string(what) + ": " + (transposed ? "w_hh_t" : "w_hh") +
                                " must be " + shape);
  }
  return d;
}

// The optional recurrent bias of `gates * hidden` values (None: absent).
py::array layer_bias(const py::object& b_hh, std::int64_t size, const char* what) {
  const py::array bias = optional_array(b_hh, what, "b_hh");
  if (!b_hh.is_none()) check_size(bias, size, what);
  return bias;
}

template <typename T>
const T* bias_data(const py::object& b_hh, const py::array& bias, const char* what) {
  return b_hh.is_none() ? nullptr : input_data<T>(bias, what);
}

void lstm_cell_forward(py::array& z, const py::array& c_prev, py::array& c, py::array& h,
                       py::array& tanh_c) {
  const char* what = "lstm_cell_forward";
  if (z.ndim() != 2 || z.shape(1) % 4 != 0) {
    throw std::invalid_argument("lstm_cell_forward: gates must be (batch, 4 * hidden)");
  }
  const std::int64_t batch = z.shape(0), hidden = z.shape(1) / 4;
  for (const py::array* a : {&c_prev, static_cast<const py::array*>(&c),
                             static_cast<const py::array*>(&h),
                             static_cast<const py::array*>(&tanh_c)}) {
    check_size(*a, batch * hidden, what);
  }
  by_float(z, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(z.size(), PICK_FLOAT(T, lstm_cell_forward), output_data<T>(z, what),
               input_data<T>(c_prev, what), output_data<T>(c, what), output_data<T>(h, what),
               output_data<T>(tanh_c, what), batch, hidden);
  });
}

void lstm_cell_backward(const py::array& z, const py::array& c_prev, const py::array& tanh_c,
                        const py::array& dh, py::array& dc, py::array& dz) {
  const char* what = "lstm_cell_backward";
  if (z.ndim() != 2 || z.shape(1) % 4 != 0) {
    throw std::invalid_argument("lstm_cell_backward: gates must be (batch, 4 * hidden)");
  }
  const std::int64_t batch = z.shape(0), hidden = z.shape(1) / 4;
  for (const py::array* a : {&c_prev, &tanh_c, &dh, static_cast<const py::array*>(&dc)}) {
    check_size(*a, batch * hidden, what);
  }
  check_size(dz, batch * 4 * hidden, what);
  by_float(z, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(dz.size(), PICK_FLOAT(T, lstm_cell_backward), input_data<T>(z, what),
               input_data<T>(c_prev, what), input_data<T>(tanh_c, what), input_data<T>(dh, what),
               output_data<T>(dc, what), output_data<T>(dz, what), batch, hidden);
  });
}

void gru_layer_forward(const py::array& projected, const py::array& w_hh_t, const py::object& b_hh,
                       py::array& hs, py::array& gates, py::array& hn) {
  const char* what = "gru_layer_forward";
  const LayerDims dims = layer_dims(projected, "projected", w_hh_t, true, 3, what);
  const std::int64_t steps = dims.steps, batch = dims.batch, hidden = dims.hidden;
  check_size(hs, (steps + 1) * batch * hidden, what);
  check_size(gates, steps * batch * 3 * hidden, what);
  check_size(hn, steps * batch * hidden, what);
  const py::array bias = layer_bias(b_hh, 3 * hidden, what);
  by_float(projected, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(projected.size(), PICK_FLOAT(T, gru_layer_forward),
               input_data<T>(projected, what), input_data<T>(w_hh_t, what),
               bias_data<T>(b_hh, bias, what), output_data<T>(hs, what),
               output_data<T>(gates, what), output_data<T>(hn, what), steps, batch, hidden);
  });
}

// grad (T, B, H); hs, gates, hn as gru_layer_forward left them; w_hh (3H, H). Writes
// dgx, dgh (T, B, 3H) and dh0 (B, H).
void gru_layer_backward(const py::array& grad, const py::array& hs, const py::array& gates,
                        const py::array& hn, const py::array& w_hh, py::array& dgx,
                        py::array& dgh, py::array& dh0) {
  const char* what = "gru_layer_backward";
  const LayerDims dims = layer_dims(gates, "gates", w_hh, false, 3, what);
  const std::int64_t steps = dims.steps, batch = dims.batch, hidden = dims.hidden;
  check_size(grad, steps * batch * hidden, what);
  check_size(hs, (steps + 1) * batch * hidden, what);
  check_size(hn, steps * batch * hidden, what);
  check_size(dgx, steps * batch * 3 * hidden, what);
  check_size(dgh, steps * batch * 3 * hidden, what);
  check_size(dh0, batch * hidden, what);
  by_float(gates, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(dgx.size(), PICK_FLOAT(T, gru_layer_backward), input_data<T>(grad, what),
               input_data<T>(hs, what), input_data<T>(gates, what), input_data<T>(hn, what),
               input_data<T>(w_hh, what), output_data<T>(dgx, what), output_data<T>(dgh, what),
               output_data<T>(dh0, what), steps, batch, hidden);
  });
}

void rnn_layer_forward(const py::array& projected, const py::array& w_hh_t,
                       const py::object& b_hh, py::array& hs, bool relu) {
  const char* what = "rnn_layer_forward";
  const LayerDims dims = layer_dims(projected, "projected", w_hh_t, true, 1, what);
  const std::int64_t steps = dims.steps, batch = dims.batch, hidden = dims.hidden;
  check_size(hs, (steps + 1) * batch * hidden, what);
  const py::array bias = layer_bias(b_hh, hidden, what);
  by_float(projected, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(hs.size(), PICK_FLOAT(T, rnn_layer_forward), input_data<T>(projected, what),
               input_data<T>(w_hh_t, what), bias_data<T>(b_hh, bias, what),
               output_data<T>(hs, what), steps, batch, hidden, relu);
  });
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
  by_float(hs, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(hs.size(), PICK_FLOAT(T, rnn_layer_backward), input_data<T>(grad, what),
               input_data<T>(hs, what), input_data<T>(w_hh, what), output_data<T>(dz, what),
               output_data<T>(dh0, what), steps, batch, hidden, relu);
  });
}

// projected (T, B, 4H), w_hh_t (H, 4H), b_hh (4H) or None; hs, cs (T + 1, B, H) with row
// 0 set; gates (T, B, 4H) and tanh_cs (T, B, H) written.
void lstm_layer_forward(const py::array& projected, const py::array& w_hh_t,
                        const py::object& b_hh, py::array& hs, py::array& cs, py::array& gates,
                        py::array& tanh_cs) {
  const char* what = "lstm_layer_forward";
  const LayerDims dims = layer_dims(projected, "projected", w_hh_t, true, 4, what);
  const std::int64_t steps = dims.steps, batch = dims.batch, hidden = dims.hidden;
  check_size(hs, (steps + 1) * batch * hidden, what);
  check_size(cs, (steps + 1) * batch * hidden, what);
  check_size(gates, steps * batch * 4 * hidden, what);
  check_size(tanh_cs, steps * batch * hidden, what);
  const py::array bias = layer_bias(b_hh, 4 * hidden, what);
  by_float(projected, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(projected.size(), PICK_FLOAT(T, lstm_layer_forward),
               input_data<T>(projected, what), input_data<T>(w_hh_t, what),
               bias_data<T>(b_hh, bias, what), output_data<T>(hs, what), output_data<T>(cs, what),
               output_data<T>(gates, what), output_data<T>(tanh_cs, what), steps, batch, hidden);
  });
}

// grad (T + 1, B, H); gates, cs, tanh_cs as lstm_layer_forward left them; w_hh (4H, H).
// Writes dz (T, B, 4H), dh0 and dc0 (B, H).
void lstm_layer_backward(const py::array& grad, const py::array& gates, const py::array& cs,
                         const py::array& tanh_cs, const py::array& w_hh, py::array& dz,
                         py::array& dh0, py::array& dc0) {
  const char* what = "lstm_layer_backward";
  const LayerDims dims = layer_dims(gates, "gates", w_hh, false, 4, what);
  const std::int64_t steps = dims.steps, batch = dims.batch, hidden = dims.hidden;
  check_size(grad, (steps + 1) * batch * hidden, what);
  check_size(cs, (steps + 1) * batch * hidden, what);
  check_size(tanh_cs, steps * batch * hidden, what);
  check_size(dz, steps * batch * 4 * hidden, what);
  check_size(dh0, batch * hidden, what);
  check_size(dc0, batch * hidden, what);
  by_float(gates, what, [&](auto tag) {
    using T = decltype(tag);
    run_kernel(dz.size(), PICK_FLOAT(T, lstm_layer_backward), input_data<T>(grad, what),
               input_data<T>(gates, what), input_data<T>(cs, what), input_data<T>(tanh_cs, what),
               input_data<T>(w_hh, what), output_data<T>(dz, what), output_data<T>(dh0, what),
               output_data<T>(dc0, what), steps, batch, hidden);
  });
}

// ------------------------------------------------------- LSTM layer, whole sequence

// The pointer of an optional array (None: null) of the layer's dtype, checked for size.
template <typename T>
const T* optional_data(const py::object& obj, std::int64_t size, const char* what,
                       const char* name) {
  if (obj.is_none()) return nullptr;
  const py::array a = optional_array(obj, what, name);
  check_size(a, size, what);
  return input_data<T>(a, what);
}

template <typename T>
py::array_t<T> new_array(std::initializer_list<std::int64_t> shape) {
  return py::array_t<T>(std::vector<py::ssize_t>(shape.begin(), shape.end()));
}

// An output array, new, or None where it is not wanted (its data pointer then null).
template <typename T>
py::object wanted_array(bool wanted, std::initializer_list<std::int64_t> shape, T** data) {
  if (!wanted) {
    *data = nullptr;
    return py::none();
  }
  auto a = new_array<T>(shape);
  *data = a.mutable_data();
  return std::move(a);
}

// x (T, B, I), w_ih (4H, I), w_hh (4H, H): the layer's sizes, checked.
LstmLayer<float> layer_sizes(const py::array& x, const py::array& w_ih, const py::array& w_hh,
                             const char* what) {
  if (x.ndim() != 3 || w_ih.ndim() != 2 || w_hh.ndim() != 2) {
    throw std::invalid_argument(std::string(what) +
                                ": x must be (T, B, I), w_ih (4H, I) and w_hh (4H, H)");
  }
  const std::int64_t hidden = w_hh.shape(1);
  if (w_hh.shape(0) != 4 * hidden || w_ih.shape(0) != 4 * hidden ||
      w_ih.shape(1) != x.shape(2)) {
    throw std::invalid_argument(std::string(what) + ": w_ih must be (4H, I) and w_hh (4H, H)");
  }
  return LstmLayer<float>{x.shape(0), x.shape(1), x.shape(2), hidden, nullptr, nullptr, nullptr};
}

template <typename T>
LstmLayer<T> typed_layer(const LstmLayer<float>& sizes, const py::array& x,
                         const py::array& w_ih, const py::array& w_hh, const char* what) {
  return LstmLayer<T>{sizes.steps,           sizes.batch,
                      sizes.input,           sizes.hidden,
                      input_data<T>(x, what), input_data<T>(w_ih, what),
                      input_data<T>(w_hh, what)};
}

template <typename T>
py::tuple lstm_sequence_forward_typed(const LstmLayer<float>& sizes, const py::array& x,
                                      const py::object& h0, const py::object& c0,
                                      const py::array& w_ih, const py::array& w_hh,
                                      const py::object& b_ih, const py::object& b_hh,
                                      bool want_packed) {
  const char* what = "lstm_sequence_forward";
  const LstmLayer<T> layer = typed_layer<T>(sizes, x, w_ih, w_hh, what);
  const std::int64_t steps = layer.steps, batch = layer.batch, hidden = layer.hidden;
  const std::int64_t state = batch * hidden;
  const T* h0_data = optional_data<T>(h0, state, what, "h0");
  const T* c0_data = optional_data<T>(c0, state, what, "c0");
  const T* b_ih_data = optional_data<T>(b_ih, 4 * hidden, what, "b_ih");
  const T* b_hh_data = optional_data<T>(b_hh, 4 * hidden, what, "b_hh");
  T* out = nullptr;
  py::object packed = wanted_array<T>(want_packed, {steps + 1, batch, hidden}, &out);
  auto hs = new_array<T>({steps + 1, batch, hidden});
  auto cs = new_array<T>({steps + 1, batch, hidden});
  auto gates = new_array<T>({steps, batch, 4 * hidden});
  auto tanh_cs = new_array<T>({steps, batch, hidden});
  const LstmStates<T> states{hs.mutable_data(), cs.mutable_data(), gates.mutable_data(),
                             tanh_cs.mutable_data()};
  run_kernel(gates.size(), [&] {
    if constexpr (std::is_same_v<T, float>) {
      TORCH_CORE_PICK(lstm_sequence_forward_f32)(layer, h0_data, c0_data, b_ih_data, b_hh_data,
                                                  states, out);
    } else {
      TORCH_CORE_PICK(lstm_sequence_forward_f64)(layer, h0_data, c0_data, b_ih_data, b_hh_data,
                                                  states, out);
    }
  });
  return py::make_tuple(hs, cs, gates, tanh_cs, packed);
}

// One LSTM layer over a whole sequence (h0, c0 None: zeros; biases None: none): returns
// (hs, cs, gates, tanh_cs, packed). hs and cs (T + 1, B, H) hold the initial state and
// every later one, gates and tanh_cs what the backward pass reads too; packed (T + 1, B,
// H), every h_t then c_T, is made only when asked for (else None).
py::tuple lstm_sequence_forward(const py::array& x, const py::object& h0, const py::object& c0,
                                const py::array& w_ih, const py::array& w_hh,
                                const py::object& b_ih, const py::object& b_hh, bool packed) {
  const LstmLayer<float> sizes = layer_sizes(x, w_ih, w_hh, "lstm_sequence_forward");
  if (same_dtype(x.dtype(), py::dtype::of<float>())) {
    return lstm_sequence_forward_typed<float>(sizes, x, h0, c0, w_ih, w_hh, b_ih, b_hh, packed);
  }
  if (same_dtype(x.dtype(), py::dtype::of<double>())) {
    return lstm_sequence_forward_typed<double>(sizes, x, h0, c0, w_ih, w_hh, b_ih, b_hh,
                                               packed);
  }
  throw py::type_error("lstm_sequence_forward: arrays must be float32 or float64");
}

template <typename T>
py::tuple lstm_sequence_backward_typed(const LstmLayer<float>& sizes, const py::object& grad_hs,
                                       const py::object& grad_hy, const py::object& grad_cy,
                                       const py::array& x, const py::array& w_ih,
                                       const py::array& w_hh, const py::array& hs,
                                       const py::array& cs, const py::array& gates,
                                       const py::array& tanh_cs, const std::vector<bool>& wanted) {
  const char* what = "lstm_sequence_backward";
  const LstmLayer<T> layer = typed_layer<T>(sizes, x, w_ih, w_hh, what);
  const std::int64_t steps = layer.steps, batch = layer.batch, hidden = layer.hidden;
  const std::int64_t states_size = (steps + 1) * batch * hidden;
  for (const py::array* a : {&hs, &cs}) check_size(*a, states_size, what);
  check_size(gates, steps * batch * 4 * hidden, what);
  check_size(tanh_cs, steps * batch * hidden, what);
  const LstmStates<const T> states{input_data<T>(hs, what), input_data<T>(cs, what),
                                   input_data<T>(gates, what), input_data<T>(tanh_cs, what)};
  const LstmOutputGradients<T> grad{
      optional_data<T>(grad_hs, steps * batch * hidden, what, "grad_hs"),
      optional_data<T>(grad_hy, batch * hidden, what, "grad_hy"),
      optional_data<T>(grad_cy, batch * hidden, what, "grad_cy")};
  LstmGradients<T> out{};
  py::object dx = wanted_array<T>(wanted[0], {steps, batch, layer.input}, &out.dx);
  py::object dh0 = wanted_array<T>(wanted[1], {batch, hidden}, &out.dh0);
  py::object dc0 = wanted_array<T>(wanted[2], {batch, hidden}, &out.dc0);
  py::object dw_ih = wanted_array<T>(wanted[3], {4 * hidden, layer.input}, &out.dw_ih);
  py::object dw_hh = wanted_array<T>(wanted[4], {4 * hidden, hidden}, &out.dw_hh);
  py::object db = wanted_array<T>(wanted[5], {4 * hidden}, &out.db);
  run_kernel(gates.size(), [&] {
    if constexpr (std::is_same_v<T, float>) {
      TORCH_CORE_PICK(lstm_sequence_backward_f32)(layer, states, grad, out);
    } else {
      TORCH_CORE_PICK(lstm_sequence_backward_f64)(layer, states, grad, out);
    }
  });
  return py::make_tuple(dx, dh0, dc0, dw_ih, dw_hh, db);
}

// Back through lstm_sequence_forward: grad_hs (T, B, H) is the gradient of every h_t,
// grad_hy and grad_cy (B, H) of the final h and c as outputs of their own (each None: no
// gradient); wanted names the gradients to compute, in the order returned: (dx, dh0, dc0,
// dw_ih, dw_hh, db), None for each one not wanted (db is the gradient of b_ih and b_hh).
py::tuple lstm_sequence_backward(const py::object& grad_hs, const py::object& grad_hy,
                                 const py::object& grad_cy, const py::array& x,
                                 const py::array& w_ih, const py::array& w_hh,
                                 const py::array& hs, const py::array& cs, const py::array& gates,
                                 const py::array& tanh_cs, const std::vector<bool>& wanted) {
  const char* what = "lstm_sequence_backward";
  if (wanted.size() != 6) {
    throw std::invalid_argument("lstm_sequence_backward: wanted must hold 6 flags");
  }
  const LstmLayer<float> sizes = layer_sizes(x, w_ih, w_hh, what);
  if (same_dtype(x.dtype(), py::dtype::of<float>())) {
    return lstm_sequence_backward_typed<float>(sizes, grad_hs, grad_hy, grad_cy, x, w_ih, w_hh,
                                               hs, cs, gates, tanh_cs, wanted);
  }
  if (same_dtype(x.dtype(), py::dtype::of<double>())) {
    return lstm_sequence_backward_typed<double>(sizes, grad_hs, grad_hy, grad_cy, x, w_ih,
                                                w_hh, hs, cs, gates, tanh_cs, wanted);
  }
  throw py::type_error("lstm_sequence_backward: arrays must be float32 or float64");
}

}  // namespace

void register_nn_recurrent(py::module_& m) {
  m.def("nn_use_blas", &nn_use_blas, py::arg("path"),
        "Use the CBLAS library at path (already loaded by blas_load) in the LSTM loops.");
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
  m.def("lstm_sequence_forward", &lstm_sequence_forward, py::arg("x"), py::arg("h0"),
        py::arg("c0"), py::arg("w_ih"), py::arg("w_hh"), py::arg("b_ih"), py::arg("b_hh"),
        py::arg("packed"),
        "One LSTM layer over a sequence, input projection included (see recurrent.cpp).");
  m.def("lstm_sequence_backward", &lstm_sequence_backward, py::arg("grad_hs"),
        py::arg("grad_hy"), py::arg("grad_cy"), py::arg("x"),
        py::arg("w_ih"), py::arg("w_hh"), py::arg("hs"), py::arg("cs"), py::arg("gates"),
        py::arg("tanh_cs"), py::arg("wanted"),
        "Back through lstm_sequence_forward: the wanted gradients (dx, dh0, dc0, dw_ih, "
        "dw_hh, db).");
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
