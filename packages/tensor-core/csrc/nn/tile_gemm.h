// A register-tiled matrix product for the small, oddly-strided products of the recurrent
// layers, included into a tier's .inc file (inside its TORCH_CORE_TIER namespace) so that
// each tier compiles it with its own vector width. Include it after <algorithm>, <cstdint>
// and <cstring>, inside the tier's namespace (its constants differ per tier).
//
// Why not the external BLAS: the products of one LSTM step are tiny (8 x 64 times 64 x 256
// at batch 8) and run once per time step; the library's per-call checks and its packing
// of both operands cost more than the arithmetic (MKL's generic x86 path, which it takes on
// AMD CPUs, also has no AVX-512). Here nothing is packed: a tile of MR rows by NV vectors of
// the result lives in registers over the whole inner dimension, each row of B is loaded as
// NV vectors and each element of A is broadcast once per tile row.
#pragma once

#if defined(__AVX512F__)
constexpr int kTileBytes = 64;  // 32 vector registers: an 8 x 2 tile keeps 16 accumulators
constexpr int kTileRows = 8;
#elif defined(__AVX2__)
constexpr int kTileBytes = 32;  // 16 registers: 4 x 2 accumulators, 2 of B, 1 broadcast
constexpr int kTileRows = 4;
#else
constexpr int kTileBytes = 16;
constexpr int kTileRows = 4;
#endif
constexpr int kTileVectors = 2;

template <typename T>
struct TileVec {
  typedef T type __attribute__((vector_size(kTileBytes)));
  static constexpr int lanes = kTileBytes / static_cast<int>(sizeof(T));
};

template <typename T>
TORCH_NN_INLINE typename TileVec<T>::type tile_load(const T* p) {
  typename TileVec<T>::type v;
  std::memcpy(&v, p, sizeof(v));  // an unaligned vector load
  return v;
}

template <typename T>
TORCH_NN_INLINE void tile_store(T* p, typename TileVec<T>::type v) {
  std::memcpy(p, &v, sizeof(v));
}

// The operands of one product: C (m x n, row stride ldc) = or += A (m x k) @ B (k x n).
// A's element (i, p) is a[i * a_row + p * a_col] (a row-major A or a transposed one); B is
// row-major with row stride ldb.
template <typename T>
struct Product {
  std::int64_t m, n, k;
  const T* a;
  std::int64_t a_row, a_col;
  const T* b;
  std::int64_t ldb;
  T* c;
  std::int64_t ldc;
  bool accumulate;
};

// One tile: rows [row, row + MR) and NV vectors of columns from col.
template <typename T, int MR, int NV>
TORCH_NN_INLINE void tile_block(const Product<T>& p, std::int64_t row, std::int64_t col) {
  using V = typename TileVec<T>::type;
  constexpr int L = TileVec<T>::lanes;
  V acc[MR][NV];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NV; ++j) acc[i][j] = V{};
  const T* a = p.a + row * p.a_row;
  const T* b = p.b + col;
  for (std::int64_t q = 0; q < p.k; ++q) {
    V bv[NV];
    for (int j = 0; j < NV; ++j) bv[j] = tile_load(b + q * p.ldb + j * L);
    const T* aq = a + q * p.a_col;
    for (int i = 0; i < MR; ++i) {
      const V ai = aq[i * p.a_row] - V{};  // a broadcast (x - 0 is x for every x)
      for (int j = 0; j < NV; ++j) acc[i][j] += ai * bv[j];
    }
  }
  T* c = p.c + row * p.ldc + col;
  for (int i = 0; i < MR; ++i) {
    for (int j = 0; j < NV; ++j) {
      T* out = c + i * p.ldc + j * L;
      tile_store(out, p.accumulate ? tile_load(out) + acc[i][j] : acc[i][j]);
    }
  }
}

// Columns [col, n) of rows [row, row + MR), fewer than one vector: one accumulator per
// element, the same summation order as the vector lanes.
template <typename T, int MR>
TORCH_NN_INLINE void tile_tail(const Product<T>& p, std::int64_t row, std::int64_t col) {
  for (std::int64_t j = col; j < p.n; ++j) {
    T acc[MR] = {};
    for (std::int64_t q = 0; q < p.k; ++q) {
      const T bq = p.b[q * p.ldb + j];
      for (int i = 0; i < MR; ++i) acc[i] += p.a[(row + i) * p.a_row + q * p.a_col] * bq;
    }
    for (int i = 0; i < MR; ++i) {
      T& out = p.c[(row + i) * p.ldc + j];
      out = p.accumulate ? out + acc[i] : acc[i];
    }
  }
}

// Every column of rows [row, row + MR).
template <typename T, int MR>
TORCH_NN_INLINE void tile_rows(const Product<T>& p, std::int64_t row) {
  constexpr int L = TileVec<T>::lanes;
  std::int64_t col = 0;
  for (; col + kTileVectors * L <= p.n; col += kTileVectors * L)
    tile_block<T, MR, kTileVectors>(p, row, col);
  for (; col + L <= p.n; col += L) tile_block<T, MR, 1>(p, row, col);
  if (col < p.n) tile_tail<T, MR>(p, row, col);
}

// Rows [begin, end) of the product, in tiles of kTileRows rows and a last narrower one.
template <typename T>
inline void tile_gemm_rows(const Product<T>& p, std::int64_t begin, std::int64_t end) {
  std::int64_t row = begin;
  for (; row + kTileRows <= end; row += kTileRows) tile_rows<T, kTileRows>(p, row);
  switch (end - row) {
    case 0: break;
    case 1: tile_rows<T, 1>(p, row); break;
    case 2: tile_rows<T, 2>(p, row); break;
    case 3: tile_rows<T, 3>(p, row); break;
#if defined(__AVX512F__)
    case 4: tile_rows<T, 4>(p, row); break;
    case 5: tile_rows<T, 5>(p, row); break;
    case 6: tile_rows<T, 6>(p, row); break;
    case 7: tile_rows<T, 7>(p, row); break;
#endif
    default: break;  // unreachable: fewer than kTileRows rows are left
  }
}

template <typename T>
inline void tile_gemm(const Product<T>& p) {
  if (p.m <= 0 || p.n <= 0) return;
  if (p.k <= 0) {  // an empty sum: zeros, or C unchanged
    if (!p.accumulate)
      for (std::int64_t i = 0; i < p.m; ++i) std::fill(p.c + i * p.ldc, p.c + i * p.ldc + p.n, T(0));
    return;
  }
  tile_gemm_rows(p, 0, p.m);
}
