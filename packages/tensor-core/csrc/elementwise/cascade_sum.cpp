#include "elementwise/cascade_sum.h"

#include <array>

namespace torch_core {

namespace {

constexpr int kVectorBytes = 32;  // PyTorch's reduction vectors: 8 float32 or 4 float64
constexpr int kAccumulators = 4;
constexpr int kBlock = 16;  // entries a level adds up before passing its subtotal on

// A running total over items of W lanes: `set` while empty (the first item is taken as
// it is, not added to zero), `add` afterwards.
template <typename T, int W>
struct Total {
  std::array<T, W> value{};
  int count = 0;

  void add(const T* item) {
    if (count++ == 0) {
      for (int l = 0; l < W; ++l) value[l] = item[l];
    } else {
      for (int l = 0; l < W; ++l) value[l] += item[l];
    }
  }
};

// Sums `count` items of W lanes (item i at items + i * W) as PyTorch does: four
// accumulators over rows of four items, each accumulator a three-level cascade of blocks
// of 16; then the first accumulator, the left-over items and the other accumulators.
template <typename T, int W>
std::array<T, W> row_sum(const T* items, std::size_t count) {
  constexpr int R = kAccumulators * W;  // one row: four items
  Total<T, R> level1, level2, level3, top;
  const std::size_t rows = count / kAccumulators;
  for (std::size_t r = 0; r < rows; ++r) {
    level1.add(items + r * R);
    if (level1.count == kBlock) {
      level2.add(level1.value.data());
      level1 = {};
      if (level2.count == kBlock) {
        level3.add(level2.value.data());
        level2 = {};
        if (level3.count == kBlock) {
          top.add(level3.value.data());
          level3 = {};
        }
      }
    }
  }
  // the levels' totals, lowest first; an empty level counts as zero
  Total<T, R> accumulators;
  for (const auto* level : {&level1, &level2, &level3, &top}) {
    std::array<T, R> zero{};
    accumulators.add(level->count ? level->value.data() : zero.data());
  }
  Total<T, W> result;
  result.add(accumulators.value.data());
  for (std::size_t i = rows * kAccumulators; i < count; ++i) result.add(items + i * W);
  for (int a = 1; a < kAccumulators; ++a) result.add(accumulators.value.data() + a * W);
  return result.value;
}

}  // namespace

template <typename T>
T cascade_sum(const T* a, std::size_t n) {
  constexpr int L = kVectorBytes / static_cast<int>(sizeof(T));
  if (n < static_cast<std::size_t>(L)) return row_sum<T, 1>(a, n)[0];
  const std::size_t vectors = n / L;
  const std::array<T, L> lanes = row_sum<T, L>(a, vectors);
  T total = 0;
  for (std::size_t i = vectors * L; i < n; ++i) total += a[i];
  for (int l = 0; l < L; ++l) total += lanes[l];
  return total;
}

template float cascade_sum<float>(const float*, std::size_t);
template double cascade_sum<double>(const double*, std::size_t);

}  // namespace torch_core
