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
inline int hardware_threads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 8u));
}

// Threads a kernel uses by default: the above, or fewer when a cap is set.
inline int default_threads() {
  const int limit = thread_limit();
  const int hw = hardware_threads();
  return limit > 0 ? std::min(limit, hw) : hw;
}

// Runs job(t) for t in [0, threads) on the pool's threads, t = 0 on the caller, and
// returns when all are done. Nested or concurrent calls (the GIL is released in kernels)
// run the job's parts one after another on the calling thread instead of waiting.
void run_in_pool(int threads, const std::function<void(int)>& job);

// body(begin, end, thread_index) over contiguous chunks of [0, n).
template <typename F>
void parallel_for(std::size_t n, int threads, F&& body) {
  // never more threads than items, and at least one
  const std::size_t most = std::max<std::size_t>(n, 1);
  const int limit = thread_limit();
  if (limit > 0) threads = std::min(threads, limit);
  threads = static_cast<int>(std::min<std::size_t>(std::max(1, threads), most));
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

}  // namespace torch_core
