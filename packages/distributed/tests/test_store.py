"""The stores: PyTorch's semantics (values observed under PyTorch 2.13, noted per
test) and a second process on the same TCPStore / FileStore."""

import subprocess
import sys
import textwrap
from datetime import timedelta

import pytest

import torch.distributed as dist

SHORT = timedelta(milliseconds=100)


def _stores(tmp_path):
    tcp = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=timedelta(seconds=5))
    return {
        "hash": dist.HashStore(),
        "file": dist.FileStore(str(tmp_path / "store"), 1),
        "tcp": tcp,
        "prefix": dist.PrefixStore("pre", dist.HashStore()),
    }


@pytest.fixture(params=["hash", "file", "tcp", "prefix"])
def store(request, tmp_path):
    return _stores(tmp_path)[request.param]


def test_set_get_add(store):
    store.set("a", "1")
    store.set("b", b"\x00\xff")
    assert store.get("a") == b"1" and store.get("b") == b"\x00\xff"
    assert (store.add("c", 3), store.add("c", 2), store.get("c")) == (3, 5, b"5")


def test_compare_set(store):
    # PyTorch: absent key + empty expectation sets; absent key + other expectation
    # returns the expectation; a wrong expectation returns the current value
    assert store.compare_set("x", "", "v") == b"v"
    assert store.compare_set("x", "w", "z") == b"v"
    assert store.compare_set("x", "v", "z") == b"z"
    assert store.compare_set("missing", "e", "d") == b"e"


def test_check_delete_append_multi(store):
    store.set("a", "1")
    assert store.check(["a"]) and not store.check(["a", "q"])
    assert store.delete_key("a") is True and store.delete_key("a") is False
    store.append("ap", "x")
    store.append("ap", "y")
    store.multi_set(["m1", "m2"], ["1", "2"])
    assert store.multi_get(["ap", "m2"]) == [b"xy", b"2"]


def test_timeouts(store):
    store.set_timeout(SHORT)
    assert store.timeout == SHORT
    with pytest.raises(dist.DistStoreError):
        store.get("missing")
    with pytest.raises(dist.DistStoreError):
        store.wait(["missing"], timedelta(milliseconds=20))
    assert issubclass(dist.DistStoreError, RuntimeError)


def test_hash_store_messages():
    store = dist.HashStore()
    store.set_timeout(SHORT)
    with pytest.raises(dist.DistStoreError, match="^Wait timeout$"):
        store.wait(["k"])


def test_num_keys_counts_the_internal_key(tmp_path):
    # PyTorch: a fresh master TCPStore holds 1 key, a FileStore 1 more than set
    tcp = dist.TCPStore("127.0.0.1", 0, 1, True, timeout=SHORT)
    assert tcp.num_keys() == 1
    tcp.set("a", "b")
    assert tcp.num_keys() == 2
    file = dist.FileStore(str(tmp_path / "s"), 1)
    file.set("k", "v")
    assert file.num_keys() == 2
    with pytest.raises(dist.DistStoreError, match=r"wait timeout after 100ms, keys: /zz"):
        tcp.get("zz")


def test_prefix_store_namespaces():
    base = dist.HashStore()
    prefixed = dist.PrefixStore("job", base)
    prefixed.set("k", b"v")
    assert base.get("job/k") == b"v" and prefixed.underlying_store is base


def _run(code: str):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def test_tcp_store_across_processes():
    server = dist.TCPStore("127.0.0.1", 0, 2, True, timeout=timedelta(seconds=10),
                           wait_for_workers=False)  # fmt: skip
    server.set("from_server", "hello")
    code = textwrap.dedent(f"""
        from datetime import timedelta
        import torch.distributed as dist
        client = dist.TCPStore("127.0.0.1", {server.port}, 2, timeout=timedelta(seconds=10))
        assert client.get("from_server") == b"hello"
        client.wait(["go"])
        client.set("from_client", "hi")
        print(client.add("counter", 5), client.compare_set("cas", "", "new"), client.num_keys())
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)  # fmt: skip
    server.add("counter", 1)
    server.set("go", "1")
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert server.get("from_client") == b"hi"
    assert out.split() == ["6", "b'new'", "6"]


def test_tcp_client_without_server_times_out():
    port = __import__("dist_cases").free_port()
    with pytest.raises(dist.DistNetworkError, match="timed out after 200ms"):
        dist.TCPStore("127.0.0.1", port, timeout=timedelta(milliseconds=200))


def test_file_store_across_processes(tmp_path):
    path = tmp_path / "store"
    mine = dist.FileStore(str(path), 2)
    mine.set("parent", "p")
    result = _run(f"""
        import torch.distributed as dist
        store = dist.FileStore({str(path)!r}, 2)
        assert store.get("parent") == b"p"
        store.set("child", "c")
        print(store.add("n", 2))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["2"]
    assert mine.get("child") == b"c" and mine.add("n", 1) == 3
