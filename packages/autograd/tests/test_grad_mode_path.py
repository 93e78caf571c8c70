"""PyTorch's module path ``torch.autograd.grad_mode`` holds core's grad-mode switches."""

import torch


def test_grad_mode_path_holds_the_switches():
    from torch.autograd import grad_mode

    for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode"):
        assert getattr(grad_mode, name) is getattr(torch, name)
    with grad_mode.no_grad():
        assert not torch.is_grad_enabled()


def test_multithreading_switch_follows_pytorch():
    # PyTorch 2.13 printed: True False, then False inside, True after; the constructor
    # sets the state at once and __exit__ restores it; a decorated function switches it
    # for its call only
    assert torch.autograd.is_multithreading_enabled() is True
    assert torch.autograd.is_view_replay_enabled() is False
    with torch.autograd.set_multithreading_enabled(False):
        assert torch.autograd.is_multithreading_enabled() is False
    assert torch.autograd.is_multithreading_enabled() is True
    switch = torch.autograd.set_multithreading_enabled(False)
    assert torch.autograd.is_multithreading_enabled() is False
    switch.__exit__(None, None, None)

    @torch.autograd.set_multithreading_enabled(False)
    def inside():
        return torch.autograd.is_multithreading_enabled()

    assert (torch.autograd.is_multithreading_enabled(), inside()) == (True, False)
    assert torch.autograd.is_multithreading_enabled() is True


def test_multithreading_switch_refuses_non_bool():
    import pytest

    with pytest.raises(TypeError, match=r"argument 'enabled' \(position 1\) must be bool"):
        torch.autograd.set_multithreading_enabled("x")
