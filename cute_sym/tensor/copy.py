"""CuTe's ``TiledCopy`` and ``ThrCopy`` (``cute/atom/copy_atom.hpp``): a copy atom tiled over
threads and values, and one thread's share of a tensor. The makers are in :mod:`.copy_make`.

A ``TiledCopy`` holds ``TiledLayout_TV`` ((tid, vid) -> coordinate of the ``Tiler_MN`` tile,
in the atom's *reference* (thr, val) order) and maps it to the source or destination
(thr, val) order of the atom on demand (``get_layoutS_TV``, ``tidfrg_S``, ...).

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.copy_make import make_tiled_copy
>>> tc = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_32,_4):(_1,_32)"), parse("(_8,_1)"))
>>> print(tc.Tiler_MN, tc.get_layoutS_TV())
(_256,_4) (_128,(_8,_1)):(_8,(_1,_0))
"""
from __future__ import annotations

from typing import Any, Union

from ..core.errors import LayoutError, RankError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.int_tuple import IntTuple, _, product_each, unwrap, wrap
from ..core.integers import IntLike
from ..swizzle import (
    ComposedLayout, coalesce, composition, logical_product, right_inverse, upcast, zip_layouts, zipped_divide,
)
from ..layout import Layout, make_layout, size, slice_, slice_and_offset
from . import ops as _ops
from .basis_layout import is_basis_layout
from .atoms.copy_atom import Copy_Atom
from .tensor import Tensor
from .thread_index import index_formula, thread_index_arg
from .tmem_space import check_warp_lanes, is_tmem

LayoutLike = Union[Layout, ComposedLayout]

__all__ = ["TiledCopy", "ThrCopy"]


def _static_int(x: IntLike, what: str) -> int:
    if type(x) is not int:
        raise LayoutError(f"{what} must be static, got {x}")
    return x


def _plain(r: Any) -> Layout:
    """The algebra over plain layouts gives plain layouts (the TV maps are never swizzled)."""
    if not isinstance(r, Layout):
        raise LayoutError(f"expected a plain layout, got {r}")
    return r


def _compose(a: Layout, b: Any) -> Layout:
    return _plain(composition(a, b))


def _slice_and_offset(coord: Any, layout: LayoutLike) -> tuple[LayoutLike, IntLike]:
    """CuTe's ``slice_and_offset``: a composed layout keeps the offset inside (its pointer offset is 0)."""
    if isinstance(layout, ComposedLayout):
        return layout(coord), 0
    return slice_and_offset(coord, layout)


def _unfold(layout: LayoutLike) -> LayoutLike:
    """``layout(make_coord(_,_), _)``: the two sub-modes of mode 0 become modes 0 and 1."""
    return _slice_and_offset(((_, _), _), layout)[0]


class TiledCopy(Copy_Atom):
    """``TiledCopy<Copy_Atom, LayoutCopy_TV, ShapeTiler_MN>``: ``atom`` tiled by ``layout_tv``
    over the tile ``tiler`` (as ``make_tiled_copy_impl`` builds it).

    A ``TiledCopy`` is its ``Copy_Atom`` (CuTe's inheritance): ``ThrID``, ``ValLayoutSrc``, ...
    Layout information by CuTe's names: ``AtomThrID``, ``AtomLayoutSrc``/``Dst``/``Ref``,
    ``AtomNumThr``, ``AtomNumVal``, ``Tiler_MN``, ``TiledLayout_TV``, ``TiledNumThr``,
    ``TiledNumVal``.

    @pre ``layout_tv`` is static, of rank 2 ((tid, vid) -> coordinate of the tile);
         ``AtomNumThr`` divides ``TiledNumThr`` and ``AtomNumVal`` divides ``TiledNumVal``
         ("TiledCopy uses too few thrs/vals for selected CopyAtom"), else :class:`LayoutError`.

    >>> from cute_sym.notation import parse
    >>> tc = TiledCopy(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), parse("(_32,_8):(_1,_32)"), (16, 16))
    >>> print(tc.AtomNumThr, tc.AtomNumVal, tc.TiledNumThr, tc.TiledNumVal)
    32 8 32 8
    """
    __slots__ = ("TiledLayout_TV", "_tiler", "TiledNumThr", "TiledNumVal")
    TiledLayout_TV: Layout
    _tiler: Any
    TiledNumThr: int
    TiledNumVal: int

    def __init__(self, atom: Copy_Atom, layout_tv: Layout, tiler: Any) -> None:
        if not isinstance(atom, Copy_Atom):
            raise LayoutError(f"TiledCopy: expected a Copy_Atom, got {type(atom).__name__}")
        if not isinstance(layout_tv, Layout) or layout_tv.rank() != 2:
            raise RankError(f"TiledCopy: the TV layout must be a rank-2 layout (thr, val) -> coord, got {layout_tv}")
        if not layout_tv.is_static():
            raise LayoutError(f"TiledCopy: the TV layout must be static, got {layout_tv}")
        self._init(atom.Traits, atom.ValType, atom.ValLayoutSrc, atom.ValLayoutDst, atom.ValLayoutRef)
        put = object.__setattr__
        put(self, "TiledLayout_TV", layout_tv)
        put(self, "_tiler", unwrap(tiler))
        put(self, "TiledNumThr", _static_int(size(layout_tv[0]), "TiledNumThr"))
        put(self, "TiledNumVal", _static_int(size(layout_tv[1]), "TiledNumVal"))
        if self.TiledNumThr % self.AtomNumThr != 0:
            raise LayoutError(f"TiledCopy uses too few thrs for selected CopyAtom "
                              f"({self.TiledNumThr} threads, atom of {self.AtomNumThr})")
        if self.TiledNumVal % self.AtomNumVal != 0:
            raise LayoutError(f"TiledCopy uses too few vals for selected CopyAtom "
                              f"({self.TiledNumVal} values, atom of {self.AtomNumVal})")

    # ---- the atom's layouts under TiledCopy's names
    @property
    def AtomThrID(self) -> Layout:
        return self.ThrID

    @property
    def AtomLayoutSrc(self) -> Layout:
        return self.ValLayoutSrc

    @property
    def AtomLayoutDst(self) -> Layout:
        return self.ValLayoutDst

    @property
    def AtomLayoutRef(self) -> Layout:
        return self.ValLayoutRef

    @property
    def AtomNumThr(self) -> int:
        return _static_int(size(self.ValLayoutRef[0]), "AtomNumThr")

    @property
    def AtomNumVal(self) -> int:
        return _static_int(size(self.ValLayoutRef[1]), "AtomNumVal")

    @property
    def Tiler_MN(self) -> Any:
        """The tile's shape (CuTe notation when it is an IntTuple), or the tiler of layouts."""
        return wrap(self._tiler)

    @property
    def atom(self) -> Copy_Atom:
        """The ``Copy_Atom`` this tiles."""
        a = Copy_Atom.__new__(Copy_Atom)
        a._init(self.Traits, self.ValType, self.ValLayoutSrc, self.ValLayoutDst, self.ValLayoutRef)
        return a

    def _tiler_shape(self) -> IntTuple:
        """``shape(Tiler_MN{})``: a tiler of layouts stands for their shapes."""
        t = self._tiler
        if type(t) is tuple:
            return tuple(x.shape if isinstance(x, Layout) else x for x in t)
        return t.shape if isinstance(t, Layout) else t

    # ---- the TV algebra
    def _ref2src(self) -> Layout:
        # (src-thr, src-val) -> (ref-thr, ref-val)
        return _compose(right_inverse(self.ValLayoutRef), self.ValLayoutSrc)

    def _ref2dst(self) -> Layout:
        return _compose(right_inverse(self.ValLayoutRef), self.ValLayoutDst)

    def thrval2mn(self, ref2trg: Layout) -> Layout:
        """((trg_tid, rest_tid), (trg_val, rest_val)) -> coordinate of the tile, for the
        atom's (ref -> trg) map ``ref2trg``: the core of ``tile2thrfrg``.

        @post mode 0 is coalesced to one mode; mode 1 has the atom's values then the rest.
        """
        atom_layout_tv = zipped_divide(self.TiledLayout_TV, (self.AtomNumThr, self.AtomNumVal))
        trg_layout_tv = _compose(atom_layout_tv, (ref2trg, _))
        return _plain(coalesce(zip_layouts(trg_layout_tv[0], trg_layout_tv[1]), (1, (1, 1))))

    def tile2thrfrg(self, layout: LayoutLike, ref2trg: Layout) -> LayoutLike:
        """``((TileM,TileN,...), (RestM,RestN,...))`` -> ``(Thr, (FrgV,FrgX), (RestM,RestN,...))``.

        @pre ``layout`` has rank 2 and its mode 0 is the tile ``Tiler_MN``.
        @post ``result(t, v, r) == layout(thrval2mn(t, v), r)``.
        """
        if not isinstance(layout, (Layout, ComposedLayout)) or layout.rank() != 2:
            raise RankError(f"tile2thrfrg: expected a (tile, rest) layout of rank 2, got {layout}")
        return _unfold(_ops.composition(layout, (self.thrval2mn(ref2trg), _)))

    def _tidfrg(self, x: Any, ref2trg: Layout, what: str) -> Any:
        layout = _layout_of(x, what)
        tiler_rank = len(self._tiler) if type(self._tiler) is tuple else 1
        if layout.rank() < tiler_rank:
            raise RankError(f"{what}: Rank of tensor to be partitioned too small ({layout.rank()} < {tiler_rank}).")
        return _like(x, self.tile2thrfrg(_ops.zipped_divide(layout, self._tiler), ref2trg))

    def tidfrg_S(self, x: Any) -> Any:
        """``(M,N,...)`` -> ``(Thr, (FrgV,FrgX), (RestM,RestN,...))`` in the atom's source order:
        of a tensor ``x`` a tensor over its engine, of a layout a layout.

        @pre ``rank(x) >= rank(Tiler_MN)``.
        @post ``result(t, v, r)`` is the element ``layout`` holds at the ``v``-th source
              value of thread ``t`` in the rest-tile ``r``.

        >>> from cute_sym.notation import parse
        >>> from cute_sym.tensor.copy_make import make_tiled_copy
        >>> tc = make_tiled_copy(Copy_Atom("UniversalCopy<uint64_t>", "float"), parse("(_4,_8):(_8,_1)"), parse("(_1,_2)"))
        >>> print(tc.tidfrg_S(parse("(_8,_32):(_32,_1)")))
        ((_8,_4),(_2,_1),(_2,_2)):((_2,_32),(_1,_0),(_128,_16))
        """
        return self._tidfrg(x, self._ref2src(), "tidfrg_S")

    def tidfrg_D(self, x: Any) -> Any:
        """``(M,N,...)`` -> ``(Thr, (FrgV,FrgX), (RestM,RestN,...))`` in the atom's destination order.

        @pre ``rank(layout) >= rank(Tiler_MN)``.
        """
        return self._tidfrg(x, self._ref2dst(), "tidfrg_D")

    def _layout_TV(self, ref2trg: Layout) -> Layout:
        ref = make_layout((self._tiler_shape(), 1))
        return slice_((_, _, 0), _plain(self.tile2thrfrg(ref, ref2trg)))

    def get_layoutS_TV(self) -> Layout:
        """(thr_idx, val_idx) -> coordinate of the tile (as an index of ``Tiler_MN``), source order.

        @post each (thr, val) lands on its own element of the tile when the atom covers it.

        >>> from cute_sym.notation import parse
        >>> from cute_sym.tensor.copy_make import make_tiled_copy
        >>> tc = make_tiled_copy(Copy_Atom("UniversalCopy<uint64_t>", "half_t"), parse("(_16,_16):(_16,_1)"), parse("(_1,_4)"))
        >>> print(tc.get_layoutS_TV())
        ((_16,_16),(_4,_1)):((_64,_1),(_16,_0))
        """
        return self._layout_TV(self._ref2src())

    def get_layoutD_TV(self) -> Layout:
        """(thr_idx, val_idx) -> coordinate of the tile (as an index of ``Tiler_MN``), destination order."""
        return self._layout_TV(self._ref2dst())

    def retile(self, layout: Layout) -> Layout:
        """A thread's fragment ``(V, RestM, RestN, ...)`` -> ``((atom_vals, rest_vals), RestM, RestN, ...)``:
        ``retile_S``/``retile_D`` of CuTe (the same map; they assume the reference order).

        @pre ``size<0>(layout)`` values of one thread, as ``TiledLayout_TV`` orders them.
        @post a bijection from the fragment's coordinates when ``layout`` is one (same size).

        >>> from cute_sym.tensor.copy_make import make_tiled_copy
        >>> tc = make_tiled_copy(Copy_Atom("UniversalCopy<uint32_t>", "half_t"), make_layout((32, 4)), make_layout((4, 2)))
        >>> print(tc.retile(make_layout((8, 2, 3))))
        ((_2,_4),_2,_3):((_1,_2),_8,_16)
        """
        if not isinstance(layout, Layout):
            raise LayoutError(f"retile: expected a Layout, got {type(layout).__name__}")
        r = layout.rank()
        v = _static_int(size(layout[0]) if r > 1 or type(layout.shape) is tuple else size(layout), "retile: size<0>")
        inv = _compose(right_inverse(self.TiledLayout_TV), make_layout(self._tiler_shape()))
        frg_layout_mn = upcast(inv, self.TiledNumThr * v)  # (m,n) -> v_idx
        frg_layout_v = zipped_divide(logical_product(make_layout(v), right_inverse(frg_layout_mn)),
                                     make_layout(self.AtomNumVal))  # (atom_vals, rest_vals) -> (v,m,n)
        mn = product_each(frg_layout_mn.shape)
        t_layout = zipped_divide(layout, (v,) + (mn if type(mn) is tuple else (mn,)))  # ((V,M,N),(1,RestM,RestN))
        v_layout = _compose(t_layout, (frg_layout_v, _))
        coord = (0,) + (_,) * (r - 1) if r > 1 else 0
        return slice_((_, coord), v_layout)

    def get_slice(self, thr_idx: IntLike) -> "ThrCopy":
        """The ``ThrCopy`` of thread ``thr_idx`` (an ``int`` or a symbolic integer)."""
        return ThrCopy(self, thr_idx)

    def get_thread_slice(self, thr_idx: IntLike) -> "ThrCopy":
        return self.get_slice(thr_idx)

    def __repr__(self) -> str:
        return f"TiledCopy<{self.Traits.name}, {self.ValType}, {self.TiledLayout_TV}, {self.Tiler_MN}>"

    def __str__(self) -> str:
        """CuTe's ``print(TiledCopy)``."""
        return ("TiledCopy\n"
                f"  Tiler_MN:       {self.Tiler_MN}\n"
                f"  TiledLayout_TV: {self.TiledLayout_TV}\n" + Copy_Atom.__str__(self))

    def __eq__(self, other: object) -> bool:
        return (type(other) is TiledCopy and Copy_Atom.__eq__(self.atom, other.atom)
                and self.TiledLayout_TV == other.TiledLayout_TV and self._tiler == other._tiler)

    def __hash__(self) -> int:
        return hash(("TiledCopy", self.Traits, self.ValType, self.TiledLayout_TV, str(self._tiler)))


class ThrCopy:
    """``ThrCopy<TiledCopy, ThrIdx>``: the part of a :class:`TiledCopy` thread ``thr_idx`` moves.

    ``thr_idx`` is an ``int`` or a dynamic integer (``Dyn("tid", max=127)``). ``partition_S(t)`` of
    a tensor is the tensor of the thread's source elements of ``t``, ``(CPY_V, CPY_M, CPY_N, ...)``,
    starting at the thread's base ``offset_S(t)``; of a layout it is that view's layout.

    @pre ``thr_idx >= 0``.
    @post ``offset_S(t) + partition_S(t).layout(v, m, n) == tidfrg_S(t.layout)(thr_idx, v, (m, n))``;
          for a dynamic ``thr_idx`` ``offset_S(t)`` is one formula, equal to the integer answer at
          every value of ``thr_idx`` (and of the tensor's symbolic extents).

    >>> from cute_sym.notation import parse
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> from cute_sym.tensor.engine import make_gmem_ptr
    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.tensor.copy_make import make_tiled_copy
    >>> tc = make_tiled_copy(Copy_Atom("UniversalCopy<uint64_t>", "float"), parse("(_4,_8):(_8,_1)"), parse("(_1,_2)"))
    >>> T = make_tensor(make_gmem_ptr("T", "float"), parse("(_8,_32):(_32,_1)"))
    >>> print(tc.get_slice(9).partition_S(T))
    gmem_ptr[float](T+34) o ((_2,_1),_2,_2):((_1,_0),_128,_16)
    >>> print(tc.get_slice(Dyn("tid", max=31)).partition_S(T))
    gmem_ptr[float](T+2*(tid%8)+32*(tid//8)) o ((_2,_1),_2,_2):((_1,_0),_128,_16)
    """
    __slots__ = ("tiled_copy", "thr_idx")
    tiled_copy: TiledCopy
    thr_idx: IntLike

    def __init__(self, tiled_copy: TiledCopy, thr_idx: Any) -> None:
        object.__setattr__(self, "tiled_copy", tiled_copy)
        object.__setattr__(self, "thr_idx", thread_index_arg(thr_idx))

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("ThrCopy is immutable")

    def __repr__(self) -> str:
        return f"ThrCopy({self.tiled_copy!r}, thr_idx={self.thr_idx})"

    def _split(self, x: Any, which: str) -> tuple[LayoutLike, IntLike]:
        """thr_tensor(thr_idx, _, repeat<rank>(_)): (the thread's layout, the offset of its origin)."""
        lay = _layout_of(x, f"partition_{which}")
        tv = self.tiled_copy.tidfrg_S(lay) if which == "S" else self.tiled_copy.tidfrg_D(lay)
        r = _rank(lay)
        coord = (self.thr_idx, _, (_,) * r if r > 1 else _)
        if isinstance(tv, ComposedLayout) or type(self.thr_idx) is int or is_basis_layout(tv):
            return _slice_and_offset(coord, tv)
        sliced, _off = _slice_and_offset((0, _, (_,) * r if r > 1 else _), tv)
        nthr = self.tiled_copy.TiledNumThr
        return sliced, index_formula(_compose(tv[0], make_layout(nthr)), self.thr_idx)

    def _partition(self, x: Any, which: str) -> Any:
        lay, off = self._split(x, which)
        if isinstance(x, (Layout, ComposedLayout)):
            return lay
        out = Tensor(x.engine + off, lay)
        traits = self.tiled_copy.Traits
        if is_tmem(out) and traits.is_tmem and size(traits.ThrID) == 32:  # tcgen05.ld/st: the warp's lanes
            check_warp_lanes(out, self.thr_idx, f"partition_{which}")
        return out

    def partition_S(self, x: Any) -> Any:
        """The thread's source elements of the (M,N,...) tensor ``x``: ``(CPY_V, CPY_M, CPY_N, ...)``
        (a layout gives the layout)."""
        return self._partition(x, "S")

    def partition_D(self, x: Any) -> Any:
        """The thread's destination elements of the (M,N,...) tensor ``x``: ``(CPY_V, CPY_M, CPY_N, ...)``."""
        return self._partition(x, "D")

    def offset_S(self, x: Any) -> IntLike:
        """The offset in ``x`` (a layout or a tensor) of the thread's first source element.

        >>> from cute_sym.notation import parse
        >>> from cute_sym.tensor.copy_make import make_tiled_copy
        >>> tc = make_tiled_copy(Copy_Atom("UniversalCopy<uint64_t>", "float"), parse("(_4,_8):(_8,_1)"), parse("(_1,_2)"))
        >>> tc.get_slice(9).offset_S(parse("(_8,_32):(_32,_1)"))
        34
        """
        return self._split(x, "S")[1]

    def offset_D(self, x: Any) -> IntLike:
        """The offset in ``x`` of the thread's first destination element."""
        return self._split(x, "D")[1]

    def retile_S(self, x: Any) -> Any:
        """``retile_S``: a thread's fragment ``(V, RestM, ...)`` as ``((atom_vals, rest_vals), RestM, ...)``."""
        return _like(x, self.tiled_copy.retile(_plain(_layout_of(x, "retile_S"))))

    def retile_D(self, x: Any) -> Any:
        """``retile_D``: the same map as ``retile_S`` (both assume the reference order)."""
        return _like(x, self.tiled_copy.retile(_plain(_layout_of(x, "retile_D"))))


def _layout_of(x: Any, what: str) -> LayoutLike:
    if isinstance(x, (Layout, ComposedLayout)):
        return x
    if isinstance(x, Tensor):
        return x.layout
    raise LayoutError(f"{what}: expected a tensor or a layout, got {type(x).__name__}")


def _like(x: Any, layout: LayoutLike) -> Any:
    """``layout`` as what ``x`` is: a layout, or a tensor over ``x``'s engine."""
    return Tensor(x.engine, layout) if isinstance(x, Tensor) else layout


def _rank(layout: LayoutLike) -> int:
    return layout.rank() if type(layout.shape) is tuple else 1
