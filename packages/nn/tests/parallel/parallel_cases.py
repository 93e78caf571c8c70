"""``nn.parallel`` and ``Module.cuda`` without a CUDA device: the snippets whose outcome
tools/golden/record_nn_parallel.py records under real PyTorch (CPU build) and
test_parallel_nodevice.py replays. Each snippet's last line is an expression."""

from __future__ import annotations

from snippet_lines import run_lines

_LINEAR = "torch.manual_seed(0)\nnet = torch.nn.Linear(2, 2)\n"

CASES = {
    "module_cuda": _LINEAR + "net.cuda()",
    "module_cuda_index": _LINEAR + "net.cuda(1)",
    "dp_forward_shape": _LINEAR + "torch.nn.DataParallel(net)(torch.ones(4, 2)).shape",
    "dp_device_ids": _LINEAR + "torch.nn.DataParallel(net).device_ids",
    "dp_device_ids_given": _LINEAR + "torch.nn.DataParallel(net, device_ids=[0, 1]).device_ids",
    "dp_output_device": _LINEAR + "torch.nn.DataParallel(net).output_device",
    "dp_state_dict": _LINEAR + "list(torch.nn.DataParallel(net).state_dict())",
    "data_parallel": _LINEAR + "torch.nn.parallel.data_parallel(net, torch.ones(4, 2))",
    "replicate": _LINEAR + "torch.nn.parallel.replicate(net, [0, 1])",
    "gather": "torch.nn.parallel.gather([torch.ones(2), torch.ones(2)], 0)",
    "gather_cpu": "torch.nn.parallel.gather([torch.ones(2), torch.ones(2)], 'cpu')",
    "parallel_apply": _LINEAR + "torch.nn.parallel.parallel_apply([net], [(torch.ones(1, 2),)])",
    "parallel_all": "sorted(set(torch.nn.parallel.__all__) - {'DistributedDataParallel'})",
}


def outcome(code: str) -> dict:
    """What running ``code`` gives: ``{"value": repr}`` or ``{"error", "message"}``."""
    import torch

    try:
        value = run_lines(code, {"torch": torch})
    except BaseException as error:  # noqa: BLE001 - the recorded outcome
        return {"error": type(error).__name__, "message": str(error)}
    return {"value": repr(value)}
