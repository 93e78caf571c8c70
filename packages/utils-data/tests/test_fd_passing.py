"""Worker results with their shared-memory descriptors passed inline
(torch.utils.data._utils.fd_passing)."""

import gc
import multiprocessing
import os

import pytest

import torch
import torch.multiprocessing as mp
from torch.utils.data._utils import fd_passing


@pytest.fixture
def pair():
    reader, writer = multiprocessing.Pipe(duplex=True)
    socks = fd_passing.result_socket(reader), fd_passing.result_socket(writer)
    yield reader, writer, socks
    for end in (reader, writer, *socks):
        end.close()


def _open_fds() -> int:
    # the shared-memory segments this process holds open (other fds come and go with
    # whatever else the test process runs)
    gc.collect()
    count = 0
    for name in os.listdir("/proc/self/fd"):
        try:
            count += "torch-core-storage" in os.readlink(f"/proc/self/fd/{name}")
        except OSError:
            pass
    return count


def test_a_batch_arrives_with_its_descriptors_and_keeps_sharing(pair):
    reader, writer, (reader_sock, writer_sock) = pair
    base = torch.arange(12.0)
    batch = (base.view(3, 4), base[4:8], torch.arange(3))  # two views of one storage
    payload, fds = fd_passing.dumps((7, batch), pass_fds=True)
    assert len(fds) == 2  # one per storage, not per tensor
    fd_passing.send(writer, writer_sock, payload, fds)
    task, (grid, row, labels) = fd_passing.receive(reader, reader_sock)
    assert task == 7 and grid.tolist() == base.view(3, 4).tolist()
    assert labels.tolist() == [0, 1, 2] and grid.is_shared()
    grid[1, 0] = -1.0  # the two views still share one storage
    assert row[0].item() == -1.0 and base[4].item() == -1.0  # and the sender's memory


def test_descriptors_are_closed_on_both_sides(pair):
    reader, writer, (reader_sock, writer_sock) = pair
    before = _open_fds()
    for _ in range(20):
        payload, fds = fd_passing.dumps([torch.rand(5), torch.rand(6)], pass_fds=True)
        fd_passing.send(writer, writer_sock, payload, fds)
        received = fd_passing.receive(reader, reader_sock)
        del received
    assert _open_fds() <= before + 2  # the last message's storages may still be alive


def test_named_segments_and_plain_objects_travel_in_the_pickle(pair):
    reader, writer, (reader_sock, writer_sock) = pair
    previous = mp.get_sharing_strategy()
    mp.set_sharing_strategy("file_system")
    try:
        payload, fds = fd_passing.dumps({"x": torch.ones(4), "n": 3}, pass_fds=True)
        assert fds == []
        fd_passing.send(writer, writer_sock, payload, fds)
        got = fd_passing.receive(reader, reader_sock)
    finally:
        mp.set_sharing_strategy(previous)
    assert got["x"].tolist() == [1.0] * 4 and got["n"] == 3


def test_a_pipe_without_sockets_passes_no_descriptors():
    reader, writer = multiprocessing.Pipe(duplex=False)
    try:
        assert fd_passing.result_socket(reader) is None
        payload, fds = fd_passing.dumps(torch.ones(2), pass_fds=False)
        assert fds == []
        fd_passing.send(writer, None, payload, fds)
        assert fd_passing.receive(reader, None).tolist() == [1.0, 1.0]
    finally:
        reader.close()
        writer.close()


def test_a_result_missing_its_descriptors_is_an_eof(pair):
    # a sender that died between the bytes and the descriptors: the reader sees EOF
    reader, writer, (reader_sock, writer_sock) = pair
    payload, fds = fd_passing.dumps(torch.ones(1), pass_fds=False)
    writer.send_bytes(fd_passing._COUNT.pack(1) + payload)
    writer_sock.send(b"x")  # a byte without the SCM_RIGHTS ancillary data
    with pytest.raises(EOFError, match="result descriptors lost"):
        fd_passing.receive(reader, reader_sock)
