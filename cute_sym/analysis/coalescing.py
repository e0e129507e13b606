"""Coalescing of a warp's global loads: 32-byte sectors per request against the least.

128 threads read a row-major 64x64 half tile, 8 consecutive halves (128 bits) each:
every request of a warp (4 rows of 128 bytes) touches the 16 sectors it must.

>>> from cute_sym.notation import parse
>>> tv = parse("((_8,_16),_8):((_512,_1),_64)")   # thread t: row t//8, columns 8*(t%8)..+7
>>> print(coalescing(tv, parse("(_64,_64):(_64,_1)"), 16))
coalesced: 16 sectors in 1 request(s), least 16 (100% of the bytes fetched are used), 128-bit vectors
>>> print(coalescing(tv, parse("(_64,_64):(_1,_64)"), 16))
64 sectors in 8 request(s), least 16 (25% of the bytes fetched are used), 16-bit vectors

With a symbolic leading dimension, by cases of its residue (rows of 128 bytes that start
halfway into a sector straddle two):

>>> from cute_sym.core.integers import Dyn
>>> from cute_sym.layout import make_layout
>>> print(coalescing(tv, make_layout((64, 64), (Dyn("N", min=64, divisible_by=8), 1)), 16))
coalesced: 16 sectors in 1 request(s), least 16 (100% of the bytes fetched are used), 128-bit vectors if N % 16 == 0
18 sectors in 1 request(s), least 16 (89% of the bytes fetched are used), 128-bit vectors if N % 16 == 8
"""
from __future__ import annotations

from typing import Any, Optional, Union

from ..core.integers import IntLike
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..layout import Layout
from ..tensor.copy import TiledCopy
from .access import Access, LayoutLike, access_of, analyze, ceil_div
from .cases import Cases, Invalid, Space
from .hardware import GMEM_SECTOR_BYTES
from .vector import static_offsets, vector_fails, widest_chunk

__all__ = ["coalescing", "Coalescing"]


class Coalescing:
    """``sectors`` touched by the warp's ``requests`` (one a load instruction), the least
    number ``min_sectors`` that holds the bytes asked for, ``efficiency`` = bytes asked for
    / bytes of the sectors touched, and ``per_request`` sector counts."""
    __slots__ = ("sectors", "requests", "min_sectors", "useful_bytes", "vector_bits", "per_request")

    def __init__(self, sectors: int, requests: int, min_sectors: int, useful_bytes: int,
                 vector_bits: int, per_request: tuple[int, ...]) -> None:
        for k, v in (("sectors", sectors), ("requests", requests), ("min_sectors", min_sectors),
                     ("useful_bytes", useful_bytes), ("vector_bits", vector_bits), ("per_request", per_request)):
            object.__setattr__(self, k, v)

    sectors: int
    requests: int
    min_sectors: int
    useful_bytes: int
    vector_bits: int
    per_request: tuple[int, ...]

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Coalescing is immutable")

    @property
    def efficiency(self) -> float:
        return self.useful_bytes / (GMEM_SECTOR_BYTES * self.sectors) if self.sectors else 1.0

    def key(self) -> tuple[int, int, int, int, int, tuple[int, ...]]:
        """Everything the answer states (a symbolic answer groups its cases by it)."""
        return (self.sectors, self.requests, self.min_sectors, self.useful_bytes, self.vector_bits,
                self.per_request)

    def __str__(self) -> str:
        head = "coalesced: " if self.sectors == self.min_sectors else ""
        return (f"{head}{self.sectors} sectors in {self.requests} request(s), least {self.min_sectors} "
                f"({round(100 * self.efficiency)}% of the bytes fetched are used), {self.vector_bits}-bit vectors")


def _distinct(space: Space, seen: dict[int, list[Any]], q: Any, c: int) -> bool:
    """Record address ``(q, c)`` unless it is one already seen (compared as element by element:
    only against those of residue ``c``, in the order they came)."""
    hold = seen.get(c)
    if hold is None:
        seen[c] = [q]
        return True
    for q2 in hold:
        if q == q2 or space.same(q, q2):
            return False
    hold.append(q)
    return True


def _count(space: Space, acc: Access, chunk: int) -> Coalescing:
    why = vector_fails(space, acc, chunk) if chunk > 1 else None
    if why is not None:
        raise Invalid(f"{chunk * acc.bits}-bit vectors: {why}")
    nbytes = acc.bits // 8
    ninstr = len(acc.keys[0]) // chunk if acc.keys else 0
    flat = static_offsets(space, acc)
    rows = space.rows(acc.columns()) if flat is None and space.keyed is not None else None
    # steady runs that passed vector_fails: each chunk is one high part (equal tuples), aligned
    runs = rows is not None and chunk & (chunk - 1) == 0 and acc.columns().steady(chunk)
    per: list[int] = []
    total = least = useful = 0
    for j in range(ninstr):
        lo, hi = j * chunk, (j + 1) * chunk
        if flat is not None:
            got = {a for row in flat for a in row[lo:hi]}
            nelems, nsec = len(got), len({a * nbytes // GMEM_SECTOR_BYTES for a in got})
        elif runs and rows is not None:
            nelems, nsec = _keyed_instr(space, acc, rows, j, chunk)
        else:
            elems: dict[int, list[Any]] = {}
            sectors: dict[int, list[Any]] = {}
            order: list[tuple[Any, int]] = []
            for keys in acc.keys:
                for k in keys[lo:hi]:
                    q, c = space.addr(k)
                    if _distinct(space, elems, q, c):
                        order.append((q, c))
            nelems = len(order)
            nsec = sum(_distinct(space, sectors, q, c * nbytes // GMEM_SECTOR_BYTES) for q, c in order)
        per.append(nsec)
        total += nsec
        useful += nelems * nbytes
        least += ceil_div(nelems * nbytes, GMEM_SECTOR_BYTES)
    return Coalescing(total, ninstr, least, useful, chunk * acc.bits, tuple(per))


def _firsts(space: Space, high: list[Any], at: list[int], where: list[int]) -> list[int]:
    """The positions (into ``where``) of the distinct addresses among the chunks ``where``
    (their high parts ``high[i]``, their classes ``at``, one a chunk): as :func:`_distinct`
    over their first values, in order (equal tuples are one address; else :meth:`Space.same`
    against those held of the same class, in the order they came)."""
    if len(set(at)) == len(at):
        return list(range(len(at)))
    out: list[int] = []
    held: dict[int, list[Any]] = {}
    same = space.same
    for k, (i, a) in enumerate(zip(where, at)):
        q = high[i]
        hold = held.setdefault(a, [])
        if q in hold or any(same(q, q2) for q2 in hold):
            continue
        hold.append(q)
        out.append(k)
    return out


def _keyed_instr(space: Space, acc: Access, rows: Any, j: int, chunk: int) -> tuple[int, int]:
    """(distinct elements, distinct sectors) of instruction ``j``, counted per vector: each
    thread's chunk is one high part ``q`` and residues ``c0 .. c0+chunk-1`` from a multiple of
    ``chunk`` (a power of two: ``rows.cols.steady(chunk)`` and :func:`vector_fails` passed), so
    two chunks share elements only when their ``c0`` are equal, and a chunk lies in the one
    sector ``c0 * bytes // 32``. Element by element, :func:`_distinct` asks the same questions
    of the chunks' first values (the others' repeat them), so they are asked here alone.

    @post as the element-by-element count of :func:`_count`.
    """
    nb = acc.bits // 8
    nch = rows.cols.width // chunk
    cs = rows.residues(chunk)[j::nch]                     # c0 of each thread's chunk j
    threads = list(range(len(cs)))
    elems = _firsts(space, rows.highs(chunk)[j::nch], cs, threads) if len(set(cs)) != len(cs) else threads
    sec = [cs[k] * nb // GMEM_SECTOR_BYTES for k in elems]
    if len(set(sec)) == len(sec):
        return len(elems) * chunk, len(sec)
    return len(elems) * chunk, len(_firsts(space, rows.highs(chunk)[j::nch], sec, elems))


def coalescing(access: Union[TiledCopy, Layout], layout: LayoutLike, bits: Optional[int] = None,
               vector_bits: Optional[int] = None, warp: int = 0,
               side: str = "S") -> Union[Coalescing, Cases[Coalescing]]:
    """The 32-byte sectors warp ``warp``'s loads of the global tensor ``layout`` touch.

    ``access``: a ``TiledCopy`` (one request per atom call) or a TV layout with ``bits`` and
    ``vector_bits`` (default: the widest vector, :func:`vector_width`). The tensor's base is
    taken 128-byte aligned (as ``cudaMalloc`` gives).

    @pre element width 8..128 bits (a power of two); every vector is aligned and contiguous
         (else :class:`LayoutError`, or a case with no legal access).
    @post ``sectors`` = sum over requests of the distinct 32-byte sectors of the bytes read;
          ``min_sectors`` = sum of ``ceil(distinct bytes / 32)``; ``sectors >= min_sectors``.
    """
    acc = access_of(access, layout, bits, vector_bits, warp, side)

    def run(space: Space, acc: Access) -> Coalescing:
        chunk = acc.chunk if acc.chunk is not None else widest_chunk(space, acc)[0]
        return _count(space, acc, chunk)
    return analyze(acc, run, Coalescing.key)
