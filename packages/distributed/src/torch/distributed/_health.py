"""Telling a dead or hung rank apart, so that a collective that does not finish raises
an error naming the rank instead of waiting forever.

Every process runs one heartbeat thread that writes, to the world's store, a counter
that goes up every beat and how many collectives it has entered in each of its groups.
A rank waiting on a collective reads its peers' entries: a counter that stopped moving
means the peer died; a counter that moves while the peer's collective count stays
behind means it is alive but has not called this collective (hung, or doing something
else). Only counters are compared, never clocks, so machines need not agree on time.
"""

from __future__ import annotations

import json
import threading
import time

from ._store import Store

__all__ = ["Heartbeat", "PeerWatch"]


class Heartbeat:
    """The beating thread of this process (global rank ``rank``)."""

    def __init__(self, store: Store, rank: int, interval: float) -> None:
        self.store = store
        self.rank = rank
        self.interval = interval
        self.progress: dict[str, int] = {}
        self._beats = 0
        self._stop = threading.Event()
        self._beat()
        self._thread = threading.Thread(target=self._run, name="torch-dist-heartbeat", daemon=True)
        self._thread.start()

    def entered(self, group: str, seq: int) -> None:
        """Record that this rank called collective number ``seq`` of ``group``."""
        self.progress[group] = seq

    def _beat(self) -> None:
        self._beats += 1
        state = {"beat": self._beats, "groups": dict(self.progress)}
        self.store.set(f"health/{self.rank}", json.dumps(state))

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self._beat()
            except Exception:
                return  # the store is gone (its master exited): nothing left to tell

    def stop(self) -> None:
        self._stop.set()


class PeerWatch:
    """What one waiting collective knows of its peers' heartbeats."""

    def __init__(self, store: Store, interval: float) -> None:
        self.store = store
        # a peer is dead after this long without a new beat
        self.stale_after = max(4 * interval, 1.0)
        self._seen: dict[int, tuple[int, float]] = {}

    def _state(self, rank: int) -> dict | None:
        if not self.store.check([f"health/{rank}"]):
            return None
        return json.loads(self.store.get(f"health/{rank}"))

    def dead_peers(self, ranks) -> list[tuple[int, float]]:
        """(rank, seconds since its last beat) of the peers that stopped beating."""
        now = time.monotonic()
        dead = []
        for rank in ranks:
            state = self._state(rank)
            beat = -1 if state is None else state["beat"]
            last_beat, since = self._seen.get(rank, (None, now))
            if beat != last_beat:
                self._seen[rank] = (beat, now)
            elif now - since > self.stale_after:
                dead.append((rank, now - since))
        return dead

    def laggards(self, ranks, group: str, seq: int) -> list[tuple[int, int]]:
        """(rank, the last collective it entered) of the peers behind collective ``seq``."""
        behind = []
        for rank in ranks:
            state = self._state(rank)
            entered = -1 if state is None else state["groups"].get(group, -1)
            if entered < seq:
                behind.append((rank, entered))
        return behind
