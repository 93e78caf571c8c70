// The process-wide settings torch._C offers, which torch/_native.py makes at import unless
// their environment variable turns them off (docs/native.md lists them with their
// measured gains): glibc keeping freed buffers (mallopt) and NumPy's aligned allocator
// (process/aligned_alloc.cpp). Each has a function saying whether it is in effect.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdexcept>

#include "common/registry.h"

namespace py = pybind11;

bool install_aligned_numpy_allocator();  // process/aligned_alloc.cpp
bool aligned_numpy_allocator_active();   // process/aligned_alloc.cpp

namespace {

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

}  // namespace

void register_process_settings(py::module_& m) {
  m.def("install_aligned_numpy_allocator", &install_aligned_numpy_allocator,
        "Make NumPy allocate array data on 64-byte boundaries from now on (in this context); "
        "false if NumPy's C API is unavailable.");
  m.def("aligned_numpy_allocator_active", &aligned_numpy_allocator_active,
        "Whether NumPy's current allocator (in this context) is the 64-byte aligned one.");
  m.def("keep_freed_buffers", &keep_freed_buffers, py::arg("mmap_threshold"),
        py::arg("trim_threshold"),
        "Keep freed buffers up to mmap_threshold bytes in the heap (glibc only).");
}
