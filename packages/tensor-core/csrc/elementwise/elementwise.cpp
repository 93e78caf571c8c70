#include "elementwise/elementwise.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>

#include "common/isa.h"
#include "common/parallel.h"

namespace torch_core {

// One set of element loops per instruction-set tier, from elementwise/arith_kernels.inc.
#define TORCH_CORE_DECLARE_ARITH(tier)                                                  \
  namespace tier {                                                                      \
  template <typename T>                                                                 \
  void binary_range(BinaryOp, const T*, const T*, T*, std::size_t, std::size_t, bool);  \
  template <typename T>                                                                 \
  double sum_block(const T*, std::size_t, std::size_t);                                 \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_ARITH)
#undef TORCH_CORE_DECLARE_ARITH

namespace {

// sum_block works in blocks of 2048 elements itself (arith_kernels.inc)
template <typename T>
double sum_range(const T* a, std::size_t begin, std::size_t end) {
  return TORCH_CORE_PICK(sum_block<T>)(a, begin, end);
}

// The last-level cache's size, as Linux reports the first CPU's (asked once; 32 MiB where
// it does not say). Not sysconf's: glibc reports the whole package's L3 there (384 MiB
// on a 32 MiB-per-core-complex EPYC).
std::size_t cache_bytes() {
  static const std::size_t bytes = [] {
    std::size_t size = 0;
    char unit = 0;
    if (std::FILE* f = std::fopen("/sys/devices/system/cpu/cpu0/cache/index3/size", "r")) {
      if (std::fscanf(f, "%zu%c", &size, &unit) < 1) size = 0;
      std::fclose(f);
    }
    if (unit == 'K') size <<= 10;
    if (unit == 'M') size <<= 20;
    return size > 0 ? size : std::size_t{32} << 20;
  }();
  return bytes;
}

// Whether a loop that reads and writes `bytes` in all stores its result past the caches:
// when they cannot hold it beside its operands anyway, as glibc's memcpy does for large
// copies. The stores then skip reading the result's lines first (a third of the traffic
// of a + b).
bool stream_result(std::size_t bytes) { return bytes > cache_bytes(); }

}  // namespace

// Parts no smaller than this many items: one claim per part costs a cache line passed
// between cores, small next to streaming 64 KiB.
constexpr std::size_t kStreamGrain = 1 << 14;

template <typename T>
void binary(BinaryOp op, const T* a, const T* b, T* out, std::size_t n, int threads) {
  const auto range = TORCH_CORE_PICK(binary_range<T>);
  const bool stream = stream_result(3 * n * sizeof(T));
  GuidedParts(n, threads, kStreamGrain).run([&](std::size_t begin, std::size_t end, int) {
    range(op, a, b, out, begin, end, stream);
  });
}

template <typename T>
void fill(T* out, T value, std::size_t n, int threads) {
  GuidedParts(n, threads, kStreamGrain).run([&](std::size_t begin, std::size_t end, int) {
    std::fill(out + begin, out + end, value);
  });
}

template <typename T>
double sum(const T* a, std::size_t n, int threads) {
  const GuidedParts parts(n, threads, kStreamGrain);
  double partial[GuidedParts::kMost];
  parts.run([&](std::size_t begin, std::size_t end, int part) {
    partial[part] = sum_range(a, begin, end);
  });
  double total = 0;
  for (int p = 0; p < parts.count(); ++p) total += partial[p];
  return total;
}

template void binary<float>(BinaryOp, const float*, const float*, float*, std::size_t, int);
template void binary<double>(BinaryOp, const double*, const double*, double*, std::size_t, int);
template void fill<float>(float*, float, std::size_t, int);
template void fill<double>(double*, double, std::size_t, int);
template double sum<float>(const float*, std::size_t, int);
template double sum<double>(const double*, std::size_t, int);

}  // namespace torch_core
