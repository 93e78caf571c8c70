"""Registration of picklable classes (torch/_interface/pickling.py): how sibling packages
declare the names their classes have in checkpoints, and how loading behaves when the
sibling that a checkpoint names is not installed."""

import io
import subprocess
import sys
import textwrap

import pytest

import torch
from torch._interface import pickling


@pytest.fixture
def registry(monkeypatch):
    """Registrations made by the test are forgotten after it."""
    monkeypatch.setattr(pickling, "_globals", dict(pickling._globals))
    monkeypatch.setattr(pickling, "_pickled_names", dict(pickling._pickled_names))
    return pickling


class Marker(torch.Tensor):
    pass


class Relocated:
    def __init__(self, value=1):
        self.value = value


def test_the_pickle_hooks_table_is_gone():
    from torch import _interface

    assert not hasattr(_interface, "pickle_hooks")  # replaced by torch._interface.pickling


def test_a_registered_global_resolves_in_every_load(registry):
    assert registry.find_global("torch.testmod", "Marker") is None
    registry.register_global("torch.testmod", "Marker", Marker)
    assert registry.find_global("torch.testmod", "Marker") is Marker
    # weights-only loading allows it: core resolves it like its own names
    from torch._serialization import names

    assert names.torch_global("torch.testmod", "Marker") is Marker


def test_a_class_pickles_under_its_registered_name(registry):
    assert registry.pickled_name(Relocated) is None
    registry.register_pickled_name(Relocated, "torch.elsewhere")
    assert registry.pickled_name(Relocated) == ("torch.elsewhere", "Relocated")
    assert registry.pickled_name(Relocated()) is None  # classes only
    buffer = io.BytesIO()
    torch.save(Relocated(3), buffer)
    assert b"torch.elsewhere" in buffer.getvalue()


def _run(*parts: str) -> str:
    code = "".join(textwrap.dedent(part) for part in parts)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_find_global_imports_the_sibling_that_registers_the_name():
    pytest.importorskip("torch.nn", exc_type=ImportError)
    out = _run(
        """
        import sys
        from torch._interface import pickling
        print(pickling.find_global("torch.nn.parameter", "Parameter", load_owner=False))
        print("torch.nn" in sys.modules)
        found = pickling.find_global("torch.nn.parameter", "Parameter")
        import torch.nn
        print(found is torch.nn.Parameter)
        """
    )
    assert out.split() == ["None", "False", "True"]


# makes torch.nn look uninstalled: the error core's finder gives for a missing sibling
_WITHOUT_NN = """
    import sys
    from importlib.abc import MetaPathFinder
    from torch._siblings import missing_message

    class NoNN(MetaPathFinder):
        def find_spec(self, fullname, path=None, target=None):
            if fullname == "torch.nn" or fullname.startswith("torch.nn."):
                raise ModuleNotFoundError(missing_message(fullname, "torch-nn"))

    sys.meta_path.insert(0, NoNN())
"""


def test_without_the_sibling_loading_its_classes_says_what_to_install(tmp_path):
    pytest.importorskip("torch.nn", exc_type=ImportError)
    path = tmp_path / "model.pt"
    _run(
        f"""
        import torch, torch.nn as nn
        torch.save({{"model": nn.Linear(2, 1), "p": nn.Parameter(torch.ones(2))}}, {str(path)!r})
        torch.save({{"p": nn.Parameter(torch.ones(2))}}, {str(path)!r} + ".sd")
        """
    )
    out = _run(
        _WITHOUT_NN,
        f"""
        import pickle, torch
        try:
            torch.load({str(path)!r}, weights_only=False)
        except ModuleNotFoundError as error:
            print("full:", error)
        try:
            torch.load({str(path)!r})
        except pickle.UnpicklingError as error:
            print("weights:", "torch.nn.modules.linear.Linear" in str(error))
        # a parameter alone is rebuilt as a plain tensor (its rebuilder is core's)
        p = torch.load({str(path)!r} + ".sd")["p"]
        print("plain:", type(p).__name__, p.tolist())
        """,
    )
    lines = out.splitlines()
    assert lines[0].startswith("full: No module named 'torch.nn")
    assert "'torch-nn' distribution, which is not installed" in lines[0]
    assert lines[1:] == ["weights: True", "plain: Tensor [1.0, 1.0]"]
