"""torch.autograd.graph beyond the golden snippets (golden/autograd_api.json): per-thread
hooks, ops inside a pack hook, and what save_on_cpu keeps."""

import threading

import torch
from torch.autograd import graph


def test_hooks_apply_only_in_their_thread():
    a = torch.ones(2, requires_grad=True)
    log = []
    other = {}

    def in_other_thread():
        other["y"] = a * a  # recorded while the main thread's hooks are open

    with graph.saved_tensors_hooks(lambda t: log.append("pack") or t, lambda t: t):
        thread = threading.Thread(target=in_other_thread)
        thread.start()
        thread.join()
    assert log == []
    other["y"].sum().backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_ops_inside_a_pack_hook_save_their_tensors_unpacked():
    a = torch.ones(2, requires_grad=True)
    calls = []

    def pack(t):
        calls.append("pack")
        return t * 1  # recorded, but not packed again

    with graph.saved_tensors_hooks(pack, lambda t: t):
        y = (a * a).sum()
    assert calls == ["pack", "pack"]
    y.backward()
    assert a.grad.tolist() == [2.0, 2.0]


def test_save_on_cpu_keeps_copies_and_frees_them_with_the_graph():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    with graph.save_on_cpu():
        y = torch.exp(b) * b
    node = y.grad_fn
    kept = [x.value[1] for x in node._inputs if type(x).__name__ == "Packed"]
    assert len(kept) == 2
    assert all(not torch.equal(k, k * 0) and k.data_ptr() != b.data_ptr() for k in kept)
    y.sum().backward()
    assert node._inputs is None
    assert torch.allclose(a.grad, torch.exp(a) * (1 + a))
