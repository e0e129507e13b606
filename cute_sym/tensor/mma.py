"""MMA_Atom, TiledMMA and ThrMMA: CuTe's tiling of an MMA instruction over threads and data.

A :class:`TiledMMA` repeats an atom over a layout of atoms (``atom_layout``, over M, N, K)
and partitions tensors of the M x K (A), N x K (B) and M x N (C) tiles among its threads,
exactly as CuTe's ``cute/atom/mma_atom.hpp``: ``thrfrg_A`` reshapes a tensor to
``((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK)))``, ``get_slice(tid).partition_A`` keeps the
values of thread ``tid``, ``get_layoutA_TV`` is the (thread, value) -> (m,k) map of one tile.

A worked GEMM tile: 128x128x32 with SM80's 16x8x16 HMMA, 2x2 atoms (128 threads). Each
thread's A fragment of a row-major (K-contiguous) 128x32 tile of A:

>>> from cute_sym.notation import parse, to_str
>>> from cute_sym.core.integers import Dyn
>>> mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2))
>>> print(mma.get_thr_layout_vmnk(), mma.tile_shape())
(_32,_2,_2,_1):(_1,_32,_64,_0) (_32,_16,_16)
>>> A = parse("(_128,_32):(_32,_1)")          # sA: M x K, K contiguous
>>> thr = mma.get_slice(0)
>>> print(thr.partition_A(A))                 # (FrgV, RestM, RestK) -> offset from the thread's base
((_2,_2,_2),_4,_2):((_1,_256,_8),_1024,_16)
>>> thr.offset_A(A), mma.get_slice(1).offset_A(A)   # the base of thread 0 and of thread 1
(0, 2)
>>> frag = thr.partition_A(A)
>>> [[mma.get_slice(t).offset_A(A) + frag(v) for v in range(8)] for t in (0, 1)]
[[0, 1, 256, 257, 8, 9, 264, 265], [2, 3, 258, 259, 10, 11, 266, 267]]
>>> tid = Dyn("tid", max=127, sign="nonnegative")
>>> print(to_str(mma.get_slice(tid).offset_A(A)))      # one formula, for every thread
2*(tid%4)+512*((tid//32)%2)+32*((tid//4)%8)
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core.errors import LayoutError, RankError
from ..core.lazy import is_expr
from ..core.int_tuple import IntTuple, _, fmt, leaves, unwrap, wrap
from ..core.integers import IntLike
from ..layout import Layout, append, cosize, make_layout, size, slice_
from ..swizzle import (
    ComposedLayout,
    complement, composition, logical_divide, right_inverse, tiled_product, upcast, zipped_divide,
)
from .atoms.mma_atom import MMA_Atom
from .atoms.mma_traits import MMA_Traits, sizeof_bits
from .engine import Pointer, make_rmem_ptr, make_smem_ptr
from .tensor import AnyLayout, Tensor, make_fragment_like, make_registers
from .basis_layout import is_basis_layout
from .ops import compose_modes
from .thread_index import index_formula, thread_coord, thread_index_arg, upper_bound

__all__ = ["MMA_Atom", "TiledMMA", "ThrMMA", "make_tiled_mma", "partition_shape_A", "partition_shape_B",
           "partition_shape_C", "tile_shape"]

# operand -> (the modes of MNK it spans, the atom layout attribute)
_MODES = {"A": (0, 2, "ALayout"), "B": (1, 2, "BLayout"), "C": (0, 1, "CLayout")}


def _as_layout(x: Any, what: str) -> Layout:
    if isinstance(x, Layout):
        return x
    x = unwrap(x)
    if isinstance(x, (int, tuple)) or is_expr(x):
        return make_layout(x)
    raise LayoutError(f"{what}: expected a Layout or a shape, got {type(x).__name__}")


def _layout_of(x: Any, what: str) -> AnyLayout:
    """The layout of a tensor (plain or swizzled), or a layout itself."""
    lay = x.layout if isinstance(x, Tensor) else x
    if isinstance(lay, (Layout, ComposedLayout)):
        return lay
    raise LayoutError(f"{what}: expected a Tensor or a Layout, got {type(x).__name__}")


def _inner(lay: AnyLayout) -> Layout:
    """The plain layout that gives a (possibly swizzled) layout's domain."""
    inner = lay.layout_b if isinstance(lay, ComposedLayout) else lay
    if not isinstance(inner, Layout):
        raise LayoutError(f"a layout composed of {type(inner).__name__} is not supported here")
    return inner


def _static_perm(p: Any, i: int) -> Any:
    p = unwrap(p)
    if p is _ or isinstance(p, Layout) or type(p) is int or (type(p) is tuple and all(
            isinstance(e, Layout) or type(e) is int for e in p)):
        if isinstance(p, Layout) and not p.is_static():
            raise LayoutError(f"TiledMMA requires static permutations of MNK (mode {i}: {p})")
        return p
    raise LayoutError(f"TiledMMA requires static permutations of MNK (mode {i}: {p!r})")


class TiledMMA:
    """CuTe's ``TiledMMA<Atom, AtomLayoutMNK, PermutationMNK>`` (make it with :func:`make_tiled_mma`).

    ``thr_layout_vmnk = tiled_product(atom.ThrID, atom_layout_mnk)``: (ThrV,ThrM,ThrN,ThrK) -> thread index.

    @pre ``rank(atom_layout_mnk) == 3``; ``permutation_mnk`` has 3 static modes (``_``, an
         integer, a layout or a tile) ("TiledMMA requires rank-3 ...").
    @post ``get_layoutX_TV()`` maps (thread, value) onto the ``tile_size_mnk`` tile of operand X;
          for A (and B) every thread of the same (ThrV,ThrM,ThrK) holds the same elements.
    """

    __slots__ = ("atom", "atom_layout_mnk", "permutation_mnk_", "thr_layout_vmnk")

    atom: MMA_Atom
    atom_layout_mnk: Layout
    permutation_mnk_: tuple[Any, Any, Any]
    thr_layout_vmnk: Layout

    def __init__(self, atom: MMA_Atom, atom_layout_mnk: Layout,
                 permutation_mnk: tuple[Any, Any, Any] = (_, _, _)) -> None:
        if atom_layout_mnk.rank() != 3:
            raise RankError(f"TiledMMA requires rank-3 AtomLayoutMNK, got {atom_layout_mnk}")
        if len(permutation_mnk) != 3:
            raise RankError(f"TiledMMA requires rank-3 PermutationMNK, got {permutation_mnk}")
        if not atom_layout_mnk.is_static() or any(s < 1 for s in leaves(atom_layout_mnk.shape)):
            raise LayoutError(f"TiledMMA requires a static AtomLayoutMNK of positive extents, got {atom_layout_mnk}")
        perms = tuple(_static_perm(p, i) for i, p in enumerate(permutation_mnk))
        for k, v in (("atom", atom), ("atom_layout_mnk", atom_layout_mnk), ("permutation_mnk_", perms),
                     ("thr_layout_vmnk", tiled_product(atom.ThrID, atom_layout_mnk))):
            object.__setattr__(self, k, v)
        for i in range(3):      # a permutation reorders whole tiles of the atoms
            step = size(atom.Shape_MNK[i]) * size(self.thr_layout_vmnk[i + 1])
            if self._tile(i) % step:
                raise LayoutError(f"TiledMMA: the permutation of mode {i} spans {self._tile(i)} elements, "
                                  f"not a multiple of the atoms' {step}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("TiledMMA is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (TiledMMA, (self.atom, self.atom_layout_mnk, self.permutation_mnk_))

    def __repr__(self) -> str:
        return f"TiledMMA({self.atom.name!r}, {self.atom_layout_mnk})"

    def __str__(self) -> str:
        """As CuTe's ``print(tiled_mma)``.

        >>> print(make_tiled_mma("SM80_8x8x4_F64F64F64F64_TN", (2, 1), (16, _, _)))
        TiledMMA
          ThrLayoutVMNK:  (_32,_2,_1,_1):(_1,_32,_0,_0)
          PermutationMNK: (_16,_,_)
        MMA_Atom
          ThrID:      _32:_1
          Shape_MNK:  (_8,_8,_4)
          LayoutA_TV: ((_4,_8),_1):((_8,_1),_0)
          LayoutB_TV: ((_4,_8),_1):((_8,_1),_0)
          LayoutC_TV: ((_4,_8),_2):((_16,_1),_8)
        """
        perm = "(" + ",".join(str(p) if isinstance(p, Layout) else fmt(p) for p in self.permutation_mnk_) + ")"
        return (f"TiledMMA\n  ThrLayoutVMNK:  {self.thr_layout_vmnk}\n  PermutationMNK: {perm}\n"
                f"{self.atom}")

    def get_thr_layout_vmnk(self) -> Layout:
        """(ThrV,ThrM,ThrN,ThrK) -> thread index."""
        return self.thr_layout_vmnk

    def thr_size(self) -> IntLike:
        """The number of threads: ``size(thr_layout_vmnk)`` (CuTe's ``size(mma)``)."""
        return wrap(size(self.thr_layout_vmnk))

    def _perm(self, i: int) -> Any:
        if i not in (0, 1, 2):
            raise RankError(f"TiledMMA: mode {i!r} of MNK is not 0, 1 or 2")
        p = self.permutation_mnk_[i]
        if p is _:
            return size(self.atom.Shape_MNK[i]) * size(self.thr_layout_vmnk[i + 1])
        return p

    def _tile(self, i: int) -> IntLike:
        p = self._perm(i)
        return size(p) if not isinstance(p, tuple) else size(tuple(size(e) for e in p))

    def permutation_mnk(self, i: int) -> Any:
        """The permutation (tiler) of mode ``i`` of MNK; ``_`` is the atom's extent times the atoms along ``i``.

        >>> make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 2)).permutation_mnk(1)
        _16
        """
        return wrap(self._perm(i))

    def tile_size_mnk(self, i: int) -> IntLike:
        """The extent of the tile along mode ``i`` (0: M, 1: N, 2: K)."""
        return wrap(self._tile(i))

    def tile_shape(self) -> IntTuple:
        """``(tile_size_mnk(0), tile_size_mnk(1), tile_size_mnk(2))``, CuTe's ``tile_shape(mma)``."""
        return wrap((self._tile(0), self._tile(1), self._tile(2)))

    # ------------------------------------------------------------ thrfrg
    def __eq__(self, other: object) -> bool:
        return isinstance(other, TiledMMA) and (self.atom, self.atom_layout_mnk, self.permutation_mnk_) == (
            other.atom, other.atom_layout_mnk, other.permutation_mnk_)

    def __hash__(self) -> int:
        return hash((self.atom, self.atom_layout_mnk, self.permutation_mnk_))

    def _thrfrg(self, x: Any, op: str) -> AnyLayout:
        lay = _layout_of(x, f"thrfrg_{op}")
        return _thrfrg(self, lay, op, str(lay))

    def _thrfrg_uncached(self, lay: AnyLayout, op: str) -> AnyLayout:
        if is_basis_layout(lay):   # a coordinate tensor (TMA's): its modes through the plain answer
            out_b: AnyLayout = compose_modes(lay, self._thrfrg_uncached(make_layout(lay.shape), op))
            return out_b
        i, j, tv = _MODES[op]
        if _inner(lay).rank() < 2:
            raise RankError(f"thrfrg_{op}: the tensor must have rank >= 2, got {lay}")
        mnk = self.atom.Shape_MNK
        t_tensor = logical_divide(lay, (self._perm(i), self._perm(j)))
        a_tensor = zipped_divide(t_tensor, (make_layout(mnk[i]), make_layout(mnk[j])))
        tv_tensor = composition(a_tensor, (getattr(self.atom, tv), _))   # ((ThrV,FrgV),(RestI,RestJ))
        vmnk = self.thr_layout_vmnk
        thr_tile = (_, (make_layout(size(vmnk[i + 1])), make_layout(size(vmnk[j + 1]))))
        out = zipped_divide(tv_tensor, thr_tile)                          # ((ThrV,(ThrI,ThrJ)),(FrgV,(RestI,RestJ)))
        assert isinstance(out, (Layout, ComposedLayout))
        return out

    def thrfrg_A(self, x: Any) -> Any:
        """(M,K,...) -> ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...))); a tensor gives a tensor.

        >>> print(make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN").thrfrg_A(make_layout((16, 8))))
        (((_4,_8),(_1,_1)),((_2,_2),(_1,_1))):(((_32,_1),(_0,_0)),((_16,_8),(_0,_0)))
        """
        return _like(x, self._thrfrg(x, "A"))

    def thrfrg_B(self, x: Any) -> Any:
        """(N,K,...) -> ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...))); a tensor gives a tensor."""
        return _like(x, self._thrfrg(x, "B"))

    def thrfrg_C(self, x: Any) -> Any:
        """(M,N,...) -> ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...))); a tensor gives a tensor."""
        return _like(x, self._thrfrg(x, "C"))

    # ------------------------------------------------------------ TV layouts
    def _thridx_2_thrid(self) -> Layout:
        """thread index -> (ThrV,ThrM,ThrN,ThrK) index (the inverse of thr_layout_vmnk)."""
        vmnk = self.thr_layout_vmnk
        out = composition(make_layout((size(vmnk), 1), (1, 0)),
                          right_inverse(make_layout(vmnk, complement(vmnk))))
        assert isinstance(out, Layout)
        return out

    def _layout_TV(self, op: str) -> Layout:
        i, j, _tv = _MODES[op]
        ref = make_layout((self._tile(i), self._tile(j)))
        out = self._thrfrg(ref, op)
        if op != "C":   # (ThrV,(ThrI,ThrK)) -> (ThrV,((ThrM,ThrN),ThrK)): the other one of M, N broadcast
            vmnk = self.thr_layout_vmnk
            bcast = make_layout((size(vmnk[1]), size(vmnk[2])), (1, 0) if op == "A" else (0, 1))
            out = composition(out, ((_, (bcast, _)), _))
        out = composition(out, (self._thridx_2_thrid(), _))
        assert isinstance(out, Layout)
        return out

    def get_layoutA_TV(self) -> Layout:
        """(thread index, value) -> (m,k) index of the ``tile_size_mnk(0) x tile_size_mnk(2)`` tile."""
        return self._layout_TV("A")

    def get_layoutB_TV(self) -> Layout:
        """(thread index, value) -> (n,k) index of the ``tile_size_mnk(1) x tile_size_mnk(2)`` tile."""
        return self._layout_TV("B")

    def get_layoutC_TV(self) -> Layout:
        """(thread index, value) -> (m,n) index of the ``tile_size_mnk(0) x tile_size_mnk(1)`` tile.

        >>> print(make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2)).get_layoutC_TV())
        ((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))
        """
        return self._layout_TV("C")

    # ------------------------------------------------------------ slices
    def get_slice(self, thr_idx: Any) -> "ThrMMA":
        """The view of thread ``thr_idx`` (an integer, or a non-negative dynamic integer)."""
        return ThrMMA(self, thr_idx)

    def get_thread_slice(self, thr_idx: Any) -> "ThrMMA":
        return self.get_slice(thr_idx)


@lru_cache(maxsize=256)
def _thrfrg(mma: TiledMMA, lay: AnyLayout, op: str, text: str) -> AnyLayout:
    """thrfrg of a layout, kept: every thread's partition of one tensor starts from it. ``text``, the
    layout's CuTe text, is in the key: a static ``_256`` and a dynamic ``256`` are equal ints."""
    return mma._thrfrg_uncached(lay, op)


def _count(layout: Layout) -> Any:
    """The thread indices of a thread layout: its codomain ``0 .. cosize-1`` (SM70's quad pairs
    take indices 0-3 and 16-19 of 8 threads)."""
    n = cosize(layout)
    return n if type(n) is int else None


def _has_holes(layout: Layout) -> bool:
    """The thread layout skips indices (SM70's quad pairs: threads 0-3 and 16-19 of 8): an int
    past it is read as CuTe reads it (its own answers for thread 51 of such an MMA are kept)."""
    return size(layout) != cosize(layout)


class ThrMMA:
    """CuTe's ``ThrMMA``: the part of a :class:`TiledMMA` that thread ``thr_idx`` computes.

    ``thr_idx`` is an ``int`` or a dynamic integer (a non-negative sympy expression such as
    ``Dyn("tid", max=127, sign="nonnegative")``); ``thr_vmnk`` is its (ThrV,ThrM,ThrN,ThrK)
    coordinate (CuTe's ``get_flat_coord``). ``partition_X(t)`` of a tensor is the tensor of
    the thread's elements of ``t``, a view ``(FrgV, RestI, RestJ, ...)`` starting at the
    thread's base ``offset_X(t)``; of a layout it is that view's layout.

    @pre ``0 <= thr_idx < thr_size()``, else :class:`LayoutError` (no silent wrap to thread 0);
         a dynamic index's largest value too (an unbounded one asks that fact). Where the thread
         layout skips indices (SM70's quad pairs), an ``int`` past it is read as CuTe reads it
         (CuTe's own answers for thread 51 of a 16-thread SM70 MMA are kept).
    @post ``offset_X(t) + partition_X(t)(v)`` is the offset in ``t`` of the thread's
          ``v``-th value, for every ``v``; for a dynamic ``thr_idx`` ``offset_X(t)`` is one
          simplified formula, equal to the integer answer at every value of ``thr_idx``.

    >>> mma = make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", (2, 1))
    >>> thr = mma.get_slice(37)
    >>> thr.thr_vmnk
    (5, 1, 0, 0)
    >>> print(thr.partition_C(make_layout((64, 16))), thr.offset_C(make_layout((64, 16))))
    ((_2,_2),_2,_2):((_64,_8),_32,_512) 145
    """

    __slots__ = ("tiled_mma", "thr_idx", "thr_vmnk")

    tiled_mma: TiledMMA
    thr_idx: Any
    thr_vmnk: tuple[Any, ...]

    def __init__(self, tiled_mma: TiledMMA, thr_idx: Any) -> None:
        thr_idx = thread_index_arg(thr_idx, _count(tiled_mma.thr_layout_vmnk), "tiled MMA",
                                   static_past=_has_holes(tiled_mma.thr_layout_vmnk))
        for k, v in (("tiled_mma", tiled_mma), ("thr_idx", thr_idx),
                     ("thr_vmnk", thread_coord(tiled_mma.thr_layout_vmnk, thr_idx))):
            object.__setattr__(self, k, v)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ThrMMA is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (ThrMMA, (self.tiled_mma, self.thr_idx))

    def __getattr__(self, name: str) -> Any:
        """The rest is the tiled MMA's (CuTe's ThrMMA derives from its TiledMMA): ``get_layoutA_TV``, ..."""
        if name.startswith("__") or name in ThrMMA.__slots__:
            raise AttributeError(name)
        return getattr(self.tiled_mma, name)

    def __repr__(self) -> str:
        return f"ThrMMA({self.tiled_mma!r}, thr_idx={self.thr_idx})"

    def __str__(self) -> str:
        """As CuTe's ``print(thr_mma)`` (a coordinate of an extent-1 mode is a static ``_0``)."""
        vmnk = self.tiled_mma.thr_layout_vmnk
        crd = ",".join("_0" if size(vmnk[k]) == 1 else (str(c) if type(c) is int else fmt(c))
                       for k, c in enumerate(self.thr_vmnk))
        return f"ThrMMA\n  Thr VMNK: ({crd})\n{self.tiled_mma}"

    def _split(self, x: Any, op: str) -> tuple[AnyLayout, Any]:
        """(the thread's values: (FrgV,RestI,RestJ,...), the thread's base in the plain layout).

        Over a swizzled layout the base moves into the layout (CuTe's composed slice)."""
        thr = self.tiled_mma._thrfrg(x, op)
        inner = _inner(thr)
        rest = inner.shape[1][1]                                          # type: ignore[index]
        frag = slice_((0, (_, (_,) * len(rest) if type(rest) is tuple and len(rest) != 1 else _)), inner)
        base = self._base(inner[0], op)
        if isinstance(thr, ComposedLayout):
            return ComposedLayout(thr.layout_a, thr.offset + base, frag), base
        return frag, base

    def _base(self, thr0: Layout, op: str) -> Any:
        """``thr0``, (ThrV,(ThrI,ThrJ)) -> offset, at this thread."""
        i, j, _l = _MODES[op]
        c = self.thr_vmnk
        if type(self.thr_idx) is int or is_basis_layout(thr0):
            return thr0((c[0], (c[i + 1], c[j + 1])))
        mma = self.tiled_mma
        g = mma._thridx_2_thrid()                 # thread index -> (ThrV,ThrM,ThrN,ThrK) index
        hi = upper_bound(self.thr_idx)
        if hi is None or hi >= size(g):           # past every thread: CuTe's coordinate, leaf by leaf
            return thr0((c[0], (c[i + 1], c[j + 1])))
        # the offset as one layout of the thread index: thr0 over (V,M,N,K), the mode op does not span
        # contributing nothing, after the thread index -> (V,M,N,K) map; then its formula
        modes = [thr0[0], None, None, None]
        modes[i + 1], modes[j + 1] = thr0[1][0], thr0[1][1]
        other = ({1, 2, 3} - {i + 1, j + 1}).pop()
        modes[other] = make_layout(size(mma.thr_layout_vmnk[other]), 0)
        return index_formula(composition(make_layout(*modes), g), self.thr_idx)

    def _partition(self, x: Any, op: str) -> Any:
        frag, base = self._split(x, op)
        if not isinstance(x, Tensor):
            return frag
        return Tensor(x.engine, frag) if isinstance(frag, ComposedLayout) else Tensor(x.engine + base, frag)

    def _offset(self, x: Any, op: str) -> Any:
        frag, base = self._split(x, op)
        if isinstance(frag, ComposedLayout):     # the swizzled offset of the first value
            return frag(*([0] * _inner(frag).rank()))
        return base

    def partition_A(self, x: Any) -> Any:
        """The thread's values of the (M,K,...) tensor ``x``: ``(FrgV, RestM, RestK, ...)``."""
        return self._partition(x, "A")

    def partition_B(self, x: Any) -> Any:
        """The thread's values of the (N,K,...) tensor ``x``: ``(FrgV, RestN, RestK, ...)``."""
        return self._partition(x, "B")

    def partition_C(self, x: Any) -> Any:
        """The thread's values of the (M,N,...) tensor ``x``: ``(FrgV, RestM, RestN, ...)``."""
        return self._partition(x, "C")

    def offset_A(self, x: Any) -> Any:
        """The offset in ``x`` (a layout or a tensor's layout) of the thread's first A value."""
        return self._offset(x, "A")

    def offset_B(self, x: Any) -> Any:
        """The offset in ``x`` of the thread's first B value."""
        return self._offset(x, "B")

    def offset_C(self, x: Any) -> Any:
        """The offset in ``x`` of the thread's first C value."""
        return self._offset(x, "C")

    # ------------------------------------------------------------ fragments
    def _fragment(self, x: Any, op: str) -> Any:
        atom = self.tiled_mma.atom
        part = self._partition(x, op)
        lay = _layout_of(part, f"partition_fragment_{op}")
        frg = getattr(atom, f"FrgType{op}")
        if frg.startswith("UMMA::tmem_frg"):      # UMMA: accumulators (and a TS A) in tensor memory
            return _tmem_fragment(x, frg, _inner(lay).shape)
        if op == "C":        # accumulators: compact, never shaped after the input
            out: Layout = make_layout(_inner(lay).shape)
        elif "smem_desc<" in frg:
            return _descriptors(x, part, lay, frg, sizeof_bits(getattr(atom, f"ValType{op}")))
        else:
            frag_lay = make_fragment_like(_inner(lay)).layout
            assert isinstance(frag_lay, Layout)
            out = frag_lay
        return out if not isinstance(x, Tensor) else make_registers(x, out, frg, f"frg{op}")

    def partition_fragment_A(self, x: Any) -> Any:
        """CuTe's ``partition_fragment_A``: registers for the thread's A values (``make_fragment_like`` of
        ``partition_A(x)``, element type ``FrgTypeA``); for a GMMA operand in shared memory, the tensor
        of its descriptors: ``partition_A`` in units of 128 bits, mode 0 replaced by ``_1:_0``.
        A layout in gives the fragment's layout.

        >>> mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2))
        >>> print(mma.get_slice(5).partition_fragment_A(make_layout((128, 32), (32, 1))))
        ((_2,_2,_2),_4,_2):((_1,_2,_4),_16,_8)
        >>> gmma = make_tiled_mma("SM90_64x64x16_F16F16F16_SS<Major::K,Major::K>")
        >>> print(gmma.get_slice(5).partition_fragment_A(make_layout((64, 64), (64, 1))))
        (_1,_1,_4):(_0,_0,_2)
        """
        return self._fragment(x, "A")

    def partition_fragment_B(self, x: Any) -> Any:
        """As :meth:`partition_fragment_A`, for B."""
        return self._fragment(x, "B")

    def partition_fragment_C(self, x: Any) -> Any:
        """CuTe's ``partition_fragment_C``: compact column-major registers of the shape of
        ``partition_C(x)``, element type ``FrgTypeC``; for an UMMA atom, the accumulator's layout in
        tensor memory (``UMMA::tmem_frg``: lane * ``TMEM::DP`` + column, see :mod:`.umma`).

        >>> mma = make_tiled_mma("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, "
        ...                      "UMMA::Major::K, UMMA::Major::K>")
        >>> print(mma.get_slice(0).partition_fragment_C(make_layout((128, 256), (1024, 1))))
        ((_128,_256),_1,_1):((_65536,_1),_0,_0)
        """
        return self._fragment(x, "C")


def _descriptors(x: Any, part: Any, lay: AnyLayout, frg: str, bits: int) -> Any:
    """GMMA's view of a shared-memory operand: ``replace<0>(recast<uint128_t>(part).layout(), _1:_0)``
    (a swizzle is the descriptor's business: the view is of the layout it swizzles, from its offset)."""
    u = upcast(_inner(lay), 128 // bits)
    out = make_layout(make_layout(1, 0), *[u[k] for k in range(1, u.rank())])
    if not isinstance(x, Tensor):
        return out
    eng = part.engine
    if not (isinstance(eng, Pointer) and eng.space == "smem"):
        raise LayoutError("GMMA Descriptors can only be constructed on smem.")
    off = (eng.offset + (lay.offset if isinstance(lay, ComposedLayout) else 0)) * bits
    if type(off) is int and off % 128:
        raise LayoutError(f"a GMMA descriptor starts on 128 bits: offset {eng.offset} of {bits}-bit values is not")
    start = off // 128 if type(off) is int else off / 128
    return Tensor(make_smem_ptr(eng.name, frg, start), out)


def _tmem_fragment(x: Any, frg: str, shape: Any) -> Any:
    """An UMMA fragment in tensor memory: its layout (:func:`.umma.tmem_frg_layout`); of a tensor, a
    tensor over a TMEM pointer at address 0 (CuTe's ``make_tmem_ptr<ValueType>()``), else the layout."""
    from .tmem_space import make_tmem_ptr
    from .umma import _FRG, tmem_frg_layout
    lay = tmem_frg_layout(frg, shape)
    if not isinstance(x, Tensor):
        return lay
    m = _FRG.fullmatch("".join(frg.split()))
    if m is None:               # tmem_frg_layout has read it; never here
        return lay
    try:
        ptr = make_tmem_ptr(m[2], 0)        # CuTe's make_tmem_ptr<ValueType>(): address 0
    except LayoutError:                     # a value type tmem_ptr does not address (6-bit): the layout
        return lay
    return Tensor(ptr, lay)


def make_tiled_mma(atom: Union[str, MMA_Traits], atom_layout: Any = (1, 1, 1),
                   permutations: Any = None) -> TiledMMA:
    """CuTe's ``make_tiled_mma(atom, thr_layout, permutations)``.

    ``atom``: an :class:`MMA_Atom`, traits, or CuTe's name of the MMA operation. ``atom_layout``:
    a layout or a shape (compact column-major) of atoms over (M,N,K), padded to rank 3 with
    ``_1:_0``. ``permutations``: up to three tilers of M, N, K (``_`` for none), padded with ``_``.

    @pre ``rank(atom_layout) <= 3``, ``rank(permutations) <= 3``; permutations static.
    @post ``result.thr_layout_vmnk == tiled_product(atom.ThrID, append(atom_layout, _1:_0, n=3))``.

    >>> mma = make_tiled_mma("SM70_8x8x4_F16F16F16F16_TN", (2, 2))
    >>> print(mma.get_thr_layout_vmnk(), mma.thr_size())
    ((_4,_2),_2,_2,_1):((_1,_16),_4,_8,_0) _32
    >>> print(mma.get_layoutA_TV())
    ((_4,(_2,_2),_2),(_4,(_1,_1))):((_1,(_8,_0),_4),(_16,(_0,_0)))
    """
    mma_atom = atom if isinstance(atom, MMA_Atom) else MMA_Atom(atom)
    thr = _as_layout(atom_layout, "make_tiled_mma")
    if thr.rank() > 3:
        raise RankError(f"TiledMMA requires rank-3 AtomLayoutMNK, got {thr}")
    thr = append(thr, make_layout(1, 0), 3)
    perms: tuple[Any, ...] = (_, _, _)
    if permutations is not None:
        p = unwrap(permutations)
        p = tuple(p) if type(p) is tuple else (p,)
        if len(p) > 3:
            raise RankError(f"TiledMMA requires rank-3 PermutationMNK, got {permutations}")
        perms = p + (_,) * (3 - len(p))
    return TiledMMA(mma_atom, thr, (perms[0], perms[1], perms[2]))


def tile_shape(mma: TiledMMA) -> IntTuple:
    """CuTe's ``tile_shape(mma)``: the (M,N,K) extent of one tile of the tiled MMA."""
    return mma.tile_shape()


def _partition_shape(mma: TiledMMA, shape: Any, op: str) -> IntTuple:
    if not isinstance(mma, TiledMMA):
        raise LayoutError(f"partition_shape_{op}: expected a TiledMMA, got {type(mma).__name__}")
    thr = _inner(mma._thrfrg(make_layout(unwrap(shape)), op))
    rest = thr.shape[1][1]                                                # type: ignore[index]
    coord = (0, (_, (_,) * len(rest) if type(rest) is tuple and len(rest) != 1 else _))
    return wrap(slice_(coord, thr).shape)


def partition_shape_A(mma: TiledMMA, shape_mk: Any) -> IntTuple:
    """The shape of every thread's ``partition_A`` of an (M,K) tensor (CuTe's ``partition_shape_A``).

    >>> partition_shape_A(make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2)), (128, 32))
    ((_2,_2,_2),_4,_2)
    """
    return _partition_shape(mma, shape_mk, "A")


def partition_shape_B(mma: TiledMMA, shape_nk: Any) -> IntTuple:
    """The shape of every thread's ``partition_B`` of an (N,K) tensor."""
    return _partition_shape(mma, shape_nk, "B")


def partition_shape_C(mma: TiledMMA, shape_mn: Any) -> IntTuple:
    """The shape of every thread's ``partition_C`` of an (M,N) tensor."""
    return _partition_shape(mma, shape_mn, "C")


def _like(x: Any, layout: AnyLayout) -> Any:
    """``layout`` as what ``x`` is: a layout, or a tensor over ``x``'s engine."""
    return Tensor(x.engine, layout) if isinstance(x, Tensor) else layout
