// torch._C bindings of the fused optimizer updates (optim_kernels.h). Each function takes
// lists of NumPy arrays, one entry per parameter (a multi-tensor step is one call), checks
// every array (dtype, C-contiguity, size, writability) before touching any, and runs with
// the GIL released.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/checks.h"
#include "common/gil.h"
#include "optim/kernels.h"
#include "common/parallel.h"

using torch_core::same_dtype;

namespace py = pybind11;
namespace opt = torch_core::optim;

namespace {

// list[i] as an array: a TypeError for anything else (checked before its size is read).
py::array item_of(const py::list& list, std::size_t i, const char* what) {
  const py::handle item = list[i];
  if (!py::isinstance<py::array>(item)) {
    throw py::type_error(std::string(what) + " must be NumPy arrays, got " +
                         std::string(py::str(py::type::handle_of(item).attr("__name__"))));
  }
  return py::reinterpret_borrow<py::array>(item);
}

py::ssize_t size_of(const py::list& list, std::size_t i, const char* what) {
  return item_of(list, i, what).size();
}

// The data of list[i] as a C-contiguous array of T with n elements (n < 0: any size).
template <typename T>
T* data_of(const py::list& list, std::size_t i, py::ssize_t n, bool write, const char* what) {
  auto array = item_of(list, i, what);
  if (!same_dtype(py::dtype::of<T>(), array.dtype())) {
    throw py::type_error(std::string(what) + ": every array must have the parameters' dtype");
  }
  if (!(array.flags() & py::array::c_style)) {
    throw std::invalid_argument(std::string(what) + ": arrays must be C-contiguous");
  }
  if (n >= 0 && array.size() != n) {
    throw std::invalid_argument(std::string(what) + ": size " + std::to_string(array.size()) +
                                " does not match the parameter's " + std::to_string(n));
  }
  if (write && !array.writeable()) {
    throw std::invalid_argument(std::string(what) + ": arrays must be writable");
  }
  return static_cast<T*>(const_cast<void*>(array.data()));
}

// An optional list (None: absent) must match the parameters one to one.
bool present(const py::object& list, std::size_t count, const char* what) {
  if (!torch_core::checks::optional_list(list, "optimizer kernels", what)) return false;
  if (py::len(list) != count) {
    throw std::invalid_argument(std::string(what) + " must have one entry per parameter");
  }
  return true;
}

void same_length(const py::list& a, std::size_t count, const char* what) {
  if (py::len(a) != count) {
    throw std::invalid_argument(std::string(what) + " must have one entry per parameter");
  }
}

int pool_threads(int threads) { return torch_core::checks::threads_or_default(threads); }

// Strong references to every array of the given lists (None entries skipped) for as long
// as a kernel runs without the GIL: another thread may empty a list meanwhile, which must
// not free an array the kernel writes to. Declared before the GIL guard, it is released
// after the GIL is back.
class Held {
 public:
  Held(std::initializer_list<py::handle> lists) {
    for (py::handle list : lists) {
      if (!list.is_none()) items_.push_back(py::tuple(py::reinterpret_borrow<py::object>(list)));
    }
  }

 private:
  std::vector<py::tuple> items_;
};

bool is_float32(const py::list& params) {
  if (py::len(params) == 0) return true;
  const py::handle first = params[0];
  if (!py::isinstance<py::array>(first)) {
    throw py::type_error("optimizer kernels: params must be NumPy arrays");
  }
  const auto dtype = py::reinterpret_borrow<py::array>(first).dtype();
  if (same_dtype(py::dtype::of<float>(), dtype)) return true;
  if (same_dtype(py::dtype::of<double>(), dtype)) return false;
  throw py::type_error("optimizer kernels: parameters must be float32 or float64");
}

// typed(T{}) with T the parameters' dtype, float or double (a TypeError for others).
template <typename Typed>
void by_param_dtype(const py::list& params, Typed&& typed) {
  if (is_float32(params)) typed(float{});
  else typed(double{});
}

// ------------------------------------------------------------------ Adam / AdamW

// The arrays of Adam-like updates (NAdam, RAdam too), checked; max_sqs only with amsgrad.
template <typename T>
std::vector<opt::AdamTensors<T>> adam_tensors(const py::list& params, const py::list& grads,
                                              const py::list& exp_avgs,
                                              const py::list& exp_avg_sqs,
                                              const py::object& max_sqs, bool amsgrad) {
  const std::size_t count = py::len(params);
  same_length(grads, count, "grads");
  same_length(exp_avgs, count, "exp_avgs");
  same_length(exp_avg_sqs, count, "exp_avg_sqs");
  std::vector<opt::AdamTensors<T>> work(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto n = size_of(params, i, "params");
    auto& t = work[i];
    t.param = data_of<T>(params, i, -1, true, "params");
    t.n = static_cast<std::size_t>(n);
    t.grad = data_of<T>(grads, i, n, false, "grads");
    t.exp_avg = data_of<T>(exp_avgs, i, n, true, "exp_avgs");
    t.exp_avg_sq = data_of<T>(exp_avg_sqs, i, n, true, "exp_avg_sqs");
    t.max_exp_avg_sq =
        amsgrad ? data_of<T>(py::reinterpret_borrow<py::list>(max_sqs), i, n, true,
                             "max_exp_avg_sqs")
                : nullptr;
  }
  return work;
}

void check_per_parameter(const std::vector<double>& values, std::size_t count, const char* what) {
  if (values.size() != count) {
    throw std::invalid_argument(std::string(what) + " must have one entry per parameter");
  }
}

// step(arrays, i) for every parameter i of an Adam-like update (Adam, NAdam, RAdam), in
// the parameters' dtype: every array is checked first, the lists' arrays are held, and
// the steps run without the GIL (they touch only those arrays).
template <typename Step>
void each_adam_parameter(const py::list& params, const py::list& grads,
                         const py::list& exp_avgs, const py::list& exp_avg_sqs,
                         const py::object& max_sqs, bool amsgrad, Step&& step) {
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const auto work = adam_tensors<T>(params, grads, exp_avgs, exp_avg_sqs, max_sqs, amsgrad);
    const Held held{params, grads, exp_avgs, exp_avg_sqs, max_sqs};
    torch_core::GilRelease nogil;
    for (std::size_t i = 0; i < work.size(); ++i) step(work[i], i);
  };
  by_param_dtype(params, run);
}

void check_decay(int decay, const char* what) {
  if (decay < 0 || decay > 2) {
    throw std::invalid_argument(std::string(what) + ": decay must be 0, 1 or 2");
  }
}

void adam_step(const py::list& params, const py::list& grads, const py::list& exp_avgs,
               const py::list& exp_avg_sqs, const py::object& max_sqs,
               const std::vector<double>& neg_steps, const std::vector<double>& bc2_sqrts,
               double lerp_weight, double beta2, double one_minus_beta2, double eps,
               double weight_decay, double decay_factor, bool maximize, int decay,
               int threads, bool exact_sqrt) {
  check_decay(decay, "adam_step");
  opt::AdamHyper h{lerp_weight, beta2,   one_minus_beta2, eps, weight_decay, decay_factor,
                   0.0,         0.0,     maximize,        false, static_cast<opt::Decay>(decay),
                   exact_sqrt};
  threads = pool_threads(threads);
  const std::size_t count = py::len(params);
  if (neg_steps.size() != count || bc2_sqrts.size() != count) {
    throw std::invalid_argument("adam_step: one step size and bias correction per parameter");
  }
  h.amsgrad = present(max_sqs, count, "max_exp_avg_sqs");
  each_adam_parameter(params, grads, exp_avgs, exp_avg_sqs, max_sqs, h.amsgrad,
                      [&](auto& arrays, std::size_t i) {
                        h.neg_step_size = neg_steps[i];
                        h.bc2_sqrt = bc2_sqrts[i];
                        opt::adam_step(arrays, h, threads);
                      });
}

// ------------------------------------------------------------------ NAdam, RAdam

void nadam_step(const py::list& params, const py::list& grads, const py::list& exp_avgs,
                const py::list& exp_avg_sqs, const std::vector<double>& bias_corrections2,
                const std::vector<double>& grad_coefs, const std::vector<double>& avg_coefs,
                double lerp_weight, double beta2, double one_minus_beta2, double eps,
                double weight_decay, double decay_factor, bool maximize, int decay,
                int threads) {
  check_decay(decay, "nadam_step");
  const std::size_t count = py::len(params);
  check_per_parameter(bias_corrections2, count, "bias_corrections2");
  check_per_parameter(grad_coefs, count, "grad_coefs");
  check_per_parameter(avg_coefs, count, "avg_coefs");
  opt::NadamHyper h{lerp_weight, beta2, one_minus_beta2, eps, weight_decay, decay_factor,
                    0.0, 0.0, 0.0, maximize, static_cast<opt::Decay>(decay)};
  threads = pool_threads(threads);
  each_adam_parameter(params, grads, exp_avgs, exp_avg_sqs, py::none(), false,
                      [&](auto& arrays, std::size_t i) {
                        h.bias_correction2 = bias_corrections2[i];
                        h.grad_coef = grad_coefs[i];
                        h.avg_coef = avg_coefs[i];
                        opt::nadam_step(arrays, h, threads);
                      });
}

void radam_step(const py::list& params, const py::list& grads, const py::list& exp_avgs,
                const py::list& exp_avg_sqs, const std::vector<double>& bias_corrections1,
                const std::vector<double>& bc2_sqrts, const std::vector<double>& rectifications,
                const std::vector<bool>& rectified, double lerp_weight, double beta2,
                double one_minus_beta2, double eps, double weight_decay, double decay_factor,
                double lr, bool maximize, int decay, int threads) {
  check_decay(decay, "radam_step");
  const std::size_t count = py::len(params);
  check_per_parameter(bias_corrections1, count, "bias_corrections1");
  check_per_parameter(bc2_sqrts, count, "bc2_sqrts");
  check_per_parameter(rectifications, count, "rectifications");
  if (rectified.size() != count) {
    throw std::invalid_argument("rectified must have one entry per parameter");
  }
  opt::RadamHyper h{lerp_weight, beta2, one_minus_beta2, eps, weight_decay, decay_factor, 0.0,
                    0.0, lr, 0.0, false, maximize, static_cast<opt::Decay>(decay)};
  threads = pool_threads(threads);
  each_adam_parameter(params, grads, exp_avgs, exp_avg_sqs, py::none(), false,
                      [&](auto& arrays, std::size_t i) {
                        h.bias_correction1 = bias_corrections1[i];
                        h.bc2_sqrt = bc2_sqrts[i];
                        h.rectification = rectifications[i];
                        h.rectified = rectified[i];
                        opt::radam_step(arrays, h, threads);
                      });
}

// ------------------------------------------------------------------ SGD

template <typename T>
void sgd_typed(const py::list& params, const py::list& grads, const py::object& bufs,
               const std::vector<bool>& first, opt::SgdHyper h, int threads) {
  const std::size_t count = py::len(params);
  same_length(grads, count, "grads");
  const bool momentum = present(bufs, count, "momentum_buffers");
  if (momentum && first.size() != count) {
    throw std::invalid_argument("sgd_step: one 'first' flag per parameter");
  }
  std::vector<T*> ps(count), bs(count, nullptr);
  std::vector<const T*> gs(count);
  std::vector<std::size_t> ns(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto n = size_of(params, i, "params");
    ps[i] = data_of<T>(params, i, -1, true, "params");
    gs[i] = data_of<T>(grads, i, n, false, "grads");
    if (momentum) bs[i] = data_of<T>(py::reinterpret_borrow<py::list>(bufs), i, n, true, "bufs");
    ns[i] = static_cast<std::size_t>(n);
  }
  const Held held{params, grads, bufs};
  torch_core::GilRelease nogil;
  for (std::size_t i = 0; i < count; ++i) {
    h.first = momentum && first[i];
    opt::sgd_step(ps[i], gs[i], bs[i], ns[i], h, threads);
  }
}

void sgd_step(const py::list& params, const py::list& grads, const py::object& bufs,
              const std::vector<bool>& first, double weight_decay, double momentum,
              double one_minus_dampening, double neg_lr, bool maximize, bool nesterov,
              int threads) {
  opt::SgdHyper h{weight_decay, momentum, one_minus_dampening, neg_lr, maximize, nesterov, false};
  threads = pool_threads(threads);
  by_param_dtype(params, [&](auto tag) {
    sgd_typed<decltype(tag)>(params, grads, bufs, first, h, threads);
  });
}

// ------------------------------------------------------------------ RMSprop

template <typename T>
void rmsprop_typed(const py::list& params, const py::list& grads, const py::list& square_avgs,
                   const py::object& grad_avgs, const py::object& bufs,
                   const opt::RmspropHyper& h, int threads) {
  const std::size_t count = py::len(params);
  same_length(grads, count, "grads");
  same_length(square_avgs, count, "square_avgs");
  const bool centered = present(grad_avgs, count, "grad_avgs");
  const bool momentum = present(bufs, count, "momentum_buffers");
  if (centered != h.centered || momentum != (h.momentum > 0)) {
    throw std::invalid_argument("rmsprop_step: buffers do not match the options");
  }
  struct Item {
    T* p;
    const T* g;
    T* sq;
    T* ga;
    T* buf;
    std::size_t n;
  };
  std::vector<Item> items(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto n = size_of(params, i, "params");
    auto& it = items[i];
    it.p = data_of<T>(params, i, -1, true, "params");
    it.g = data_of<T>(grads, i, n, false, "grads");
    it.sq = data_of<T>(square_avgs, i, n, true, "square_avgs");
    it.ga = centered ? data_of<T>(py::reinterpret_borrow<py::list>(grad_avgs), i, n, true,
                                  "grad_avgs")
                     : nullptr;
    it.buf = momentum ? data_of<T>(py::reinterpret_borrow<py::list>(bufs), i, n, true, "bufs")
                      : nullptr;
    it.n = static_cast<std::size_t>(n);
  }
  const Held held{params, grads, square_avgs, grad_avgs, bufs};
  torch_core::GilRelease nogil;
  for (const auto& it : items) opt::rmsprop_step(it.p, it.g, it.sq, it.ga, it.buf, it.n, h, threads);
}

void rmsprop_step(const py::list& params, const py::list& grads, const py::list& square_avgs,
                  const py::object& grad_avgs, const py::object& bufs, double alpha,
                  double one_minus_alpha, double eps, double weight_decay, double momentum,
                  double neg_lr, bool maximize, bool centered, int threads) {
  const opt::RmspropHyper h{alpha, one_minus_alpha, eps, weight_decay, momentum, neg_lr,
                            maximize, centered};
  threads = pool_threads(threads);
  by_param_dtype(params, [&](auto tag) {
    rmsprop_typed<decltype(tag)>(params, grads, square_avgs, grad_avgs, bufs, h, threads);
  });
}

// ------------------------------------------------------------------ Adagrad

template <typename T>
void adagrad_typed(const py::list& params, const py::list& grads, const py::list& state_sums,
                   const std::vector<double>& neg_clrs, opt::AdagradHyper h, int threads) {
  const std::size_t count = py::len(params);
  same_length(grads, count, "grads");
  same_length(state_sums, count, "state_sums");
  if (neg_clrs.size() != count) {
    throw std::invalid_argument("adagrad_step: one learning rate per parameter");
  }
  std::vector<T*> ps(count), ss(count);
  std::vector<const T*> gs(count);
  std::vector<std::size_t> ns(count);
  for (std::size_t i = 0; i < count; ++i) {
    const auto n = size_of(params, i, "params");
    ps[i] = data_of<T>(params, i, -1, true, "params");
    gs[i] = data_of<T>(grads, i, n, false, "grads");
    ss[i] = data_of<T>(state_sums, i, n, true, "state_sums");
    ns[i] = static_cast<std::size_t>(n);
  }
  const Held held{params, grads, state_sums};
  torch_core::GilRelease nogil;
  for (std::size_t i = 0; i < count; ++i) {
    h.neg_clr = neg_clrs[i];
    opt::adagrad_step(ps[i], gs[i], ss[i], ns[i], h, threads);
  }
}

void adagrad_step(const py::list& params, const py::list& grads, const py::list& state_sums,
                  const std::vector<double>& neg_clrs, double weight_decay, double eps,
                  bool maximize, int threads, bool exact_sqrt) {
  const opt::AdagradHyper h{weight_decay, eps, 0.0, maximize, exact_sqrt};
  threads = pool_threads(threads);
  by_param_dtype(params, [&](auto tag) {
    adagrad_typed<decltype(tag)>(params, grads, state_sums, neg_clrs, h, threads);
  });
}

// ------------------------------------------------------------------ Adamax, Adadelta
// Both keep two state arrays per parameter: (param, grad, first, second) per entry.

template <typename T>
struct TwoStates {
  std::vector<T*> p, a, b;
  std::vector<const T*> g;
  std::vector<std::size_t> n;
};

template <typename T>
TwoStates<T> two_states(const py::list& params, const py::list& grads, const py::list& firsts,
                        const py::list& seconds, const char* first_name,
                        const char* second_name) {
  const std::size_t count = py::len(params);
  same_length(grads, count, "grads");
  same_length(firsts, count, first_name);
  same_length(seconds, count, second_name);
  TwoStates<T> t;
  for (std::size_t i = 0; i < count; ++i) {
    const auto n = size_of(params, i, "params");
    t.p.push_back(data_of<T>(params, i, -1, true, "params"));
    t.g.push_back(data_of<T>(grads, i, n, false, "grads"));
    t.a.push_back(data_of<T>(firsts, i, n, true, first_name));
    t.b.push_back(data_of<T>(seconds, i, n, true, second_name));
    t.n.push_back(static_cast<std::size_t>(n));
  }
  return t;
}

template <typename T>
void adamax_typed(const py::list& params, const py::list& grads, const py::list& exp_avgs,
                  const py::list& exp_infs, const std::vector<double>& neg_clrs,
                  opt::AdamaxHyper h, int threads) {
  auto t = two_states<T>(params, grads, exp_avgs, exp_infs, "exp_avgs", "exp_infs");
  if (neg_clrs.size() != t.p.size()) {
    throw std::invalid_argument("adamax_step: one learning rate per parameter");
  }
  const Held held{params, grads, exp_avgs, exp_infs};
  torch_core::GilRelease nogil;
  for (std::size_t i = 0; i < t.p.size(); ++i) {
    h.neg_clr = neg_clrs[i];
    opt::adamax_step(t.p[i], t.g[i], t.a[i], t.b[i], t.n[i], h, threads);
  }
}

void adamax_step(const py::list& params, const py::list& grads, const py::list& exp_avgs,
                 const py::list& exp_infs, const std::vector<double>& neg_clrs,
                 double lerp_weight, double beta2, double eps, double weight_decay,
                 bool maximize, int threads) {
  const opt::AdamaxHyper h{lerp_weight, beta2, eps, weight_decay, 0.0, maximize};
  threads = pool_threads(threads);
  by_param_dtype(params, [&](auto tag) {
    adamax_typed<decltype(tag)>(params, grads, exp_avgs, exp_infs, neg_clrs, h, threads);
  });
}

template <typename T>
void adadelta_typed(const py::list& params, const py::list& grads, const py::list& square_avgs,
                    const py::list& acc_deltas, const opt::AdadeltaHyper& h, int threads) {
  auto t = two_states<T>(params, grads, square_avgs, acc_deltas, "square_avgs", "acc_deltas");
  const Held held{params, grads, square_avgs, acc_deltas};
  torch_core::GilRelease nogil;
  for (std::size_t i = 0; i < t.p.size(); ++i) {
    opt::adadelta_step(t.p[i], t.g[i], t.a[i], t.b[i], t.n[i], h, threads);
  }
}

void adadelta_step(const py::list& params, const py::list& grads, const py::list& square_avgs,
                   const py::list& acc_deltas, double rho, double one_minus_rho, double eps,
                   double weight_decay, double neg_lr, bool maximize, int threads) {
  const opt::AdadeltaHyper h{rho, one_minus_rho, eps, weight_decay, neg_lr, maximize};
  threads = pool_threads(threads);
  by_param_dtype(params, [&](auto tag) {
    adadelta_typed<decltype(tag)>(params, grads, square_avgs, acc_deltas, h, threads);
  });
}

// ------------------------------------------------------------------ ASGD

void asgd_step(const py::list& params, const py::list& grads, const py::list& axs,
               const std::vector<double>& decays, const std::vector<double>& neg_etas,
               const std::vector<double>& mus, double weight_decay, bool maximize, int threads) {
  const std::size_t count = py::len(params);
  same_length(grads, count, "grads");
  same_length(axs, count, "axs");
  check_per_parameter(decays, count, "decays");
  check_per_parameter(neg_etas, count, "neg_etas");
  check_per_parameter(mus, count, "mus");
  opt::AsgdHyper h{weight_decay, 0.0, 0.0, 0.0, false, maximize};
  threads = pool_threads(threads);
  auto run = [&](auto tag) {
    using T = decltype(tag);
    std::vector<T*> ps, as;
    std::vector<const T*> gs;
    std::vector<std::size_t> ns;
    for (std::size_t i = 0; i < count; ++i) {
      const auto n = size_of(params, i, "params");
      ps.push_back(data_of<T>(params, i, -1, true, "params"));
      gs.push_back(data_of<T>(grads, i, n, false, "grads"));
      as.push_back(data_of<T>(axs, i, n, true, "axs"));
      ns.push_back(static_cast<std::size_t>(n));
    }
    const Held held{params, grads, axs};
    torch_core::GilRelease nogil;
    for (std::size_t i = 0; i < count; ++i) {
      h.decay = decays[i];
      h.neg_eta = neg_etas[i];
      h.mu = mus[i];
      h.averaging = mus[i] != 1.0;
      opt::asgd_step(ps[i], gs[i], as[i], ns[i], h, threads);
    }
  };
  by_param_dtype(params, run);
}

// ------------------------------------------------------------------ square roots

void sqrt_in_place(py::array a) {
  const auto n = static_cast<std::size_t>(a.size());
  py::list one;
  one.append(a);
  if (same_dtype(py::dtype::of<float>(), a.dtype())) {
    float* data = data_of<float>(one, 0, -1, true, "optim_sqrt_");
    torch_core::GilRelease nogil;
    opt::vml_sqrt(data, data, n);
  } else if (same_dtype(py::dtype::of<double>(), a.dtype())) {
    double* data = data_of<double>(one, 0, -1, true, "optim_sqrt_");
    torch_core::GilRelease nogil;
    opt::vml_sqrt(data, data, n);
  } else {
    throw py::type_error("optim_sqrt_: array must be float32 or float64");
  }
}

}  // namespace

void register_optim(py::module_& m) {
  m.def("optim_vml_load", &opt::vml_load, py::arg("path"),
        "Load VML's sqrt (MKL's libmkl_rt) for the optimizer kernels; true once loaded.");
  m.def("optim_vml_loaded", &opt::vml_loaded);
  m.def("adamax_step", &adamax_step, py::arg("params"), py::arg("grads"), py::arg("exp_avgs"),
        py::arg("exp_infs"), py::arg("neg_clrs"), py::arg("lerp_weight"), py::arg("beta2"),
        py::arg("eps"), py::arg("weight_decay"), py::arg("maximize"), py::arg("threads") = 0,
        "One Adamax step over lists of arrays, in place.");
  m.def("adadelta_step", &adadelta_step, py::arg("params"), py::arg("grads"),
        py::arg("square_avgs"), py::arg("acc_deltas"), py::arg("rho"), py::arg("one_minus_rho"),
        py::arg("eps"), py::arg("weight_decay"), py::arg("neg_lr"), py::arg("maximize"),
        py::arg("threads") = 0, "One Adadelta step over lists of arrays, in place.");
  m.def("asgd_step", &asgd_step, py::arg("params"), py::arg("grads"), py::arg("axs"),
        py::arg("decays"), py::arg("neg_etas"), py::arg("mus"), py::arg("weight_decay"),
        py::arg("maximize"), py::arg("threads") = 0,
        "One ASGD step over lists of arrays, in place (mu == 1: the average copies the parameter).");
  m.def("optim_sqrt_", &sqrt_in_place, py::arg("a"),
        "Square roots of a C-contiguous float array in place, as the optimizer kernels take them.");
  m.def("adam_step", &adam_step, py::arg("params"), py::arg("grads"), py::arg("exp_avgs"),
        py::arg("exp_avg_sqs"), py::arg("max_exp_avg_sqs"), py::arg("neg_step_sizes"),
        py::arg("bc2_sqrts"), py::arg("lerp_weight"), py::arg("beta2"),
        py::arg("one_minus_beta2"), py::arg("eps"), py::arg("weight_decay"),
        py::arg("decay_factor"), py::arg("maximize"), py::arg("decay"), py::arg("threads") = 0,
        py::arg("exact_sqrt") = false,
        "One Adam/AdamW step over lists of arrays, in place (decay: 0 none, 1 L2, 2 decoupled; "
        "exact_sqrt: correctly rounded roots, as PyTorch's fused=True).");
  m.def("nadam_step", &nadam_step, py::arg("params"), py::arg("grads"), py::arg("exp_avgs"),
        py::arg("exp_avg_sqs"), py::arg("bias_corrections2"), py::arg("grad_coefs"),
        py::arg("avg_coefs"), py::arg("lerp_weight"), py::arg("beta2"),
        py::arg("one_minus_beta2"), py::arg("eps"), py::arg("weight_decay"),
        py::arg("decay_factor"), py::arg("maximize"), py::arg("decay"), py::arg("threads") = 0,
        "One NAdam step over lists of arrays, in place (decay: 0 none, 1 L2, 2 decoupled).");
  m.def("radam_step", &radam_step, py::arg("params"), py::arg("grads"), py::arg("exp_avgs"),
        py::arg("exp_avg_sqs"), py::arg("bias_corrections1"), py::arg("bc2_sqrts"),
        py::arg("rectifications"), py::arg("rectified"), py::arg("lerp_weight"),
        py::arg("beta2"), py::arg("one_minus_beta2"), py::arg("eps"), py::arg("weight_decay"),
        py::arg("decay_factor"), py::arg("lr"), py::arg("maximize"), py::arg("decay"),
        py::arg("threads") = 0,
        "One RAdam step over lists of arrays, in place (decay: 0 none, 1 L2, 2 decoupled).");
  m.def("sgd_step", &sgd_step, py::arg("params"), py::arg("grads"), py::arg("bufs"),
        py::arg("first"), py::arg("weight_decay"), py::arg("momentum"),
        py::arg("one_minus_dampening"), py::arg("neg_lr"), py::arg("maximize"),
        py::arg("nesterov"), py::arg("threads") = 0,
        "One SGD step over lists of arrays, in place (bufs None without momentum).");
  m.def("rmsprop_step", &rmsprop_step, py::arg("params"), py::arg("grads"),
        py::arg("square_avgs"), py::arg("grad_avgs"), py::arg("bufs"), py::arg("alpha"),
        py::arg("one_minus_alpha"), py::arg("eps"), py::arg("weight_decay"), py::arg("momentum"),
        py::arg("neg_lr"), py::arg("maximize"), py::arg("centered"), py::arg("threads") = 0,
        "One RMSprop step over lists of arrays, in place.");
  m.def("adagrad_step", &adagrad_step, py::arg("params"), py::arg("grads"),
        py::arg("state_sums"), py::arg("neg_clrs"), py::arg("weight_decay"), py::arg("eps"),
        py::arg("maximize"), py::arg("threads") = 0, py::arg("exact_sqrt") = false,
        "One Adagrad step (dense gradients) over lists of arrays, in place.");
}
