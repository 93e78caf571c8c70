"""Helpers shared by the tests of torch.multiprocessing."""

import gc
import json
import os
import pathlib
import time

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "multiprocessing.json").read_text())
# this test process's segments (and its children's) carry a tag of their own, so that
# tests running in parallel do not see each other's segments
# setdefault: core's shared-memory tests may share this process and its tag
os.environ.setdefault("TORCH_CORE_SHM_TAG", f"mptest{os.getpid()}_")
SHM_PREFIX = "torch_core_shm_" + os.environ["TORCH_CORE_SHM_TAG"]


def leftover_segments() -> list:
    return sorted(name for name in os.listdir("/dev/shm") if name.startswith(SHM_PREFIX))


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def wait_until(condition, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        gc.collect()
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def raise_value_error(index):
    """A child body for the spawn start method: spawned interpreters import it by module
    name, which works for this helper module (on sys.path) but not for test modules."""
    raise ValueError(f"bad input in process {index}")


def fill_with_index(index, tensor):
    """A spawn child body: write ``index + 1`` into the parent's shared tensor row."""
    tensor[index].fill_(index + 1)


def double_cuda_tensor_in_child(queue, done):
    """A spawned child (started with TORCH_CUDA_SIMULATE set): receives a tensor on a
    simulated CUDA device, reports where it is, and doubles it in place."""
    tensor = queue.get()
    done.put((str(tensor.device), tensor.cpu().tolist()))
    tensor.mul_(2)
    done.put("written")
