"""TCPStore: a key-value server in one process (the master), clients in the others.

The server is a listening socket served by threads of the master process, which keeps
the keys in a :class:`_Table` and uses it directly; every other process holds one
connection. The wire format is small and fixed (no pickle, so a stray client cannot
make the server run code): a request is an op byte, an argument count and
length-prefixed byte strings; the answer is a status byte and byte strings.
"""

from __future__ import annotations

import socket
import struct
import threading
import time
from datetime import timedelta

from ._store import DEFAULT_STORE_TIMEOUT, DistNetworkError, DistStoreError, Store, _Table

__all__ = ["TCPStore"]

_OPS = ("set", "get", "add", "append", "compare_set", "wait", "check", "delete", "num_keys")
_OP_CODE = {name: code for code, name in enumerate(_OPS)}
_OK, _TIMED_OUT = 0, 1
# the key every process increments once connected (PyTorch's store also holds one)
_INIT_KEY = "init/"


def _recv_exact(sock: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = sock.recv(left)
        if not chunk:
            raise ConnectionError("connection closed")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _send_message(sock: socket.socket, code: int, parts: list[bytes]) -> None:
    header = struct.pack("!BI", code, len(parts))
    body = b"".join(struct.pack("!Q", len(p)) + p for p in parts)
    sock.sendall(header + body)


def _recv_message(sock: socket.socket) -> tuple[int, list[bytes]]:
    code, count = struct.unpack("!BI", _recv_exact(sock, 5))
    parts = []
    for _ in range(count):
        (size,) = struct.unpack("!Q", _recv_exact(sock, 8))
        parts.append(_recv_exact(sock, size))
    return code, parts


def _run_op(table: _Table, op: str, args: list[bytes]) -> tuple[int, list[bytes]]:
    """One request against the table: (status, answer parts). Keys travel as UTF-8."""
    if op == "set":
        table.set(args[0].decode(), args[1])
        return _OK, []
    if op == "get":
        value = table.get(args[0].decode(), float(args[1]))
        return (_TIMED_OUT, []) if value is None else (_OK, [value])
    if op == "add":
        return _OK, [str(table.add(args[0].decode(), int(args[1]))).encode()]
    if op == "append":
        table.append(args[0].decode(), args[1])
        return _OK, []
    if op == "compare_set":
        return _OK, [table.compare_set(args[0].decode(), args[1], args[2])]
    if op == "wait":
        keys = [k.decode() for k in args[1:]]
        return (_OK, []) if table.wait(keys, float(args[0])) else (_TIMED_OUT, [])
    if op == "check":
        return _OK, [b"1" if table.check([k.decode() for k in args]) else b"0"]
    if op == "delete":
        return _OK, [b"1" if table.delete(args[0].decode()) else b"0"]
    return _OK, [str(table.num_keys()).encode()]


class _Server:
    """The listening socket and its threads; lives as long as the master's store."""

    def __init__(self, host: str, port: int) -> None:
        self.table = _Table()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        self.listener = socket.socket(family, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.listener.bind(("" if family == socket.AF_INET else "::", port))
        except OSError as error:
            self.listener.close()
            raise DistNetworkError(
                f"The server socket has failed to listen on any local network address. "
                f"port: {port}, useIpv6: {family == socket.AF_INET6}, code: {error.errno}, "
                f"name: {error.strerror}, message: address already in use"
            ) from None
        self.listener.listen(256)
        self.port = self.listener.getsockname()[1]
        self.closed = False
        threading.Thread(target=self._accept_loop, name="TCPStore-accept", daemon=True).start()

    def _accept_loop(self) -> None:
        while not self.closed:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            while True:
                try:
                    code, args = _recv_message(conn)
                except (ConnectionError, OSError, struct.error):
                    return
                if code >= len(_OPS):
                    return  # not one of ours: drop the connection
                try:
                    status, answer = _run_op(self.table, _OPS[code], args)
                    _send_message(conn, status, answer)
                except (OSError, ValueError, IndexError):
                    return

    def close(self) -> None:
        self.closed = True
        self.listener.close()


class _Client:
    """One connection to the server; a lock keeps requests of several threads apart."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.address = (host, port)
        self.lock = threading.Lock()
        self.sock = self._connect(timeout)

    def _connect(self, timeout: float) -> socket.socket:
        deadline = time.monotonic() + timeout
        delay = 0.01
        while True:
            try:
                sock = socket.create_connection(self.address, timeout=max(timeout, 0.1))
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                sock.settimeout(None)
                return sock
            except OSError:
                if time.monotonic() + delay > deadline:
                    ms = int(timeout * 1000)
                    raise DistNetworkError(
                        f"The client socket has timed out after {ms}ms while trying to "
                        f"connect to ({self.address[0]}, {self.address[1]})."
                    ) from None
                time.sleep(delay)
                delay = min(delay * 2, 0.5)

    def request(self, op: str, args: list[bytes]) -> tuple[int, list[bytes]]:
        with self.lock:
            try:
                _send_message(self.sock, _OP_CODE[op], args)
                return _recv_message(self.sock)
            except (ConnectionError, OSError) as error:
                host, port = self.address
                raise DistNetworkError(
                    f"Connection to the TCPStore server at {host}:{port} was lost "
                    f"({error}); the master process (rank 0) has probably exited."
                ) from None

    def close(self) -> None:
        self.sock.close()


class TCPStore(Store):
    """A store served over TCP by the master process (``is_master=True``), which the
    other processes connect to.

    Args:
        host_name (str): the master's address.
        port (int): its port; ``0`` on the master picks a free one (see ``port``).
        world_size (int, optional): how many processes use the store; with
            ``wait_for_workers`` the master's constructor waits for all of them.
        is_master (bool): start the server in this process. Default: False.
        timeout (timedelta): for connecting and for ``get``/``wait``. Default: 300 s.
        wait_for_workers (bool): see ``world_size``. Default: True.
        multi_tenant, master_listen_fd, use_libuv: accepted for compatibility.

    Examples::

        >>> from datetime import timedelta
        >>> import torch.distributed as dist
        >>> server = dist.TCPStore("127.0.0.1", 0, is_master=True, timeout=timedelta(seconds=5))
        >>> client = dist.TCPStore("127.0.0.1", server.port, timeout=timedelta(seconds=5))
        >>> client.set("answer", "42")
        >>> server.get("answer")
        b'42'
    """

    def __init__(
        self,
        host_name: str,
        port: int,
        world_size: int | None = None,
        is_master: bool = False,
        timeout: timedelta = DEFAULT_STORE_TIMEOUT,
        wait_for_workers: bool = True,
        multi_tenant: bool = False,
        master_listen_fd: int | None = None,
        use_libuv: bool = True,
    ) -> None:
        super().__init__(timeout)
        self._host = host_name
        self._server = _Server(host_name, port) if is_master else None
        self._port = self._server.port if self._server else int(port)
        self._client = None if is_master else _Client(host_name, self._port, self._seconds())
        self._use_libuv = use_libuv
        self._add(_INIT_KEY, 1)
        if is_master and world_size and wait_for_workers:
            self._wait_for_workers(world_size)

    def _seconds(self) -> float:
        return self.timeout.total_seconds()

    def _wait_for_workers(self, world_size: int) -> None:
        deadline = time.monotonic() + self._seconds()
        while int(self._server.table.get(_INIT_KEY, 0) or b"0") < world_size:
            if time.monotonic() > deadline:
                joined = int(self._server.table.get(_INIT_KEY, 0) or b"0")
                raise DistStoreError(
                    f"Timed out after {int(self._seconds())} seconds waiting for clients. "
                    f"{joined}/{world_size} clients joined."
                )
            time.sleep(0.01)

    @property
    def host(self) -> str:
        """The address the store was made with."""
        return self._host

    @property
    def port(self) -> int:
        """The port the server listens on."""
        return self._port

    @property
    def libuvBackend(self) -> bool:  # noqa: N802  (PyTorch's name)
        """Whether libuv was asked for (there is one server implementation here)."""
        return self._use_libuv

    def _timeout_error(self, keys, timeout):
        ms = int(timeout.total_seconds() * 1000) if isinstance(timeout, timedelta) else timeout
        return DistStoreError(
            f"wait timeout after {ms}ms, keys: " + ", ".join("/" + k for k in keys)
        )

    # -- primitives: the master reads its table, the others send requests -----------
    def _call(self, op: str, *args: bytes) -> tuple[int, list[bytes]]:
        if self._server is not None:
            return _run_op(self._server.table, op, list(args))
        return self._client.request(op, list(args))

    def _set(self, key, value):
        self._call("set", key.encode(), value)

    def _get(self, key, seconds):
        status, parts = self._call("get", key.encode(), repr(seconds).encode())
        return None if status == _TIMED_OUT else parts[0]

    def _add(self, key, amount):
        return int(self._call("add", key.encode(), str(amount).encode())[1][0])

    def _append(self, key, value):
        self._call("append", key.encode(), value)

    def _compare_set(self, key, expected, desired):
        return self._call("compare_set", key.encode(), expected, desired)[1][0]

    def _wait(self, keys, seconds):
        status, _ = self._call("wait", repr(seconds).encode(), *(k.encode() for k in keys))
        return status == _OK

    def _check(self, keys):
        return self._call("check", *(k.encode() for k in keys))[1][0] == b"1"

    def _delete(self, key):
        return self._call("delete", key.encode())[1][0] == b"1"

    def _num_keys(self):
        return int(self._call("num_keys")[1][0])

    def __del__(self) -> None:
        server, client = getattr(self, "_server", None), getattr(self, "_client", None)
        if server is not None:
            server.close()
        if client is not None:
            client.close()
