"""Record what real PyTorch's torch.multiprocessing shows of itself, for
packages/multiprocessing/tests (run under real PyTorch only):

    /work/ptref/bin/python tools/golden/record_multiprocessing.py

Writes packages/multiprocessing/tests/golden/multiprocessing.json: the sharing
strategies, the errors for bad input, sharing flags of tensors and storages, and the
messages of spawn's exceptions (children started with the fork method).
"""

from __future__ import annotations

import json
import os
import pathlib
import signal
import warnings
from multiprocessing.reduction import ForkingPickler

import torch
import torch.multiprocessing as mp

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "packages" / "multiprocessing" / "tests" / "golden" / "multiprocessing.json"


def _error(call) -> dict:
    try:
        call()
    except BaseException as error:  # noqa: BLE001 - recording whatever it raises
        return {"type": type(error).__name__, "message": str(error)}
    return {"type": None, "message": None}


def _raises(index):
    raise ValueError(f"bad input in process {index}")


def _exits(index):
    os._exit(3)


def _killed(index):
    os.kill(os.getpid(), signal.SIGKILL)


def _spawn_error(fn) -> dict:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            mp.start_processes(fn, nprocs=1, start_method="fork")
    except (mp.ProcessRaisedException, mp.ProcessExitedException) as error:
        return {
            "type": type(error).__name__,
            "first_line": str(error).strip().splitlines()[0],
            "last_line": str(error).strip().splitlines()[-1],
            "error_index": error.error_index,
            "exit_code": getattr(error, "exit_code", None),
            "signal_name": getattr(error, "signal_name", None),
        }
    return {}


def sharing_flags() -> dict:
    a = torch.zeros(4)
    view = a[1:]
    before = [a.is_shared(), view.is_shared(), a.untyped_storage().is_shared()]
    pointer = a.data_ptr()
    returned_self = a.share_memory_() is a
    after = [a.is_shared(), view.is_shared(), a.untyped_storage().is_shared()]
    a.fill_(3)
    return {
        "before": before,
        "after": after,
        "returned_self": returned_self,
        "data_ptr_moved": a.data_ptr() != pointer,
        "view_sees_writes": view.tolist(),
        "view_offset_kept": view.data_ptr() - a.data_ptr(),
        "again_is_noop": a.share_memory_().data_ptr() == a.data_ptr(),
        "new_shared": torch.UntypedStorage._new_shared(8).is_shared(),
        "empty_shared": torch.empty(0).share_memory_().is_shared(),
    }


TRANSFER_DTYPES = (
    "bool",
    "uint8",
    "int16",
    "int64",
    "float16",
    "bfloat16",
    "float64",
    "complex64",
)


def _describe_received(conn) -> None:
    tensors = conn.recv()
    conn.send(
        [
            [str(t.dtype), repr(t.tolist()), t.is_shared(), list(t.stride()), t.storage_offset()]
            for t in tensors
        ]
    )


def transfer_tensors():
    """The tensors sent to a child in :func:`transfer`: transposed, offset views of
    several dtypes, an empty tensor and a 0-dim one."""
    tensors = [torch.ones(2, 3, dtype=getattr(torch, name)).t()[1:] for name in TRANSFER_DTYPES]
    return tensors + [torch.empty(0), torch.tensor(3.5)]


def transfer() -> list:
    """What a forked child sees of tensors sent to it through a Pipe."""
    context = mp.get_context("fork")
    parent, child = context.Pipe()
    process = context.Process(target=_describe_received, args=(child,))
    process.start()
    parent.send(transfer_tensors())
    seen = parent.recv()
    process.join()
    return seen


def main() -> None:
    non_leaf = torch.ones(2, requires_grad=True) * 2
    leaf = torch.ones(2, requires_grad=True)
    rebuilt = ForkingPickler.loads(ForkingPickler.dumps(leaf))
    data = {
        "strategies": sorted(mp.get_all_sharing_strategies()),
        "default_strategy": mp.get_sharing_strategy(),
        "bad_strategy": {"type": _error(lambda: mp.set_sharing_strategy("bogus"))["type"]},
        "non_leaf": _error(lambda: ForkingPickler.dumps(non_leaf)),
        "leaf_rebuilt": {"requires_grad": rebuilt.requires_grad, "is_leaf": rebuilt.is_leaf},
        "sharing": sharing_flags(),
        "transfer": transfer(),
        "spawn_raised": _spawn_error(_raises),
        "spawn_exit_code": _spawn_error(_exits),
        "spawn_signal": _spawn_error(_killed),
        "exported": sorted(
            name for name in mp.__all__ if name[0].isalpha() and not name.startswith("Spawn")
        ),
    }
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")


if __name__ == "__main__":
    main()
