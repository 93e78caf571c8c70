"""The tracker process of file_system shared memory: unlinks a named segment when no live
process uses it any more.

Run as a script (``python -I -S _shm_tracker.py LISTEN_FD SHM_DIR PREFIX``) by the first
process that creates a named segment; it imports nothing of torch. Each client process
holds one connection and sends lines:

- ``ADD name``: this process uses ``name``;
- ``DEL name``: this process released one use of ``name``;
- ``SEND name``: a message carrying ``name`` is on its way; the receiver's ``RECV name``
  ends that reference. The two come on different connections, so a RECV may be read
  first: the count of messages in flight may dip below zero until the SEND arrives.

Nothing is answered: within one connection lines are read in order, which is what keeps
a name alive (a sender's SEND always precedes its DEL).

A process that ends, even by SIGKILL, closes its connection and loses all its uses. A
name is unlinked when nothing holds it; the tracker exits, unlinking whatever is left,
when its last client is gone. If messages are still in flight then (their sender died
before the receiver read them), it first waits up to ``LINGER`` seconds for a new client:
the receiver, which joins this tracker by the address the message carries. A receiver
that never comes costs that wait, nothing more.
"""

import os
import selectors
import signal
import socket
import sys
import time

# seconds a tracker without clients keeps in-flight names for their receivers (PyTorch's
# shm manager waits 2 s before it exits; a little more here for loaded machines)
LINGER = 3.0


class Tracker:
    def __init__(self, listener: socket.socket, shm_dir: str, prefix: str) -> None:
        self.listener = listener
        self.shm_dir = shm_dir
        self.prefix = prefix
        self.selector = selectors.DefaultSelector()
        self.selector.register(listener, selectors.EVENT_READ)
        self.uses: dict[socket.socket, dict[str, int]] = {}  # connection -> name -> count
        self.pending: dict[socket.socket, bytes] = {}
        self.in_flight: dict[str, int] = {}
        self.known: set[str] = set()

    def run(self) -> None:
        deadline = None  # set while no client is connected but names are in flight
        while True:
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            for key, _ in self.selector.select(timeout):
                if key.fileobj is self.listener:
                    self.accept()
                else:
                    self.read(key.fileobj)
            if self.uses:
                deadline = None
                continue
            if not any(count > 0 for count in self.in_flight.values()):
                break
            if deadline is None:
                deadline = time.monotonic() + LINGER
            elif time.monotonic() >= deadline:
                break
        for name in list(self.known):
            self.unlink(name)

    def accept(self) -> None:
        connection, _ = self.listener.accept()
        self.uses[connection] = {}
        self.pending[connection] = b""
        self.selector.register(connection, selectors.EVENT_READ)

    def read(self, connection: socket.socket) -> None:
        try:
            data = connection.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.close(connection)
            return
        lines = (self.pending[connection] + data).split(b"\n")
        self.pending[connection] = lines.pop()
        for line in lines:
            verb, _, name = line.decode().partition(" ")
            self.handle(connection, verb, name)

    def handle(self, connection: socket.socket, verb: str, name: str) -> None:
        if not name.startswith(self.prefix) or "/" in name:
            return  # never touch files that are not this project's segments
        uses = self.uses[connection]
        if verb == "ADD":
            uses[name] = uses.get(name, 0) + 1
            self.known.add(name)
        elif verb in ("SEND", "RECV"):
            count = self.in_flight.get(name, 0) + (1 if verb == "SEND" else -1)
            if count:
                self.in_flight[name] = count
            else:
                self.in_flight.pop(name, None)
            self.known.add(name)
            self.release(name)
        elif verb == "DEL" and uses.get(name, 0) > 0:
            uses[name] -= 1
            if not uses[name]:
                del uses[name]
            self.release(name)

    def close(self, connection: socket.socket) -> None:
        self.selector.unregister(connection)
        names = self.uses.pop(connection)
        del self.pending[connection]
        connection.close()
        for name in names:
            self.release(name)

    def release(self, name: str) -> None:
        if self.in_flight.get(name, 0) > 0:
            return
        if any(uses.get(name, 0) > 0 for uses in self.uses.values()):
            return
        self.unlink(name)

    def unlink(self, name: str) -> None:
        self.known.discard(name)
        self.in_flight.pop(name, None)
        try:
            os.unlink(os.path.join(self.shm_dir, name))
        except FileNotFoundError:
            pass


def main(argv: list[str]) -> None:
    # Ctrl-C in a terminal reaches the whole process group: the clients' ends are the
    # signal that matters here
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    listener = socket.socket(fileno=int(argv[1]))
    Tracker(listener, argv[2], argv[3]).run()


if __name__ == "__main__":
    main(sys.argv)
