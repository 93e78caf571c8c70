#include "indexing/indexing.h"

#include <stdexcept>
#include <string>

#include "common/parallel.h"

namespace torch_core {

namespace {

// Below this many elements one thread does the work.
constexpr std::int64_t kParallelMinElements = 1 << 15;

// Calls body(o_begin, o_end, k_begin, k_end) on disjoint parts: whole outer slices when
// there are enough of them, else column ranges of the inner dimension (each thread then
// owns its columns of every row, so accumulation never races).
template <typename F>
void split_along(const AlongDim& g, int threads, F&& body) {
  const std::int64_t work = g.outer * g.count * g.inner;
  if (threads < 2 || work < kParallelMinElements) {
    body(0, g.outer, 0, g.inner);
  } else if (g.outer >= threads) {
    parallel_for(static_cast<std::size_t>(g.outer), threads,
                 [&](std::size_t begin, std::size_t end, int) {
                   body(static_cast<std::int64_t>(begin), static_cast<std::int64_t>(end), 0,
                        g.inner);
                 });
  } else if (g.inner >= 64 * threads) {
    parallel_for(static_cast<std::size_t>(g.inner), threads,
                 [&](std::size_t begin, std::size_t end, int) {
                   body(0, g.outer, static_cast<std::int64_t>(begin),
                        static_cast<std::int64_t>(end));
                 });
  } else {
    body(0, g.outer, 0, g.inner);
  }
}

}  // namespace

void check_indices(const std::int64_t* index, std::int64_t n, std::int64_t dim) {
  for (std::int64_t i = 0; i < n; ++i) {
    if (index[i] < 0 || index[i] >= dim) {
      throw std::out_of_range("index " + std::to_string(index[i]) +
                              " is out of bounds for dimension with size " +
                              std::to_string(dim));
    }
  }
}

template <typename T>
void index_accumulate(const AlongDim& g, T* out, const std::int64_t* index, const T* src,
                      T alpha, int threads) {
  check_indices(index, g.count, g.dim);
  split_along(g, threads, [&](std::int64_t o0, std::int64_t o1, std::int64_t k0, std::int64_t k1) {
    for (std::int64_t o = o0; o < o1; ++o) {
      for (std::int64_t j = 0; j < g.count; ++j) {
        T* target = out + (o * g.dim + index[j]) * g.inner;
        const T* row = src + (o * g.count + j) * g.inner;
        if (alpha == T(1)) {
          for (std::int64_t k = k0; k < k1; ++k) target[k] += row[k];
        } else {
          for (std::int64_t k = k0; k < k1; ++k) target[k] += alpha * row[k];
        }
      }
    }
  });
}

template <typename T>
void scatter_accumulate(const AlongDim& g, T* out, const std::int64_t* index, const T* src,
                        int threads) {
  check_indices(index, g.outer * g.count * g.inner, g.dim);
  split_along(g, threads, [&](std::int64_t o0, std::int64_t o1, std::int64_t k0, std::int64_t k1) {
    for (std::int64_t o = o0; o < o1; ++o) {
      T* slice = out + o * g.dim * g.inner;
      for (std::int64_t j = 0; j < g.count; ++j) {
        const std::int64_t at = (o * g.count + j) * g.inner;
        for (std::int64_t k = k0; k < k1; ++k) slice[index[at + k] * g.inner + k] += src[at + k];
      }
    }
  });
}

template <typename T>
void gather_along(const AlongDim& g, const T* src, const std::int64_t* index, T* out,
                  int threads) {
  check_indices(index, g.outer * g.count * g.inner, g.dim);
  split_along(g, threads, [&](std::int64_t o0, std::int64_t o1, std::int64_t k0, std::int64_t k1) {
    for (std::int64_t o = o0; o < o1; ++o) {
      const T* slice = src + o * g.dim * g.inner;
      for (std::int64_t j = 0; j < g.count; ++j) {
        const std::int64_t at = (o * g.count + j) * g.inner;
        for (std::int64_t k = k0; k < k1; ++k) out[at + k] = slice[index[at + k] * g.inner + k];
      }
    }
  });
}

#define TORCH_CORE_INDEXING(T)                                                                 \
  template void index_accumulate<T>(const AlongDim&, T*, const std::int64_t*, const T*, T, int); \
  template void scatter_accumulate<T>(const AlongDim&, T*, const std::int64_t*, const T*, int);  \
  template void gather_along<T>(const AlongDim&, const T*, const std::int64_t*, T*, int);
TORCH_CORE_INDEXING(float)
TORCH_CORE_INDEXING(double)
TORCH_CORE_INDEXING(std::int64_t)
TORCH_CORE_INDEXING(std::int32_t)
#undef TORCH_CORE_INDEXING

}  // namespace torch_core
