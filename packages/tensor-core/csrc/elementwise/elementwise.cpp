#include "elementwise.h"

#include <algorithm>
#include <vector>

#include "parallel.h"

namespace torch_core {

namespace {

#if defined(__GNUC__) && defined(__x86_64__) && !defined(__clang__)
#define TORCH_CORE_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define TORCH_CORE_CLONES
#endif

template <typename T>
TORCH_CORE_CLONES void binary_range(BinaryOp op, const T* a, const T* b, T* out,
                                    std::size_t begin, std::size_t end) {
  switch (op) {
    case BinaryOp::kAdd:
      for (std::size_t i = begin; i < end; ++i) out[i] = a[i] + b[i];
      break;
    case BinaryOp::kSub:
      for (std::size_t i = begin; i < end; ++i) out[i] = a[i] - b[i];
      break;
    case BinaryOp::kMul:
      for (std::size_t i = begin; i < end; ++i) out[i] = a[i] * b[i];
      break;
    case BinaryOp::kDiv:
      for (std::size_t i = begin; i < end; ++i) out[i] = a[i] / b[i];
      break;
  }
}

// Thirty-two independent accumulators of the input type (the compiler keeps them in vector
// registers) over blocks of 2048 elements; the block sums are added in double, so the
// rounding error grows with the block size, not with n (a cascade, as PyTorch sums).
template <typename T>
TORCH_CORE_CLONES double sum_block(const T* a, std::size_t begin, std::size_t end) {
  T acc[32] = {};
  std::size_t i = begin;
  for (; i + 32 <= end; i += 32) {
    for (int j = 0; j < 32; ++j) acc[j] += a[i + j];
  }
  double total = 0;
  for (; i < end; ++i) total += static_cast<double>(a[i]);
  for (int j = 0; j < 32; ++j) total += static_cast<double>(acc[j]);
  return total;
}

template <typename T>
double sum_range(const T* a, std::size_t begin, std::size_t end) {
  constexpr std::size_t kBlock = 2048;
  double total = 0;
  for (std::size_t start = begin; start < end; start += kBlock) {
    total += sum_block(a, start, std::min(end, start + kBlock));
  }
  return total;
}

}  // namespace

template <typename T>
void binary(BinaryOp op, const T* a, const T* b, T* out, std::size_t n, int threads) {
  parallel_for(n, threads, [&](std::size_t begin, std::size_t end, int) {
    binary_range(op, a, b, out, begin, end);
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
