"""torch.hub and torch.utils.model_zoo, offline: a local HTTP server plays the network
(hub_cases.py), and every scenario's value, error, printed text and warnings are compared
with what PyTorch 2.13 gave (golden/hub.json, tools/golden/record_hub.py)."""

from __future__ import annotations

import json
import os
import pathlib

import hub_cases
import pytest

import torch
import torch.hub

GOLDEN = json.loads((pathlib.Path(__file__).parent / "golden" / "hub.json").read_text())

# scenarios where only the error type is compared, and why the message differs
TYPE_ONLY = {
    # torch.load's own message for a zip that torch.save did not write (PyTorch's names
    # its C++ source line)
    "url_zip_two_members",
    # torch.load's message for weights_only on a tar checkpoint is this project's own
    "url_legacy_tar_weights_only",
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    root = tmp_path_factory.mktemp("hub").resolve()
    try:
        return hub_cases.run_all(torch, root)
    finally:
        torch.hub._hub_dir = None  # set_dir is process-wide: leave the default


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_same_as_pytorch(outcomes, name):
    ours, expected = outcomes[name], GOLDEN[name]
    if name in TYPE_ONLY:
        assert ours["error"][0] == expected["error"][0]
        ours = {k: v for k, v in ours.items() if k != "error"}
        expected = {k: v for k, v in expected.items() if k != "error"}
    assert ours == expected


def test_partial_file_removed_on_interrupted_download(tmp_path, monkeypatch):
    class Broken:
        def __init__(self, *args, **kwargs):
            raise KeyboardInterrupt

    monkeypatch.setattr(torch.hub, "tqdm", Broken)
    with hub_cases.fake_web() as web:
        web.files["/f"] = b"abc"
        with pytest.raises(KeyboardInterrupt):
            torch.hub.download_url_to_file(f"{web.url}/f", str(tmp_path / "f"))
    assert os.listdir(tmp_path) == []


def test_text_progress_without_tqdm(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(torch.hub, "tqdm", torch.hub._TextProgress)
    with hub_cases.fake_web() as web:
        web.files["/f"] = b"x" * 10
        torch.hub.download_url_to_file(f"{web.url}/f", str(tmp_path / "f"), progress=True)
    assert capsys.readouterr().err == "\r100.0%\n"


def test_unsafe_archive_member_refused(tmp_path):
    import zipfile

    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("../outside.txt", b"x")
    with zipfile.ZipFile(path) as archive, pytest.raises(ValueError, match="traversal"):
        torch.hub._safe_extract_zip(archive, str(tmp_path / "out"))
    assert not (tmp_path / "outside.txt").exists()


def test_lazy_attribute_and_model_zoo_alias():
    import torch.utils.model_zoo as model_zoo

    assert torch.hub is torch.__getattr__("hub")
    assert model_zoo.load_url is torch.hub.load_state_dict_from_url
    assert sorted(torch.hub.__all__) == [
        "download_url_to_file", "get_dir", "help", "list", "load",
        "load_state_dict_from_url", "set_dir",
    ]  # fmt: skip
