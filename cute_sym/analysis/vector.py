"""Vector width: the widest access each thread makes in one instruction, and why not wider.

A width of ``n`` values is possible when every thread's values ``[j*n, (j+1)*n)`` are
consecutive elements (after the swizzle) starting at a multiple of ``n`` elements
(the tensor's base is taken 128-byte aligned), and ``n * bits <= 128``.

A row-major 64x64 half tile read by 128 threads, 8 consecutive values each:

>>> from cute_sym.notation import parse
>>> tv = parse("((_8,_16),_8):((_512,_1),_64)")   # thread t: row t//8, columns 8*(t%8)..+7
>>> print(vector_width(tv, parse("(_64,_64):(_64,_1)"), 16))
128 bits (8 x 16-bit): 128 bits is the widest access of one thread
>>> print(vector_width(tv, parse("(_64,_64):(_1,_64)"), 16))
16 bits (1 x 16-bit): thread 0: value 1 is 64 elements after value 0, not next to it
"""
from __future__ import annotations

from itertools import chain
from operator import sub
from typing import Any, Optional, Sequence, Union

from ..core.integers import IntLike
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..layout import Layout
from ..tensor.copy import TiledCopy
from .access import Access, LayoutLike, access_of, analyze
from .cases import Cases, Space
from .hardware import MAX_VECTOR_BITS

__all__ = ["vector_width", "VectorWidth", "widest_chunk", "vector_fails", "static_offsets"]


class VectorWidth:
    """``bits`` per thread and instruction (``values`` elements of ``element_bits``) and
    ``reason``: what stops the next wider vector."""
    __slots__ = ("bits", "values", "element_bits", "reason")

    def __init__(self, bits: int, values: int, element_bits: int, reason: str) -> None:
        for k, v in (("bits", bits), ("values", values), ("element_bits", element_bits), ("reason", reason)):
            object.__setattr__(self, k, v)

    bits: int
    values: int
    element_bits: int
    reason: str

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("VectorWidth is immutable")

    def key(self) -> tuple[int, int, int, str]:
        """Everything the answer states (a symbolic answer groups its cases by it)."""
        return (self.bits, self.values, self.element_bits, self.reason)

    def __str__(self) -> str:
        return f"{self.bits} bits ({self.values} x {self.element_bits}-bit): {self.reason}"


def _diff_text(a: IntLike, b: IntLike) -> str:
    return str(b - a)


def _at(acc: Access, off: IntLike) -> str:
    return str(off if type(acc.base) is int and acc.base == 0 else off + acc.base)


def static_offsets(space: Space, acc: Access) -> Optional[Sequence[Sequence[int]]]:
    """Each value's element offset after base and swizzle, in plain integers, for a static
    case (``None`` otherwise): ``q * period + c`` of :meth:`Space.addr`."""
    base = space.base
    if not space.static or acc.syms is not None or type(base) is not int:
        return None
    if space.flat is None:
        if acc.placed is not None:
            space.flat = acc.placed
        else:
            sw = space.swizzled()
            if sw is None:
                space.flat = [[base + o for o in row] for row in acc.keys]
            else:
                msk = space.period - 1
                space.flat = [[x - (x & msk) + sw[x & msk] for x in [base + o for o in row]] for row in acc.keys]
    return space.flat


def _static_ok(flat: Sequence[Sequence[int]], n: int) -> bool:
    """Whether every chunk of ``n`` values is ``n`` consecutive elements from a multiple of ``n``.

    In C-level passes over the values of all threads at once (rows are whole chunks): the
    chunks' first values are multiples of ``n``, and value ``k`` of every chunk is the first
    plus ``k``.
    """
    if n == 1:
        return True
    if any(len(row) % n for row in flat):
        return False
    every = list(chain.from_iterable(flat))
    first = every[0::n]
    if any(map(n.__rmod__, first)):          # x % n for each first value
        return False
    for k in range(1, n):
        if any(map(k.__ne__, map(sub, every[k::n], first))):
            return False
    return True


def _rows_ok(rows: Any, n: int) -> bool:
    """:func:`_static_ok` over ``(q, c)`` pairs: each chunk one high part (the very same), residues
    ``c0 .. c0+n-1`` from a multiple of ``n``."""
    for i in range(len(rows)):
        row = rows[i]
        for j in range(0, len(row), n):
            q0, c0 = row[j]
            if c0 % n:
                return False
            for k in range(1, n):
                q, c = row[j + k]
                if c != c0 + k or q != q0:
                    return False
    return True


def vector_fails(space: Space, acc: Access, n: int) -> Optional[str]:
    """Why chunks of ``n`` values are no vectors (``None``: they are)."""
    flat = static_offsets(space, acc)
    if flat is not None and _static_ok(flat, n):
        return None
    start = 0
    if flat is None and space.keyed is not None:
        rows = space.rows(acc.columns())
        bad = rows.first_bad(n)
        if bad is None:
            if _rows_ok(rows, n):
                return None
        elif bad < 0:
            return None
        else:
            start = bad          # the runs before it are vectors: the pair by pair walk starts there
    width = len(acc.keys[0]) if start else 1
    for i in range(start // width, min(len(acc.threads), len(acc.keys))):
        why = _thread_fails(space, acc, i, n, start % width if i == start // width else 0)
        if why is not None:
            return why
    return None


def _thread_fails(space: Space, acc: Access, i: int, n: int, j0: int) -> Optional[str]:
    """Why a chunk of ``n`` values of thread ``acc.threads[i]``, from value ``j0`` on, is no
    vector (``None``: none fails): its chunks in order, value by value, high parts compared by
    :meth:`Space.same` (which may raise :class:`Undecided`)."""
    addr, same = space.addr, space.same
    t, offs = acc.threads[i], acc.keys[i]
    for j in range(j0, len(offs), n):
        q0, c0 = addr(offs[j])
        if c0 % n:
            return (f"thread {t}: value {j} (element offset {_at(acc, acc.expr(offs[j]))}) "
                    f"is not {n * acc.bits // 8}-byte aligned")
        for k in range(1, n):
            q, c = addr(offs[j + k])
            if c != c0 + k or not (q == q0 or same(q, q0)):
                if space.swizzle is None:
                    return (f"thread {t}: value {j + k} is "
                            f"{_diff_text(acc.expr(offs[j + k - 1]), acc.expr(offs[j + k]))} elements "
                            f"after value {j + k - 1}, not next to it")
                return (f"thread {t}: value {j + k} is not next to value {j + k - 1} "
                        f"after the swizzle {space.swizzle}")
    return None


def widest_chunk(space: Space, acc: Access) -> tuple[int, str]:
    """(values per instruction, why not twice as many) for one case."""
    nv = len(acc.keys[0]) if acc.keys else 1
    n = 1
    while True:
        m = 2 * n
        if m * acc.bits > MAX_VECTOR_BITS:
            return n, f"{MAX_VECTOR_BITS} bits is the widest access of one thread"
        if nv % m:
            return n, f"each thread holds {nv} value(s)"
        why = vector_fails(space, acc, m)
        if why is not None:
            return n, why
        n = m


def vector_width(access: Union[TiledCopy, Layout], layout: LayoutLike, bits: Optional[int] = None,
                 warp: int = 0, side: str = "S") -> Union[VectorWidth, Cases[VectorWidth]]:
    """The widest vector (bits) every thread of warp ``warp`` can use for its values of ``layout``.

    ``access``: a TV layout ``(thr, val) -> index of the tile`` with ``bits``, or a ``TiledCopy``
    (all of a thread's values in (atom values, repeats, tiles) order).

    @pre element width 8..128 bits (a power of two); the tensor's base is 128-byte aligned.
    @post ``bits == values * element_bits <= 128``; for every thread and every ``j``, its values
          ``j*values .. j*values+values-1`` are consecutive elements, the first a multiple of ``values``;
          twice ``values`` is not (``reason`` names the first thread and value that fails, or the limit).
    @post symbolic: a :class:`Cases` by the residues of the symbols.
    """
    acc = access_of(access, layout, bits, None, warp, side)

    def run(space: Space, acc: Access) -> VectorWidth:
        n, why = widest_chunk(space, acc)
        return VectorWidth(n * acc.bits, n, acc.bits, why)
    return analyze(acc, run, VectorWidth.key)
