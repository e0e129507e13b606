"""A CTA on the CPU: every thread runs the kernel body (a Python function of the thread index),
one thread at a time, and the memory it touches says what went wrong.

* The threads run in order of their index; a thread runs until it reaches a barrier
  (:func:`syncthreads`) or an instruction of several threads (ldmatrix, mma.sync, wgmma: a
  ``copy``/``gemm`` whose atom spans lanes), then the next one runs. Such an instruction runs
  when its last lane arrives, moving data between the lanes as its atom's layouts say.
* A *step* is the stretch between two barriers. In each step the memories made by
  :meth:`Simulation.shared_tensor` and :meth:`Simulation.global_tensor` log every access, and
  the report holds a fault when two threads write one element in one step, when a thread reads
  an element another writes in the same step (a missing barrier), when a shared element is read
  before anything wrote it, when an access leaves the memory, and when threads miss a barrier or
  an instruction the others wait at.
* A ``cp.async`` copy lands when its thread waits for its group (``cp_async_fence``, then
  ``cp_async_wait``); a thread that ends with copies in flight is a fault. Barriers are CTA-wide.

>>> import numpy as np
>>> from cute_sym.layout import make_layout
>>> sim = Simulation(4)
>>> g = sim.global_tensor(np.arange(4.0), make_layout(4))
>>> s = sim.shared_tensor(make_layout(4), "float")
>>> out = sim.global_tensor(np.zeros(4), make_layout(4))
>>> def kernel(t):
...     s[t] = g[t] * 10
...     syncthreads()
...     out[t] = s[(t + 1) % 4]
>>> print(sim.run(kernel))
4 threads, 2 steps: no faults
>>> [float(x) for x in out.engine.array]
[10.0, 20.0, 30.0, 0.0]
>>> def broken(t):                       # no barrier: thread t reads what thread t+1 writes later
...     s[t] = g[t]
...     out[t] = s[(t + 1) % 4]
>>> sorted({f.kind for f in Simulation(4, memories_from=sim).run(broken).faults})
['race', 'uninitialized_read']
"""
from __future__ import annotations

import sys
import threading
from typing import Any, Callable, Optional

from ..core.errors import LayoutError
from ..core.int_tuple import product
from ..tensor.engine import ArrayEngine, OutOfBoundsError
from ..tensor.mma import TiledMMA
from ..tensor.numeric import numpy, storage_dtype
from ..tensor.tensor import Tensor, make_tensor
from ..tensor.engine import set_offset_resolver
from .bindings import ThreadValues
from .context import current, set_current
from .memory import TrackedMemory, Tracker
from .report import Fault, SimulationReport

__all__ = ["Simulation", "simulate", "syncthreads", "cp_async_fence", "cp_async_wait"]

_WAIT_S = 120.0


class _Abort(Exception):
    """A thread leaves: a barrier or instruction it waited at cannot complete."""


class _Meeting:
    __slots__ = ("key", "members", "payload", "fn", "done", "error", "waiting")

    def __init__(self, key: Any, members: list[int], fn: Callable[[list[Any]], None]) -> None:
        self.key, self.members, self.fn = key, members, fn
        self.payload: dict[int, Any] = {}
        self.done = False
        self.error: Optional[str] = None
        self.waiting: list["_Thread"] = []


class _Thread:
    """One simulated thread: what ``copy``/``gemm``/``syncthreads`` see as :func:`current`."""

    def __init__(self, sim: "Simulation", tid: int) -> None:
        self.sim, self.tid = sim, tid
        self.go = threading.Lock()          # held while the thread may not run: released to let it run
        self.go.acquire()
        self.state = "runnable"
        self.seq: dict[Any, int] = {}
        self.acting_tid = tid
        self.members: Optional[list[int]] = None
        self.async_open: list[Callable[[], None]] = []            # cp.async issued since the last fence
        self.async_groups: list[list[Callable[[], None]]] = []    # committed groups, oldest first

    def issue_async(self, fn: Callable[[], None]) -> None:
        self.async_open.append(fn)

    def act_as_lane(self, lane: Optional[int]) -> None:
        self.acting_tid = self.tid if lane is None or self.members is None else self.members[lane]

    def collective(self, key: Any, members: list[int], lane: int, payload: Any,
                   fn: Callable[[list[Any]], None]) -> None:
        self.sim._arrive(self, key, members, lane, payload, fn)

    def mma_lane(self, atom: Any, tiled: Optional[TiledMMA]) -> tuple[int, Any, list[int]]:
        return self.sim._mma_lane(self.tid, atom, tiled)


class Simulation:
    """A CTA of ``num_threads`` threads (an int, or a dynamic thread index: all of its values,
    ``0`` to its upper bound) and the memories its kernel reads and writes.

    With a dynamic thread index, tensors partitioned once for it (their offsets formulas of it,
    ``partition_S(...)`` of ``get_slice(tid)``) are read by each thread at its own index.

    @pre ``num_threads`` is positive (a dynamic one has an upper bound).
    @post :meth:`run` returns a :class:`SimulationReport`; the memories hold what the kernel wrote.
    """

    def __init__(self, num_threads: Any, memories_from: Optional["Simulation"] = None) -> None:
        n = num_threads
        self._index_name: Optional[str] = None
        if type(n) is not int and not hasattr(n, "free_symbols"):
            raise LayoutError(f"Simulation: num_threads is a positive int or a bounded thread index "
                              f"(Dyn(..., max=)), got {n!r}")
        if type(n) is not int:
            from ..tensor.thread_index import upper_bound
            syms: set[Any] = getattr(n, "free_symbols", set())
            if len(syms) == 1:
                self._index_name = next(iter(syms)).name
            hi = upper_bound(n)
            if hi is None:
                raise LayoutError(f"Simulation: the thread index {n} needs an upper bound (Dyn(..., max=))")
            n = int(hi) + 1
        if n < 1:
            raise LayoutError(f"Simulation: the CTA needs at least one thread, got {num_threads}")
        self.num_threads = n
        self.memories: list[TrackedMemory] = []
        if memories_from is not None:        # the same memories, fresh: shared memory unwritten again
            for m in memories_from.memories:
                self._adopt(m)
        self._vmnk: dict[Any, Any] = {}

    # ------------------------------------------------------------ memories
    def _adopt(self, m: TrackedMemory) -> None:
        fresh = TrackedMemory(m.name, m.size, m.written is None, self.num_threads)
        m.__dict__.update(fresh.__dict__)
        self.memories.append(m)

    def _track(self, name: str, engine: ArrayEngine, initialized: bool) -> ArrayEngine:
        mem = TrackedMemory(name, len(engine), initialized, self.num_threads)
        self.memories.append(mem)
        return engine.with_tracker(Tracker(mem))

    def global_tensor(self, memory: Any, layout: Any, dtype: Optional[str] = None,
                      name: Optional[str] = None) -> Tensor:
        """A tensor over ``memory`` (a NumPy array; its elements count as written) whose accesses the
        simulation watches: races and accesses outside it are faults."""
        t = make_tensor(memory, layout, dtype=dtype)
        assert isinstance(t.engine, ArrayEngine)
        return Tensor(self._track(name or f"gmem{len(self.memories)}", t.engine, True), t.layout)

    def shared_tensor(self, layout: Any, dtype: str, name: Optional[str] = None) -> Tensor:
        """Shared memory: ``cosize(layout)`` new elements of ``dtype``, not yet written (reading one
        before a write is a fault), over ``layout`` (a swizzled layout writes through its swizzle)."""
        np = numpy()
        t = make_tensor(layout, dtype=dtype)
        n = t.layout.cosize()
        assert type(n) is int
        eng = ArrayEngine(np.zeros(n, dtype=storage_dtype(dtype)), 0, dtype)
        return Tensor(self._track(name or f"smem{len(self.memories)}", eng, False), t.layout)

    # ------------------------------------------------------------ running
    def run(self, kernel: Callable[..., Any], *args: Any) -> SimulationReport:
        """Run ``kernel(tid, *args)`` for every thread; the report of what the memories saw."""
        if not callable(kernel):
            raise LayoutError(f"Simulation.run: the kernel is a callable kernel(tid, *args), got {kernel!r}")
        self._faults: list[Fault] = []
        self._meetings: dict[Any, _Meeting] = {}
        self._threads = [_Thread(self, t) for t in range(self.num_threads)]
        self._step = 0
        self._done = threading.Event()
        self._kernel, self._args = kernel, args
        os_threads = [threading.Thread(target=self._body, args=(t,), daemon=True) for t in self._threads]
        old = threading.stack_size()
        try:
            threading.stack_size(1 << 20)
        except (ValueError, RuntimeError):       # pragma: no cover - platform without the setting
            pass
        try:
            for th in os_threads:
                th.start()
        finally:
            threading.stack_size(old)
        values = ThreadValues(self._index_name or "", self.num_threads)

        def resolve(expr: Any) -> int:
            me = current()
            if me is None:
                raise LayoutError(f"the offset {expr} is symbolic; substitute values first")
            return int(values.values(expr)[me.acting_tid])

        old = set_offset_resolver(resolve)
        try:
            self._threads[0].go.release()
            if not self._done.wait(_WAIT_S * 10):
                raise LayoutError("simulate: the kernel did not finish (a thread is stuck in Python code)")
            for th in os_threads:
                th.join()
        finally:
            set_offset_resolver(old)
        self._end_step()
        return SimulationReport(self.num_threads, self._step, tuple(self._faults))

    def _body(self, me: _Thread) -> None:
        me.go.acquire()
        set_current(me)
        try:
            self._kernel(me.tid, *self._args)
        except _Abort:
            pass
        except OutOfBoundsError as e:
            self._faults.append(_oob_fault(e, self._step, (me.acting_tid,)))
        except Exception as e:
            tb = sys.exc_info()[2]
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            where = f" (line {tb.tb_lineno} of {tb.tb_frame.f_code.co_name})" if tb is not None else ""
            self._faults.append(Fault("error", "", self._step, (), (me.tid,), 1,
                                      f"{type(e).__name__}: {e}{where}"))
        finally:
            pending = len(me.async_open) + sum(len(g) for g in me.async_groups)
            if pending:
                self._faults.append(Fault("async_pending", "", self._step, (), (me.tid,), pending,
                                          f"{pending} cp.async copies never waited for (cp_async_fence, then "
                                          "cp_async_wait)"))
            set_current(None)
            me.state = "exited"
            self._settle()
            self._switch(me)

    # ------------------------------------------------------------ scheduling
    def _next(self) -> Optional[_Thread]:
        for t in self._threads:
            if t.state == "runnable":
                return t
        return None

    def _switch(self, me: _Thread) -> None:
        """``me`` stops (waiting or exited): the lowest runnable thread runs; with none, a deadlock
        is broken (its meetings fail) or the run is over."""
        nxt = self._next()
        if nxt is None and any(t.state == "waiting" for t in self._threads):
            self._break_deadlock()
            nxt = self._next()
        if nxt is None:
            self._done.set()
            return
        if nxt is me:
            me.state = "running"
            return
        nxt.state = "running"
        nxt.go.release()
        if me.state == "exited":
            return
        if not me.go.acquire(timeout=_WAIT_S):
            raise LayoutError("simulate: a thread waited too long for its turn")
        me.state = "running"

    def _break_deadlock(self) -> None:
        for m in list(self._meetings.values()):
            if not m.done:
                here = sorted(m.payload)
                absent = [m.members[l] for l in range(len(m.members)) if l not in m.payload]
                what = "barrier" if m.key[0] == ("sync",) else f"{m.key[0][0]} instruction"
                self._fail(m, f"threads {absent[:8]} never reached the {what} that threads "
                              f"{[m.members[l] for l in here][:8]} wait at", absent)

    def _fail(self, m: _Meeting, why: str, threads: list[int]) -> None:
        m.done, m.error = True, why
        self._faults.append(Fault("divergence", "", self._step, (), tuple(threads[:6]), len(threads), why))
        for t in m.waiting:
            t.state = "runnable"        # the failed meeting stays: later arrivals leave at once

    def _settle(self) -> None:
        """After a thread exits: a barrier the rest wait at may now be complete; an instruction that
        needs the exited thread cannot be."""
        for m in list(self._meetings.values()):
            if m.done:
                continue
            live = [l for l, t in enumerate(m.members) if self._threads[t].state != "exited" or l in m.payload]
            if m.key[0][0] == "sync":
                m.members = [m.members[l] for l in live]
                m.payload = {live.index(l): p for l, p in m.payload.items()}
                if len(m.payload) == len(m.members):
                    self._complete(m, self._threads[m.members[0]] if m.members else None)
            elif len(live) < len(m.members):
                gone = [t for t in m.members if self._threads[t].state == "exited"]
                self._fail(m, f"threads {gone[:8]} exited before the {m.key[0][0]} instruction their lanes share", gone)

    def _complete(self, m: _Meeting, runner: Optional[_Thread]) -> None:
        lanes = [m.payload.get(l) for l in range(len(m.members))]
        saved = current()
        if runner is not None:
            runner.members = m.members
            set_current(runner)
        try:
            m.fn(lanes)
        except OutOfBoundsError as e:
            m.error = str(e)
            self._faults.append(_oob_fault(e, self._step, (getattr(e, "thread", runner.tid if runner else -1),)))
        except Exception as e:
            m.error = f"{type(e).__name__}: {e}"
            self._faults.append(Fault("error", "", self._step, (), tuple(m.members[:6]), 1, m.error))
        finally:
            if runner is not None:
                runner.members = None
                runner.acting_tid = runner.tid
            set_current(saved)
        m.done = True
        for t in m.waiting:
            t.state = "runnable"
        self._meetings.pop(m.key, None)

    def _arrive(self, me: _Thread, key: Any, members: list[int], lane: int, payload: Any,
                fn: Callable[[list[Any]], None]) -> None:
        seq = me.seq.get(key, 0)
        me.seq[key] = seq + 1
        mkey = (key, seq)
        m = self._meetings.get(mkey)
        if m is None:
            members = [t for t in members if t < self.num_threads]
            if key == ("sync",):
                members = [t.tid for t in self._threads if t.state != "exited"]
            m = _Meeting(mkey, members, fn)
            self._meetings[mkey] = m
        if m.done:
            raise _Abort(m.error or "")
        if key == ("sync",):
            lane = m.members.index(me.tid)
        if lane in m.payload:
            raise LayoutError(f"simulate: lane {lane} arrived twice at {key[0]}")
        m.payload[lane] = payload
        if len(m.payload) == len(m.members):
            self._complete(m, me)
        else:
            me.state = "waiting"
            m.waiting.append(me)
            self._switch(me)
        if m.error is not None:
            raise _Abort(m.error)

    # ------------------------------------------------------------ barriers and lanes
    def _end_step(self) -> None:
        for mem in self.memories:
            self._faults.extend(mem.end_step(self._step))
        self._step += 1

    def _sync(self, me: _Thread) -> None:
        self._arrive(me, ("sync",), [], 0, None, lambda lanes: self._end_step())

    def _mma_lane(self, tid: int, atom: Any, tiled: Optional[TiledMMA]) -> tuple[int, Any, list[int]]:
        if tiled is None:
            from ..layout import size
            n = size(atom.ThrID)
            if atom.ThrID.stride not in (1, (1,)) and n != 1:
                raise LayoutError(f"gemm: the lanes of {atom.name} (ThrID {atom.ThrID}) are known from its "
                                  "TiledMMA: pass the tiled MMA or its thread slice")
            return tid % n, tid // n, [tid - tid % n + l for l in range(n)]
        groups = self._vmnk.get(tiled)
        if groups is None:
            groups = _mma_groups(tiled)
            self._vmnk[tiled] = groups
        where = groups.get(tid)
        if where is None:
            raise LayoutError(f"gemm: thread {tid} is no thread of the tiled MMA (its threads are "
                              f"the values of {tiled.get_thr_layout_vmnk()})")
        return where


def _mma_groups(tiled: TiledMMA) -> dict[int, tuple[int, Any, list[int]]]:
    """thread index -> (lane: its ThrV coordinate, group: its (ThrM,ThrN,ThrK), the group's threads by lane),
    read off ``thr_layout_vmnk`` ((ThrV,ThrM,ThrN,ThrK) -> thread index)."""
    from ..layout import size
    vmnk = tiled.get_thr_layout_vmnk()
    sizes = [int(size(vmnk[i])) for i in range(4)]
    coord: dict[int, tuple[int, tuple[int, int, int]]] = {}
    for i in range(int(size(vmnk))):
        v, r = i % sizes[0], i // sizes[0]
        m, r = r % sizes[1], r // sizes[1]
        n, k = r % sizes[2], r // sizes[2]
        coord[int(vmnk(i))] = (v, (m, n, k))
    members: dict[tuple[int, int, int], list[int]] = {}
    for t, (v, g) in sorted(coord.items(), key=lambda x: x[1][0]):
        members.setdefault(g, []).append(t)
    return {t: (v, g, members[g]) for t, (v, g) in coord.items()}


def _oob_fault(e: OutOfBoundsError, step: int, threads: tuple[int, ...]) -> Fault:
    return Fault("out_of_bounds", e.memory, step, (e.offset,), threads, 1, str(e))


def syncthreads() -> None:
    """``__syncthreads()``: every live thread of the CTA waits here; the step ends.

    @pre called inside :meth:`Simulation.run` (a :class:`LayoutError` outside).
    @post the writes of the step before are visible to every thread (no race across it).

    >>> print(simulate(lambda t: [syncthreads() for _ in range(3)], 64))
    64 threads, 4 steps: no faults
    """
    me = current()
    if not isinstance(me, _Thread):
        raise LayoutError("syncthreads: called outside a simulation (Simulation.run / simulate)")
    me.sim._sync(me)


def cp_async_fence() -> None:
    """CuTe's ``cp_async_fence()`` (``cp.async.commit_group``): the ``cp.async`` copies this thread
    issued since the last fence become one group. Outside a simulation a no-op (copies land at once)."""
    me = current()
    if isinstance(me, _Thread):
        me.async_groups.append(me.async_open)
        me.async_open = []


def cp_async_wait(n: int = 0) -> None:
    """CuTe's ``cp_async_wait<N>()`` (``cp.async.wait_group N``): every committed group of this
    thread but the ``n`` newest lands now (its reads and writes count in this step). Outside a
    simulation a no-op.

    @pre ``n >= 0``.
    @post at most ``n`` committed groups of this thread are still in flight.

    >>> import numpy as np
    >>> from cute_sym.layout import make_layout
    >>> from cute_sym.tensor.atoms.copy_atom import Copy_Atom
    >>> from .algorithms import copy
    >>> atom = Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "half_t")
    >>> sim = Simulation(1)
    >>> g = sim.global_tensor(np.arange(4, dtype=np.float16), make_layout(4))
    >>> s = sim.shared_tensor(make_layout(4), "half_t", name="s")
    >>> def forgot(t):
    ...     copy(atom, g, s); cp_async_fence()
    ...     return float(s[0])                   # read before the group landed
    >>> sorted(f.kind for f in sim.run(forgot).faults)
    ['async_pending', 'uninitialized_read']
    >>> def waited(t):
    ...     copy(atom, g, s); cp_async_fence(); cp_async_wait(0)
    ...     assert float(s[3]) == 3.0
    >>> print(Simulation(1, memories_from=sim).run(waited))
    1 threads, 1 steps: no faults
    """
    if type(n) is not int or n < 0:
        raise LayoutError(f"cp_async_wait: N is a non-negative integer, got {n!r}")
    me = current()
    if not isinstance(me, _Thread):
        return
    keep = len(me.async_groups) - n
    due, me.async_groups = me.async_groups[:max(keep, 0)], me.async_groups[max(keep, 0):]
    for group in due:
        for fn in group:
            fn()


def simulate(kernel: Callable[..., Any], num_threads: Any, *args: Any) -> SimulationReport:
    """Run ``kernel(tid, *args)`` on a CTA of ``num_threads`` threads (``Simulation(num_threads).run``):
    memory the kernel reaches is plain memory, not watched (make it with a :class:`Simulation`'s
    ``shared_tensor``/``global_tensor`` to have races reported).

    >>> seen = []
    >>> simulate(lambda t: seen.append(t), 4).ok, seen
    (True, [0, 1, 2, 3])
    """
    return Simulation(num_threads).run(kernel, *args)
