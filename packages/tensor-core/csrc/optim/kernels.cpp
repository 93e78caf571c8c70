#include "optim_kernels.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <stdexcept>

#include "parallel.h"

namespace torch_core {
namespace optim {

// One set of element loops per instruction set, from optim_kernels.inc.
#define TORCH_CORE_DECLARE_OPTIM(isa)                                                        \
  namespace isa {                                                                            \
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
TORCH_CORE_DECLARE_OPTIM(avx512)
TORCH_CORE_DECLARE_OPTIM(avx2)
TORCH_CORE_DECLARE_OPTIM(baseline)
#undef TORCH_CORE_DECLARE_OPTIM

namespace {

enum class Isa { kAvx512, kAvx2, kBaseline };

Isa best_isa() {
#if defined(__GNUC__) && defined(__x86_64__)
  static const Isa isa =
      __builtin_cpu_supports("avx512f")                                    ? Isa::kAvx512
      : (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) ? Isa::kAvx2
                                                                          : Isa::kBaseline;
  return isa;
#else
  return Isa::kBaseline;
#endif
}

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
constexpr int kMklSequential = 1;  // MKL_THREADING_SEQUENTIAL

using VmsSqrt = void (*)(int, const float*, float*, long long);
using VmdSqrt = void (*)(int, const double*, double*, long long);
using SetLayerFn = int (*)(int);

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
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("cannot load VML library: ") + dlerror());
  auto s = reinterpret_cast<VmsSqrt>(dlsym(handle, "vmsSqrt"));
  auto d = reinterpret_cast<VmdSqrt>(dlsym(handle, "vmdSqrt"));
  if (!s || !d) {
    dlclose(handle);
    return false;
  }
  // MKL picks its threading layer on its first call: the sequential one, as blas.cpp asks
  if (auto set_layer = reinterpret_cast<SetLayerFn>(dlsym(handle, "MKL_Set_Threading_Layer"))) {
    set_layer(kMklSequential);
  }
  if (!vml_sane(s, d)) {
    dlclose(handle);
    return false;
  }
  vml_path = path;
  vmd_sqrt.store(d);
  vms_sqrt.store(s);
  return true;
}

bool vml_loaded() { return vms_sqrt.load() != nullptr; }

void vml_sqrt(const float* in, float* out, std::size_t n) {
  if (VmsSqrt s = vms_sqrt.load(std::memory_order_relaxed)) {
    for (std::size_t done = 0; done < n; done += kVmlChunk) {
      const std::size_t count = std::min(kVmlChunk, n - done);
      s(static_cast<int>(count), in + done, out + done, kVmlMode);
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = std::sqrt(in[i]);
}

void vml_sqrt(const double* in, double* out, std::size_t n) {
  if (VmdSqrt d = vmd_sqrt.load(std::memory_order_relaxed)) {
    for (std::size_t done = 0; done < n; done += kVmlChunk) {
      const std::size_t count = std::min(kVmlChunk, n - done);
      d(static_cast<int>(count), in + done, out + done, kVmlMode);
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) out[i] = std::sqrt(in[i]);
}

// ------------------------------------------------------------------ dispatch

#define TORCH_CORE_OPTIM_DISPATCH(call)          \
  switch (best_isa()) {                          \
    case Isa::kAvx512: avx512::call; break;      \
    case Isa::kAvx2: avx2::call; break;          \
    default: baseline::call; break;              \
  }

template <typename T>
void adam_step(const AdamTensors<T>& t, const AdamHyper& h, int threads) {
  split(t.n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(adam_range<T>(t, b, e, h));
  });
}

template <typename T>
void sgd_step(T* param, const T* grad, T* buf, std::size_t n, const SgdHyper& h, int threads) {
  split(n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(sgd_range<T>(param, grad, buf, b, e, h));
  });
}

template <typename T>
void rmsprop_step(T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, std::size_t n,
                  const RmspropHyper& h, int threads) {
  split(n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(rmsprop_range<T>(param, grad, square_avg, grad_avg, buf, b, e, h));
  });
}

template <typename T>
void adagrad_step(T* param, const T* grad, T* state_sum, std::size_t n, const AdagradHyper& h,
                  int threads) {
  split(n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(adagrad_range<T>(param, grad, state_sum, b, e, h));
  });
}

template <typename T>
void adamax_step(T* param, const T* grad, T* exp_avg, T* exp_inf, std::size_t n,
                 const AdamaxHyper& h, int threads) {
  split(n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(adamax_range<T>(param, grad, exp_avg, exp_inf, b, e, h));
  });
}

template <typename T>
void adadelta_step(T* param, const T* grad, T* square_avg, T* acc_delta, std::size_t n,
                   const AdadeltaHyper& h, int threads) {
  split(n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(adadelta_range<T>(param, grad, square_avg, acc_delta, b, e, h));
  });
}

template <typename T>
void asgd_step(T* param, const T* grad, T* ax, std::size_t n, const AsgdHyper& h, int threads) {
  split(n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(asgd_range<T>(param, grad, ax, b, e, h));
  });
}

template <typename T>
void nadam_step(const AdamTensors<T>& t, const NadamHyper& h, int threads) {
  split(t.n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(nadam_range<T>(t, b, e, h));
  });
}

template <typename T>
void radam_step(const AdamTensors<T>& t, const RadamHyper& h, int threads) {
  split(t.n, threads, [&](std::size_t b, std::size_t e) {
    TORCH_CORE_OPTIM_DISPATCH(radam_range<T>(t, b, e, h));
  });
}

#undef TORCH_CORE_OPTIM_DISPATCH

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
