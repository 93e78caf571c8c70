"""The collectives behind ``torch.cuda.nccl`` on simulated devices: each one computed on
the host from the participants' arrays and written into the output tensors on their
devices, with NCCL's semantics (one tensor per device, reductions in the order of the
devices given, outputs written in place). The CuPy runtime has its own, over NCCL
(``torch.cuda._cupy.NcclCollectives``)."""

from __future__ import annotations

import numpy as np

__all__ = ["HostCollectives", "REDUCTIONS"]

# ncclRedOp_t: sum, prod, max, min, avg
REDUCTIONS = {
    0: np.add,
    1: np.multiply,
    2: np.maximum,
    3: np.minimum,
}
AVG = 4


def _reduce(arrays, op: int) -> np.ndarray:
    if op == AVG:
        return _reduce(arrays, 0) / len(arrays)
    try:
        ufunc = REDUCTIONS[op]
    except KeyError:
        raise ValueError(f"unknown NCCL reduction op {op}") from None
    total = np.array(arrays[0], copy=True)
    for array in arrays[1:]:
        ufunc(total, array, out=total, casting="unsafe")
    return total


def _host(tensor) -> np.ndarray:
    return tensor.detach().cpu().numpy()


def _write(output, values: np.ndarray) -> None:
    """Copy host ``values`` into ``output`` (on its device), as a collective writes."""
    import torch

    with torch.no_grad():
        source = torch.from_numpy(np.ascontiguousarray(values).reshape(output.shape))
        output.copy_(source.to(output.device))


class HostCollectives:
    """NCCL's collectives computed on the host (simulated devices)."""

    simulated = True

    def __init__(self, runtime) -> None:
        self.runtime = runtime

    def version(self) -> tuple[int, int, int]:
        return (0, 0, 0)  # no NCCL library behind simulated devices

    def all_reduce(self, inputs, outputs, op: int) -> None:
        total = _reduce([_host(t) for t in inputs], op)
        for output in outputs:
            _write(output, total)

    def reduce(self, inputs, output, root: int, op: int) -> None:
        _write(output, _reduce([_host(t) for t in inputs], op))

    def broadcast(self, inputs, root: int) -> None:
        values = _host(inputs[root])
        for index, tensor in enumerate(inputs):
            if index != root:
                _write(tensor, values)

    def all_gather(self, inputs, outputs) -> None:
        gathered = np.concatenate([_host(t).reshape(-1) for t in inputs])
        for output in outputs:
            _write(output, gathered)

    def reduce_scatter(self, inputs, outputs, op: int) -> None:
        total = _reduce([_host(t).reshape(-1) for t in inputs], op)
        size = outputs[0].numel()
        for index, output in enumerate(outputs):
            _write(output, total[index * size : (index + 1) * size])
