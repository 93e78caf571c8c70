// The fork gate (see fork_gate.h) and its Python face: torch._C.fork_gated(fn) wraps a
// callable so that each call passes the gate, and fork_gate_close()/fork_gate_open() are
// what torch's os.register_at_fork hooks call around a fork.
#include "common/fork_gate.h"

#include "common/gil.h"

#include <pthread.h>
#include <pybind11/pybind11.h>
#include <structmember.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>

namespace py = pybind11;

namespace torch_core {

namespace {

struct GateState {
  std::mutex mutex;
  std::condition_variable changed;
  std::atomic<long> inflight{0};  // threads inside a gated call
  std::atomic<int> closers{0};    // forks waiting or in progress
};

// Built in place so that a forked child can build a fresh one over it (the parent's
// mutex may have been held by a thread that does not exist in the child).
alignas(GateState) unsigned char gate_storage[sizeof(GateState)];
GateState* gate = new (gate_storage) GateState;

thread_local int depth = 0;  // gated calls this thread is inside (nested ones count once)
// Set on the thread that closed the gate at interpreter exit: it goes on finalizing and
// may still run atexit handlers that multiply matrices (only the other threads wait).
thread_local bool passes_closed_gate = false;

// One thread leaves: a closer waiting for the calls in flight may go on.
void release_slot() {
  gate->inflight.fetch_sub(1);
  if (gate->closers.load() > 0) {
    std::lock_guard<std::mutex> lock(gate->mutex);
    gate->changed.notify_all();
  }
}

// Takes a slot if no fork is pending; false (holding nothing) otherwise.
bool try_take_slot() {
  gate->inflight.fetch_add(1);
  if (gate->closers.load() == 0 || passes_closed_gate) return true;
  release_slot();
  return false;
}

void wait_until_open() {
  std::unique_lock<std::mutex> lock(gate->mutex);
  gate->changed.wait(lock, [] { return gate->closers.load() == 0; });
}

// fork_gate_enter for a caller that holds the GIL: waits (rarely) with the GIL released,
// so that the forking thread, which holds it, can go on.
void enter_holding_gil() {
  if (depth++ > 0) return;
  while (!try_take_slot()) {
    PyThreadState* state = PyEval_SaveThread();
    wait_until_open();
    PyEval_RestoreThread(state);
  }
}

void reset_in_child() {
  // Only the forking thread exists here; it may be inside a gated call itself.
  gate = new (gate_storage) GateState;
  gate->inflight.store(depth > 0 ? 1 : 0);
}

// ---------------------------------------------------------------- Python: fork_gated(fn)

struct GatedCallable {
  PyObject_HEAD
  PyObject* function;
  vectorcallfunc vectorcall;
};

PyObject* gated_call(PyObject* self, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
  PyObject* function = reinterpret_cast<GatedCallable*>(self)->function;
  enter_holding_gil();
  PyObject* result = PyObject_Vectorcall(function, args, nargsf, kwnames);
  fork_gate_leave();
  return result;
}

void gated_dealloc(PyObject* self) {
  PyObject_GC_UnTrack(self);
  Py_CLEAR(reinterpret_cast<GatedCallable*>(self)->function);
  PyObject_GC_Del(self);
}

int gated_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(reinterpret_cast<GatedCallable*>(self)->function);
  return 0;
}

int gated_clear(PyObject* self) {
  Py_CLEAR(reinterpret_cast<GatedCallable*>(self)->function);
  return 0;
}

PyObject* gated_repr(PyObject* self) {
  return PyUnicode_FromFormat("<fork-gated %R>", reinterpret_cast<GatedCallable*>(self)->function);
}

PyMemberDef gated_members[] = {
    {"__wrapped__", T_OBJECT, offsetof(GatedCallable, function), READONLY,
     "the callable each call passes the fork gate to"},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(GatedCallable, vectorcall), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyTypeObject* gated_type() {
  static PyType_Slot slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(gated_dealloc)},
      {Py_tp_traverse, reinterpret_cast<void*>(gated_traverse)},
      {Py_tp_clear, reinterpret_cast<void*>(gated_clear)},
      {Py_tp_repr, reinterpret_cast<void*>(gated_repr)},
      {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
      {Py_tp_members, gated_members},
      {0, nullptr}};
  static PyType_Spec spec = {"torch._C.ForkGated", sizeof(GatedCallable), 0,
                             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
                             slots};
  static PyTypeObject* type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
  return type;
}

py::object fork_gated(py::object function) {
  if (!PyCallable_Check(function.ptr())) {
    throw py::type_error("fork_gated: expected a callable, got " +
                         std::string(Py_TYPE(function.ptr())->tp_name));
  }
  PyTypeObject* type = gated_type();
  if (!type) throw py::error_already_set();
  auto* self = PyObject_GC_New(GatedCallable, type);
  if (!self) throw py::error_already_set();
  self->function = function.inc_ref().ptr();
  self->vectorcall = gated_call;
  PyObject_GC_Track(reinterpret_cast<PyObject*>(self));
  return py::reinterpret_steal<py::object>(reinterpret_cast<PyObject*>(self));
}

// Called with the GIL by the before-fork hook: new gated calls wait from now on, and this
// returns once the calls in flight (other than this thread's own) have left.
void close_gate() {
  gate->closers.fetch_add(1);
  const long own = depth > 0 ? 1 : 0;
  GilRelease nogil;
  std::unique_lock<std::mutex> lock(gate->mutex);
  gate->changed.wait(lock, [own] { return gate->inflight.load() == own; });
}

// Called at interpreter exit: as close_gate, for good; this (finalizing) thread still
// passes, so that later atexit handlers can multiply matrices.
void close_gate_at_exit() {
  close_gate();
  passes_closed_gate = true;
}

// Called by the after-fork hook in the parent (the child starts open: reset_in_child).
void open_gate() {
  {
    std::lock_guard<std::mutex> lock(gate->mutex);
    if (gate->closers.load() > 0) gate->closers.fetch_sub(1);
  }
  gate->changed.notify_all();
}

}  // namespace

void fork_gate_enter() {
  if (depth++ > 0) return;
  while (!try_take_slot()) wait_until_open();
}

void fork_gate_leave() {
  if (--depth > 0) return;
  release_slot();
}

}  // namespace torch_core

void register_fork_gate(py::module_& m) {
  using namespace torch_core;
  static std::once_flag registered;
  std::call_once(registered, [] { pthread_atfork(nullptr, nullptr, reset_in_child); });
  m.def("fork_gated", &fork_gated, py::arg("function"),
        "A callable that calls `function` inside the fork gate: a fork waits until no "
        "such call is in flight (for BLAS calls, whose thread pools cannot be forked "
        "mid-call).");
  m.def("fork_gate_close", &close_gate,
        "Before a fork: stop new gated calls and wait until those in flight have left.");
  m.def("fork_gate_close_at_exit", &close_gate_at_exit,
        "At interpreter exit: close the gate for good to every thread but this one.");
  m.def("fork_gate_open", &open_gate, "After a fork, in the parent: let gated calls run.");
  m.def(
      "fork_gate_state",
      [] { return py::make_tuple(gate->inflight.load(), gate->closers.load()); },
      "(gated calls in flight, forks pending): for tests.");
}
