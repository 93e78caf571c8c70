#include "common/parallel.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace torch_core {

namespace {

// How long a thread polls for work (or for the job's end) before it sleeps: long enough
// to catch the next kernel of a Python loop, short enough not to steal a core from the
// interpreter for long.
constexpr auto kSpinTime = std::chrono::microseconds(50);
// After this long, a thread that polls for another one running on its own core yields
// the core between polls (the other cannot run while it spins: this happens when another
// process holds the other cores). One polling for a thread on another core keeps its
// core: yielding would hand it to another process for a whole time slice.
constexpr auto kYieldAfter = std::chrono::microseconds(2);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// The core this thread runs on (-1: unknown); cheap (glibc reads it from rseq).
inline int current_cpu() {
#ifdef __linux__
  return sched_getcpu();
#else
  return -1;
#endif
}

// A bit for a core (cores beyond 64 share bits: the answer is only a hint).
inline std::uint64_t cpu_bit(int cpu) { return cpu < 0 ? 0 : std::uint64_t{1} << (cpu % 64); }

// Polls ready() for up to kSpinTime; true if it became true. `on_my_core()` says whether
// the thread awaited runs on this thread's core.
template <typename F, typename G>
bool spin_until(F&& ready, G&& on_my_core) {
  const auto start = std::chrono::steady_clock::now();
  bool yielding = false;
  for (int i = 0;; ++i) {
    if (ready()) return true;
    if (yielding) {
      std::this_thread::yield();
    } else {
      cpu_relax();
    }
    if ((i & 15) == 15) {
      const auto waited = std::chrono::steady_clock::now() - start;
      if (waited > kSpinTime) return ready();
      yielding = waited > kYieldAfter && on_my_core();
    }
  }
}

// A job's parts are claimed one at a time from a counter by the caller and by the workers
// that join it. Joining goes through one word, `state_`: the job's generation in the high
// 32 bits, a "closed" bit, and the number of workers that joined. The caller opens a job
// by publishing a new generation; a worker joins by incrementing the count while the job
// is open and has room; the caller, once no part is left to claim, closes the job and
// waits only for the workers that joined. A worker that wakes after that finds the job
// closed and never touches it (the job lives on the caller's stack).
class Pool {
 public:
  // A thread that cannot be started (e.g. under a process limit) leaves the pool smaller.
  explicit Pool(int workers) {
    try {
      for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { work(); });
    } catch (const std::system_error&) {
    }
  }

  // Never joined: the pool lives as long as the process (and is abandoned in a forked
  // child, whose copy has no threads).
  ~Pool() = delete;

  int workers() const { return static_cast<int>(threads_.size()); }

  bool try_run(int parts, int helpers, const std::function<void(int)>& job) {
    std::unique_lock<std::mutex> busy(run_mutex_, std::try_to_lock);
    if (!busy.owns_lock()) return false;
    job_ = &job;
    parts_ = parts;
    helpers_.store(helpers, std::memory_order_relaxed);
    next_part_.store(0, std::memory_order_relaxed);
    left_.store(0, std::memory_order_relaxed);
    error_ = nullptr;
    caller_cpu_.store(current_cpu(), std::memory_order_relaxed);
    generation_ += 1;
    {
      // under the mutex: a worker about to sleep sees the new job or gets the notification
      std::lock_guard<std::mutex> lock(mutex_);
      state_.store(generation_ << kGenerationShift, std::memory_order_release);
    }
    wake_.notify_all();
    // No part is kept for the caller: a worker woken onto the caller's core may run
    // before it and take them all.
    run_parts();
    // The parts run over the caller's stack (the job and what it captures): whatever they
    // did, wait for every worker that joined before leaving, then rethrow the first error.
    // (sequentially consistent with the workers' leaving: see work())
    const auto joined = static_cast<int>(state_.fetch_or(kClosed) & kJoinedMask);
    auto finished = [this, joined] { return left_.load() == joined; };
    auto worker_on_my_core = [this] {
      return (worker_cpus_.load(std::memory_order_relaxed) & cpu_bit(current_cpu())) != 0;
    };
    if (!spin_until(finished, worker_on_my_core)) {
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
  static constexpr int kGenerationShift = 32;
  static constexpr std::uint64_t kClosed = std::uint64_t{1} << 31;
  static constexpr std::uint64_t kJoinedMask = kClosed - 1;

  static std::uint64_t generation_of(std::uint64_t state) { return state >> kGenerationShift; }

  // An exception must not end a worker (std::terminate): the caller rethrows it.
  void run_part(int part) {
    try {
      (*job_)(part);
    } catch (...) {
      record(std::current_exception());
    }
  }

  void run_parts() {
    for (int part; (part = next_part_.fetch_add(1, std::memory_order_relaxed)) < parts_;) {
      run_part(part);
    }
  }

  // Joins the job of `state` if it is still open and has room; false if not.
  bool join(std::uint64_t state) {
    const std::uint64_t generation = generation_of(state);
    while (!(state & kClosed) &&
           static_cast<int>(state & kJoinedMask) < helpers_.load(std::memory_order_relaxed)) {
      if (state_.compare_exchange_weak(state, state + 1, std::memory_order_acquire)) return true;
      if (generation_of(state) != generation) return false;  // a later job: look again
    }
    return false;
  }

  void work() {
    std::uint64_t seen = 0;
    for (;;) {
      std::uint64_t state = 0;
      auto new_job = [&] {
        state = state_.load(std::memory_order_acquire);
        return generation_of(state) != seen;
      };
      auto caller_on_my_core = [this] {
        const int cpu = current_cpu();
        return cpu >= 0 && cpu == caller_cpu_.load(std::memory_order_relaxed);
      };
      if (!spin_until(new_job, caller_on_my_core)) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, new_job);
      }
      seen = generation_of(state);
      if (!join(state)) continue;
      const std::uint64_t my_cpu = cpu_bit(current_cpu());
      worker_cpus_.fetch_or(my_cpu, std::memory_order_relaxed);
      run_parts();
      worker_cpus_.fetch_and(~my_cpu, std::memory_order_relaxed);
      // The caller may be asleep waiting for this worker: the last to leave a closed job
      // wakes it (under the mutex, so the wake-up cannot fall between its check and wait).
      // Sequentially consistent with the caller's closing: either it sees this worker
      // gone, or this worker sees the job closed.
      left_.fetch_add(1);
      const std::uint64_t now = state_.load();
      if ((now & kClosed) && generation_of(now) == seen &&
          left_.load() == static_cast<int>(now & kJoinedMask)) {
        std::lock_guard<std::mutex> lock(mutex_);
        done_.notify_one();
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
  // the current job, written by its caller before it publishes state_
  const std::function<void(int)>* job_ = nullptr;
  int parts_ = 0;
  std::atomic<int> helpers_{0};  // read by workers that may not get to join
  std::uint64_t generation_ = 0;  // under run_mutex_
  // where the last caller and the workers in a job run (hints for spin_until)
  std::atomic<int> caller_cpu_{-1};
  std::atomic<std::uint64_t> worker_cpus_{0};
  alignas(64) std::atomic<std::uint64_t> state_{kClosed};
  alignas(64) std::atomic<int> next_part_{0};
  alignas(64) std::atomic<int> left_{0};
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

void run_in_pool(int parts, int threads, const std::function<void(int)>& job) {
  if (parts <= 0) return;
  Pool* p = get_pool();
  const int helpers = std::min({threads - 1, parts - 1, p->workers()});
  if (helpers > 0 && p->try_run(parts, helpers, job)) return;
  for (int part = 0; part < parts; ++part) job(part);  // busy, nested, or one thread
}

GuidedParts::GuidedParts(std::size_t n, int threads, std::size_t grain)
    : threads_(usable_threads(n, threads)) {
  constexpr std::size_t kLine = 16;  // items per boundary step
  const std::size_t smallest = std::max({grain, n / 128, kLine});
  bounds_[0] = 0;
  std::size_t done = 0;
  while (done < n || count_ == 0) {
    std::size_t size = std::max(smallest, (n - done) / (2 * static_cast<std::size_t>(threads_)));
    size = (size + kLine - 1) / kLine * kLine;
    // the last part takes what is left, rather than leave a sliver after it
    if (threads_ == 1 || count_ == kMost - 1 || size + smallest > n - done) size = n - done;
    done += size;
    bounds_[++count_] = done;
  }
}

}  // namespace torch_core
