"""Does a tiled copy fill (or drain) a tiled MMA's fragments? ``check_copy_mma``.

The SM80 GEMM's ldmatrix copy built for its MMA fits the A fragment; the same copy
does not fit B, nor a copy built for an MMA of other threads:

>>> from cute_sym import make_tiled_mma
>>> from cute_sym import make_tiled_copy, make_tiled_copy_A
>>> from cute_sym import Copy_Atom
>>> from cute_sym.notation import parse
>>> mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
>>> ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
>>> print(check_copy_mma(ldsm, mma, "A"))
fits: the copy's destination gives each of 128 threads the 8 elements of its A fragment (retile: 1 atom call(s) of 8 values)
>>> print(check_copy_mma(ldsm, mma, "B"))
does not fit B: thread 0 receives tile elements [(0, 0), (0, 1), (0, 8), (0, 9), (8, 0), (8, 1), (8, 8), (8, 9)], its B fragment holds [(0, 0), (0, 1), (0, 8), (0, 9), (16, 0), (16, 1), (16, 8), (16, 9)]
>>> u128 = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_32,_4):(_1,_32)"), parse("(_1,_8)"))
>>> print(check_copy_mma(u128, mma, "A"))
does not fit A: the copy tiles 32x32 elements, the MMA's A tile is 32x16
"""
from __future__ import annotations

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.int_tuple import product, unwrap
from ..layout import Layout, make_layout, size
from ..tensor.atoms.copy_types import sizeof_bits
from ..tensor.copy import TiledCopy
from ..tensor.mma import TiledMMA

__all__ = ["check_copy_mma", "CopyMMACheck"]

_MODES = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}


class CopyMMACheck:
    """``ok`` and, when not, ``mismatch``: the first difference, in words."""
    __slots__ = ("ok", "operand", "mismatch", "detail")

    def __init__(self, ok: bool, operand: str, mismatch: str, detail: str) -> None:
        for k, v in (("ok", ok), ("operand", operand), ("mismatch", mismatch), ("detail", detail)):
            object.__setattr__(self, k, v)

    ok: bool
    operand: str
    mismatch: str
    detail: str

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CopyMMACheck is immutable")

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return f"fits: {self.detail}" if self.ok else f"does not fit {self.operand}: {self.mismatch}"


def _tv(mma: TiledMMA, operand: str) -> Layout:
    got: Layout = getattr(mma, f"get_layout{operand}_TV")()
    return got


def _coord(i: int, shape: tuple[int, int]) -> tuple[int, int]:
    return (i % shape[0], i // shape[0])


def check_copy_mma(tiled_copy: TiledCopy, tiled_mma: TiledMMA, operand: str,
                   side: str = "D") -> CopyMMACheck:
    """Whether ``tiled_copy``'s register side (``side="D"``: the destination, as for
    shared -> registers; ``"S"`` for registers -> shared) is ``tiled_mma``'s fragment of ``operand``.

    Checked in order: element widths, thread counts, the tile (M x K for A, N x K for B,
    M x N for C), then for every thread the tile elements it holds (the copy's
    ``get_layoutD_TV`` against the MMA's ``get_layout{A,B,C}_TV``), then ``retile``.

    @pre ``operand`` is "A", "B" or "C"; ``side`` is "S" or "D" (else :class:`LayoutError`).
    @post ``ok`` iff every thread's copy values are exactly its fragment's elements and the
          fragment retiles into whole atom calls; else ``mismatch`` names the first difference.
    """
    if operand not in _MODES:
        raise LayoutError(f"check_copy_mma: operand must be 'A', 'B' or 'C', got {operand!r}")
    if side not in ("S", "D"):
        raise LayoutError(f"check_copy_mma: side must be 'S' or 'D', got {side!r}")
    if not isinstance(tiled_copy, TiledCopy) or not isinstance(tiled_mma, TiledMMA):
        raise LayoutError("check_copy_mma: expected a TiledCopy and a TiledMMA")

    def no(why: str) -> CopyMMACheck:
        return CopyMMACheck(False, operand, why, "")
    mma_bits = sizeof_bits(getattr(tiled_mma.atom, f"ValType{operand}"))
    if tiled_copy.bits != mma_bits:
        return no(f"the copy moves {tiled_copy.bits}-bit elements, the MMA's {operand} is {mma_bits}-bit")
    nthr = int(tiled_mma.thr_size())
    if tiled_copy.TiledNumThr != nthr:
        return no(f"the copy has {tiled_copy.TiledNumThr} threads, the MMA {nthr}")
    i, j = _MODES[operand]
    want = (int(tiled_mma.tile_size_mnk(i)), int(tiled_mma.tile_size_mnk(j)))
    tshape = tiled_copy._tiler_shape()
    got = tuple(int(product(unwrap(s))) for s in tshape) if isinstance(tshape, tuple) else (int(product(tshape)),)
    if got != want:
        return no(f"the copy tiles {'x'.join(map(str, got))} elements, "
                  f"the MMA's {operand} tile is {want[0]}x{want[1]}")
    copy_tv = tiled_copy.get_layoutD_TV() if side == "D" else tiled_copy.get_layoutS_TV()
    mma_tv = _tv(tiled_mma, operand)
    nv_copy, nv_mma = size(copy_tv[1]), size(mma_tv[1])
    if nv_copy != nv_mma:
        return no(f"each thread gets {nv_copy} values from the copy, its {operand} fragment has {nv_mma}")
    shape = (int(want[0]), int(want[1]))
    for t in range(nthr):
        a = sorted(_coord(int(copy_tv(t, v)), shape) for v in range(nv_copy))
        b = sorted(_coord(int(mma_tv(t, v)), shape) for v in range(nv_mma))
        if a != b:
            return no(f"thread {t} receives tile elements {a}, its {operand} fragment holds {b}")
    try:
        tiled_copy.retile(make_layout((nv_mma, 1, 1)))
    except LayoutError as e:
        return no(f"the fragment does not retile into the copy's atoms: {e}")
    if nv_mma % tiled_copy.AtomNumVal:
        return no(f"{nv_mma} values per thread are no whole number of the atom's {tiled_copy.AtomNumVal}")
    side_name = "destination" if side == "D" else "source"
    return CopyMMACheck(True, operand, "", (
        f"the copy's {side_name} gives each of {nthr} threads the {nv_mma} elements of its {operand} fragment "
        f"(retile: {nv_mma // tiled_copy.AtomNumVal} atom call(s) of {tiled_copy.AtomNumVal} values)"))

