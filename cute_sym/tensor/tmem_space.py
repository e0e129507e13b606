"""Blackwell tensor memory (TMEM) as a memory space: CuTe's ``tmem_ptr``, ``TMEM::DP`` and
the rule that a warp reaches only its own 32-lane quarter.

TMEM is 128 data-path lanes by 512 columns of 32-bit words. A TMEM address is one
32-bit word: the lane in bits 31:16, the column in bits 15:0. CuTe's ``tmem_ptr<T>``
counts in elements of ``T``: an element offset ``k`` moves the address by ``k`` words
rotated right by ``OffsetShift = log2(32 / sizeof_bits<T>)`` (the sub-word index of a
narrow element rides in the unused high bits), so one lane is ``TMEM::DP<T> =
(1 << 16) << OffsetShift`` elements.

Here a TMEM pointer is a :class:`~cute_sym.tensor.engine.Pointer` of space ``tmem``
whose offset is in elements; its base is either an absolute address
(``make_tmem_ptr("float", 0x00200010)``) or a named column allocation (``make_tmem_ptr("float",
"tmem_base")``: ``tcgen05.alloc`` hands out columns of all 128 lanes, so its lane is 0).

>>> p = make_tmem_ptr("float", "acc")
>>> q = p + 40 * TMEM_DP("float") + 7            # lane 40, column 7
>>> print(q, tmem_lane(q), tmem_column(q))
tmem_ptr[float](acc+2621447) 40 7
>>> tmem_lane(make_tmem_ptr("half_t") + 3 * TMEM_DP("half_t") + 5), TMEM_DP("half_t")
(3, 131072)
"""
from __future__ import annotations

from typing import Any, Union

import math
from typing import TYPE_CHECKING

from ..core.errors import LayoutError, UndecidableError
from ..core.integers import IntLike
from ..layout import Layout
from .atoms.copy_types import sizeof_bits
from .engine import Pointer

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

__all__ = ["TMEM_DP", "TMEM_LANES", "TMEM_COLUMNS", "make_tmem_ptr", "is_tmem", "tmem_lane", "tmem_column",
           "tmem_address", "check_warp_lanes"]

TMEM_LANES = 128
TMEM_COLUMNS = 512


def _shift(dtype: str) -> int:
    """``tmem_ptr<T>::OffsetShift``: log2 of the elements of ``T`` a 32-bit word holds."""
    bits = sizeof_bits(dtype)
    if bits > 32 or 32 % bits or bits & (bits - 1):
        raise LayoutError(f"a TMEM element is 1, 2, 4, 8, 16 or 32 bits wide, got {dtype} of {bits} bits")
    return (32 // bits).bit_length() - 1


def TMEM_DP(dtype: str = "uint32_t") -> int:
    """CuTe's ``TMEM::DP<T>``: the element offset of one TMEM lane for elements of ``dtype``.

    @pre ``dtype`` is at most 32 bits wide and divides a word, else :class:`LayoutError`.
    @post ``TMEM_DP(T) == (1 << 16) * (32 // sizeof_bits(T))``.

    >>> TMEM_DP("float"), TMEM_DP("half_t"), TMEM_DP("int8_t")
    (65536, 131072, 262144)
    """
    return (1 << 16) << _shift(dtype)


def make_tmem_ptr(dtype: str = "uint32_t", addr: Union[int, str] = 0) -> Pointer:
    """CuTe's ``make_tmem_ptr<T>(addr)``: a TMEM pointer to elements of ``dtype``.

    ``addr`` is an absolute TMEM address (lane in bits 31:16, column in bits 15:0) or the
    name of a base address from the allocator (lane 0, as ``tcgen05.alloc`` returns).

    @pre ``dtype`` is a TMEM element type (see :func:`TMEM_DP`); an integer ``addr`` has a
         lane below 128 and a column below 512, else :class:`LayoutError`.
    @post ``tmem_lane(result) == addr >> 16`` and ``tmem_column(result) == addr & 0xFFFF``.

    >>> p = make_tmem_ptr("float", (32 << 16) | 64)
    >>> print(p, tmem_lane(p), tmem_column(p), hex(tmem_address(p)))
    tmem_ptr[float](tmem+2097216) 32 64 0x200040
    """
    shift = _shift(dtype)
    if isinstance(addr, str):
        return Pointer("tmem", addr, dtype, 0)
    if isinstance(addr, bool) or type(addr) is not int:
        raise LayoutError(f"make_tmem_ptr: the address is an int or a base name, got {type(addr).__name__}")
    lane, col = addr >> 16, addr & 0xFFFF
    if addr < 0 or lane >= TMEM_LANES or col >= TMEM_COLUMNS:
        raise LayoutError(f"make_tmem_ptr: TMEM has lanes 0..127 and columns 0..511, got lane {lane} column {col}")
    return Pointer("tmem", "tmem", dtype, (lane * (1 << 16) + col) << shift)


def is_tmem(x: Any) -> bool:
    """Whether ``x`` (a pointer, or a tensor over one) points into TMEM."""
    p = getattr(x, "engine", x)
    return isinstance(p, Pointer) and p.space == "tmem"


def _split(p: Pointer) -> tuple[IntLike, IntLike, int]:
    if not is_tmem(p):
        raise LayoutError(f"expected a TMEM pointer, got {p}")
    dp = TMEM_DP(p.dtype or "uint32_t")
    return p.offset, dp, _shift(p.dtype or "uint32_t")


def tmem_lane(p: Pointer) -> IntLike:
    """The TMEM lane (data path) of the element ``p`` points to: ``offset // TMEM::DP<T>``
    (a formula for a symbolic offset)."""
    off, dp, _ = _split(p)
    return off // dp


def tmem_column(p: Pointer) -> IntLike:
    """The TMEM column (32-bit word) of the element ``p`` points to: ``(offset % DP<T>) >> OffsetShift``."""
    off, dp, shift = _split(p)
    return (off % dp) // (1 << shift)


def tmem_address(p: Pointer) -> IntLike:
    """The word address ``(lane << 16) + column`` of the element ``p`` points to, relative to its base."""
    return tmem_lane(p) * (1 << 16) + tmem_column(p)


def _offsets(layout: Layout) -> list[Any]:
    return [layout(i) for i in range(_static_size(layout))]


_MAX_THREADS = 1024     # a symbolic thread index is checked at each of at most this many values


def check_warp_lanes(tensor: Any, thr_idx: Any, what: str = "partition") -> None:
    """CuTe's ``tcgen05.ld/st`` rule: warp ``w`` reaches only TMEM lanes ``32*(w%4) .. 32*(w%4)+31``.

    ``tensor`` is thread ``thr_idx``'s partition of a TMEM tensor (as ``partition_S/D`` makes
    it). Its base pointer must be a named allocation (lane 0) or an absolute address.

    @pre every element of ``tensor`` lies in lanes ``[32*q, 32*q+32)`` with ``q = (thr_idx//32)%4``,
         and below lane 128; else :class:`LayoutError` naming the thread, its warp and the lane.
    @pre a symbolic ``thr_idx`` (a formula of one ``Dyn`` symbol, which the partition's offset may
         hold too) is checked at each value its symbol may take; a symbol without an upper bound,
         with more than 1024 values, or any other formula raises :class:`UndecidableError` naming
         the missing fact.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> t = make_tensor(make_tmem_ptr("float") + 32 * TMEM_DP("float"), parse("(_4,_8):(_65536,_1)"))
    >>> check_warp_lanes(t, 40)           # warp 1 reaches lanes 32..63
    >>> check_warp_lanes(t, 3)
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: TMEM partition: thread 3 (warp 0) reaches TMEM lane 32, but warp 0 of its warpgroup may reach only lanes 0..31 (tcgen05.ld/st: warp w accesses lanes 32*(w%4)..32*(w%4)+31)
    """
    base, dp, _ = _split(tensor.engine)
    layout = tensor.layout
    if type(thr_idx) is int:
        _check_thread(thr_idx, base, _offsets(layout), dp, what)
        return
    from ..core.decide import bounds
    syms = list(getattr(thr_idx, "free_symbols", ()))
    sym = syms[0] if len(syms) == 1 else None
    divisor = getattr(sym, "divisor", 1) if sym is not None and sym.is_Symbol else None
    if sym is None or divisor is None:
        raise UndecidableError(f"a static thread index (got {thr_idx})",
                               f"TMEM {what}: which warp thread {thr_idx} is in is not static")
    lo_b, hi_b = bounds(sym)
    lo = 0 if lo_b is None else math.ceil(lo_b)
    hi = None if hi_b is None else math.floor(hi_b)
    if hi is None or (hi - lo) // divisor >= _MAX_THREADS:
        raise UndecidableError(f"{sym} <= {lo + divisor * (_MAX_THREADS - 1)}",
                               f"TMEM {what}: thread {thr_idx}'s warp is checked at each value of {sym}, "
                               f"which needs an upper bound (at most {_MAX_THREADS} values)")
    offs: list[Any] = [layout(i) for i in range(_static_size(layout))]
    first = -(-lo // divisor) * divisor
    for v in range(first, hi + 1, divisor):
        at = {sym: sympy.Integer(v)}
        vals: list[Any] = [thr_idx, base] + offs
        got: list[Any] = [x if type(x) is int else x.xreplace(at) for x in vals]
        if not all(type(x) is int or bool(x.is_Integer) for x in got):
            raise UndecidableError(f"a static TMEM partition at {sym} = {v}",
                                   f"TMEM {what}: the lanes of thread {thr_idx} at {sym} = {v} are not static")
        ints = [int(x) for x in got]
        _check_thread(ints[0], ints[1], ints[2:], dp, what)


def _static_size(layout: Layout) -> int:
    n = layout.size()
    if type(n) is not int:
        raise UndecidableError("a static TMEM partition", "the warp's TMEM lanes: the partition's size is not static")
    return n


def _check_thread(thr_idx: int, base: Any, offsets: list[Any], dp: int, what: str) -> None:
    warp = thr_idx // 32
    q = warp % 4
    lo, hi = 32 * q, 32 * q + 32
    lanes = set()
    for off in offsets:
        k = base + off
        if type(k) is not int:
            raise UndecidableError(f"lanes of thread {thr_idx}'s TMEM {what} within {lo}..{hi - 1}",
                                   f"TMEM {what}: the lane of offset {k} is not static")
        lanes.add(k // dp)
    for lane in sorted(lanes):
        if not lo <= lane < hi or lane >= TMEM_LANES:
            raise LayoutError(f"TMEM {what}: thread {thr_idx} (warp {warp}) reaches TMEM lane {lane}, but warp "
                              f"{q} of its warpgroup may reach only lanes {lo}..{hi - 1} (tcgen05.ld/st: warp w "
                              f"accesses lanes 32*(w%4)..32*(w%4)+31)")
