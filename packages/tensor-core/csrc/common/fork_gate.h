// The fork gate: fork() waits until no BLAS call made by torch is in flight.
//
// Why: BLAS libraries keep thread pools that are not safe to fork around. NumPy's
// OpenBLAS shuts its pool down in a pthread_atfork handler; if another thread is inside a
// threaded GEMM at that moment the worker overwrites the shutdown request and the fork
// hangs forever (OpenBLAS 0.3.x). MKL's internal locks, held mid-call, would be copied
// locked into the child. So every BLAS call torch makes (NumPy's matmul/linalg and
// torch._C's own GEMM) passes this gate, and torch's os.register_at_fork hook closes it
// before a fork: new calls wait, calls in flight finish, then the process forks with
// every BLAS library idle. The child starts with the gate open and empty.
#pragma once

namespace torch_core {

// Enter/leave a BLAS call on this thread (nested calls count once). Must be called
// without the GIL: enter() may wait for a fork to finish.
void fork_gate_enter();
void fork_gate_leave();

// RAII form of the above.
struct ForkGateScope {
  ForkGateScope() { fork_gate_enter(); }
  ~ForkGateScope() { fork_gate_leave(); }
  ForkGateScope(const ForkGateScope&) = delete;
  ForkGateScope& operator=(const ForkGateScope&) = delete;
};

}  // namespace torch_core
