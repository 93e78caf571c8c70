// Splitting a loop of n items over a few threads, for the kernels of torch._C.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>
#include <vector>

namespace torch_core {

// Threads worth starting: the machine's, at most 8 (kernels here are memory-bound or
// small enough that more threads only add start-up cost).
inline int default_threads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return hw == 0 ? 1 : static_cast<int>(std::min(hw, 8u));
}

// body(begin, end, thread_index) over contiguous chunks of [0, n); the calling thread
// takes the first chunk.
template <typename F>
void parallel_for(std::size_t n, int threads, F&& body) {
  // never more threads than items, and at least one
  const std::size_t most = std::max<std::size_t>(n, 1);
  threads = static_cast<int>(std::min<std::size_t>(std::max(1, threads), most));
  if (threads == 1) {
    body(std::size_t{0}, n, 0);
    return;
  }
  std::vector<std::thread> workers;
  const std::size_t chunk = (n + threads - 1) / threads;
  for (int t = 1; t < threads; ++t) {
    const std::size_t begin = std::min(n, chunk * t);
    const std::size_t end = std::min(n, begin + chunk);
    workers.emplace_back([&body, begin, end, t] { body(begin, end, t); });
  }
  body(std::size_t{0}, std::min(n, chunk), 0);
  for (auto& w : workers) w.join();
}

}  // namespace torch_core
