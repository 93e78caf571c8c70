// The loops of the nn family that are compiled per instruction-set tier (nn/kernels.inc,
// common/isa.h): the 2x2 max pool of a plane and the time loops of the LSTM, GRU and RNN
// layers (with the LSTM cell's pointwise step), and a whole LSTM layer with its input
// projection and weight gradients. The bindings (nn/pooling.cpp,
// nn/recurrent.cpp) check the arrays and call the best tier through TORCH_CORE_PICK_AVX2.
#pragma once

#include <cstdint>

#include "blas/cblas.h"
#include "common/isa.h"

// Small helpers inlined into the loops whatever the compiler's own judgement.
#if defined(__GNUC__)
#define TORCH_NN_INLINE inline __attribute__((always_inline))
#else
#define TORCH_NN_INLINE inline
#endif

namespace torch_core {
namespace nn {

// On the baseline tier the products of the recurrent loops go to the CBLAS library that
// blas/gemm.cpp loaded (MKL: about 3x faster than an SSE2 loop); nn_use_blas looks its gemm
// functions up in that same library (loading a loaded library gives its handle). Empty (the
// tiled product of nn/tile_gemm.h) until nn_use_blas sets it. The AVX2 and AVX-512 tiers
// use the tiled product for all but large products (see kernels.inc).
inline cblas::Gemm step_gemm;

// One LSTM layer over a whole sequence (lstm_sequence_forward/backward): sizes, the input and
// the weights, in PyTorch's layouts.
template <typename T>
struct LstmLayer {
  std::int64_t steps, batch, input, hidden;
  const T* x;     // (T, B, I)
  const T* w_ih;  // (4H, I)
  const T* w_hh;  // (4H, H)
};

// What the forward pass keeps for the backward pass: the states before and after every
// step, hs and cs (T + 1, B, H; row 0 the initial state), the activated gates (T, B, 4H)
// and tanh of every new cell state (T, B, H). T is const for the backward pass's reading.
template <typename T>
struct LstmStates {
  T* hs;
  T* cs;
  T* gates;
  T* tanh_cs;
};

// The gradients of the layer's outputs that the backward pass reads; null: none (zeros).
template <typename T>
struct LstmOutputGradients {
  const T* hs;  // (T, B, H): of every h_t
  const T* hy;  // (B, H): of the final h (as an output of its own)
  const T* cy;  // (B, H): of the final c
};

// The gradients the backward pass writes; a null one is not wanted (and not computed).
template <typename T>
struct LstmGradients {
  T* dx;     // (T, B, I)
  T* dh0;    // (B, H)
  T* dc0;    // (B, H)
  T* dw_ih;  // (4H, I)
  T* dw_hh;  // (4H, H)
  T* db;     // (4H): the gradient of b_ih and of b_hh alike
};

#define TORCH_CORE_DECLARE_NN(tier) \
  namespace tier { \
  void max_pool_2x2_plane_f32(const float* plane, std::int64_t width, std::int64_t out_h, std::int64_t out_w, float* best, std::int64_t* where); \
  void max_pool_2x2_plane_f64(const double* plane, std::int64_t width, std::int64_t out_h, std::int64_t out_w, double* best, std::int64_t* where); \
  void lstm_cell_forward_f32(float* z, const float* c_prev, float* c, float* h, float* tanh_c, std::int64_t batch, std::int64_t hidden); \
  void lstm_cell_forward_f64(double* z, const double* c_prev, double* c, double* h, double* tanh_c, std::int64_t batch, std::int64_t hidden); \
  void lstm_cell_backward_f32(const float* z, const float* c_prev, const float* tanh_c, const float* dh, float* dc, float* dz, std::int64_t batch, std::int64_t hidden); \
  void lstm_cell_backward_f64(const double* z, const double* c_prev, const double* tanh_c, const double* dh, double* dc, double* dz, std::int64_t batch, std::int64_t hidden); \
  void lstm_layer_forward_f32(const float* projected, const float* w_hh_t, const float* b_hh, float* hs, float* cs, float* gates, float* tanh_cs, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void lstm_layer_forward_f64(const double* projected, const double* w_hh_t, const double* b_hh, double* hs, double* cs, double* gates, double* tanh_cs, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void lstm_layer_backward_f32(const float* grad, const float* gates, const float* cs, const float* tanh_cs, const float* w_hh, float* dz, float* dh0, float* dc0, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void lstm_layer_backward_f64(const double* grad, const double* gates, const double* cs, const double* tanh_cs, const double* w_hh, double* dz, double* dh0, double* dc0, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void gru_layer_forward_f32(const float* projected, const float* w_hh_t, const float* b_hh, float* hs, float* gates, float* hn, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void gru_layer_forward_f64(const double* projected, const double* w_hh_t, const double* b_hh, double* hs, double* gates, double* hn, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void gru_layer_backward_f32(const float* grad, const float* hs, const float* gates, const float* hn, const float* w_hh, float* dgx, float* dgh, float* dh0, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void gru_layer_backward_f64(const double* grad, const double* hs, const double* gates, const double* hn, const double* w_hh, double* dgx, double* dgh, double* dh0, std::int64_t steps, std::int64_t batch, std::int64_t hidden); \
  void rnn_layer_forward_f32(const float* projected, const float* w_hh_t, const float* b_hh, float* hs, std::int64_t steps, std::int64_t batch, std::int64_t hidden, bool relu); \
  void rnn_layer_forward_f64(const double* projected, const double* w_hh_t, const double* b_hh, double* hs, std::int64_t steps, std::int64_t batch, std::int64_t hidden, bool relu); \
  void rnn_layer_backward_f32(const float* grad, const float* hs, const float* w_hh, float* dz, float* dh0, std::int64_t steps, std::int64_t batch, std::int64_t hidden, bool relu); \
  void rnn_layer_backward_f64(const double* grad, const double* hs, const double* w_hh, double* dz, double* dh0, std::int64_t steps, std::int64_t batch, std::int64_t hidden, bool relu); \
  void lstm_sequence_forward_f32(const LstmLayer<float>& layer, const float* h0, const float* c0, const float* b_ih, const float* b_hh, const LstmStates<float>& states, float* packed); \
  void lstm_sequence_forward_f64(const LstmLayer<double>& layer, const double* h0, const double* c0, const double* b_ih, const double* b_hh, const LstmStates<double>& states, double* packed); \
  void lstm_sequence_backward_f32(const LstmLayer<float>& layer, const LstmStates<const float>& states, const LstmOutputGradients<float>& grad, const LstmGradients<float>& out); \
  void lstm_sequence_backward_f64(const LstmLayer<double>& layer, const LstmStates<const double>& states, const LstmOutputGradients<double>& grad, const LstmGradients<double>& out); \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_NN)
#undef TORCH_CORE_DECLARE_NN

}  // namespace nn
}  // namespace torch_core
