import threading

import pytest

import torch


def test_no_grad_nests_and_restores():
    assert torch.is_grad_enabled()
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        with torch.enable_grad():
            assert torch.is_grad_enabled()
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()


def test_decorators():
    @torch.no_grad()
    def f():
        return torch.is_grad_enabled()

    @torch.inference_mode()
    def g():
        return torch.is_inference_mode_enabled()

    assert f() is False and g() is True and torch.is_grad_enabled()


def test_set_grad_enabled_function_and_context():
    torch.set_grad_enabled(False)
    assert not torch.is_grad_enabled()
    torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()
    with pytest.raises(TypeError, match="expects a bool"):
        torch.set_grad_enabled("yes")


def test_mode_is_thread_local():
    seen = []
    with torch.no_grad():
        thread = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
        thread.start()
        thread.join()
    assert seen == [True]


def test_inference_mode_false_is_a_no_op():
    with torch.inference_mode(False):
        assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
