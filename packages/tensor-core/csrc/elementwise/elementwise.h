// Elementwise arithmetic and sums over large contiguous float arrays, split across
// threads. Why native: NumPy runs these on one core; on large arrays they are
// memory-bound and two cores move twice the data.
#pragma once

#include <cstddef>

namespace torch_core {

enum class BinaryOp { kAdd, kSub, kMul, kDiv };

// out may be a or b itself (an in-place operation), not a part of one.
template <typename T>
void binary(BinaryOp op, const T* a, const T* b, T* out, std::size_t n, int threads);

// out[0, n) = value.
template <typename T>
void fill(T* out, T value, std::size_t n, int threads);

// Sums in double precision (float32 inputs too), in a fixed order for a given n and
// thread count, so results are reproducible run to run.
template <typename T>
double sum(const T* a, std::size_t n, int threads);

}  // namespace torch_core
