"""torch.hub scenarios run both here and under real PyTorch (tools/golden/record_hub.py).

A local HTTP server stands in for the network: it serves checkpoint files and plays
GitHub (the default-branch probe, the zipball archive, the branches/tags API). Requests
for https://github.com and https://api.github.com are rewritten to it by a urllib opener,
so both implementations run unchanged and offline. Each scenario's outcome is made
comparable: temporary paths and the port become placeholders.
"""

from __future__ import annotations

import contextlib
import hashlib
import http.server
import io
import json
import os
import pathlib
import sys
import threading
import urllib.request
import warnings
import zipfile

GOLDEN = pathlib.Path(__file__).parent / "golden"
SERIALIZATION = GOLDEN / "serialization"

HUBCONF = '''\
"""A tiny hub repository."""
dependencies = ["json"]


def scaled(x, factor=2):
    """Multiply x by factor."""
    return x * factor


def _private():
    return 0


NOT_CALLABLE = 3
'''


class FakeWeb:
    """Files by URL path, served on 127.0.0.1, with a count of the requests made."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.requests: list[str] = []
        web = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                web.requests.append(self.path)
                body = web.files.get(self.path)
                if body is None:
                    self.send_error(404, "File not found")
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


class _GitHubToLocal(urllib.request.BaseHandler):
    """Sends https://<github host>/path to http://127.0.0.1:<port>/<host>/path."""

    handler_order = 100  # before the HTTPS handler

    def __init__(self, web: FakeWeb):
        self.web = web

    def https_open(self, req):
        parts = urllib.request.urlparse(req.full_url)
        local = f"{self.web.url}/{parts.netloc}{parts.path}"
        if parts.query:
            local += "?" + parts.query
        return self.parent.open(urllib.request.Request(local, headers=dict(req.header_items())))


@contextlib.contextmanager
def fake_web():
    web = FakeWeb()
    urllib.request.install_opener(urllib.request.build_opener(_GitHubToLocal(web)))
    try:
        yield web
    finally:
        urllib.request.install_opener(None)
        web.close()


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def _summary(value):
    """A checkpoint's content as JSON: tensors by dtype, shape and values."""
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return {"tensor": str(value.dtype), "shape": list(value.shape), "values": value.tolist()}
    if isinstance(value, dict):
        return {str(k): _summary(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_summary(v) for v in value]
    return repr(value)


class Runner:
    """Runs scenarios, recording each one's value or exception, what it printed and
    the warnings it raised, with the machine-specific parts replaced."""

    def __init__(self, torch, root: pathlib.Path, web: FakeWeb):
        self.torch, self.root, self.web = torch, root, web
        self.results: dict[str, dict] = {}
        # text that differs between implementations by design -> placeholder
        # (the port with its colon: its digits alone may turn up inside a hash)
        self.placeholders: dict[str, str] = {str(root): "<tmp>", f":{web.port}": ":<port>"}

    def clean(self, text: str) -> str:
        for value, placeholder in self.placeholders.items():
            text = text.replace(value, placeholder)
        return text

    def run(self, name: str, action) -> None:
        out, err = io.StringIO(), io.StringIO()
        outcome: dict = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    outcome["value"] = _jsonable(action())
                except BaseException as error:  # noqa: BLE001 - the outcome is the point
                    outcome["error"] = [type(error).__name__, self.clean(str(error))]
        outcome["stdout"] = self.clean(out.getvalue())
        outcome["stderr"] = self.clean(err.getvalue())
        outcome["warnings"] = [
            [w.category.__name__, self.clean(str(w.message))]
            for w in caught
            if w.category is not DeprecationWarning  # library noise, not torch.hub's
        ]
        self.results[name] = json.loads(self.clean(json.dumps(outcome)))


def _jsonable(value):
    try:
        json.dumps(value)
        return value
    except TypeError:
        return _summary(value)


def _files(folder: pathlib.Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*")) if folder.exists() else []


# ------------------------------------------------------------------------- scenarios


def download_scenarios(r: Runner) -> None:
    hub = r.torch.hub
    payload = b"hub payload " * 5000
    digest = hashlib.sha256(payload).hexdigest()
    r.web.files["/files/blob.bin"] = payload
    target = r.root / "downloads"
    target.mkdir()

    def download(name, prefix):
        def action():
            hub.download_url_to_file(
                f"{r.web.url}/files/blob.bin", str(target / name), prefix, progress=False
            )
            return {"same": (target / name).read_bytes() == payload, "files": _files(target)}

        return action

    r.run("download", download("plain.bin", None))
    r.run("download_hash_ok", download("hashed.bin", digest[:10]))
    r.run("download_hash_bad", download("bad.bin", "0123abcd"))
    r.run("download_missing", lambda: hub.download_url_to_file(
        f"{r.web.url}/files/none.bin", str(target / "none.bin"), progress=False
    ))  # fmt: skip
    r.run("files_after_downloads", lambda: _files(target))


def checkpoint_scenarios(r: Runner) -> None:
    torch, hub = r.torch, r.torch.hub
    buffer = io.BytesIO()
    torch.save({"weight": torch.arange(6.0).reshape(2, 3), "step": 7}, buffer)
    zip_ckpt = buffer.getvalue()
    digest = hashlib.sha256(zip_ckpt).hexdigest()
    prefix = digest[:8]
    # torch.save's bytes (so their hash) are not the same in both implementations
    r.placeholders.update({digest: "<sha256>", prefix: "<prefix>"})
    r.web.files["/models/net.pth"] = zip_ckpt
    r.web.files[f"/models/net-{prefix}.pth"] = zip_ckpt
    r.web.files["/models/net-deadbeef.pth"] = zip_ckpt
    r.web.files["/models/old.tar"] = (SERIALIZATION / "tar_format.pt").read_bytes()
    legacy = (SERIALIZATION / "legacy_nested.pt").read_bytes()
    r.web.files["/models/legacy.zip"] = _zip({"legacy_nested.pt": legacy})
    r.web.files["/models/two.zip"] = _zip({"a.pt": legacy, "b.pt": legacy})
    models = r.root / "models"

    def fetch(path, **kwargs):
        kwargs.setdefault("progress", False)
        return lambda: hub.load_state_dict_from_url(
            f"{r.web.url}{path}", model_dir=str(models), **kwargs
        )

    r.run("url_zip", fetch("/models/net.pth"))
    before = len(r.web.requests)
    r.run("url_zip_cached", fetch("/models/net.pth", weights_only=True))
    r.run("url_cached_requests", lambda: len(r.web.requests) - before)
    r.run("url_hash_ok", fetch(f"/models/net-{prefix}.pth", check_hash=True))
    r.run("url_hash_bad", fetch("/models/net-deadbeef.pth", check_hash=True))
    r.run("url_file_name", fetch("/models/net.pth", file_name="renamed.pth"))
    r.run("url_legacy_tar", fetch("/models/old.tar"))
    r.run("url_legacy_tar_weights_only", fetch("/models/old.tar", weights_only=True))
    r.run("url_legacy_zip", fetch("/models/legacy.zip"))
    r.run("url_zip_two_members", fetch("/models/two.zip"))
    r.run("models_files", lambda: _files(models))

    def default_dir():
        os.environ["TORCH_HOME"] = str(r.root / "home")
        try:
            hub.load_state_dict_from_url(f"{r.web.url}/models/net.pth", progress=False)
            return _files(r.root / "home")
        finally:
            del os.environ["TORCH_HOME"]

    r.run("url_default_model_dir", default_dir)
    r.run("model_zoo_load_url", lambda: __import__(
        "torch.utils.model_zoo", fromlist=["load_url"]
    ).load_url(f"{r.web.url}/models/net.pth", model_dir=str(models), progress=False))  # fmt: skip


def dir_scenarios(r: Runner) -> None:
    hub = r.torch.hub
    saved = {k: os.environ.pop(k, None) for k in ("TORCH_HOME", "XDG_CACHE_HOME", "TORCH_HUB")}

    def with_env(**env):
        def action():
            os.environ.update(env)
            try:
                return hub.get_dir()
            finally:
                for key in env:
                    del os.environ[key]

        return action

    try:
        r.run("get_dir_torch_home", with_env(TORCH_HOME=str(r.root / "th")))
        r.run("get_dir_xdg", with_env(XDG_CACHE_HOME=str(r.root / "xdg")))
        r.run("get_dir_torch_hub_deprecated", with_env(TORCH_HUB="x", TORCH_HOME="/th"))
        r.run("get_dir_default", lambda: hub.get_dir() == os.path.expanduser("~/.cache/torch/hub"))
        r.run("set_dir", lambda: (hub.set_dir(str(r.root / "custom")), hub.get_dir())[1])
        r.run("set_dir_user", lambda: (hub.set_dir("~/hubx"), hub.get_dir())[1]
              == os.path.expanduser("~/hubx"))  # fmt: skip
    finally:
        os.environ.update({k: v for k, v in saved.items() if v is not None})


def local_scenarios(r: Runner) -> None:
    hub = r.torch.hub
    repo = r.root / "local_repo"
    repo.mkdir()
    (repo / "hubconf.py").write_text(HUBCONF)
    needs = r.root / "needs_repo"
    needs.mkdir()
    (needs / "hubconf.py").write_text(
        "dependencies = ['json', 'no_such_module_a', 'no_such_module_b']\n"
        "def entry():\n    return 1\n"
    )
    r.run("local_load", lambda: hub.load(str(repo), "scaled", 21, source="local"))
    r.run("local_load_kwargs", lambda: hub.load(str(repo), "scaled", 2, factor=5, source="LOCAL"))
    r.run("local_missing_entry", lambda: hub.load(str(repo), "absent", source="local"))
    r.run("local_not_callable", lambda: hub.load(str(repo), "NOT_CALLABLE", source="local"))
    r.run("local_model_not_str", lambda: hub.load(str(repo), 3, source="local"))
    r.run("local_missing_dependencies", lambda: hub.load(str(needs), "entry", source="local"))
    r.run("local_bad_source", lambda: hub.load(str(repo), "scaled", source="gitlab"))
    r.run("local_no_hubconf", lambda: hub.load(str(r.root / "nowhere"), "x", source="local"))
    r.run("local_sys_path_restored", lambda: str(repo) in sys.path)


def github_scenarios(r: Runner) -> None:
    hub = r.torch.hub
    hub.set_dir(str(r.root / "hubcache"))
    files = r.web.files
    archive = _zip({"tiny-abc123/": b"", "tiny-abc123/hubconf.py": HUBCONF.encode()})
    branch = [{"name": "master", "commit": {"sha": "abc123def"}}]
    files["/github.com/owner/tiny/zipball/master"] = archive
    files["/github.com/owner/tiny/zipball/v1"] = archive
    files["/api.github.com/repos/owner/tiny/branches?per_page=100&page=1"] = json.dumps(
        branch
    ).encode()
    files["/api.github.com/repos/owner/tiny/branches?per_page=100&page=2"] = b"[]"
    files["/api.github.com/repos/owner/tiny/tags?per_page=100&page=1"] = b"[]"
    r.run("github_load", lambda: hub.load("owner/tiny", "scaled", 4, trust_repo=True))
    r.run("github_cache_files", lambda: _files(r.root / "hubcache"))
    r.run("github_load_cached", lambda: hub.load("owner/tiny:master", "scaled", 1, trust_repo=True))
    r.run("github_list", lambda: hub.list("owner/tiny", trust_repo=True, verbose=False))
    r.run("github_help", lambda: hub.help("owner/tiny", "scaled", trust_repo=True))
    r.run("github_force_reload", lambda: hub.load(
        "owner/tiny", "scaled", 3, trust_repo=True, force_reload=True
    ))  # fmt: skip
    r.run("github_unknown_ref", lambda: hub.load("owner/tiny:v1", "scaled", 1, trust_repo=True))
    r.run("github_skip_validation", lambda: hub.load(
        "owner/tiny:v1", "scaled", 5, trust_repo=True, skip_validation=True
    ))  # fmt: skip
    r.run("github_missing_archive", lambda: hub.load(
        "owner/tiny:nope", "scaled", 1, trust_repo=True, skip_validation=True
    ))  # fmt: skip
    r.run("github_trusted_list", lambda: (r.root / "hubcache" / "trusted_list").read_text())

    def untrusted(answer):
        def action():
            import builtins

            original = builtins.input
            builtins.input = lambda prompt: (print(prompt), answer)[1]
            try:
                return hub.list("other/repo:main", trust_repo="check", skip_validation=True)
            finally:
                builtins.input = original

        return action

    r.run("github_untrusted_no", untrusted("n"))
    r.run("github_untrusted_bad_answer", untrusted("maybe"))


def run_all(torch, root: pathlib.Path) -> dict[str, dict]:
    with fake_web() as web:
        runner = Runner(torch, root, web)
        download_scenarios(runner)
        checkpoint_scenarios(runner)
        dir_scenarios(runner)
        local_scenarios(runner)
        github_scenarios(runner)
    return runner.results
