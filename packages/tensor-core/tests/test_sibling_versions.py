"""Install hints and the import-time check of installed sibling versions."""

import os
import subprocess
import sys
import textwrap

import pytest

from torch import _siblings

INSTALLED = {"torch-core": "0.4.0", "torch-autograd": "0.4.2", "torch-nn": "0.3.2"}
REQUIRES = {
    "torch-core": [],
    "torch-autograd": ["torch-core<0.5,>=0.4.2", "pytest>=7; extra == 'test'"],
    "torch-nn": ["torch-core>=0.4.0,<0.5", "torch-autograd (>=0.4.2,<0.5)"],
}


@pytest.mark.parametrize("dist", sorted(_siblings.SIBLINGS.values()))
def test_hint_names_the_index_and_the_clone_command(dist):
    hint = _siblings.install_hint(dist)
    assert f"pip install {dist} " in hint
    assert f"python3 tools/install.py {dist}" in hint


@pytest.mark.parametrize(
    "version,spec,expected",
    [
        ("0.4.0", ">=0.4.2,<0.5", False),
        ("0.4.2", ">=0.4.2,<0.5", True),
        ("0.5.0", ">=0.4.2,<0.5", False),
        ("0.4.3.dev0", ">=0.4.2,<0.5", True),
        ("0.4.1", "==0.4.*", True),
        ("0.5", "~=0.4.1", False),
        ("0.4.9", "~=0.4.1", True),
        ("0.4", "!=0.4.0", False),
        ("0.4.0", "===0.4.0", None),  # not understood: never reported
        ("main", ">=0.1", None),
    ],
)
def test_satisfies(version, spec, expected):
    assert _siblings._satisfies(version, spec) is expected


def test_conflict_names_both_packages_versions_and_range():
    conflicts = _siblings.version_conflicts(INSTALLED, REQUIRES)
    assert conflicts == [("torch-autograd", "0.4.2", "torch-core", "0.4.0", "<0.5,>=0.4.2")]
    message = _siblings.conflict_message(*conflicts[0])
    assert "torch-autograd 0.4.2 requires torch-core <0.5,>=0.4.2" in message
    assert "torch-core 0.4.0 is installed" in message


def test_no_conflict_when_ranges_hold_or_sibling_absent():
    assert _siblings.version_conflicts({**INSTALLED, "torch-core": "0.4.3"}, REQUIRES) == []
    assert _siblings.version_conflicts({"torch-autograd": "0.4.2"}, REQUIRES) == []


def _fake_dist(root, name, version, requires=()):
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    lines += [f"Requires-Dist: {r}" for r in requires]
    (info / "METADATA").write_text("\n".join(lines) + "\n")


CHECK = textwrap.dedent(
    """
    import sys, warnings
    warnings.simplefilter("always")
    with warnings.catch_warnings(record=True) as caught:
        import torch
        print("after import torch:", len(caught), torch._siblings._checked)
        try:
            import torch.legacy
        except ModuleNotFoundError:
            pass
        try:
            import torch.optim
        except ModuleNotFoundError:
            pass
    for w in caught:
        print(w.category.__name__, w.message)
    """
)


def test_mismatched_mix_warns_once_at_first_sibling_import(tmp_path):
    # metadata found first on sys.path wins: a core 0.4.0 beside an autograd that needs 0.4.2
    _fake_dist(tmp_path, "torch-core", "0.4.0")
    _fake_dist(tmp_path, "torch-autograd", "0.4.2", ["torch-core<0.5,>=0.4.2"])
    out = subprocess.run(
        [sys.executable, "-c", CHECK],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},  # keeps LD_PRELOAD (nox -s sanitize)
    ).stdout
    assert "after import torch: 0 False" in out  # import torch alone pays nothing
    # the fake autograd's conflict, once (the siblings installed in the test's own
    # environment may add conflicts of their own with the fake core 0.4.0)
    lines = [
        line
        for line in out.splitlines()
        if line.startswith("SiblingVersionWarning torch-autograd 0.4.2")
    ]
    assert len(lines) == 1, out
    assert "torch-autograd 0.4.2 requires torch-core <0.5,>=0.4.2" in lines[0]
    assert "torch-core 0.4.0 is installed" in lines[0]


def test_broken_metadata_never_fails_an_import(monkeypatch):
    monkeypatch.setattr(_siblings, "_checked", False)

    def broken():
        raise ValueError("unreadable METADATA")

    monkeypatch.setattr(_siblings, "_installed_siblings", broken)
    _siblings.check_versions()
    assert _siblings._checked
