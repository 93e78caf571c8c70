"""Loading models and checkpoints published by others: ``torch.hub``.

Two things live here. ``load_state_dict_from_url`` / ``download_url_to_file`` fetch a
checkpoint once into a cache folder (checked against a SHA-256 prefix when asked) and
``torch.load`` it. ``load`` / ``list`` / ``help`` run the entry points of a repository's
``hubconf.py``, from a local folder or from a GitHub repository whose zip archive is
downloaded and unpacked into the cache.

The cache is ``get_dir()``: ``$TORCH_HOME/hub``, where ``TORCH_HOME`` defaults to
``$XDG_CACHE_HOME/torch`` and ``XDG_CACHE_HOME`` to ``~/.cache``; :func:`set_dir`
overrides it for the process.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import uuid
import warnings
import zipfile
from pathlib import Path
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.parse import urlparse
from urllib.request import Request, urlopen

import torch

__all__ = [
    "download_url_to_file",
    "get_dir",
    "help",
    "list",
    "load",
    "load_state_dict_from_url",
    "set_dir",
]

ENV_GITHUB_TOKEN = "GITHUB_TOKEN"
ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
DEFAULT_CACHE_DIR = "~/.cache"
VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
READ_DATA_CHUNK = 128 * 1024
# ``name-<hex digits>.ext``: the digits are a prefix of the file's SHA-256
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")

# where repositories come from (module attributes, so a test can point them at a local
# server); the archive link redirects to GitHub's codeload host
_GITHUB_URL = "https://github.com"
_GITHUB_API_URL = "https://api.github.com"
# owners whose repositories load without asking (PyTorch trusts the same ones)
_TRUSTED_REPO_OWNERS = ("facebookresearch", "facebookincubator", "pytorch", "fairinternal")
_TRUSTED_LIST = "trusted_list"

_hub_dir: str | None = None


class _TextProgress:
    """The progress bar used when tqdm is not installed: a percentage (or a byte count
    when the size is unknown) rewritten in place on stderr."""

    def __init__(self, total=None, disable=False, unit=None, *args, **kwargs):
        self.total = total
        self.disable = disable
        self.n = 0

    def update(self, n):
        if self.disable:
            return
        self.n += n
        if self.total:
            sys.stderr.write(f"\r{100 * self.n / float(self.total):.1f}%")
        else:
            sys.stderr.write(f"\r{self.n:.1f} bytes")
        sys.stderr.flush()

    def set_description(self, *args, **kwargs):
        pass

    def write(self, s):
        sys.stderr.write(f"{s}\n")

    def close(self):
        self.disable = True

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        if not self.disable:
            sys.stderr.write("\n")


try:
    from tqdm import tqdm
except ImportError:
    tqdm = _TextProgress


# ------------------------------------------------------------------------- cache folder


def _get_torch_home() -> str:
    xdg = os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR)
    return os.path.expanduser(os.getenv(ENV_TORCH_HOME, os.path.join(xdg, "torch")))


def get_dir() -> str:
    """The folder where hub keeps downloaded repositories and checkpoints.

    It is the folder given to :func:`set_dir`, else ``$TORCH_HOME/hub`` (``TORCH_HOME``
    defaults to ``$XDG_CACHE_HOME/torch``, and ``XDG_CACHE_HOME`` to ``~/.cache``).

    Examples::

        >>> torch.hub.get_dir().endswith("hub")
        True
    """
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_torch_home(), "hub")


def set_dir(d: str | os.PathLike) -> None:
    """Use ``d`` (``~`` expanded) as the hub folder for the rest of the process.

    Args:
        d (str or os.PathLike): the folder for downloaded repositories and checkpoints.
    """
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def _remove_if_exists(path: str) -> None:
    if os.path.isfile(path) or os.path.islink(path):
        os.remove(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


# ---------------------------------------------------------------------------- downloads


def _open_partial_file(dst: str):
    """A new file beside ``dst`` that the download goes to, renamed onto ``dst`` only
    when complete (a reader never sees half a checkpoint)."""
    for _ in range(tempfile.TMP_MAX):
        try:
            return open(f"{dst}.{uuid.uuid4().hex}.partial", "xb")  # noqa: SIM115
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "No usable temporary file name found")


def _content_length(response) -> int | None:
    values = response.info().get_all("Content-Length")
    return int(values[0]) if values else None


def download_url_to_file(
    url: str, dst: str, hash_prefix: str | None = None, progress: bool = True
) -> None:
    """Download ``url`` to the file ``dst``.

    The bytes go to a temporary file in ``dst``'s folder, which replaces ``dst`` once the
    download is complete (and its hash checked).

    Args:
        url (str): what to download.
        dst (str): the file to write (``~`` expanded).
        hash_prefix (str, optional): when given, the SHA-256 of the download must start
            with it, else ``RuntimeError`` and ``dst`` is left untouched. Default: ``None``.
        progress (bool, optional): show a progress bar on stderr. Default: ``True``.
    """
    dst = os.path.expanduser(dst)
    partial = _open_partial_file(dst)
    try:
        with urlopen(Request(url, headers={"User-Agent": "torch.hub"})) as response:
            sha256 = hashlib.sha256() if hash_prefix is not None else None
            bar = tqdm(
                total=_content_length(response),
                disable=not progress,
                unit="B",
                unit_scale=True,
                unit_divisor=1024,
            )
            with bar:
                while chunk := response.read(READ_DATA_CHUNK):
                    partial.write(chunk)
                    if sha256 is not None:
                        sha256.update(chunk)
                    bar.update(len(chunk))
        partial.close()
        if sha256 is not None:
            digest = sha256.hexdigest()
            if not digest.startswith(hash_prefix):
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got "{digest}")')
        shutil.move(partial.name, dst)
    finally:
        partial.close()
        if os.path.exists(partial.name):
            os.remove(partial.name)


# ------------------------------------------------------------------------- checkpoints

_PATH_SEPARATORS = re.compile(r"[/\\]")


def _safe_extract_zip(archive: zipfile.ZipFile, target: str) -> None:
    """Extract every member of ``archive`` under ``target``, refusing any member whose
    path is absolute or leaves ``target`` (a "zip slip")."""
    root = Path(target).resolve()
    for member in archive.infolist():
        name = os.path.normpath(member.filename)
        drive_letter = len(name) >= 2 and name[1] == ":" and name[0].isalpha()
        if name.startswith(("/", "\\")) or drive_letter:
            raise ValueError(f"Archive entry has absolute path: {member.filename}")
        if ".." in _PATH_SEPARATORS.split(name):
            raise ValueError(f"Archive entry contains directory traversal: {member.filename}")
        if not (root / name).resolve().is_relative_to(root):
            raise ValueError(f"Archive entry escapes target directory: {member.filename}")
        archive.extract(member, root)


def _is_legacy_zip_format(filename: str) -> bool:
    """Whether ``filename`` is a zip holding one plain file: how checkpoints were
    published before ``torch.save`` wrote zip files itself (PyTorch < 1.6)."""
    if not zipfile.is_zipfile(filename):
        return False
    with zipfile.ZipFile(filename) as archive:
        members = archive.infolist()
    # a checkpoint of torch.save has a folder of several records, never one file
    return len(members) == 1 and not members[0].is_dir()


def _legacy_zip_load(filename, model_dir, map_location, weights_only):
    warnings.warn(
        "Falling back to the old format < 1.6. This support will be deprecated in favor "
        "of default zipfile format introduced in 1.6. Please redo torch.save() to save it "
        "in the new zipfile format.",
        FutureWarning,
        stacklevel=3,
    )
    with zipfile.ZipFile(filename) as archive:
        members = archive.infolist()
        if len(members) != 1:
            raise RuntimeError("Only one file(not dir) is allowed in the zipfile")
        _safe_extract_zip(archive, model_dir)
        extracted = os.path.join(model_dir, members[0].filename)
    return torch.load(extracted, map_location=map_location, weights_only=weights_only)


def load_state_dict_from_url(
    url: str,
    model_dir: str | None = None,
    map_location=None,
    progress: bool = True,
    check_hash: bool = False,
    file_name: str | None = None,
    weights_only: bool = False,
) -> dict[str, Any]:
    """Download the checkpoint at ``url`` once and return ``torch.load`` of it.

    The file is kept in ``model_dir``; a later call finds it there and downloads nothing.
    A zip holding a single file (the pre-1.6 way of publishing checkpoints) is unpacked
    first, with a ``FutureWarning``; ``torch.load`` reads zip checkpoints and the older
    pickle and tar formats itself.

    Args:
        url (str): the checkpoint's address.
        model_dir (str, optional): the folder to keep it in. Default: ``None``
            (``<get_dir()>/checkpoints``).
        map_location (optional): where storages go, as for :func:`torch.load`.
            Default: ``None``.
        progress (bool, optional): show a progress bar on stderr. Default: ``True``.
        check_hash (bool, optional): the file name must look like ``name-<hex>.ext``
            with ``<hex>`` a prefix of the file's SHA-256, which the download must match.
            Default: ``False``.
        file_name (str, optional): the name to keep it under. Default: ``None`` (the last
            part of the URL's path).
        weights_only (bool, optional): as for :func:`torch.load`. Default: ``False``.

    Returns:
        What was saved (usually a state dict).
    """
    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn(
            "TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead", stacklevel=2
        )
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name if file_name is not None else os.path.basename(urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')
        hash_prefix = None
        if check_hash:
            match = HASH_REGEX.search(filename)
            hash_prefix = match.group(1) if match else None
        download_url_to_file(url, cached_file, hash_prefix, progress=progress)
    if _is_legacy_zip_format(cached_file):
        return _legacy_zip_load(cached_file, model_dir, map_location, weights_only)
    return torch.load(cached_file, map_location=map_location, weights_only=weights_only)


# ------------------------------------------------------------- repositories from GitHub


def _git_archive_link(owner: str, name: str, ref: str) -> str:
    return f"{_GITHUB_URL}/{owner}/{name}/zipball/{ref}"


def _read_url(url) -> str:
    with urlopen(url) as response:
        return response.read().decode(response.headers.get_content_charset("utf-8"))


def _default_branch(owner: str, name: str) -> str:
    """``main`` when the repository has one, else ``master``; offline, the one already
    in the cache."""
    try:
        with urlopen(f"{_GITHUB_URL}/{owner}/{name}/tree/main/"):
            return "main"
    except HTTPError as error:
        if error.code == 404:
            return "master"
        raise
    except URLError as error:
        for ref in ("main", "master"):
            if os.path.exists(f"{get_dir()}/{owner}_{name}_{ref}"):
                return ref
        raise RuntimeError(
            "It looks like there is no internet connection and the "
            f"repo could not be found in the cache ({get_dir()})"
        ) from error


def _parse_repo_info(github: str) -> tuple[str, str, str]:
    """``owner/name[:ref]`` -> (owner, name, ref)."""
    repo_info, ref = github.split(":") if ":" in github else (github, None)
    owner, name = repo_info.split("/")
    return owner, name, ref if ref is not None else _default_branch(owner, name)


def _validate_not_a_forked_repo(owner: str, name: str, ref: str) -> None:
    """Check through GitHub's API that ``ref`` is a branch, tag or commit of the
    repository itself (a fork's commit is reachable under the parent's name too)."""
    headers = {"Accept": "application/vnd.github.v3+json"}
    token = os.environ.get(ENV_GITHUB_TOKEN)
    if token is not None:
        headers["Authorization"] = f"token {token}"
    for kind in ("branches", "tags"):
        page = 0
        while True:
            page += 1
            url = f"{_GITHUB_API_URL}/repos/{owner}/{name}/{kind}?per_page=100&page={page}"
            try:
                entries = json.loads(_read_url(Request(url, headers=headers)))
            except HTTPError:
                # the token may lack the rights: the public API answers without it
                headers.pop("Authorization", None)
                entries = json.loads(_read_url(Request(url, headers=headers)))
            if not entries:
                break
            if any(e["name"] == ref or e["commit"]["sha"].startswith(ref) for e in entries):
                return
    raise ValueError(
        f"Cannot find {ref} in https://github.com/{owner}/{name}. "
        "If it's a commit from a forked repo, please call hub.load() with forked repo directly."
    )


def _check_repo_is_trusted(owner: str, name: str, owner_name_branch: str, trust_repo) -> None:
    """Ask before running code of a repository not trusted yet (``trust_repo=False``
    always asks, ``"check"`` asks unless trusted, ``True`` trusts); a trusted repository
    is remembered in ``<get_dir()>/trusted_list``."""
    hub_dir = get_dir()
    trusted_file = os.path.join(hub_dir, _TRUSTED_LIST)
    Path(trusted_file).touch()
    with open(trusted_file) as file:
        trusted = {line.strip() for line in file}
    owner_name = f"{owner}_{name}"
    # a repository downloaded before the trusted list existed counts as trusted
    downloaded_before = owner_name_branch in next(os.walk(hub_dir))[1]
    is_trusted = owner_name in trusted or downloaded_before or owner in _TRUSTED_REPO_OWNERS
    if trust_repo is False or (trust_repo == "check" and not is_trusted):
        response = input(
            f"The repository {owner_name} does not belong to the list of trusted "
            "repositories and as such cannot be downloaded. Do you trust this repository "
            "and wish to add it to the trusted list of repositories (y/N)?"
        )
        if response.lower() in ("y", "yes"):
            if is_trusted:
                print("The repository is already trusted.")
        elif response.lower() in ("n", "no", ""):
            raise Exception("Untrusted repository.")
        else:
            raise ValueError(f"Unrecognized response {response}.")
    if not is_trusted:
        with open(trusted_file, "a") as file:
            file.write(owner_name + "\n")


def _download_repo(owner: str, name: str, ref: str, repo_dir: str) -> None:
    """Fetch the zip archive of ``ref`` and unpack it as ``repo_dir``."""
    hub_dir = get_dir()
    cached_zip = os.path.join(hub_dir, ref.replace("/", "_") + ".zip")
    _remove_if_exists(cached_zip)
    url = _git_archive_link(owner, name, ref)
    sys.stdout.write(f'Downloading: "{url}" to {cached_zip}\n')
    try:
        download_url_to_file(url, cached_zip, progress=False)
    except HTTPError as error:
        if error.code != 300:
            raise
        # 300 Multiple Choices: the ref is both a branch and a tag; take the branch, as git
        warnings.warn(
            f"The ref {ref} is ambiguous. Perhaps it is both a tag and a branch in the repo? "
            "Torchhub will now assume that it's a branch. You can disambiguate tags and "
            "branches by explicitly passing refs/heads/branch_name or refs/tags/tag_name as "
            "the ref. That might require using skip_validation=True.",
            stacklevel=3,
        )
        url = _git_archive_link(owner, name, f"refs/heads/{ref}")
        download_url_to_file(url, cached_zip, progress=False)
    with zipfile.ZipFile(cached_zip) as archive:
        # GitHub's archives hold one folder, <name>-<ref or commit>/
        extracted = os.path.join(hub_dir, archive.infolist()[0].filename)
        _remove_if_exists(extracted)
        _safe_extract_zip(archive, hub_dir)
    _remove_if_exists(cached_zip)
    _remove_if_exists(repo_dir)
    shutil.move(extracted, repo_dir)


def _get_cache_or_reload(github, force_reload, trust_repo, verbose=True, skip_validation=False):
    """The local folder of ``owner/name[:ref]`` in the hub cache, downloaded if needed."""
    hub_dir = get_dir()
    os.makedirs(hub_dir, exist_ok=True)
    owner, name, ref = _parse_repo_info(github)
    # a branch name may hold '/', which a folder name cannot
    owner_name_branch = "_".join([owner, name, ref.replace("/", "_")])
    repo_dir = os.path.join(hub_dir, owner_name_branch)
    _check_repo_is_trusted(owner, name, owner_name_branch, trust_repo)
    if not force_reload and os.path.exists(repo_dir):
        if verbose:
            sys.stderr.write(f"Using cache found in {repo_dir}\n")
        return repo_dir
    if not skip_validation:
        _validate_not_a_forked_repo(owner, name, ref)
    _download_repo(owner, name, ref, repo_dir)
    return repo_dir


# ---------------------------------------------------------------------- hubconf entries


@contextlib.contextmanager
def _add_to_sys_path(path):
    # hubconf.py imports the repository's own modules by their top-level names
    sys.path.insert(0, path)
    try:
        yield
    finally:
        sys.path.remove(path)


def _import_module(name: str, path: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _import_hubconf(repo_dir: str):
    with _add_to_sys_path(repo_dir):
        return _import_module(MODULE_HUBCONF, os.path.join(repo_dir, MODULE_HUBCONF))


def _check_dependencies(hubconf) -> None:
    """Every module named in the hubconf's ``dependencies`` list must be importable."""
    dependencies = getattr(hubconf, VAR_DEPENDENCY, None)
    if dependencies is None:
        return
    missing = [dep for dep in dependencies if importlib.util.find_spec(dep) is None]
    if missing:
        raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")


def _load_entry_from_hubconf(hubconf, model):
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    _check_dependencies(hubconf)
    entry = getattr(hubconf, model, None)
    if entry is None or not callable(entry):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return entry


def list(github, force_reload=False, skip_validation=False, trust_repo="check", verbose=True):
    """The names of the public callables (entry points) of a GitHub repository's
    ``hubconf.py``.

    Args:
        github (str): ``"owner/name[:ref]"``; without a ref, ``main`` if the repository
            has that branch, else ``master``.
        force_reload (bool, optional): download again even if cached. Default: ``False``.
        skip_validation (bool, optional): do not ask GitHub's API whether the ref belongs
            to the repository (``GITHUB_TOKEN`` authenticates those requests).
            Default: ``False``.
        trust_repo (bool or str, optional): ``"check"`` (ask unless trusted), ``True``
            (trust and remember) or ``False`` (always ask). Default: ``"check"``.
        verbose (bool, optional): say when the cached copy is used. Default: ``True``.

    Returns:
        list of str: the entry points' names.
    """
    repo_dir = _get_cache_or_reload(
        github, force_reload, trust_repo, verbose=verbose, skip_validation=skip_validation
    )
    hubconf = _import_hubconf(repo_dir)
    return [n for n in dir(hubconf) if callable(getattr(hubconf, n)) and not n.startswith("_")]


def help(github, model, force_reload=False, skip_validation=False, trust_repo="check"):
    """The docstring of entry point ``model`` of a GitHub repository's ``hubconf.py``.

    Args:
        github (str): ``"owner/name[:ref]"``, as for :func:`list`.
        model (str): the entry point's name.
        force_reload, skip_validation, trust_repo: as for :func:`list`.
    """
    repo_dir = _get_cache_or_reload(
        github, force_reload, trust_repo, verbose=True, skip_validation=skip_validation
    )
    return _load_entry_from_hubconf(_import_hubconf(repo_dir), model).__doc__


def load(
    repo_or_dir,
    model,
    *args,
    source="github",
    trust_repo="check",
    force_reload=False,
    verbose=True,
    skip_validation=False,
    **kwargs,
):
    """Call entry point ``model`` of a repository's ``hubconf.py`` and return its result.

    Args:
        repo_or_dir (str): ``"owner/name[:ref]"`` when ``source='github'`` (as for
            :func:`list`), a folder holding ``hubconf.py`` when ``source='local'``.
        model (str): the entry point's name.
        *args: passed to the entry point.
        source (str, optional): ``'github'`` or ``'local'``. Default: ``'github'``.
        trust_repo, force_reload, verbose, skip_validation: as for :func:`list` (unused
            for a local folder).
        **kwargs: passed to the entry point.

    Returns:
        What the entry point returns (usually an ``nn.Module``).

    Examples::

        >>> import os, tempfile
        >>> folder = tempfile.mkdtemp()
        >>> with open(os.path.join(folder, "hubconf.py"), "w") as f:
        ...     _ = f.write("def double(x):\\n    return 2 * x\\n")
        >>> torch.hub.load(folder, "double", 21, source="local")
        42
    """
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        repo_or_dir = _get_cache_or_reload(
            repo_or_dir, force_reload, trust_repo, verbose=verbose, skip_validation=skip_validation
        )
    return _load_local(repo_or_dir, model, *args, **kwargs)


def _load_local(hubconf_dir, model, *args, **kwargs):
    # the entry point runs with the folder on sys.path: it may import the repo's modules
    with _add_to_sys_path(hubconf_dir):
        hubconf = _import_module(MODULE_HUBCONF, os.path.join(hubconf_dir, MODULE_HUBCONF))
        entry = _load_entry_from_hubconf(hubconf, model)
        return entry(*args, **kwargs)
