"""Rendezvous: how the processes of a new group find each other's store.

``init_method`` URLs: ``env://`` (``MASTER_ADDR``, ``MASTER_PORT``, ``RANK``,
``WORLD_SIZE`` from the environment), ``tcp://host:port`` (rank and world size as
arguments or ``?rank=&world_size=``), ``file:///path`` (a :class:`FileStore`).
Each gives ``(store, rank, world_size)``.
"""

from __future__ import annotations

import os
from datetime import timedelta
from urllib.parse import parse_qs, urlparse

from ._file_store import FileStore
from ._store import Store
from ._tcp_store import TCPStore

__all__ = ["rendezvous", "register_rendezvous_handler"]

_HANDLERS = {}


def register_rendezvous_handler(scheme: str, handler) -> None:
    """Make ``init_method`` URLs of ``scheme`` call ``handler(url, rank, world_size,
    timeout)``, which returns ``(store, rank, world_size)``."""
    if scheme in _HANDLERS:
        raise RuntimeError(f"Rendezvous handler for {scheme}:// already registered")
    _HANDLERS[scheme] = handler


def rendezvous(url: str, rank: int = -1, world_size: int = -1, timeout=None):
    """``(store, rank, world_size)`` for ``url`` (see the module's docstring)."""
    if not isinstance(url, str):
        raise RuntimeError(f"`url` must be a string. {type(url)}: {url}")
    scheme = urlparse(url).scheme
    if scheme not in _HANDLERS:
        raise RuntimeError(f"No rendezvous handler for {scheme}://")
    return _HANDLERS[scheme](url, rank, world_size, timeout or timedelta(seconds=300))


def _query(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(url).query).items()}


def _pick(given: int, query: dict, name: str, what: str) -> int:
    if given is not None and given != -1:
        return int(given)
    if name in query:
        return int(query[name])
    raise ValueError(f"{what} parameter missing")


def _env_error(name: str) -> ValueError:
    return ValueError(
        "Error initializing torch.distributed using env:// rendezvous: environment "
        f"variable {name} expected, but not set"
    )


def _env_int(given: int, name: str) -> int:
    if given is not None and given != -1:
        return int(given)
    if name not in os.environ:
        raise _env_error(name)
    return int(os.environ[name])


def _tcp_store(host: str, port: int, rank: int, world_size: int, timeout) -> Store:
    """The group's store: served by rank 0, or, under ``torchrun``, by the launcher."""
    agent_serves = os.environ.get("TORCHELASTIC_USE_AGENT_STORE") == "True"
    is_master = rank == 0 and not agent_serves
    return TCPStore(host, port, world_size, is_master, timeout, wait_for_workers=False)


def _env_handler(url, rank, world_size, timeout):
    rank = _env_int(rank, "RANK")
    world_size = _env_int(world_size, "WORLD_SIZE")
    if "MASTER_ADDR" not in os.environ:
        raise _env_error("MASTER_ADDR")
    if "MASTER_PORT" not in os.environ:
        raise _env_error("MASTER_PORT")
    host, port = os.environ["MASTER_ADDR"], int(os.environ["MASTER_PORT"])
    return _tcp_store(host, port, rank, world_size, timeout), rank, world_size


def _tcp_handler(url, rank, world_size, timeout):
    parsed = urlparse(url)
    if not parsed.port:
        raise ValueError(f"port number missing in {url}")
    query = _query(url)
    rank = _pick(rank, query, "rank", "rank")
    world_size = _pick(world_size, query, "world_size", "world size")
    store = _tcp_store(parsed.hostname, parsed.port, rank, world_size, timeout)
    return store, rank, world_size


def _file_handler(url, rank, world_size, timeout):
    parsed = urlparse(url)
    path = parsed.path or parsed.netloc
    if not path:
        raise ValueError("file:// rendezvous requires a path, e.g. file:///tmp/store")
    query = _query(url)
    rank = _pick(rank, query, "rank", "rank")
    world_size = _pick(world_size, query, "world_size", "world size")
    store = FileStore(path, world_size)
    store.set_timeout(timeout)
    return store, rank, world_size


register_rendezvous_handler("env", _env_handler)
register_rendezvous_handler("tcp", _tcp_handler)
register_rendezvous_handler("file", _file_handler)
