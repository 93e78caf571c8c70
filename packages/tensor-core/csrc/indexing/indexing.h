// Accumulating and gathering along one dimension, on arrays seen as (outer, dim, inner):
// index_add (one index per row of the dimension, e.g. embedding backward), scatter_add and
// gather (an index per element). Why native: NumPy's add.at and take_along_axis run one
// element at a time on one core; here rows are added as vectors and split across threads
// so that no two threads write the same element.
#pragma once

#include <cstdint>

namespace torch_core {

struct AlongDim {
  std::int64_t outer, dim, inner;  // the indexed array, (outer, dim, inner)
  std::int64_t count;              // entries along the dimension in the index/source
};

// Throws std::out_of_range naming the first index outside [0, dim).
void check_indices(const std::int64_t* index, std::int64_t n, std::int64_t dim);

// out[o, index[j], k] += alpha * src[o, j, k]
template <typename T>
void index_accumulate(const AlongDim& g, T* out, const std::int64_t* index, const T* src,
                      T alpha, int threads);

// out[o, index[o, j, k], k] += src[o, j, k]
template <typename T>
void scatter_accumulate(const AlongDim& g, T* out, const std::int64_t* index, const T* src,
                        int threads);

// out[o, j, k] = src[o, index[o, j, k], k]
template <typename T>
void gather_along(const AlongDim& g, const T* src, const std::int64_t* index, T* out,
                  int threads);

}  // namespace torch_core
