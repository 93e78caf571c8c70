#include "common/parallel.h"

#include <pthread.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

namespace torch_core {

namespace {

// How long a thread polls for work (or for the job's end) before it sleeps: long enough
// to catch the next kernel of a Python loop, short enough not to steal a core from the
// interpreter for long.
constexpr auto kSpinTime = std::chrono::microseconds(50);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Polls ready() for up to kSpinTime; true if it became true.
template <typename F>
bool spin_until(F&& ready) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinTime;
  for (int i = 0;; ++i) {
    if (ready()) return true;
    cpu_relax();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > deadline) return ready();
  }
}

class Pool {
 public:
  // A thread that cannot be started (e.g. under a process limit) leaves the pool smaller.
  explicit Pool(int workers) {
    try {
      for (int i = 1; i <= workers; ++i) threads_.emplace_back([this, i] { work(i); });
    } catch (const std::system_error&) {
    }
  }

  // Never joined: the pool lives as long as the process (and is abandoned in a forked
  // child, whose copy has no threads).
  ~Pool() = delete;

  int workers() const { return static_cast<int>(threads_.size()); }

  bool try_run(int parts, const std::function<void(int)>& job) {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &job;
      parts_ = parts;
      pending_.store(parts - 1, std::memory_order_relaxed);
      error_ = nullptr;
      generation_.fetch_add(1, std::memory_order_release);
    }
    wake_.notify_all();
    // The job's parts run over the caller's stack (the job and what it captures): whatever
    // part 0 does, wait for every other part before leaving, then rethrow the first error.
    try {
      job(0);
    } catch (...) {
      record(std::current_exception());
    }
    auto finished = [this] { return pending_.load(std::memory_order_acquire) == 0; };
    if (!spin_until(finished)) {
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, finished);
    }
    std::exception_ptr error;
    {
      std::lock_guard<std::mutex> lock(error_mutex_);
      error.swap(error_);
    }
    if (error) std::rethrow_exception(error);
    return true;
  }

 private:
  void work(int index) {
    std::uint64_t seen = 0;
    for (;;) {
      auto new_job = [&] { return generation_.load(std::memory_order_acquire) != seen; };
      if (!spin_until(new_job)) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, new_job);
      }
      const std::function<void(int)>* job;
      int parts;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        seen = generation_.load(std::memory_order_acquire);
        job = job_;
        parts = parts_;
      }
      if (index < parts) {
        // an exception must not end the worker (std::terminate): the caller rethrows it
        try {
          (*job)(index);
        } catch (...) {
          record(std::current_exception());
        }
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          std::lock_guard<std::mutex> lock(mutex_);
          done_.notify_one();
        }
      }
    }
  }

  // Keeps the first exception of the current job.
  void record(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(error_mutex_);
    if (!error_) error_ = std::move(error);
  }

  std::vector<std::thread> threads_;
  std::mutex error_mutex_;
  std::exception_ptr error_;
  std::mutex run_mutex_;  // one job at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* job_ = nullptr;
  int parts_ = 0;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<int> pending_{0};
};

std::atomic<Pool*> pool{nullptr};
// A pointer, so that a forked child can replace it: another thread may have held it at the
// fork, and the child's copy would then stay locked forever.
std::mutex* pool_creation = new std::mutex;
bool fork_handler_registered = false;  // under *pool_creation

// A forked child inherits the pool's memory but none of its threads: it abandons the pool
// (whose mutexes may be held by threads that do not exist there) and its creation lock,
// and starts a new pool when it first needs one.
void forget_pool_in_child() {
  pool.store(nullptr);
  pool_creation = new std::mutex;  // the old one is leaked: it may be locked
}

Pool* get_pool() {
  Pool* current = pool.load(std::memory_order_acquire);
  if (current) return current;
  std::lock_guard<std::mutex> lock(*pool_creation);
  current = pool.load(std::memory_order_acquire);
  if (!current) {
    if (!fork_handler_registered) {
      pthread_atfork(nullptr, nullptr, forget_pool_in_child);
      fork_handler_registered = true;  // the handler is inherited by children
    }
    current = new Pool(hardware_threads() - 1);
    pool.store(current, std::memory_order_release);
  }
  return current;
}

}  // namespace

namespace {
std::atomic<int> limit{0};
}  // namespace

int thread_limit() { return limit.load(std::memory_order_relaxed); }

void set_thread_limit(int threads) { limit.store(std::max(0, threads)); }

void run_in_pool(int threads, const std::function<void(int)>& job) {
  Pool* p = get_pool();
  if (threads <= p->workers() + 1 && p->try_run(threads, job)) return;
  for (int t = 0; t < threads; ++t) job(t);  // busy, nested, or more parts than threads
}

}  // namespace torch_core
