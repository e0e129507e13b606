"""CuTe's makers of tiled copies (``cute/atom/copy_atom.hpp``): from thread and value layouts
(``make_tiled_copy``), from a tiled MMA's operands (``make_tiled_copy_A/B/C``, ``_C_atom``), from
another tiled copy (``make_tiled_copy_S/D``), from a data layout (``make_cotiled_copy``).

>>> from cute_sym.notation import parse
>>> tc = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_32,_4):(_1,_32)"), parse("(_8,_1)"))
>>> print(tc.Tiler_MN, tc.TiledLayout_TV)
(_256,_4) (_128,_8):(_8,_1)
"""
from __future__ import annotations

from typing import Any, Union

from ..core.errors import InjectivityError, LayoutError
from ..core.int_tuple import IntTuple, product_each, unwrap
from ..core.integers import IntLike
from ..layout import Layout, make_layout, size
from ..swizzle import coalesce, composition, filter, left_inverse, raked_product, right_inverse
from .atoms.copy_atom import Copy_Atom
from .copy import TiledCopy, _compose, _plain
from .mma import TiledMMA

__all__ = ["make_tiled_copy", "make_tiled_copy_impl", "make_tiled_copy_A", "make_tiled_copy_B",
           "make_tiled_copy_C", "make_tiled_copy_C_atom", "make_tiled_copy_S", "make_tiled_copy_D",
           "make_cotiled_copy", "tile_size"]


def _as_layout(x: Any, what: str) -> Layout:
    """A layout, or the compact column-major layout of a shape (``make_layout(shape)``)."""
    if isinstance(x, Layout):
        return x
    try:
        return make_layout(unwrap(x))
    except (TypeError, ValueError) as e:
        raise LayoutError(f"{what}: expected a Layout or a shape, got {x!r}") from e


def tile_size(tiled_copy: TiledCopy, *modes: int) -> IntLike:
    """``tile_size<I...>(tiled_copy)``: the size of the tile ``Tiler_MN`` (or of its modes)."""
    t: Any = tiled_copy._tiler
    for m in modes:
        t = t[m]
    return size(t)


def make_tiled_copy_impl(atom: Copy_Atom, layout_tv: Layout, tiler: Any) -> TiledCopy:
    """``TiledCopy`` of ``atom`` with TV layout ``layout_tv`` over the tile ``tiler``."""
    return TiledCopy(atom, layout_tv, tiler)


def make_tiled_copy(copy_atom: Copy_Atom, thr_layout: Union[Layout, IntTuple],
                    val_layout: Union[Layout, IntTuple] = 1) -> TiledCopy:
    """Tile ``copy_atom`` with the thread layout ``thr_layout`` ((m,n) -> thr_idx) and value
    layout ``val_layout`` ((m,n) -> val_idx); a shape stands for its compact column-major layout.

    ``layout_mn = raked_product(thr_layout, val_layout)``;
    ``TiledLayout_TV = right_inverse(layout_mn).with_shape((size(thr_layout), size(val_layout)))``;
    ``Tiler_MN = product_each(shape(layout_mn))``.

    @pre ``thr_layout``, ``val_layout`` static and injective (else :class:`InjectivityError`);
         ``layout_mn`` a bijection onto its domain.
    @post ``layout_mn(TiledLayout_TV(t, v)) == t + v * size(thr_layout)``.

    >>> from cute_sym.notation import parse
    >>> tc = make_tiled_copy(Copy_Atom("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t"), parse("(_8,_16):(_16,_1)"), parse("(_1,_8)"))
    >>> print(tc.Tiler_MN, tc.TiledLayout_TV)
    (_8,_128) ((_16,_8),_8):((_64,_1),_8)
    """
    thr = _as_layout(thr_layout, "make_tiled_copy (thr_layout)")
    val = _as_layout(val_layout, "make_tiled_copy (val_layout)")
    if not (thr.is_static() and val.is_static()):
        raise LayoutError("make_tiled_copy: thr_layout and val_layout must be static")
    for what, lay in (("thr_layout", thr), ("val_layout", val)):
        n = int(size(lay))
        seen: dict[int, int] = {}
        for i in range(n):      # (m,n) -> thread (value) index: one coordinate an index
            j = int(lay(i))
            if j in seen:
                raise InjectivityError(f"make_tiled_copy: the {what} {lay} is not injective: coordinates "
                                       f"{seen[j]} and {i} are both index {j} (each (m,n) needs its own)")
            seen[j] = i
    layout_mn = raked_product(thr, val)
    layout_tv = _compose(right_inverse(layout_mn), make_layout((size(thr), size(val))))
    tiler = product_each(layout_mn.shape)
    return make_tiled_copy_impl(copy_atom, layout_tv, tiler)


def _tile_size_mnk(mma: TiledMMA, i: int) -> IntLike:
    if not isinstance(mma, TiledMMA):
        raise LayoutError(f"expected a TiledMMA, got {type(mma).__name__}")
    return mma.tile_size_mnk(i)


def make_tiled_copy_A(copy_atom: Copy_Atom, mma: TiledMMA) -> TiledCopy:
    """The ``TiledCopy`` that moves ``mma``'s A fragments: ``(get_layoutA_TV(), (M, K))``."""
    return make_tiled_copy_impl(copy_atom, mma.get_layoutA_TV(), (_tile_size_mnk(mma, 0), _tile_size_mnk(mma, 2)))


def make_tiled_copy_B(copy_atom: Copy_Atom, mma: TiledMMA) -> TiledCopy:
    """The ``TiledCopy`` that moves ``mma``'s B fragments: ``(get_layoutB_TV(), (N, K))``."""
    return make_tiled_copy_impl(copy_atom, mma.get_layoutB_TV(), (_tile_size_mnk(mma, 1), _tile_size_mnk(mma, 2)))


def make_tiled_copy_C(copy_atom: Copy_Atom, mma: TiledMMA) -> TiledCopy:
    """The ``TiledCopy`` that moves ``mma``'s C fragments: ``(get_layoutC_TV(), (M, N))``."""
    return make_tiled_copy_impl(copy_atom, mma.get_layoutC_TV(), (_tile_size_mnk(mma, 0), _tile_size_mnk(mma, 1)))


def make_tiled_copy_S(copy_atom: Copy_Atom, tiled_copy: TiledCopy) -> TiledCopy:
    """``copy_atom`` tiled as the source side of ``tiled_copy``."""
    return make_tiled_copy_impl(copy_atom, tiled_copy.get_layoutS_TV(), tiled_copy._tiler)


def make_tiled_copy_D(copy_atom: Copy_Atom, tiled_copy: TiledCopy) -> TiledCopy:
    """``copy_atom`` tiled as the destination side of ``tiled_copy``."""
    return make_tiled_copy_impl(copy_atom, tiled_copy.get_layoutD_TV(), tiled_copy._tiler)


def _mode_tiler(shape: IntTuple, layout_tv: Layout) -> tuple[Layout, ...]:
    """The by-mode tiler of the elements ``layout_tv`` reaches in a tensor of ``shape``: for each
    mode ``i``, ``filter(composition(make_layout(shape, e_i), layout_tv))`` (``e_i``: 1 in mode ``i``)."""
    modes = shape if type(shape) is tuple else (shape,)
    out = []
    for i in range(len(modes)):
        proj = make_layout(tuple(modes), tuple(1 if j == i else 0 for j in range(len(modes))))
        out.append(_plain(filter(composition(proj, layout_tv))))
    return tuple(out)


def _retiled(copy_atom: Copy_Atom, layout_tv_data: Layout, data_shape: IntTuple) -> TiledCopy:
    """``(tid,vid) -> data coord`` as a tiled copy over the by-mode tiler of the elements it reaches."""
    tiler = _mode_tiler(data_shape, layout_tv_data)
    tile2data = _compose(make_layout(data_shape), tiler)           # tile coord -> data coord
    layout_tv = _compose(_plain(left_inverse(tile2data)), layout_tv_data)
    return make_tiled_copy_impl(copy_atom, layout_tv, tiler)


def make_tiled_copy_C_atom(copy_atom: Copy_Atom, mma: TiledMMA) -> TiledCopy:
    """The smallest tiled copy that retiles ``mma``'s C layout (for epilogues storing subtiles):
    each thread's first ``NumValSrc`` C values, over the tiler of the elements they reach.

    @pre ``copy_atom.NumValSrc <= size<1>(mma.get_layoutC_TV())``.
    @post ``Tiler_MN`` is a by-mode tiler of layouts; the TV layout keeps the C value order.

    >>> from .mma import make_tiled_mma
    >>> mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1))
    >>> tc = make_tiled_copy_C_atom(Copy_Atom("SM90_U32x2_STSM_N", "half_t"), mma)
    >>> print(tc.Tiler_MN)
    ((_8,_2,_2):(_1,_16,_8),(_8,_2):(_2,_1))
    >>> print(tc.TiledLayout_TV)
    ((_4,_8,_2,_2),(_2,_2)):((_32,_1,_8,_128),(_256,_16))
    """
    layout_c = mma.get_layoutC_TV()
    copy_v = copy_atom.NumValSrc
    if copy_v > size(layout_c[1]):
        raise LayoutError(f"make_tiled_copy_C_atom: the atom moves {copy_v} values, "
                          f"more than the {size(layout_c[1])} C values of a thread")
    layout_tv = _compose(layout_c, make_layout((size(layout_c[0]), copy_v)))
    return _retiled(copy_atom, layout_tv, (_tile_size_mnk(mma, 0), _tile_size_mnk(mma, 1)))


def make_cotiled_copy(copy_atom: Copy_Atom, atom_tv_layout: Layout, data_layout: Layout) -> TiledCopy:
    """A tiled copy from thread/value offsets: ``atom_tv_layout`` ((tid,vid) -> data address) over the
    data ``data_layout`` (coord -> data address).

    @pre both layouts static; every address ``atom_tv_layout`` reaches is one ``data_layout`` holds
         ("The memory pointed to by AtomTVLayout does not exist in the DataLayout").

    >>> from cute_sym.notation import parse
    >>> tc = make_cotiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"),
    ...                        parse("(_32,_8):(_8,_1)"), parse("(_16,_16):(_1,_16)"))
    >>> print(tc.Tiler_MN, tc.TiledLayout_TV)
    ((_2,_8):(_8,_1),_16:_1) ((_2,_16),_8):((_1,_16),_2)
    """
    if not (atom_tv_layout.is_static() and data_layout.is_static()):
        raise LayoutError("make_cotiled_copy: the layouts must be static")
    # data addr -> data coord, with 1:0 appended so that addresses past the end take stride 0
    inv_data_layout = make_layout(_plain(left_inverse(data_layout)), make_layout(1, 0))
    layout_tv_data = _compose(inv_data_layout, atom_tv_layout)   # (tid,vid) -> data coord
    back = coalesce(composition(make_layout(data_layout, make_layout(1, 0)), layout_tv_data[1]))
    if back != coalesce(atom_tv_layout[1]):
        raise LayoutError("make_cotiled_copy: The memory pointed to by AtomTVLayout does not exist in the DataLayout.")
    return _retiled(copy_atom, layout_tv_data, product_each(data_layout.shape))
