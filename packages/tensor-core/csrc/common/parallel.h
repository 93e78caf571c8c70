// Splitting a loop of n items over a few threads, for the kernels of torch._C. The
// threads are started once and kept (starting a thread costs about as much as summing
// 100k floats); they spin briefly for the next job and then sleep, so an idle pool costs
// no CPU.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <thread>

namespace torch_core {

// The cap torch.set_num_threads sets (0: none): no loop uses more threads than this.
int thread_limit();
void set_thread_limit(int threads);

// Threads worth having: the machine's, at most 8 (kernels here are memory-bound or small
// enough that more threads only add start-up cost). The pool holds this many.
// Asked once: glibc's hardware_concurrency reads /sys on every call (about 5 us).
inline int hardware_threads() {
  static const int threads = [] {
    const unsigned hw = std::thread::hardware_concurrency();
    return hw == 0 ? 1 : static_cast<int>(std::min(hw, 8u));
  }();
  return threads;
}

// Threads a kernel uses by default: the above, or fewer when a cap is set.
inline int default_threads() {
  const int limit = thread_limit();
  const int hw = hardware_threads();
  return limit > 0 ? std::min(limit, hw) : hw;
}

// Runs job(p) for every p in [0, parts) on at most `threads` threads: the caller and up
// to threads - 1 of the pool's. Each takes the next part when it is
// free, so a thread that starts late (asleep, or its core lent to another process) takes
// fewer parts instead of holding the others up. Returns when every part is done, then
// rethrows the first exception a part threw (the other parts still run). Nested or
// concurrent calls (the GIL is released in kernels) run the parts one after another on
// the calling thread instead of waiting.
void run_in_pool(int parts, int threads, const std::function<void(int)>& job);

// job(t) for t in [0, threads), one part per thread.
inline void run_in_pool(int threads, const std::function<void(int)>& job) {
  run_in_pool(threads, threads, job);
}

// `threads` capped by torch.set_num_threads and by the n items, at least 1.
inline int usable_threads(std::size_t n, int threads) {
  const int limit = thread_limit();
  if (limit > 0) threads = std::min(threads, limit);
  return static_cast<int>(std::min<std::size_t>(std::max(1, threads), std::max<std::size_t>(n, 1)));
}

// body(begin, end, thread_index) over contiguous chunks of [0, n), one per thread.
template <typename F>
void parallel_for(std::size_t n, int threads, F&& body) {
  threads = usable_threads(n, threads);
  if (threads == 1) {
    body(std::size_t{0}, n, 0);
    return;
  }
  const std::size_t chunk = (n + threads - 1) / threads;
  run_in_pool(threads, [&](int t) {
    const std::size_t begin = std::min(n, chunk * t);
    body(begin, std::min(n, begin + chunk), t);
  });
}

// The parts a streaming loop over [0, n) is cut into for threads that each take the next
// part when free: large parts first (a 2 * threads-th of what is left), shrinking towards
// the end, so the threads finish together even when one starts late; none smaller than
// `grain` items or than n / 128. Boundaries are multiples of 16 items (whole cache lines
// of float32) and depend only on n, the usable threads and grain, so a reduction that
// keeps one partial result per part and combines them in part order is reproducible.
class GuidedParts {
 public:
  static constexpr int kMost = 256;

  // `threads` is capped as parallel_for caps it; one thread gets one part.
  GuidedParts(std::size_t n, int threads, std::size_t grain);

  int count() const { return count_; }
  std::size_t begin(int part) const { return bounds_[part]; }
  std::size_t end(int part) const { return bounds_[part + 1]; }

  // body(begin, end, part) for every part.
  template <typename F>
  void run(F&& body) const {
    if (threads_ == 1) {
      for (int p = 0; p < count_; ++p) body(begin(p), end(p), p);
      return;
    }
    run_in_pool(count_, threads_, [&](int p) { body(begin(p), end(p), p); });
  }

 private:
  std::size_t bounds_[kMost + 1];
  int count_ = 0;
  int threads_ = 1;
};

}  // namespace torch_core
