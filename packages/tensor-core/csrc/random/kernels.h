// The per-tier conversion loops of the random fills (random/kernels.inc): engine words in,
// uniform numbers low + x * span out, x from 24 (float) or 53 (double, two words) bits.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/isa.h"

namespace torch_core {
namespace random {

#define TORCH_CORE_DECLARE_RANDOM(tier)                                                      \
  namespace tier {                                                                           \
  void uniform_f32(const uint32_t* words, float* out, std::size_t n, float low, float span);  \
  void uniform_f64(const uint32_t* words, double* out, std::size_t n, double low,            \
                   double span);                                                             \
  }
TORCH_CORE_FOR_EACH_TIER(TORCH_CORE_DECLARE_RANDOM)
#undef TORCH_CORE_DECLARE_RANDOM

}  // namespace random
}  // namespace torch_core
