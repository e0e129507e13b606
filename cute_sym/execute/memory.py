"""Memory a simulation watches: every access of a tracked engine is logged by thread and step,
and at each step's end the log is read for races; reads of elements nobody wrote are seen as
they happen (an element is written when an earlier step wrote it, or this thread did earlier
in this step).

>>> import numpy as np
>>> m = TrackedMemory("sA", 8, initialized=False, threads=2)
>>> class T: acting_tid = 0
>>> m.log(T, "w", np.array([1, 2])); m.log(T, "r", np.array([2, 3]))
>>> T.acting_tid = 1; m.log(T, "w", np.array([2]))
>>> [f.kind for f in m.end_step(0)]
['uninitialized_read', 'race', 'race']
"""
from __future__ import annotations

from typing import Any, Optional

from ..tensor.numeric import numpy
from .context import current
from .report import Fault

__all__ = ["TrackedMemory", "Tracker"]

_SAMPLE = 6


def _sample(a: Any) -> tuple[int, ...]:
    return tuple(int(x) for x in a[:_SAMPLE])


class TrackedMemory:
    """The log of one memory (``size`` elements): who read and wrote what, step by step.

    ``initialized`` False (shared memory): reads of elements not yet written are faults.
    """

    def __init__(self, name: str, size: int, initialized: bool, threads: int) -> None:
        np = numpy()
        self.name = name
        self.size = size
        self.written: Optional[Any] = None if initialized else np.zeros(size, dtype=bool)
        self.own: Optional[Any] = None if initialized else np.zeros((threads, size), dtype=np.int32)
        self.step = 0
        self.reads: list[tuple[int, Any]] = []
        self.writes: list[tuple[int, Any]] = []
        self.faults: list[Fault] = []
        self.unwritten: list[tuple[int, Any]] = []      # this step's reads of unwritten elements

    def log(self, thread: Any, kind: str, idx: Any) -> None:
        np = numpy()
        tid = thread.acting_tid
        idx = np.asarray(idx, dtype=np.int64).reshape(-1)
        if kind == "w":
            self.writes.append((tid, idx))
            if self.own is not None:
                self.own[tid, idx] = self.step + 1
            return
        self.reads.append((tid, idx))
        if self.written is not None and self.own is not None:
            bad = ~(self.written[idx] | (self.own[tid, idx] == self.step + 1))
            if bad.any():
                self.unwritten.append((tid, idx[bad]))

    def end_step(self, step: int) -> list[Fault]:
        """Close the step: the races it held; its writes become visible. Returns (and keeps) its faults."""
        np = numpy()
        out, self.faults = self.faults, []
        if self.unwritten:
            offs = np.unique(np.concatenate([i for _t, i in self.unwritten]))
            who = sorted({t for t, _i in self.unwritten})
            out.append(Fault("uninitialized_read", self.name, step, _sample(offs), _sample(np.array(who)),
                             int(offs.size), f"{offs.size} elements read before any write"))
            self.unwritten = []
        if self.writes:
            w_tid = np.concatenate([np.full(i.size, t, dtype=np.int64) for t, i in self.writes])
            w_off = np.concatenate([i for _t, i in self.writes])
            pairs = np.unique(w_off * 65536 + w_tid)
            off, tid = pairs // 65536, pairs % 65536
            uniq, first, counts = np.unique(off, return_index=True, return_counts=True)
            multi = uniq[counts > 1]
            if multi.size:
                who = np.unique(tid[np.isin(off, multi)])
                out.append(Fault("race", self.name, step, _sample(multi), _sample(who), int(multi.size),
                                 f"{multi.size} elements written by more than one thread in one step"))
            writer = np.full(self.size, -1, dtype=np.int64)
            writer[uniq] = tid[first]
            writer[multi] = -2
            if self.reads:
                r_tid = np.concatenate([np.full(i.size, t, dtype=np.int64) for t, i in self.reads])
                r_off = np.concatenate([i for _t, i in self.reads])
                w = writer[r_off]
                clash = (w == -2) | ((w >= 0) & (w != r_tid))
                if clash.any():
                    offs = np.unique(r_off[clash])
                    who = np.unique(np.concatenate([r_tid[clash], w[clash][w[clash] >= 0]]))
                    out.append(Fault("race", self.name, step, _sample(offs), _sample(who), int(offs.size),
                                     f"{offs.size} elements read by one thread and written by another in one "
                                     "step (no barrier between)"))
            if self.written is not None:
                self.written[w_off] = True
        self.reads, self.writes = [], []
        self.step = step + 1
        return out


class Tracker:
    """What a tracked engine calls (``access(kind, offsets)``): the running thread's access, in
    units of ``unit_bits`` (a recast view of the memory scales its offsets to the memory's)."""

    def __init__(self, memory: TrackedMemory, num: int = 1, den: int = 1) -> None:
        self.memory, self.num, self.den = memory, num, den      # new element = num/den old elements

    def recast(self, old_bits: int, new_bits: int) -> "Tracker":
        from math import gcd
        n, d = self.num * new_bits, self.den * old_bits
        g = gcd(n, d)
        return Tracker(self.memory, n // g, d // g)

    def access(self, kind: str, offsets: Any) -> None:
        thread = current()
        if thread is None:
            return
        np = numpy()
        idx = np.asarray(offsets, dtype=np.int64).reshape(-1)
        if self.num != 1 or self.den != 1:
            lo = idx * self.num // self.den
            hi = ((idx + 1) * self.num + self.den - 1) // self.den
            width = int((hi - lo).max()) if idx.size else 0
            idx = np.unique((lo[:, None] + np.arange(width)[None, :])[(lo[:, None] + np.arange(width)) < hi[:, None]])
        self.memory.log(thread, kind, idx)
