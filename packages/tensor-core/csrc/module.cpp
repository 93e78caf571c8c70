// torch._C: the native kernels of torch-core. Every kernel here has a NumPy reference
// that its tests compare against; TORCH_NATIVE=0 makes the package use the reference.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cmath>
#include <cstdint>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdexcept>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>
#include <string>

#include "cascade_sum.h"
#include "checks.h"
#include "gil.h"
#include "conv.h"
#include "elementwise.h"
#include "indexing.h"
#include "parallel.h"
#include "vecmath.h"
#include "mt19937.h"
#include "special.h"

using torch_core::same_dtype;

namespace py = pybind11;
using torch_core::MT19937;

void register_blas(py::module_& m);  // blas.cpp
void register_optim(py::module_& m);  // optim_bindings.cpp
void register_nn(py::module_& m);    // nn_kernels.cpp
bool install_aligned_numpy_allocator();  // aligned_alloc.cpp
void register_array_flags(py::module_& m);  // array_flags.cpp
void register_fork_gate(py::module_& m);    // fork_gate.cpp

namespace {

// Output buffers must be writable, C-contiguous, and of exactly the kernel's dtype: the
// kernel writes through the raw pointer, so anything else is refused before it runs.
template <typename T>
T* checked_output(py::array& out, const char* what) {
  if (!py::isinstance<py::array_t<T>>(out) || !same_dtype(py::dtype::of<T>(), out.dtype())) {
    throw py::type_error(std::string(what) + ": output array has the wrong dtype");
  }
  if (!(out.flags() & py::array::c_style)) {
    throw std::invalid_argument(std::string(what) + ": output array must be C-contiguous");
  }
  if (!out.writeable()) {
    throw std::invalid_argument(std::string(what) + ": output array is read-only");
  }
  return static_cast<T*>(out.mutable_data());
}

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

// Elementwise special functions over float32/float64 arrays: the input is read as a
// C-contiguous array of its own dtype (a copy when it is not), the result is new.
template <typename T>
py::array_t<T> map_special(const py::array& input, double (*fn)(double)) {
  auto in = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(input);
  if (!in) throw py::type_error("special function: input must be a float array");
  py::array_t<T> out(std::vector<py::ssize_t>(in.shape(), in.shape() + in.ndim()));
  const T* src = in.data();
  T* dst = out.mutable_data();
  const auto n = static_cast<std::size_t>(in.size());
  {
    torch_core::GilRelease nogil;  // no Python objects are touched in the loop
    for (std::size_t i = 0; i < n; ++i) dst[i] = static_cast<T>(fn(static_cast<double>(src[i])));
  }
  return out;
}

double erf_d(double x) { return std::erf(x); }
double erfc_d(double x) { return std::erfc(x); }
double lgamma_d(double x) { return std::lgamma(x); }
// the C library's log1p, as PyTorch's CPU exponential_ calls it (NumPy's SIMD log1p can
// differ in the last bit)
double log1p_d(double x) { return std::log1p(x); }

py::array special(const std::string& name, const py::array& input) {
  double (*fn)(double) = nullptr;
  if (name == "erf") fn = erf_d;
  else if (name == "erfc") fn = erfc_d;
  else if (name == "erfinv") fn = torch_core::erfinv;
  else if (name == "lgamma") fn = lgamma_d;
  else if (name == "log1p") fn = log1p_d;
  else if (name == "digamma") fn = torch_core::digamma;
  else if (name == "trigamma") fn = torch_core::trigamma;
  else throw std::invalid_argument("unknown special function: " + name);
  if (same_dtype(py::dtype::of<float>(), input.dtype())) return map_special<float>(input, fn);
  if (same_dtype(py::dtype::of<double>(), input.dtype())) return map_special<double>(input, fn);
  throw py::type_error("special function " + name + ": input must be float32 or float64");
}

template <typename T>
py::array binary_typed(torch_core::BinaryOp op, const py::array& a, const py::array& b,
                       int threads) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  auto y = py::array_t<T, py::array::c_style>::ensure(b);
  if (!x || !y) throw py::type_error("binary: operands must be C-contiguous of one float dtype");
  if (x.ndim() != y.ndim() || !std::equal(x.shape(), x.shape() + x.ndim(), y.shape())) {
    throw std::invalid_argument("binary: operands must have the same shape");
  }
  py::array_t<T> out(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
  const T* xp = x.data();
  const T* yp = y.data();
  T* op_out = out.mutable_data();
  const auto n = static_cast<std::size_t>(x.size());
  {
    torch_core::GilRelease nogil;  // reads and writes only the buffers held above
    torch_core::binary(op, xp, yp, op_out, n, threads);
  }
  return out;
}

py::array binary(const std::string& name, const py::array& a, const py::array& b,
                 int threads) {
  torch_core::BinaryOp op;
  if (name == "add") op = torch_core::BinaryOp::kAdd;
  else if (name == "sub") op = torch_core::BinaryOp::kSub;
  else if (name == "mul") op = torch_core::BinaryOp::kMul;
  else if (name == "div") op = torch_core::BinaryOp::kDiv;
  else throw std::invalid_argument("binary: unknown op " + name);
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), a.dtype())) return binary_typed<float>(op, a, b, threads);
  if (same_dtype(py::dtype::of<double>(), a.dtype())) return binary_typed<double>(op, a, b, threads);
  throw py::type_error("binary: operands must be float32 or float64");
}

template <typename T>
py::array unary_typed(const std::string& name, const py::array& a, int threads) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  if (!x) throw py::type_error("unary: input must be C-contiguous");
  py::array_t<T> out(std::vector<py::ssize_t>(x.shape(), x.shape() + x.ndim()));
  const T* in = x.data();
  T* result = out.mutable_data();
  const auto n = static_cast<std::size_t>(x.size());
  if (name != "exp") throw std::invalid_argument("unary: unknown op " + name);
  {
    torch_core::GilRelease nogil;  // reads and writes only the buffers held above
    torch_core::exp(in, result, n, threads);
  }
  return out;
}

py::array unary(const std::string& name, const py::array& a, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), a.dtype())) return unary_typed<float>(name, a, threads);
  if (same_dtype(py::dtype::of<double>(), a.dtype())) return unary_typed<double>(name, a, threads);
  throw py::type_error("unary: input must be float32 or float64");
}

template <typename T>
double sum_typed(const py::array& a, int threads) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  if (!x) throw py::type_error("sum: input must be C-contiguous");
  const T* data = x.data();
  const auto n = static_cast<std::size_t>(x.size());
  torch_core::GilRelease nogil;
  return torch_core::sum(data, n, threads);
}

double sum_all(const py::array& a, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), a.dtype())) return sum_typed<float>(a, threads);
  if (same_dtype(py::dtype::of<double>(), a.dtype())) return sum_typed<double>(a, threads);
  throw py::type_error("sum: input must be float32 or float64");
}

template <typename T>
double cascade_sum_typed(const py::array& a) {
  auto x = py::array_t<T, py::array::c_style>::ensure(a);
  if (!x) throw py::type_error("cascade_sum: input must be C-contiguous");
  const T* data = x.data();
  const auto n = static_cast<std::size_t>(x.size());
  torch_core::GilRelease nogil;
  return static_cast<double>(torch_core::cascade_sum(data, n));
}

double cascade_sum(const py::array& a) {
  if (same_dtype(py::dtype::of<float>(), a.dtype())) return cascade_sum_typed<float>(a);
  if (same_dtype(py::dtype::of<double>(), a.dtype())) return cascade_sum_typed<double>(a);
  throw py::type_error("cascade_sum: input must be float32 or float64");
}

// ------------------------------------------------------------------ convolution
// x (N, C_in, D, H, W) and w (C_out, C_in / groups, kD, kH, kW), both C-contiguous of one
// float dtype: the 5-d shapes carry every size, so only padding and dilation are passed.

torch_core::ConvShape conv_shape(const py::array& x, const py::array& w, std::int64_t groups,
                                 const std::vector<std::int64_t>& dilation,
                                 const std::vector<std::int64_t>& pad_lo,
                                 const std::vector<std::int64_t>& pad_hi) {
  if (x.ndim() != 5 || w.ndim() != 5) {
    throw std::invalid_argument("convolution: input and weight must be 5-d");
  }
  if (dilation.size() != 3 || pad_lo.size() != 3 || pad_hi.size() != 3) {
    throw std::invalid_argument("convolution: dilation and padding need 3 values each");
  }
  namespace ck = torch_core::checks;
  const char* what = "convolution";
  torch_core::ConvShape s{};
  s.batch = x.shape(0);
  s.in_channels = x.shape(1);
  s.out_channels = w.shape(0);
  s.groups = groups;
  if (groups < 1 || ck::mul(w.shape(1), groups, what) != s.in_channels) {
    throw std::invalid_argument("convolution: weight channels (" + std::to_string(w.shape(1)) +
                                ") times groups (" + std::to_string(groups) +
                                ") must equal the input's (" + std::to_string(s.in_channels) +
                                ")");
  }
  for (int i = 0; i < 3; ++i) {
    s.in[i] = x.shape(2 + i);
    s.kernel[i] = w.shape(2 + i);
    s.dilation[i] = dilation[i];
    s.pad_lo[i] = pad_lo[i];
    s.pad_hi[i] = pad_hi[i];
    // checked: a dilation * (kernel - 1) that wrapped around gave a plausible output size
    // and the kernel then read far outside the input
    s.out[i] = ck::sub(ck::add(ck::add(s.in[i], pad_lo[i], what), pad_hi[i], what),
                       ck::mul(dilation[i], s.kernel[i] - 1, what), what);
  }
  torch_core::check_conv_shape(s);
  return s;
}

template <typename T>
py::array_t<T, py::array::c_style> conv_operand(const py::array& a, const char* what) {
  auto result = py::array_t<T, py::array::c_style>::ensure(a);
  if (!result || !same_dtype(py::dtype::of<T>(), a.dtype())) {
    throw py::type_error(std::string("convolution: ") + what +
                         " must be a C-contiguous array of the input's dtype");
  }
  return result;
}

template <typename T>
py::array conv_forward_typed(const py::array& x, const py::array& w, const py::object& bias,
                             const torch_core::ConvShape& s, int threads) {
  auto xs = conv_operand<T>(x, "input");
  auto ws = conv_operand<T>(w, "weight");
  py::array_t<T, py::array::c_style> bs;
  const T* bias_data = nullptr;
  if (!bias.is_none()) {
    bs = conv_operand<T>(bias, "bias");
    if (bs.ndim() != 1 || bs.shape(0) != s.out_channels) {
      throw std::invalid_argument("convolution: bias must have one value per output channel");
    }
    bias_data = bs.data();
  }
  py::array_t<T> out({s.batch, s.out_channels, s.out[0], s.out[1], s.out[2]});
  const T* xd = xs.data();
  const T* wd = ws.data();
  T* od = out.mutable_data();
  if (s.batch == 0) return out;  // nothing to compute (the kernel would still plan buffers)
  {
    torch_core::GilRelease nogil;
    torch_core::conv_forward(s, xd, wd, bias_data, od, threads);
  }
  return out;
}

py::array conv_forward(const py::array& x, const py::array& w, const py::object& bias,
                       const std::vector<std::int64_t>& dilation,
                       const std::vector<std::int64_t>& pad_lo,
                       const std::vector<std::int64_t>& pad_hi, std::int64_t groups,
                       int threads) {
  const auto s = conv_shape(x, w, groups, dilation, pad_lo, pad_hi);
  threads = torch_core::checks::threads_or_default(threads);
  if (same_dtype(py::dtype::of<float>(), x.dtype())) return conv_forward_typed<float>(x, w, bias, s, threads);
  if (same_dtype(py::dtype::of<double>(), x.dtype())) return conv_forward_typed<double>(x, w, bias, s, threads);
  throw py::type_error("convolution: input must be float32 or float64");
}

template <typename T>
py::array conv_weight_grad_typed(const py::array& x, const py::array& grad_out,
                                 const torch_core::ConvShape& s,
                                 const std::vector<py::ssize_t>& weight_shape, int threads) {
  auto xs = conv_operand<T>(x, "input");
  auto gs = conv_operand<T>(grad_out, "output gradient");
  const std::vector<py::ssize_t> expected{s.batch, s.out_channels, s.out[0], s.out[1], s.out[2]};
  if (gs.ndim() != 5 || !std::equal(expected.begin(), expected.end(), gs.shape())) {
    throw std::invalid_argument("convolution: output gradient has the wrong shape");
  }
  py::array_t<T> grad_w(weight_shape);
  const T* xd = xs.data();
  const T* gd = gs.data();
  T* wd = grad_w.mutable_data();
  if (s.batch == 0) {  // no image: the gradient is zero (the kernel would still plan buffers)
    std::fill(wd, wd + grad_w.size(), T(0));
    return grad_w;
  }
  {
    torch_core::GilRelease nogil;
    torch_core::conv_weight_grad(s, xd, gd, wd, threads);
  }
  return grad_w;
}

py::array conv_weight_grad(const py::array& x, const py::array& grad_out, const py::array& w,
                           const std::vector<std::int64_t>& dilation,
                           const std::vector<std::int64_t>& pad_lo,
                           const std::vector<std::int64_t>& pad_hi, std::int64_t groups,
                           int threads) {
  const auto s = conv_shape(x, w, groups, dilation, pad_lo, pad_hi);
  threads = torch_core::checks::threads_or_default(threads);
  const std::vector<py::ssize_t> shape(w.shape(), w.shape() + 5);
  if (same_dtype(py::dtype::of<float>(), x.dtype()))
    return conv_weight_grad_typed<float>(x, grad_out, s, shape, threads);
  if (same_dtype(py::dtype::of<double>(), x.dtype()))
    return conv_weight_grad_typed<double>(x, grad_out, s, shape, threads);
  throw py::type_error("convolution: input must be float32 or float64");
}

// ------------------------------------------------------------------ indexing along a dim
// Arrays come as (outer, dim, inner) views: C-contiguous, of one dtype, indices int64.

template <typename T>
T* writable_3d(py::array& out) {
  if (out.ndim() != 3) throw std::invalid_argument("indexing: output must be 3-d");
  return checked_output<T>(out, "indexing");
}

template <typename T>
py::array_t<T, py::array::c_style> input_3d(const py::array& a, const char* what) {
  auto result = py::array_t<T, py::array::c_style>::ensure(a);
  if (!result || !same_dtype(py::dtype::of<T>(), a.dtype()) || result.ndim() != 3) {
    throw py::type_error(std::string("indexing: ") + what +
                         " must be a 3-d C-contiguous array of the output's dtype");
  }
  return result;
}

py::array_t<std::int64_t, py::array::c_style> indices(const py::array& a, py::ssize_t ndim) {
  auto result = py::array_t<std::int64_t, py::array::c_style>::ensure(a);
  if (!result || !same_dtype(py::dtype::of<std::int64_t>(), a.dtype()) || result.ndim() != ndim) {
    throw py::type_error("indexing: index must be a C-contiguous int64 array of " +
                         std::to_string(ndim) + " dims");
  }
  return result;
}

template <typename T>
void index_accumulate_typed(py::array& out, const py::array& index, const py::array& src,
                            double alpha, int threads) {
  T* target = writable_3d<T>(out);
  auto idx = indices(index, 1);
  auto values = input_3d<T>(src, "source");
  const torch_core::AlongDim g{out.shape(0), out.shape(1), out.shape(2), idx.shape(0)};
  if (values.shape(0) != g.outer || values.shape(1) != g.count || values.shape(2) != g.inner) {
    throw std::invalid_argument("index_accumulate: source must be (outer, len(index), inner)");
  }
  const std::int64_t* ip = idx.data();
  const T* sp = values.data();
  torch_core::GilRelease nogil;
  torch_core::index_accumulate(g, target, ip, sp, static_cast<T>(alpha), threads);
}

template <typename T>
void scatter_accumulate_typed(py::array& out, const py::array& index, const py::array& src,
                              int threads) {
  T* target = writable_3d<T>(out);
  auto idx = indices(index, 3);
  auto values = input_3d<T>(src, "source");
  const torch_core::AlongDim g{out.shape(0), out.shape(1), out.shape(2), idx.shape(1)};
  if (idx.shape(0) != g.outer || idx.shape(2) != g.inner ||
      !std::equal(idx.shape(), idx.shape() + 3, values.shape())) {
    throw std::invalid_argument("scatter_accumulate: index and source must be (outer, n, inner)");
  }
  const std::int64_t* ip = idx.data();
  const T* sp = values.data();
  torch_core::GilRelease nogil;
  torch_core::scatter_accumulate(g, target, ip, sp, threads);
}

template <typename T>
py::array gather_along_typed(const py::array& src, const py::array& index, int threads) {
  auto values = input_3d<T>(src, "source");
  auto idx = indices(index, 3);
  const torch_core::AlongDim g{values.shape(0), values.shape(1), values.shape(2), idx.shape(1)};
  if (idx.shape(0) != g.outer || idx.shape(2) != g.inner) {
    throw std::invalid_argument("gather_along: index must be (outer, n, inner) of the source");
  }
  py::array_t<T> out({g.outer, g.count, g.inner});
  const std::int64_t* ip = idx.data();
  const T* sp = values.data();
  T* op = out.mutable_data();
  {
    torch_core::GilRelease nogil;
    torch_core::gather_along(g, sp, ip, op, threads);
  }
  return out;
}

// Calls body<T>() for the dtype of `a` among float32, float64, int64, int32.
#define TORCH_CORE_INDEXING_DISPATCH(a, call)                                        \
  do {                                                                                \
    if (same_dtype(py::dtype::of<float>(), (a).dtype())) { call(float); }                      \
    else if (same_dtype(py::dtype::of<double>(), (a).dtype())) { call(double); }               \
    else if (same_dtype(py::dtype::of<std::int64_t>(), (a).dtype())) { call(std::int64_t); }   \
    else if (same_dtype(py::dtype::of<std::int32_t>(), (a).dtype())) { call(std::int32_t); }   \
    else throw py::type_error("indexing: dtype must be float32, float64, int64 or int32"); \
  } while (0)

void index_accumulate(py::array out, const py::array& index, const py::array& src,
                      double alpha, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
#define CALL(T) index_accumulate_typed<T>(out, index, src, alpha, threads)
  TORCH_CORE_INDEXING_DISPATCH(out, CALL);
#undef CALL
}

void scatter_accumulate(py::array out, const py::array& index, const py::array& src,
                        int threads) {
  threads = torch_core::checks::threads_or_default(threads);
#define CALL(T) scatter_accumulate_typed<T>(out, index, src, threads)
  TORCH_CORE_INDEXING_DISPATCH(out, CALL);
#undef CALL
}

py::array gather_along(const py::array& src, const py::array& index, int threads) {
  threads = torch_core::checks::threads_or_default(threads);
#define CALL(T) return gather_along_typed<T>(src, index, threads)
  TORCH_CORE_INDEXING_DISPATCH(src, CALL);
#undef CALL
}

// Large buffers: glibc serves allocations above its mmap threshold with fresh mappings and
// returns them on free, so every large tensor result page-faults its memory in again (on
// virtual machines about a microsecond per 4 KiB page: more than computing exp over it).
// Raising the mmap and trim thresholds keeps freed buffers in the heap for the next
// result. Returns whether the allocator accepted the setting.
bool keep_freed_buffers(std::int64_t mmap_threshold, std::int64_t trim_threshold) {
#if defined(__GLIBC__)
  if (mmap_threshold < 0 || trim_threshold < 0 || mmap_threshold > (std::int64_t{1} << 31)) {
    throw std::invalid_argument("keep_freed_buffers: thresholds must be in [0, 2 GiB]");
  }
  return mallopt(M_MMAP_THRESHOLD, static_cast<int>(mmap_threshold)) == 1 &&
         mallopt(M_TRIM_THRESHOLD, static_cast<int>(std::min<std::int64_t>(trim_threshold, INT_MAX))) == 1;
#else
  (void)mmap_threshold;
  (void)trim_threshold;
  return false;
#endif
}

// Test-only (not API): runs `threads` parts on the pool; part `throw_part` throws
// (kind "runtime": std::runtime_error, "bad_alloc": std::bad_alloc) and the others sleep
// `sleep_ms` and count themselves. The exception must reach Python only after every other
// part has finished (they run over this frame): if not, a RuntimeError says so.
void test_pool_throw(int threads, int throw_part, const std::string& kind, int sleep_ms) {
  if (threads < 1 || threads > torch_core::checks::kMostThreads || sleep_ms < 0 ||
      sleep_ms > 1000) {
    throw std::invalid_argument("_test_pool_throw: threads in [1, 64], sleep_ms in [0, 1000]");
  }
  if (kind != "runtime" && kind != "bad_alloc") {
    throw std::invalid_argument("_test_pool_throw: kind must be 'runtime' or 'bad_alloc'");
  }
  std::atomic<int> finished{0};
  torch_core::GilRelease nogil;
  try {
    torch_core::run_in_pool(threads, [&](int part) {
      if (part == throw_part) {
        if (kind == "bad_alloc") throw std::bad_alloc();
        throw std::runtime_error("part " + std::to_string(part) + " failed");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
      finished.fetch_add(1);
    });
  } catch (...) {
    const int others = threads - 1;
    if (finished.load() != others) {
      throw std::runtime_error("run_in_pool returned with " +
                               std::to_string(others - finished.load()) + " parts running");
    }
    throw;
  }
}

// The generator's methods keep the GIL: it is what serialises two threads drawing from one
// generator (PyTorch uses a mutex for the same purpose). The other kernels release it.
PYBIND11_MODULE(_C, m) {
  // the finalizing thread, which gil.h's guard must never park
  if (_PyOS_IsMainThread()) torch_core::main_thread_ident() = PyThread_get_thread_ident();
  register_blas(m);
  register_optim(m);
  register_nn(m);
  register_array_flags(m);
  register_fork_gate(m);
  m.doc() = "Native kernels of torch-core.";
  m.def("install_aligned_numpy_allocator", &install_aligned_numpy_allocator,
        "Make NumPy allocate array data on 64-byte boundaries from now on (in this context); "
        "false if NumPy's C API is unavailable.");
  m.def("set_thread_limit", &torch_core::set_thread_limit, py::arg("threads"),
        "Cap the threads every native kernel uses (0: no cap).");
  m.def("thread_limit", &torch_core::thread_limit);
  m.def("default_threads", &torch_core::default_threads,
        "Threads a native kernel uses by default (the machine's, at most 8, or the cap).");
  m.def("binary", &binary, py::arg("op"), py::arg("a"), py::arg("b"), py::arg("threads") = 0,
        "a (op) b for same-shape C-contiguous float arrays, split across threads.");
  m.def("unary", &unary, py::arg("op"), py::arg("a"), py::arg("threads") = 0,
        "op(a) (op: 'exp') of a C-contiguous float array, vectorised and split across threads.");
  m.def("sum_all", &sum_all, py::arg("a"), py::arg("threads") = 0,
        "Sum of a C-contiguous float array in double precision, split across threads.");
  m.def("conv_forward", &conv_forward, py::arg("input"), py::arg("weight"), py::arg("bias"),
        py::arg("dilation"), py::arg("pad_lo"), py::arg("pad_hi"), py::arg("groups"),
        py::arg("threads") = 0,
        "Stride-1 convolution of 5-d float arrays (N, C, D, H, W) with (C_out, C/groups, kD, kH, kW).");
  m.def("conv_weight_grad", &conv_weight_grad, py::arg("input"), py::arg("grad_output"),
        py::arg("weight"), py::arg("dilation"), py::arg("pad_lo"), py::arg("pad_hi"),
        py::arg("groups"), py::arg("threads") = 0,
        "Weight gradient of conv_forward (the weight gives the shape only).");
  m.def("index_accumulate", &index_accumulate, py::arg("out"), py::arg("index"), py::arg("src"),
        py::arg("alpha") = 1.0, py::arg("threads") = 0,
        "out[o, index[j], k] += alpha * src[o, j, k] on 3-d views, in place.");
  m.def("scatter_accumulate", &scatter_accumulate, py::arg("out"), py::arg("index"),
        py::arg("src"), py::arg("threads") = 0,
        "out[o, index[o, j, k], k] += src[o, j, k] on 3-d views, in place.");
  m.def("gather_along", &gather_along, py::arg("src"), py::arg("index"), py::arg("threads") = 0,
        "src[o, index[o, j, k], k] for every (o, j, k) of a 3-d index.");
  m.def("keep_freed_buffers", &keep_freed_buffers, py::arg("mmap_threshold"),
        py::arg("trim_threshold"),
        "Keep freed buffers up to mmap_threshold bytes in the heap (glibc only).");
  m.def("cascade_sum", &cascade_sum, py::arg("a"),
        "Sum of a C-contiguous float array in PyTorch's CPU summation order (rounded to its dtype).");
  m.def("default_threads", &torch_core::default_threads);
  m.def("_test_pool_throw", &test_pool_throw, py::arg("threads"), py::arg("throw_part"),
        py::arg("kind") = "runtime", py::arg("sleep_ms") = 20,
        "Test-only: a pool job whose part throw_part throws (exception safety of the pool).");
  m.def("special", &special, py::arg("name"), py::arg("input"),
        "Elementwise erf, erfc, erfinv, lgamma, log1p, digamma or trigamma of a float array.");

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
