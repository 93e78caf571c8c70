// The part of the CBLAS interface torch._C calls (fixed by the CBLAS standard), found in a
// library loaded through common/dynlib.h.
#pragma once

#include "common/dynlib.h"

namespace torch_core {
namespace cblas {

constexpr int kRowMajor = 101;
constexpr int kNoTrans = 111;
constexpr int kTrans = 112;

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*,
                         int, float, float*, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double*, int,
                         const double*, int, double, double*, int);

struct Gemm {
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  bool complete() const { return sgemm != nullptr && dgemm != nullptr; }
};

// cblas_sgemm and cblas_dgemm of a loaded library (either may be missing: see complete()).
inline Gemm find_gemm(void* handle) {
  Gemm gemm;
  gemm.sgemm = dynlib::symbol<SgemmFn>(handle, "cblas_sgemm");
  gemm.dgemm = dynlib::symbol<DgemmFn>(handle, "cblas_dgemm");
  return gemm;
}

}  // namespace cblas
}  // namespace torch_core
