#include "optim/kernels.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "common/dynlib.h"
#include "common/isa.h"
#include "common/parallel.h"

namespace torch_core {
namespace optim {

// One set of element loops per instruction-set tier, from optim/kernels.inc.
#define TORCH_CORE_DECLARE_OPTIM(tier)                                                        \
  namespace tier {                                                                           \
  template <typename T>                                                                      \
  void adam_range(const AdamTensors<T>&, std::size_t, std::size_t, const AdamHyper&);        \
  template <typename T>                                                                      \
  void sgd_range(T*, const T*, T*, std::size_t, std::size_t, const SgdHyper&);               \
  template <typename T>                                                                      \
  void rmsprop_range(T*, const T*, T*, T*, T*, std::size_t, std::size_t, const RmspropHyper&); \
  template <typename T>                                                                      \
  void adagrad_range(T*, const T*, T*, std::size_t, std::size_t, const AdagradHyper&);       \
  template <typename T>                                                                      \
  void adamax_range(T*, const T*, T*, T*, std::size_t, std::size_t, const AdamaxHyper&);     \
  template <typename T>                                                                      \
  void adadelta_range(T*, const T*, T*, T*, std::size_t, std::size_t, const AdadeltaHyper&); \
  template <typename T>                                                                      \
  void asgd_range(T*, const T*, T*, std::size_t, std::size_t, const AsgdHyper&);             \
  template <typename T>                                                                      \
  void nadam_range(const AdamTensors<T>&, std::size_t, std::size_t, const NadamHyper&);      \
  template <typename T>                                                                      \
  void radam_range(const AdamTensors<T>&, std::size_t, std::size_t, const RadamHyper&);      \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_OPTIM)
#undef TORCH_CORE_DECLARE_OPTIM

namespace dynlib = torch_core::dynlib;

namespace {

// Below this many elements one thread does the whole update (as PyTorch's grain size).
constexpr std::size_t kParallelMin = std::size_t{1} << 15;

// body(begin, end) over [0, n), split over the pool for large n. Chunks start at multiples
// of 64 elements so that threads never share a cache line.
template <typename F>
void split(std::size_t n, int threads, F&& body) {
  if (n < kParallelMin || threads <= 1) {
    body(std::size_t{0}, n);
    return;
  }
  const std::size_t lines = (n + 63) / 64;
  parallel_for(lines, threads, [&](std::size_t b, std::size_t e, int) {
    body(b * 64, std::min(n, e * 64));
  });
}

// ------------------------------------------------------------------ VML square roots
// VML's mode: high accuracy, denormals kept, errors ignored (as PyTorch calls it).
constexpr long long kVmlMode = 0x2 | 0x140000 | 0x100;

using VmsSqrt = void (*)(int, const float*, float*, long long);
using VmdSqrt = void (*)(int, const double*, double*, long long);

// VML takes its length as a 32-bit int: longer arrays go in chunks
constexpr std::size_t kVmlChunk = std::size_t{1} << 30;

std::atomic<VmsSqrt> vms_sqrt{nullptr};
std::atomic<VmdSqrt> vmd_sqrt{nullptr};
std::mutex vml_mutex;
std::string vml_path;

// The library's results on exact squares (one subnormal, where a flush-to-zero mode
// would show): a library that disagrees is not used.
bool vml_sane(VmsSqrt s, VmdSqrt d) {
  const float fin[4] = {4.0f, 2.25f, 0.0f, std::ldexp(1.0f, -140)};
  const double din[4] = {4.0, 2.25, 0.0, std::ldexp(1.0, -1060)};
  float fout[4];
  double dout[4];
  s(4, fin, fout, kVmlMode);
  d(4, din, dout, kVmlMode);
  for (int i = 0; i < 4; ++i) {
    if (fout[i] != std::sqrt(fin[i]) || dout[i] != std::sqrt(din[i])) return false;
  }
  return true;
}

}  // namespace

bool vml_load(const std::string& path) {
  std::lock_guard<std::mutex> guard(vml_mutex);
  if (vms_sqrt.load()) return vml_path == path;
  std::string error;
  void* handle = dynlib::open(path, &error);
  if (!handle) throw std::runtime_error("cannot load VML library: " + error);
  auto s = dynlib::symbol<VmsSqrt>(handle, "vmsSqrt");
  auto d = dynlib::symbol<VmdSqrt>(handle, "vmdSqrt");
  if (!s || !d) {
    dynlib::close(handle);
    return false;
  }
  dynlib::use_sequential_mkl(handle);  // as blas/gemm.cpp asks
  if (!vml_sane(s, d)) {
    dynlib::close(handle);
    return false;
  }
  vml_path = path;
  vmd_sqrt.store(d);
  vms_sqrt.store(s);
  return true;
}

bool vml_loaded() { return vms_sqrt.load() != nullptr; }

namespace {

// out = sqrt(in) by VML's `root` (long arrays in chunks: VML takes a 32-bit length), or by
// std::sqrt when no VML is loaded.
template <typename T, typename Root>
void sqrt_by(Root root, const T* in, T* out, std::size_t n) {
  if (root == nullptr) {
    for (std::size_t i = 0; i < n; ++i) out[i] = std::sqrt(in[i]);
    return;
  }
  for (std::size_t done = 0; done < n; done += kVmlChunk) {
    const std::size_t count = std::min(kVmlChunk, n - done);
    root(static_cast<int>(count), in + done, out + done, kVmlMode);
  }
}

}  // namespace

void vml_sqrt(const float* in, float* out, std::size_t n) {
  sqrt_by(vms_sqrt.load(std::memory_order_relaxed), in, out, n);
}

void vml_sqrt(const double* in, double* out, std::size_t n) {
  sqrt_by(vmd_sqrt.load(std::memory_order_relaxed), in, out, n);
}

// ------------------------------------------------------------------ dispatch

// Each step picks its tier's loop once, then splits the elements over threads.

template <typename T>
void adam_step(const AdamTensors<T>& t, const AdamHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(adam_range<T>);
  split(t.n, threads, [&](std::size_t b, std::size_t e) { range(t, b, e, h); });
}

template <typename T>
void sgd_step(T* param, const T* grad, T* buf, std::size_t n, const SgdHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(sgd_range<T>);
  split(n, threads, [&](std::size_t b, std::size_t e) { range(param, grad, buf, b, e, h); });
}

template <typename T>
void rmsprop_step(T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, std::size_t n,
                  const RmspropHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(rmsprop_range<T>);
  split(n, threads, [&](std::size_t b, std::size_t e) { range(param, grad, square_avg, grad_avg, buf, b, e, h); });
}

template <typename T>
void adagrad_step(T* param, const T* grad, T* state_sum, std::size_t n, const AdagradHyper& h,
                  int threads) {
  const auto range = TORCH_CORE_PICK(adagrad_range<T>);
  split(n, threads, [&](std::size_t b, std::size_t e) { range(param, grad, state_sum, b, e, h); });
}

template <typename T>
void adamax_step(T* param, const T* grad, T* exp_avg, T* exp_inf, std::size_t n,
                 const AdamaxHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(adamax_range<T>);
  split(n, threads, [&](std::size_t b, std::size_t e) { range(param, grad, exp_avg, exp_inf, b, e, h); });
}

template <typename T>
void adadelta_step(T* param, const T* grad, T* square_avg, T* acc_delta, std::size_t n,
                   const AdadeltaHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(adadelta_range<T>);
  split(n, threads, [&](std::size_t b, std::size_t e) { range(param, grad, square_avg, acc_delta, b, e, h); });
}

template <typename T>
void asgd_step(T* param, const T* grad, T* ax, std::size_t n, const AsgdHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(asgd_range<T>);
  split(n, threads, [&](std::size_t b, std::size_t e) { range(param, grad, ax, b, e, h); });
}

template <typename T>
void nadam_step(const AdamTensors<T>& t, const NadamHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(nadam_range<T>);
  split(t.n, threads, [&](std::size_t b, std::size_t e) { range(t, b, e, h); });
}

template <typename T>
void radam_step(const AdamTensors<T>& t, const RadamHyper& h, int threads) {
  const auto range = TORCH_CORE_PICK(radam_range<T>);
  split(t.n, threads, [&](std::size_t b, std::size_t e) { range(t, b, e, h); });
}

#define TORCH_CORE_OPTIM_INSTANTIATE(T)                                                       \
  template void adam_step<T>(const AdamTensors<T>&, const AdamHyper&, int);                   \
  template void sgd_step<T>(T*, const T*, T*, std::size_t, const SgdHyper&, int);             \
  template void rmsprop_step<T>(T*, const T*, T*, T*, T*, std::size_t, const RmspropHyper&,   \
                                int);                                                         \
  template void adagrad_step<T>(T*, const T*, T*, std::size_t, const AdagradHyper&, int);     \
  template void adamax_step<T>(T*, const T*, T*, T*, std::size_t, const AdamaxHyper&, int);   \
  template void adadelta_step<T>(T*, const T*, T*, T*, std::size_t, const AdadeltaHyper&, int); \
  template void asgd_step<T>(T*, const T*, T*, std::size_t, const AsgdHyper&, int);           \
  template void nadam_step<T>(const AdamTensors<T>&, const NadamHyper&, int);                 \
  template void radam_step<T>(const AdamTensors<T>&, const RadamHyper&, int);
TORCH_CORE_OPTIM_INSTANTIATE(float)
TORCH_CORE_OPTIM_INSTANTIATE(double)
#undef TORCH_CORE_OPTIM_INSTANTIATE

}  // namespace optim
}  // namespace torch_core
