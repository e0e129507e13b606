"""A warp's access as data: for each thread, the element offsets of its values, in order.

Built from a TV layout ((thr, val) -> index of the tile) over a tensor layout, or from a
``TiledCopy`` over a tensor layout (its ``tidfrg_S``/``tidfrg_D`` partition). A plain
layout or a swizzled one (``Sw<B,M,S> o base o L``) is split into swizzle, base and the
inner layout: offsets are kept inner (possibly symbolic); the case engine
(:mod:`.cases`) adds the base and applies the swizzle to the residues.
"""
from __future__ import annotations

from typing import Optional, Union

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.int_tuple import fmt
from ..core.integers import IntLike
from ..layout import Layout, size
from ..swizzle import ComposedLayout, Swizzle
from ..tensor.copy import TiledCopy
from .hardware import ADDRESS_PERIOD_BYTES, LDMATRIX_ROW_THREADS, ldmatrix_matrices

LayoutLike = Union[Layout, ComposedLayout]
WARP = 32


def split_layout(layout: LayoutLike) -> tuple[Optional[Swizzle], IntLike, Layout]:
    """(swizzle or None, base offset, inner layout) of a plain or swizzled layout.

    @pre ``layout`` is a Layout or a ``ComposedLayout(Swizzle, offset, Layout)``.

    >>> from cute_sym.notation import parse
    >>> split_layout(parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"))[0]
    Swizzle(3, 3, 3)
    """
    if isinstance(layout, Layout):
        return None, 0, layout
    if isinstance(layout, ComposedLayout) and isinstance(layout.layout_a, Swizzle) \
            and isinstance(layout.layout_b, Layout):
        sw = layout.layout_a
        return (None if sw.is_identity() else sw), layout.offset, layout.layout_b
    raise LayoutError(f"expected a layout or a swizzled layout Sw<B,M,S> o offset o layout, got {layout}")


def check_bits(bits: int) -> int:
    if type(bits) is not int or bits < 8 or bits > 128 or bits & (bits - 1):
        raise LayoutError(f"element width must be 8, 16, 32, 64 or 128 bits, got {bits!r}")
    return bits


def period_elems(bits: int, swizzle: Optional[Swizzle]) -> int:
    """Elements whose residues decide banks and sectors (and the swizzle's bits).

    >>> period_elems(16, None), period_elems(16, Swizzle(3, 3, 3)), period_elems(128, None)
    (64, 512, 8)
    """
    p = ADDRESS_PERIOD_BYTES * 8 // bits
    if swizzle is not None:
        p = max(p, 1 << (swizzle.yyy_msk | swizzle.zzz_msk).bit_length())
    return p


class Access:
    """The accesses of one warp: ``offsets[i]`` are thread ``threads[i]``'s element offsets
    (inner, before base and swizzle), value by value; ``chunk`` values make one instruction
    (``None``: to be chosen, the widest vector); ``matrices``: ldmatrix's matrix count.
    """
    __slots__ = ("threads", "offsets", "bits", "chunk", "matrices", "swizzle", "base", "what")

    def __init__(self, threads: tuple[int, ...], offsets: tuple[tuple[IntLike, ...], ...], bits: int,
                 chunk: Optional[int], matrices: Optional[int], swizzle: Optional[Swizzle],
                 base: IntLike, what: str) -> None:
        put = object.__setattr__
        for k, v in (("threads", threads), ("offsets", offsets), ("bits", check_bits(bits)),
                     ("chunk", chunk), ("matrices", matrices), ("swizzle", swizzle), ("base", base),
                     ("what", what)):
            put(self, k, v)

    threads: tuple[int, ...]
    offsets: tuple[tuple[IntLike, ...], ...]
    bits: int
    chunk: Optional[int]
    matrices: Optional[int]
    swizzle: Optional[Swizzle]
    base: IntLike
    what: str

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Access is immutable")

    @property
    def period(self) -> int:
        return period_elems(self.bits, self.swizzle)

    def all_offsets(self) -> list[IntLike]:
        return [o for row in self.offsets for o in row]


def _static(n: IntLike, what: str) -> int:
    if type(n) is not int:
        raise LayoutError(f"{what} must be static, got {n}")
    return n


def _warp_threads(nthr: int, warp: int) -> tuple[int, ...]:
    if type(warp) is not int or warp < 0 or WARP * warp >= max(nthr, 1):
        raise LayoutError(f"warp {warp!r} is not among the {nthr} threads")
    return tuple(range(WARP * warp, min(WARP * (warp + 1), nthr)))


def access_of(src: Union[TiledCopy, Layout], layout: LayoutLike, bits: Optional[int] = None,
              vector_bits: Optional[int] = None, warp: int = 0, side: str = "S") -> Access:
    """The accesses of warp ``warp`` when ``src`` reads (``side="S"``) or writes (``"D"``) ``layout``.

    ``src`` is a ``TiledCopy`` (each instruction moves the atom's values; element width
    from the atom) or a TV layout ``(thr, val) -> index of the tile`` (element width
    ``bits``; ``vector_bits`` per instruction, or ``None`` for the widest possible).

    @pre a TV layout is static, of rank 2; ``layout`` is plain or ``Sw o offset o L``.
    @post ``offsets[i][v]`` is the inner offset of the ``v``-th value of thread ``threads[i]``.
    """
    swizzle, base, inner = split_layout(layout)
    if isinstance(src, TiledCopy):
        part = src.tidfrg_S(layout) if side == "S" else src.tidfrg_D(layout)
        _, _, t = split_layout(part)
        nthr, nv = _static(size(t[0]), "threads"), _static(size(t[1][0]), "atom values")
        nx = _static(size(t[1][1]), "values")
        if type(size(t[2])) is not int:
            raise LayoutError(f"the copy covers {layout} in {fmt(size(t[2]))} tiles of {fmt(src.Tiler_MN)}, a "
                              "symbolic number: analyze one tile (a layout of that shape) or bind the extent")
        nr = _static(size(t[2]), "tiles")
        threads = _warp_threads(nthr, warp)
        offs = tuple(tuple(t((th, (v, x), r)) for r in range(nr) for x in range(nx) for v in range(nv))
                     for th in threads)
        b = src.bits if bits is None else bits
        if b != src.bits:
            raise LayoutError(f"the copy moves {src.bits}-bit elements, not {b}-bit")
        mats = ldmatrix_matrices(src.Traits.name)
        if mats is not None:
            threads, offs = threads[:mats * LDMATRIX_ROW_THREADS], offs[:mats * LDMATRIX_ROW_THREADS]
        return Access(threads, offs, b, nv, mats, swizzle, base, f"{src!r} ({'source' if side == 'S' else 'destination'})")
    if not isinstance(src, Layout) or src.rank() != 2:
        raise LayoutError(f"expected a TiledCopy or a TV layout (thr, val) -> index, got {src}")
    if bits is None:
        raise LayoutError("a TV layout needs the element width (bits=...)")
    check_bits(bits)
    nthr, nv = _static(size(src[0]), "threads"), _static(size(src[1]), "values")
    chunk: Optional[int] = None
    if vector_bits is not None:
        if type(vector_bits) is not int or vector_bits % bits or vector_bits > 128 or nv % (vector_bits // bits):
            raise LayoutError(f"vector of {vector_bits!r} bits: not a whole number of {bits}-bit values "
                              f"dividing the {nv} values of a thread, at most 128 bits")
        chunk = vector_bits // bits
    threads = _warp_threads(nthr, warp)
    offs = tuple(tuple(inner(src(th, v)) for v in range(nv)) for th in threads)
    return Access(threads, offs, bits, chunk, None, swizzle, base, f"TV layout {src}")


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


__all__ = ["Access", "access_of", "split_layout", "period_elems", "check_bits", "WARP", "ceil_div"]
