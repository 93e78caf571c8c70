// Releasing the GIL around a kernel, safely at interpreter shutdown. Use this guard in
// torch._C instead of py::gil_scoped_release.
//
// Why not pybind11's guard: when the interpreter finalizes, CPython 3.11-3.13 makes a
// daemon thread that tries to take the GIL back call pthread_exit, which unwinds the
// thread's stack with a forced-unwind exception. Destructors are noexcept by default, and
// unwinding through a noexcept one calls std::terminate: a daemon thread computing
// `a @ b` while the main thread exits aborted the whole process ("terminate called without
// an active exception", SIGABRT). This guard
//   1. parks such a thread instead (as CPython 3.14 does itself): during finalization a
//      thread other than the main one never gets the GIL back, so it sleeps until the
//      process exits, touching no Python object;
//   2. declares its destructor noexcept(false), so that if finalization starts in the gap
//      between that check and taking the GIL, the forced unwind passes through (pybind11's
//      dispatcher rethrows it) instead of terminating.
// Nothing between construction and destruction may touch a Python object.
#pragma once

#include <Python.h>
#include <pythread.h>

#include <chrono>
#include <thread>

namespace torch_core {

// The thread that imported torch._C when that was the main thread (0 otherwise): it is the
// one that finalizes the interpreter, so it is never parked. Set in module init.
inline unsigned long& main_thread_ident() {
  static unsigned long ident = 0;
  return ident;
}

inline bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

class GilRelease {
 public:
  GilRelease() : state_(PyEval_SaveThread()) {}
  GilRelease(const GilRelease&) = delete;
  GilRelease& operator=(const GilRelease&) = delete;

  ~GilRelease() noexcept(false) {
    const unsigned long main = main_thread_ident();
    if (main != 0 && interpreter_finalizing() && PyThread_get_thread_ident() != main) {
      for (;;) std::this_thread::sleep_for(std::chrono::hours(1));  // until exit()
    }
    PyEval_RestoreThread(state_);
  }

 private:
  PyThreadState* state_;
};

}  // namespace torch_core
