#include "elementwise/elementwise.h"

#include <algorithm>
#include <vector>

#include "common/isa.h"
#include "common/parallel.h"

namespace torch_core {

// One set of element loops per instruction-set tier (AVX2 at most: these loops are
// memory-bound), from elementwise/arith_kernels.inc.
#define TORCH_CORE_DECLARE_ARITH(tier)                                                  \
  namespace tier {                                                                      \
  template <typename T>                                                                 \
  void binary_range(BinaryOp, const T*, const T*, T*, std::size_t, std::size_t);        \
  template <typename T>                                                                 \
  double sum_block(const T*, std::size_t, std::size_t);                                 \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_ARITH)
#undef TORCH_CORE_DECLARE_ARITH

namespace {

// sum_block works in blocks of 2048 elements itself (arith_kernels.inc)
template <typename T>
double sum_range(const T* a, std::size_t begin, std::size_t end) {
  return TORCH_CORE_PICK_AVX2(sum_block<T>)(a, begin, end);
}

}  // namespace

template <typename T>
void binary(BinaryOp op, const T* a, const T* b, T* out, std::size_t n, int threads) {
  const auto range = TORCH_CORE_PICK_AVX2(binary_range<T>);
  parallel_for(n, threads, [&](std::size_t begin, std::size_t end, int) {
    range(op, a, b, out, begin, end);
  });
}

template <typename T>
double sum(const T* a, std::size_t n, int threads) {
  std::vector<double> partial(std::max(1, threads), 0.0);
  parallel_for(n, threads, [&](std::size_t begin, std::size_t end, int t) {
    partial[t] = sum_range(a, begin, end);
  });
  double total = 0;
  for (double p : partial) total += p;
  return total;
}

template void binary<float>(BinaryOp, const float*, const float*, float*, std::size_t, int);
template void binary<double>(BinaryOp, const double*, const double*, double*, std::size_t, int);
template double sum<float>(const float*, std::size_t, int);
template double sum<double>(const double*, std::size_t, int);

}  // namespace torch_core
