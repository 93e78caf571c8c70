// torch._C: the native kernels of torch-core. Every kernel here has a NumPy reference
// that its tests compare against; TORCH_NATIVE=0 makes the package use the reference.
// Each family (a folder beside this file) registers its own entry points; this file
// holds the module and the thread pool's.
#include <pybind11/pybind11.h>

#include <atomic>
#include <chrono>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>

#include "common/checks.h"
#include "common/gil.h"
#include "common/isa.h"
#include "common/parallel.h"
#include "common/registry.h"

namespace py = pybind11;

namespace {

// Test-only (not API): runs `threads` parts on the pool; part `throw_part` throws
// (kind "runtime": std::runtime_error, "bad_alloc": std::bad_alloc) and the others sleep
// `sleep_ms` and count themselves. The exception must reach Python only after every other
// part has finished (they run over this frame): if not, a RuntimeError says so.
void test_pool_throw(int threads, int throw_part, const std::string& kind, int sleep_ms) {
  if (threads < 1 || threads > torch_core::checks::kMostThreads || sleep_ms < 0 ||
      sleep_ms > 1000) {
    throw std::invalid_argument("_test_pool_throw: threads in [1, 64], sleep_ms in [0, 1000]");
  }
  if (kind != "runtime" && kind != "bad_alloc") {
    throw std::invalid_argument("_test_pool_throw: kind must be 'runtime' or 'bad_alloc'");
  }
  std::atomic<int> finished{0};
  torch_core::GilRelease nogil;
  try {
    torch_core::run_in_pool(threads, [&](int part) {
      if (part == throw_part) {
        if (kind == "bad_alloc") throw std::bad_alloc();
        throw std::runtime_error("part " + std::to_string(part) + " failed");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
      finished.fetch_add(1);
    });
  } catch (...) {
    const int others = threads - 1;
    if (finished.load() != others) {
      throw std::runtime_error("run_in_pool returned with " +
                               std::to_string(others - finished.load()) + " parts running");
    }
    throw;
  }
}

}  // namespace

PYBIND11_MODULE(_C, m) {
  // the finalizing thread, which gil.h's guard must never park
  if (_PyOS_IsMainThread()) torch_core::main_thread_ident() = PyThread_get_thread_ident();
  m.doc() = "Native kernels of torch-core.";
  register_blas(m);
  register_optim(m);
  register_nn_pooling(m);
  register_nn_recurrent(m);
  register_norm(m);
  register_array_flags(m);
  register_slot_readers(m);
  register_fork_gate(m);
  register_process_settings(m);
  register_elementwise(m);
  register_conv(m);
  register_indexing(m);
  register_random(m);
  m.def("cpu_isa", [] { return torch_core::isa::tier_name(torch_core::isa::cpu_tier()); },
        "The instruction-set tier the kernels run: 'avx512', 'avx2' or 'baseline'.");
  m.def("set_thread_limit", &torch_core::set_thread_limit, py::arg("threads"),
        "Cap the threads every native kernel uses (0: no cap).");
  m.def("thread_limit", &torch_core::thread_limit);
  m.def("default_threads", &torch_core::default_threads,
        "Threads a native kernel uses by default (the machine's, at most 8, or the cap).");
  m.def("_test_pool_throw", &test_pool_throw, py::arg("threads"), py::arg("throw_part"),
        py::arg("kind") = "runtime", py::arg("sleep_ms") = 20,
        "Test-only: a pool job whose part throw_part throws (exception safety of the pool).");
}
