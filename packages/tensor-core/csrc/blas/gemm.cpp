// Matrix products through an external BLAS loaded at run time (Intel MKL's single dynamic
// library, libmkl_rt, as PyTorch's CPU build uses). Why: NumPy's bundled OpenBLAS runs a
// float32 GEMM about 7% slower per core than MKL on this project's machines. The library
// is used single-threaded and bands of the result are split over torch._C's own thread
// pool, so no second threading runtime (OpenMP) spins next to the pool.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <climits>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <algorithm>

#include "blas/cblas.h"
#include "common/checks.h"
#include "common/gil.h"
#include "common/isa.h"
#include "common/parallel.h"
#include "common/registry.h"

using torch_core::same_dtype;

namespace py = pybind11;

// The cache-blocked product of blas/packed_gemm.inc, compiled for the AVX-512 tier only.
namespace torch_core {
namespace avx512 {
template <typename T>
void packed_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, std::int64_t a0,
                 std::int64_t a1, const T* b, std::int64_t b0, std::int64_t b1, T* c,
                 std::int64_t ldc);
}  // namespace avx512
}  // namespace torch_core

namespace {

using torch_core::cblas::kNoTrans;
using torch_core::cblas::kRowMajor;
using torch_core::cblas::kTrans;

struct Library {
  void* handle = nullptr;
  torch_core::cblas::Gemm gemm;
  std::string path;
};

Library& library() {
  static Library lib;
  return lib;
}

std::mutex load_mutex;

// Loads the library once; a second call with another path is refused (the first one
// stays in use).
bool load(const std::string& path) {
  namespace dynlib = torch_core::dynlib;
  std::lock_guard<std::mutex> guard(load_mutex);
  Library& lib = library();
  if (lib.handle) return lib.path == path;
  std::string error;
  void* handle = dynlib::open(path, &error);
  if (!handle) throw std::runtime_error("cannot load BLAS library: " + error);
  const torch_core::cblas::Gemm gemm = torch_core::cblas::find_gemm(handle);
  if (!gemm.complete()) {
    dynlib::close(handle);
    throw std::runtime_error("BLAS library " + path + " has no cblas_sgemm/cblas_dgemm");
  }
  dynlib::use_sequential_mkl(handle);
  lib.handle = handle;
  lib.gemm = gemm;
  lib.path = path;
  return true;
}

// How a (rows x cols) operand with element strides (s0, s1) is passed to CBLAS in row-major
// order: as is (unit column stride) or transposed (unit row stride). ok=false otherwise.
struct Operand {
  bool ok = false;
  int trans = kNoTrans;
  int ld = 0;
};

Operand describe(std::int64_t rows, std::int64_t cols, std::int64_t s0, std::int64_t s1) {
  Operand op;
  if (s1 == 1 && (rows == 1 || s0 >= std::max<std::int64_t>(cols, 1)) && s0 <= INT_MAX) {
    op.ok = true;
    op.ld = static_cast<int>(std::max<std::int64_t>(s0, std::max<std::int64_t>(cols, 1)));
  } else if (s0 == 1 && (cols == 1 || s1 >= std::max<std::int64_t>(rows, 1)) && s1 <= INT_MAX) {
    op.ok = true;
    op.trans = kTrans;
    op.ld = static_cast<int>(std::max<std::int64_t>(s1, std::max<std::int64_t>(rows, 1)));
  }
  return op;
}

template <typename T>
void call_gemm(int ta, int tb, int m, int n, int k, const T* a, int lda, const T* b, int ldb,
               T* c, int ldc) {
  if constexpr (std::is_same_v<T, float>) {
    library().gemm.sgemm(kRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  } else {
    library().gemm.dgemm(kRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  }
}

// Which product runs: the one place that chooses. kBlas and kPacked force one (tests
// compare them); kAuto picks by the measurements in docs/native.md. On the AVX-512 tier
// the packed product (packed_gemm.inc) runs about 2x MKL's speed (MKL's generic path on
// AMD has no AVX-512) unless the result is so thin that most of its 12-row x 2-vector
// tiles are padding (a 2 x 4096 @ 4096 x 2 product: 10x slower); then, and on the other
// tiers, the library runs.
enum class Kernel : int { kAuto = 0, kBlas = 1, kPacked = 2 };

bool use_packed_gemm(Kernel kernel, std::int64_t m, std::int64_t n, std::int64_t item_size) {
  if (kernel != Kernel::kAuto) return kernel == Kernel::kPacked;
  if (torch_core::isa::cpu_tier() != torch_core::isa::Tier::kAvx512) return false;
  constexpr std::int64_t kTileRows = 12, kTileBytes = 2 * 64;
  const std::int64_t tile_cols = kTileBytes / item_size;
  const double padded = static_cast<double>((m + kTileRows - 1) / kTileRows * kTileRows) *
                        static_cast<double>((n + tile_cols - 1) / tile_cols * tile_cols);
  return padded <= 2.0 * static_cast<double>(m) * static_cast<double>(n);
}

// Element strides of an array (NumPy gives bytes); false if one is not a whole element.
bool element_strides(const py::array& x, std::int64_t* out) {
  for (py::ssize_t d = 0; d < x.ndim(); ++d) {
    const auto bytes = x.strides(d);
    if (bytes % static_cast<py::ssize_t>(x.itemsize()) != 0) return false;
    out[d] = bytes / static_cast<py::ssize_t>(x.itemsize());
  }
  return true;
}

// The work items of a (batched) product: each matrix's result split into bands of rows or
// of columns, whichever dimension is longer, at least 64 wide so each block stays large
// enough for the kernel's blocking; a band's width is rounded up to `align`. Columns are
// preferred on a tie: MKL repacks all of B for every band of rows (2.5% more work for two
// bands of a 1024^3 product here) but repacks little for a band of columns (0.5%).
struct Bands {
  bool by_columns;
  std::int64_t extent, blocks, band;
};

Bands result_bands(std::int64_t m, std::int64_t n, int threads, std::int64_t align) {
  Bands b;
  b.by_columns = n >= m;
  b.extent = b.by_columns ? n : m;
  b.blocks = std::max<std::int64_t>(1, std::min<std::int64_t>(threads, b.extent / 64));
  b.band = (b.extent + b.blocks - 1) / b.blocks;
  b.band = (b.band + align - 1) / align * align;
  return b;
}

// out[i] = a[i] @ b[i] for (batch, m, k) and (batch, k, n) arrays (batch dims of size
// one are not broadcast here), by the packed product (any element strides) or the CBLAS
// library. Returns false, touching nothing, when the library would run and the layout
// does not fit CBLAS; the caller then uses NumPy.
template <typename T>
bool gemm_typed(const py::array& a, const py::array& b, py::array& out, int threads,
                Kernel kernel) {
  const bool batched = a.ndim() == 3;
  const std::int64_t batch = batched ? a.shape(0) : 1;
  const std::int64_t m = a.shape(a.ndim() - 2), k = a.shape(a.ndim() - 1);
  const std::int64_t n = b.shape(b.ndim() - 1);
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || m == 0 || n == 0 || k == 0) return false;
  std::int64_t sa[3], sb[3];
  if (!element_strides(a, sa) || !element_strides(b, sb)) return false;
  const int o = batched ? 1 : 0;
  const bool packed = use_packed_gemm(kernel, m, n, static_cast<std::int64_t>(sizeof(T)));
  const Operand oa = describe(m, k, sa[o], sa[o + 1]);
  const Operand ob = describe(k, n, sb[o], sb[o + 1]);
  if (!packed && (!oa.ok || !ob.ok)) return false;
  const T* pa = static_cast<const T*>(a.data());
  const T* pb = static_cast<const T*>(b.data());
  T* pc = static_cast<T*>(out.mutable_data());
  const std::int64_t batch_a = batched ? sa[0] : 0, batch_b = batched ? sb[0] : 0;
  // below about 128^3 multiply-adds a second thread costs more than it saves
  if (static_cast<double>(batch) * m * n * k < double(1 << 21)) threads = 1;
  torch_core::GilRelease nogil;  // only the buffers held by the caller are touched
  // work items: (matrix, band of the result). The packed product takes bands of whole
  // 32-wide tiles (each band packs its own operand blocks); for the library, column bands
  // start on a multiple of 16 elements, so each keeps the operands' alignment.
  const std::int64_t align = packed ? 32 : (n >= m ? 16 : 1);
  const Bands bands = result_bands(m, n, threads, align);
  const bool by_columns = bands.by_columns;
  const std::int64_t extent = bands.extent, blocks = bands.blocks, band = bands.band;
  torch_core::parallel_for(
      static_cast<std::size_t>(batch * blocks), threads,
      [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t item = begin; item < end; ++item) {
          const std::int64_t i = static_cast<std::int64_t>(item) / blocks;
          const std::int64_t start = (static_cast<std::int64_t>(item) % blocks) * band;
          const std::int64_t size = std::min(band, extent - start);
          if (size <= 0) continue;
          // a band of rows of A (or columns of B) starts that many of its strides in,
          // whether the operand is passed transposed or not
          const std::int64_t r0 = by_columns ? 0 : start, c0 = by_columns ? start : 0;
          const std::int64_t rows = by_columns ? m : size, cols = by_columns ? size : n;
          const T* a_block = pa + i * batch_a + r0 * sa[o];
          const T* b_block = pb + i * batch_b + c0 * sb[o + 1];
          T* c_block = pc + (i * m + r0) * n + c0;
          if (packed) {
            torch_core::avx512::packed_gemm<T>(rows, cols, k, a_block, sa[o], sa[o + 1],
                                               b_block, sb[o], sb[o + 1], c_block, n);
          } else {
            call_gemm<T>(oa.trans, ob.trans, static_cast<int>(rows), static_cast<int>(cols),
                         static_cast<int>(k), a_block, oa.ld, b_block, ob.ld, c_block,
                         static_cast<int>(n));
          }
        }
      });
  return true;
}

bool gemm(const py::array& a, const py::array& b, py::array& out, int threads, int kernel) {
  if (kernel < 0 || kernel > 2) throw std::invalid_argument("gemm: kernel must be 0, 1 or 2");
  const Kernel which = static_cast<Kernel>(kernel);
  if (which == Kernel::kPacked && torch_core::isa::cpu_tier() != torch_core::isa::Tier::kAvx512)
    throw std::invalid_argument("gemm: the packed product needs the AVX-512 tier");
  if (!library().handle && which != Kernel::kPacked)
    throw std::runtime_error("gemm: no BLAS library loaded");
  const bool shapes_ok = a.ndim() == b.ndim() && (a.ndim() == 2 || a.ndim() == 3) &&
                         out.ndim() == a.ndim() && a.shape(a.ndim() - 1) == b.shape(b.ndim() - 2) &&
                         (a.ndim() == 2 || (a.shape(0) == b.shape(0) && out.shape(0) == a.shape(0))) &&
                         out.shape(out.ndim() - 2) == a.shape(a.ndim() - 2) &&
                         out.shape(out.ndim() - 1) == b.shape(b.ndim() - 1);
  if (!shapes_ok) throw std::invalid_argument("gemm: operand shapes do not match");
  if (!same_dtype(a.dtype(), b.dtype()) || !same_dtype(a.dtype(), out.dtype()))
    throw py::type_error("gemm: operands and output must have one dtype");
  if (!(out.flags() & py::array::c_style) || !out.writeable())
    throw std::invalid_argument("gemm: output must be a writable C-contiguous array");
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(a.dtype(), py::dtype::of<float>()))
    return gemm_typed<float>(a, b, out, threads, which);
  if (same_dtype(a.dtype(), py::dtype::of<double>()))
    return gemm_typed<double>(a, b, out, threads, which);
  throw py::type_error("gemm: operands must be float32 or float64");
}

}  // namespace

void register_blas(py::module_& m) {
  m.def("blas_load", &load, py::arg("path"),
        "Load a CBLAS library (e.g. MKL's libmkl_rt) for blas_gemm; true once loaded.");
  m.def("blas_gemm", &gemm, py::arg("a"), py::arg("b"), py::arg("out"), py::arg("threads") = 0,
        py::arg("kernel") = 0,
        "out = a @ b (2-D, or 3-D with equal batch) with the loaded BLAS or, on the AVX-512 "
        "tier, the packed product (kernel: 0 chooses, 1 the BLAS, 2 the packed product); "
        "false if the operands' strides do not fit CBLAS (nothing is written then).");
  register_small_matmul(m);
}
