"""What a simulation found: :class:`Fault` records and the :class:`SimulationReport` holding them.

>>> f = Fault("race", "sA", 1, (3, 4), (0, 5), 2, "2 elements written by more than one thread in one step")
>>> print(f)
race in sA at step 1: 2 elements written by more than one thread in one step (offsets 3, 4; threads 0, 5)
>>> r = SimulationReport(128, 2, (f,))
>>> r.ok, len(r.of("race")), len(r.of("uninitialized_read"))
(False, 1, 0)
"""
from __future__ import annotations

from typing import Any, NamedTuple

from ..core.errors import LayoutError

__all__ = ["Fault", "SimulationReport", "SimulationError", "FAULT_KINDS"]

#: race: two threads wrote one element in one step, or one wrote what another read in that step;
#: uninitialized_read: an element read before any thread wrote it (or a step boundary made it visible);
#: out_of_bounds: an access outside the memory; divergence: a thread missed a barrier or an
#: instruction its lanes share; async_pending: a thread ended with cp.async copies it never waited
#: for; error: the kernel raised.
FAULT_KINDS = ("race", "uninitialized_read", "out_of_bounds", "divergence", "async_pending", "error")


class Fault(NamedTuple):
    """One kind of fault in one memory in one step: ``n`` elements, a few of their offsets
    and of the threads involved."""
    kind: str
    memory: str
    step: int
    offsets: tuple[int, ...]
    threads: tuple[int, ...]
    n: int
    message: str

    def __str__(self) -> str:
        where = f" in {self.memory}" if self.memory else ""
        detail = []
        if self.offsets:
            detail.append("offsets " + ", ".join(map(str, self.offsets)))
        if self.threads:
            detail.append("threads " + ", ".join(map(str, self.threads)))
        tail = f" ({'; '.join(detail)})" if detail else ""
        return f"{self.kind}{where} at step {self.step}: {self.message}{tail}"


class SimulationError(LayoutError):
    """A simulated kernel faulted (:meth:`SimulationReport.check`)."""


class SimulationReport:
    """The outcome of :func:`cute_sym.simulate`: the threads run, the steps (barriers + 1), the faults.

    @post ``ok`` is True exactly when ``faults`` is empty.
    """

    __slots__ = ("threads", "steps", "faults")
    threads: int
    steps: int
    faults: tuple[Fault, ...]

    def __init__(self, threads: int, steps: int, faults: tuple[Fault, ...]) -> None:
        object.__setattr__(self, "threads", threads)
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "faults", tuple(faults))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SimulationReport is immutable")

    @property
    def ok(self) -> bool:
        return not self.faults

    def of(self, kind: str) -> tuple[Fault, ...]:
        """The faults of one kind (one of :data:`FAULT_KINDS`)."""
        if kind not in FAULT_KINDS:
            raise LayoutError(f"SimulationReport.of: the kinds are {FAULT_KINDS}, got {kind!r}")
        return tuple(f for f in self.faults if f.kind == kind)

    def check(self) -> "SimulationReport":
        """The report itself when it is clean, else a :class:`SimulationError` listing the faults."""
        if self.faults:
            raise SimulationError("the simulated kernel faulted:\n" + "\n".join(map(str, self.faults[:20])))
        return self

    def __str__(self) -> str:
        head = f"{self.threads} threads, {self.steps} steps: "
        if not self.faults:
            return head + "no faults"
        return head + f"{len(self.faults)} faults\n" + "\n".join(f"  {f}" for f in self.faults)

    def __repr__(self) -> str:
        return f"SimulationReport(threads={self.threads}, steps={self.steps}, faults={len(self.faults)})"
