"""The traits, atom and tiled copy of a TMA operation (CuTe's ``AuxTmaParams``,
``Copy_Traits<SM90_TMA_*, NumBitsPerTMA, AuxParams>`` and the ``get_tma_tensor`` they offer).

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.basis_layout import make_identity_layout
>>> from cute_sym.tensor.arith_tuple import E
>>> aux = AuxTmaParams((E(0), E(1)), make_identity_layout((32, 8)), parse("Sw<3,4,3>"))
>>> print(aux.TmaGmemBasis, aux.TmaSwizzle, fmt(aux.g_stride_))
(_32,_8):(_1@0,_1@1) Sw<3,4,3> (_1@0,_1@1)
"""
from __future__ import annotations

from typing import Any

from ...core.errors import LayoutError
from ...core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ...core.int_tuple import congruent, fmt, unwrap
from ...layout import Layout, make_layout
from ...layout.layout import _mk
from ...core.errors import RankError
from ...swizzle import ComposedLayout, Swizzle
from ..atoms.copy_atom import Copy_Atom
from ..atoms.copy_traits import CopyTraits
from ..copy import TiledCopy, _unfold
from ..ops import compose_modes
from ..tensor import Tensor, make_coord_tensor
from .desc import TmaDescriptor
from .ops_table import TmaOp

__all__ = ["AuxTmaParams", "TmaCopyTraits", "TmaCopyAtom", "TmaTiledCopy"]


class AuxTmaParams:
    """``AuxTmaParams<GmemStrides, TmaGmemBasis, TmaSwizzle>``: ``g_stride_`` (gmem mode ->
    TMA coordinate basis), ``TmaGmemBasis`` (box shape : gmem modes), ``TmaSwizzle``."""
    __slots__ = ("g_stride_", "TmaGmemBasis", "TmaSwizzle")
    g_stride_: Any
    TmaGmemBasis: Layout
    TmaSwizzle: Swizzle

    def __init__(self, g_stride: Any, gbasis: Layout, swizzle: Swizzle) -> None:
        object.__setattr__(self, "g_stride_", g_stride)
        object.__setattr__(self, "TmaGmemBasis", gbasis)
        object.__setattr__(self, "TmaSwizzle", swizzle)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("AuxTmaParams is immutable")

    @property
    def GmemStrides(self) -> Any:
        return self.g_stride_

    def __repr__(self) -> str:
        return f"AuxTmaParams<{fmt(self.g_stride_)}, {self.TmaGmemBasis}, {self.TmaSwizzle}>"


def get_tma_tensor(aux: AuxTmaParams, g_shape: Any) -> Tensor:
    """``make_coord_tensor(make_layout(g_shape, g_stride_))``: the TMA coordinate tensor.

    @pre ``g_shape`` congruent with the gmem tensor's shape, else :class:`LayoutError`.
    """
    g_shape = unwrap(g_shape)
    if not congruent(g_shape, aux.g_stride_):
        raise LayoutError(f"get_tma_tensor: the shape {fmt(g_shape)} is not congruent with the gmem tensor's "
                          f"{fmt(aux.g_stride_)} (pass shape(gmem tensor))")
    make_layout(g_shape)     # checks the shape
    return make_coord_tensor(_mk(g_shape, aux.g_stride_))


class TmaCopyTraits(CopyTraits):
    """``Copy_Traits<Op, C<NumBitsPerTMA>, AuxParams>`` of a TMA operation: CuTe's ``ThrID``,
    ``SrcLayout``/``DstLayout``/``RefLayout`` ((thr, bit) -> bit), ``AuxParams``, ``NumBitsPerTMA``
    and the descriptor's fields ``tma_desc``."""
    __slots__ = ("op", "AuxParams", "aux_params_", "NumBitsPerTMA", "tma_desc")
    op: TmaOp
    AuxParams: AuxTmaParams
    aux_params_: AuxTmaParams
    NumBitsPerTMA: int
    tma_desc: TmaDescriptor

    def __init__(self, op: TmaOp, num_bits: int, aux: AuxTmaParams, desc: TmaDescriptor) -> None:
        thr = make_layout(op.ctas)
        src = make_layout((1, num_bits)) if op.ctas == 1 else make_layout((op.ctas, num_bits), (num_bits, 1))
        super().__init__(op.name, thr, src, src, src)
        for k, v in (("op", op), ("AuxParams", aux), ("aux_params_", aux), ("NumBitsPerTMA", num_bits),
                     ("tma_desc", desc)):
            object.__setattr__(self, k, v)

    def get_tma_tensor(self, g_shape: Any) -> Tensor:
        """The TMA coordinate tensor over ``g_shape`` (the gmem tensor's shape)."""
        return get_tma_tensor(self.aux_params_, g_shape)

    def __repr__(self) -> str:
        return f"Copy_Traits<{self.name}, _{self.NumBitsPerTMA}, {self.AuxParams!r}>"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, TmaCopyTraits) and self.name == other.name
                and self.NumBitsPerTMA == other.NumBitsPerTMA and str(self.AuxParams) == str(other.AuxParams))

    def __hash__(self) -> int:
        return hash(("TmaCopyTraits", self.name, self.NumBitsPerTMA))


class TmaCopyAtom(Copy_Atom):
    """``Copy_Atom<Copy_Traits<TMA op, ...>, T>`` (what ``make_tma_atom`` returns)."""
    __slots__ = ()

    @property
    def tma_traits(self) -> TmaCopyTraits:
        t = self.Traits
        if not isinstance(t, TmaCopyTraits):  # pragma: no cover - built only from TMA traits
            raise LayoutError("not a TMA atom")
        return t

    def get_tma_tensor(self, g_shape: Any) -> Tensor:
        """The TMA coordinate tensor (``atom.get_tma_tensor(shape(gmem))``)."""
        return self.tma_traits.get_tma_tensor(g_shape)

    def get_tma_descriptor(self) -> TmaDescriptor:
        return self.tma_traits.tma_desc


class TmaTiledCopy(TiledCopy):
    """The ``TiledCopy`` ``make_tma_copy`` returns: ``Tiler_MN`` the CTA tile, ``TiledLayout_TV``
    (CTA in the multicast, value) -> tile coordinate, ``get_slice(cta)`` a CTA's share.

    Under multicast every CTA's values span the whole box (CuTe's TV layout is not injective:
    each CTA's TMA lands its part, the partition keeps the box's shape), so the tile is
    composed mode by mode, as CuTe does.
    """
    __slots__ = ()

    def tile2thrfrg(self, layout: Any, ref2trg: Layout) -> Any:
        if not isinstance(layout, (Layout, ComposedLayout)) or layout.rank() != 2:
            raise RankError(f"tile2thrfrg: expected a (tile, rest) layout of rank 2, got {layout}")
        tv = self.thrval2mn(ref2trg)
        if isinstance(layout, ComposedLayout):
            inner = layout.layout_b
            if not isinstance(inner, Layout):
                raise LayoutError(f"TMA partition: expected Swizzle o offset o Layout, got {layout}")
            first = compose_modes(inner[0], tv)
            whole = _mk((first.shape, inner[1].shape), (first.stride, inner[1].stride))
            return _unfold(ComposedLayout(layout.layout_a, layout.offset, whole))
        first = compose_modes(layout[0], tv)
        rest = layout[1]
        return _unfold(_mk((first.shape, rest.shape), (first.stride, rest.stride)))

    def get_tma_tensor(self, g_shape: Any) -> Tensor:
        """The TMA coordinate tensor (``tma.get_tma_tensor(shape(gmem))``)."""
        t = self.Traits
        if not isinstance(t, TmaCopyTraits):  # pragma: no cover
            raise LayoutError("not a TMA copy")
        return t.get_tma_tensor(g_shape)

    def get_tma_descriptor(self) -> TmaDescriptor:
        t = self.Traits
        if not isinstance(t, TmaCopyTraits):  # pragma: no cover
            raise LayoutError("not a TMA copy")
        return t.tma_desc
