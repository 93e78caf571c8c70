// Fused optimizer updates (Adam/AdamW, SGD, RMSprop, Adagrad) over contiguous float32 /
// float64 tensors, for torch.optim. Why native: PyTorch runs one update as up to ten
// vectorised, threaded element-wise passes; the same passes through NumPy cost about twice
// as long. Here each element is updated in one pass over memory, with exactly PyTorch's
// roundings, operation by operation: its add-with-alpha, lerp and addcmul kernels round
// once per multiply-add (an FMA), its addcdiv and plain arithmetic round every operation,
// and its sqrt is Intel MKL's VML sqrt (high-accuracy mode, not always correctly rounded),
// which is called here too once MKL is loaded (vml_load), so trajectories stay
// bit-identical to PyTorch's. Without MKL the square root is the correctly rounded one.
#pragma once

#include <cstddef>
#include <string>

namespace torch_core {
namespace optim {

// Loads VML's sqrt from a shared library (MKL's libmkl_rt) and checks it on a few values;
// true once loaded. A second path is refused while the first stays in use.
bool vml_load(const std::string& path);
bool vml_loaded();

// out[i] = sqrt(in[i]) for i < n: VML's when loaded, else std::sqrt. in may equal out.
// (PyTorch's single-tensor and foreach updates take VML's roots, its fused=True CPU
// kernels correctly rounded ones.)
void vml_sqrt(const float* in, float* out, std::size_t n);
void vml_sqrt(const double* in, double* out, std::size_t n);

enum class Decay { kNone, kL2, kDecoupled };

// Python floats of one Adam step, computed in double precision as PyTorch does; the
// kernels round each to the tensor's dtype, as PyTorch's scalar arguments are.
struct AdamHyper {
  double lerp_weight;      // 1 - beta1
  double beta2;
  double one_minus_beta2;  // 1 - beta2
  double eps;
  double weight_decay;     // L2: grad + weight_decay * param
  double decay_factor;     // decoupled: param * (1 - lr * weight_decay)
  double bc2_sqrt;         // sqrt(1 - beta2 ** step)
  double neg_step_size;    // -lr / (1 - beta1 ** step)
  bool maximize;
  bool amsgrad;
  Decay decay;
  bool exact_sqrt;  // correctly rounded roots, as PyTorch's fused=True kernels take them
};

template <typename T>
struct AdamTensors {
  T* param;
  const T* grad;
  T* exp_avg;
  T* exp_avg_sq;
  T* max_exp_avg_sq;  // amsgrad only
  std::size_t n;
};

template <typename T>
void adam_step(const AdamTensors<T>& t, const AdamHyper& h, int threads);

struct SgdHyper {
  double weight_decay;
  double momentum;             // 0: no buffer
  double one_minus_dampening;
  double neg_lr;
  bool maximize;
  bool nesterov;
  bool first;  // the buffer starts as the (decayed) gradient
};

// buf may be null when momentum is 0.
template <typename T>
void sgd_step(T* param, const T* grad, T* buf, std::size_t n, const SgdHyper& h, int threads);

struct RmspropHyper {
  double alpha;
  double one_minus_alpha;
  double eps;
  double weight_decay;
  double momentum;  // 0: no buffer
  double neg_lr;
  bool maximize;
  bool centered;
};

// grad_avg is used when centered, buf when momentum > 0 (null otherwise).
template <typename T>
void rmsprop_step(T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, std::size_t n,
                  const RmspropHyper& h, int threads);

struct AdagradHyper {
  double weight_decay;
  double eps;
  double neg_clr;  // -lr / (1 + (step - 1) * lr_decay)
  bool maximize;
  bool exact_sqrt;
};

template <typename T>
void adagrad_step(T* param, const T* grad, T* state_sum, std::size_t n, const AdagradHyper& h,
                  int threads);

struct AdamaxHyper {
  double lerp_weight;  // 1 - beta1
  double beta2;
  double eps;
  double weight_decay;
  double neg_clr;  // -lr / (1 - beta1 ** step)
  bool maximize;
};

template <typename T>
void adamax_step(T* param, const T* grad, T* exp_avg, T* exp_inf, std::size_t n,
                 const AdamaxHyper& h, int threads);

struct AdadeltaHyper {
  double rho;
  double one_minus_rho;
  double eps;
  double weight_decay;
  double neg_lr;
  bool maximize;
};

template <typename T>
void adadelta_step(T* param, const T* grad, T* square_avg, T* acc_delta, std::size_t n,
                   const AdadeltaHyper& h, int threads);

// NAdam: Adam's moments, then two addcdiv steps along the gradient and the first moment.
struct NadamHyper {
  double lerp_weight;  // 1 - beta1
  double beta2;
  double one_minus_beta2;
  double eps;
  double weight_decay;
  double decay_factor;
  double bias_correction2;  // 1 - beta2 ** step
  double grad_coef;         // -lr * (1 - mu) / (1 - mu_product)
  double avg_coef;          // -lr * mu_next / (1 - mu_product * mu_next)
  bool maximize;
  Decay decay;
};

// RAdam: Adam's moments, then the rectified adaptive step (rectified) or plain momentum.
struct RadamHyper {
  double lerp_weight;
  double beta2;
  double one_minus_beta2;
  double eps;
  double weight_decay;
  double decay_factor;
  double bias_correction1;
  double bc2_sqrt;
  double lr;
  double rectification;
  bool rectified;  // rho_t > 5
  bool maximize;
  Decay decay;
};

struct AsgdHyper {
  double weight_decay;
  double decay;    // 1 - lambd * eta
  double neg_eta;
  double mu;       // averaging weight
  bool averaging;  // mu != 1 (else the average is a copy of the parameter)
  bool maximize;
};

template <typename T>
void asgd_step(T* param, const T* grad, T* ax, std::size_t n, const AsgdHyper& h, int threads);

template <typename T>
void nadam_step(const AdamTensors<T>& t, const NadamHyper& h, int threads);

template <typename T>
void radam_step(const AdamTensors<T>& t, const RadamHyper& h, int threads);

}  // namespace optim
}  // namespace torch_core
