// Optional shared libraries loaded at run time (Intel MKL's single dynamic library,
// libmkl_rt, or another CBLAS): the one place torch._C calls dlopen. Its users are the
// GEMM (blas/gemm.cpp), the recurrent loops' per-step products (nn/) and the optimizers'
// square roots (optim/).
#pragma once

#include <dlfcn.h>

#include <string>

namespace torch_core {
namespace dynlib {

// The library at `path`, loaded with its symbols resolved now and kept to itself
// (RTLD_LOCAL); loading an already loaded library gives the same handle. nullptr when it
// cannot be loaded, with the loader's message in *error.
inline void* open(const std::string& path, std::string* error) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr && error != nullptr) error->assign(dlerror());
  return handle;
}

inline void close(void* handle) { dlclose(handle); }

// A function of a loaded library, or nullptr when it has none of that name.
template <typename Fn>
Fn symbol(void* handle, const char* name) {
  return reinterpret_cast<Fn>(dlsym(handle, name));
}

// MKL picks its threading layer on its first call: ask for the sequential one, so that
// only torch._C's own pool runs threads (no OpenMP runtime spinning next to it).
// Libraries without MKL_Set_Threading_Layer are used as they are.
inline void use_sequential_mkl(void* handle) {
  constexpr int kMklSequential = 1;  // MKL_THREADING_SEQUENTIAL
  if (auto set_layer = symbol<int (*)(int)>(handle, "MKL_Set_Threading_Layer")) {
    set_layer(kMklSequential);
  }
}

}  // namespace dynlib
}  // namespace torch_core
