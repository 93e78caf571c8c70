// 64-byte aligned array data, as PyTorch's CPU allocator gives.
//
// Tensors keep their data in NumPy arrays, and NumPy allocates with malloc: 16-byte
// aligned, so most large arrays start 16 or 48 bytes into a cache line. MKL's GEMM runs
// a 1024^3 float32 product 2.5% slower on such operands than on cache-line aligned ones
// here, and the vectorised kernels split more loads across two lines. This installs a
// NumPy memory handler (NumPy >= 1.22, NEP 49) that over-allocates by one cache line
// and hands out the first 64-byte boundary, keeping the offset and size just before it.
//
// What NumPy's own allocator does beyond malloc is kept: blocks under 1 KiB are reused
// from a small cache (only under the GIL, which serialises it, as in NumPy's own cache),
// and blocks of 4 MiB or more are marked for transparent huge pages. calloc stays the
// system's, so the lazily zeroed pages of a large np.zeros are kept. NumPy keeps the
// handler with each array, so arrays made before the switch, or in a thread whose
// context never saw it, are freed by their own handler.
#define NPY_NO_DEPRECATED_API NPY_1_22_API_VERSION
#define NPY_TARGET_VERSION NPY_1_22_API_VERSION
#include <Python.h>
#include <numpy/arrayobject.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace {

constexpr std::size_t kAlignment = 64;
constexpr std::size_t kHeader = 2 * sizeof(std::size_t);  // user size, offset from raw
constexpr std::size_t kSlack = kAlignment + kHeader;

std::size_t* header_of(void* data) { return static_cast<std::size_t*>(data) - 2; }

// The first 64-byte boundary in `raw` with room for the header before it.
void* place(void* raw, std::size_t size) {
  if (raw == nullptr) return nullptr;
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const auto data = (base + kHeader + kAlignment - 1) & ~(kAlignment - 1);
  std::size_t* header = header_of(reinterpret_cast<void*>(data));
  header[0] = size;
  header[1] = data - base;
  return reinterpret_cast<void*>(data);
}

void* raw_of(void* data) { return static_cast<char*>(data) - header_of(data)[1]; }

// Small blocks kept for reuse, per exact size (tensors of a loop come and go in the same
// few sizes).
constexpr std::size_t kCachedBelow = 1024;
constexpr int kCachedPerSize = 7;
struct Bucket {
  int count = 0;
  void* blocks[kCachedPerSize];
};
Bucket cache[kCachedBelow];

// The cache is only touched under the GIL, which serialises it.
bool cacheable(std::size_t size) { return size < kCachedBelow && PyGILState_Check(); }

void* from_cache(std::size_t size) {
  if (!cacheable(size) || cache[size].count == 0) return nullptr;
  return cache[size].blocks[--cache[size].count];
}

constexpr std::size_t kHugePageFrom = std::size_t{1} << 22;

void* with_huge_pages(void* data, std::size_t size) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (data != nullptr && size >= kHugePageFrom) {
    // only whole pages inside the block; failure just leaves small pages
    const auto page = static_cast<std::uintptr_t>(4096);
    const auto start = (reinterpret_cast<std::uintptr_t>(data) + page - 1) & ~(page - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + size) & ~(page - 1);
    if (end > start) madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
  }
#endif
  return data;
}

void* aligned_malloc(void*, std::size_t size) {
  if (void* reused = from_cache(size)) return reused;
  if (size > SIZE_MAX - kSlack) return nullptr;
  return with_huge_pages(place(std::malloc(size + kSlack), size), size);
}

void* aligned_calloc(void*, std::size_t count, std::size_t item) {
  if (item != 0 && count > (SIZE_MAX - kSlack) / item) return nullptr;
  const std::size_t size = count * item;
  if (void* reused = from_cache(size)) return std::memset(reused, 0, size);
  return with_huge_pages(place(std::calloc(size + kSlack, 1), size), size);
}

void* aligned_realloc(void* context, void* data, std::size_t size) {
  if (data == nullptr) return aligned_malloc(context, size);
  if (size > SIZE_MAX - kSlack) return nullptr;
  const std::size_t old_size = header_of(data)[0], old_offset = header_of(data)[1];
  char* raw = static_cast<char*>(std::realloc(raw_of(data), size + kSlack));
  if (raw == nullptr) return nullptr;  // the old block is untouched, as realloc's contract
  // the new block may sit at another distance from a boundary: move the bytes there
  const auto base = reinterpret_cast<std::uintptr_t>(raw);
  const std::size_t offset = ((base + kHeader + kAlignment - 1) & ~(kAlignment - 1)) - base;
  if (offset != old_offset) std::memmove(raw + offset, raw + old_offset, std::min(old_size, size));
  return with_huge_pages(place(raw, size), size);
}

void aligned_free(void*, void* data, std::size_t) {
  if (data == nullptr) return;
  const std::size_t size = header_of(data)[0];  // as allocated, whatever NumPy passes
  if (cacheable(size) && cache[size].count < kCachedPerSize) {
    cache[size].blocks[cache[size].count++] = data;
    return;
  }
  std::free(raw_of(data));
}

PyDataMem_Handler handler = {
    "torch_core_aligned_64",
    1,
    {nullptr, aligned_malloc, aligned_calloc, aligned_realloc, aligned_free},
};

}  // namespace

// Makes the handler NumPy's current one (in the calling context); false when NumPy's
// C API cannot be loaded. Errors are left cleared.
bool install_aligned_numpy_allocator() {
  if (PyArray_ImportNumPyAPI() < 0) {
    PyErr_Clear();
    return false;
  }
  PyObject* capsule = PyCapsule_New(&handler, "mem_handler", nullptr);
  if (capsule == nullptr) {
    PyErr_Clear();
    return false;
  }
  PyObject* previous = PyDataMem_SetHandler(capsule);
  Py_DECREF(capsule);
  if (previous == nullptr) {
    PyErr_Clear();
    return false;
  }
  Py_DECREF(previous);
  return true;
}

// Whether NumPy's current handler (in the calling context) is this one.
bool aligned_numpy_allocator_active() {
  if (PyArray_ImportNumPyAPI() < 0) {
    PyErr_Clear();
    return false;
  }
  PyObject* current = PyDataMem_GetHandler();
  if (current == nullptr) {
    PyErr_Clear();
    return false;
  }
  const void* in_use = PyCapsule_GetPointer(current, "mem_handler");
  Py_DECREF(current);
  if (in_use == nullptr) PyErr_Clear();
  return in_use == &handler;
}
