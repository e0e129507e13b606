"""CuTe's ``Copy_Atom<Op, T>``: a copy operation's traits with its bit layouts
recast to the element type ``T`` (``recast_layout<uint1_t, T>``).

>>> a = Copy_Atom("SM75_U32x4_LDSM_N", "half_t")
>>> print(a.ValLayoutSrc, a.ValLayoutDst, a.NumValSrc, a.NumValDst)
(_32,_8):(_8,_1) (_32,(_2,_4)):(_2,(_1,_64)) 8 8
"""
from __future__ import annotations

from typing import Union

from ...core.errors import LayoutError
from ...core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ...swizzle import recast_layout
from ...layout import Layout, size
from .copy_traits import CopyTraits, Copy_Traits
from .copy_types import sizeof_bits, type_name

__all__ = ["Copy_Atom"]


def _mode_size(layout: Layout, i: int) -> int:
    n = size(layout[i])
    if type(n) is not int:  # the table is static; a recast of it stays static
        raise LayoutError(f"copy atom layout {layout} is not static")
    return n


class Copy_Atom:
    """``Copy_Atom<Op, T>``: the copy operation ``op`` moving elements of type ``element_type``.

    Attributes by CuTe's names: ``Traits``, ``ThrID``, ``BitLayoutSrc``/``Dst``/``Ref``
    ((thr, val) -> bit), ``ValType``, ``ValLayoutSrc``/``Dst``/``Ref`` ((thr, val) -> element),
    ``NumValSrc``, ``NumValDst``.

    @pre ``op`` is accepted by :func:`Copy_Traits`; ``element_type`` is a CuTe type name.
    @pre the recast of each bit layout to ``element_type`` exists and keeps the thread mode:
         ``size<0>(ValLayoutX) == size(ThrID)`` (CuTe's "CopyOperation is not valid for X of
         ValType"), else :class:`LayoutError`.
    @post ``ValLayoutX == recast_layout(BitLayoutX, 1, sizeof_bits(element_type))``.

    As in CuTe, an element wider than the operation's value (``UniversalCopy<uint8_t>`` of
    ``half_t``) makes an atom of one value per thread: CuTe compiles it, and only the copy
    itself fails to vectorize.

    >>> a = Copy_Atom("UniversalCopy<uint128_t>", "half_t")
    >>> print(a.ThrID, a.ValLayoutSrc, a.ValLayoutRef, a.NumValSrc)
    _1:_0 (_1,_8):(_0,_1) (_1,_8):(_0,_1) 8
    >>> Copy_Atom("SM75_U32x1_LDSM_N", "double")
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: Copy_Atom<SM75_U32x1_LDSM_N, double>: CopyOperation is not valid for Dst of ValType.
    """
    __slots__ = ("Traits", "ThrID", "BitLayoutSrc", "BitLayoutDst", "BitLayoutRef", "ValType",
                 "ValLayoutSrc", "ValLayoutDst", "ValLayoutRef", "NumValSrc", "NumValDst")
    Traits: CopyTraits
    ThrID: Layout
    BitLayoutSrc: Layout
    BitLayoutDst: Layout
    BitLayoutRef: Layout
    ValType: str
    ValLayoutSrc: Layout
    ValLayoutDst: Layout
    ValLayoutRef: Layout
    NumValSrc: int
    NumValDst: int

    def __init__(self, op: Union[str, CopyTraits, "Copy_Atom"], element_type: str) -> None:
        if isinstance(op, Copy_Atom):
            op = op.Traits
        traits = op if isinstance(op, CopyTraits) else Copy_Traits(op)
        bits = sizeof_bits(element_type)
        vals = {}
        nthr = size(traits.ThrID)
        for which in ("Src", "Dst", "Ref"):
            bit_layout: Layout = getattr(traits, which + "Layout")
            val_layout = recast_layout(bit_layout, 1, bits)
            if _mode_size(val_layout, 0) != nthr:
                raise LayoutError(f"Copy_Atom<{traits.name}, {type_name(element_type)}>: "
                                  f"CopyOperation is not valid for {which} of ValType.")
            vals[which] = val_layout
        self._init(traits, type_name(element_type), vals["Src"], vals["Dst"], vals["Ref"])

    def _init(self, traits: CopyTraits, val_type: str, src: Layout, dst: Layout, ref: Layout) -> None:
        put = object.__setattr__
        put(self, "Traits", traits)
        put(self, "ThrID", traits.ThrID)
        put(self, "BitLayoutSrc", traits.SrcLayout)
        put(self, "BitLayoutDst", traits.DstLayout)
        put(self, "BitLayoutRef", traits.RefLayout)
        put(self, "ValType", val_type)
        put(self, "ValLayoutSrc", src)
        put(self, "ValLayoutDst", dst)
        put(self, "ValLayoutRef", ref)
        put(self, "NumValSrc", _mode_size(src, 1))
        put(self, "NumValDst", _mode_size(dst, 1))

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    @property
    def bits(self) -> int:
        """``sizeof_bits<ValType>``."""
        return sizeof_bits(self.ValType)

    def __repr__(self) -> str:
        return f"Copy_Atom<{self.Traits.name}, {self.ValType}>"

    def __str__(self) -> str:
        """CuTe's ``print(Copy_Atom)``."""
        return ("Copy_Atom\n"
                f"  ThrID:        {self.ThrID}\n"
                f"  ValLayoutSrc: {self.ValLayoutSrc}\n"
                f"  ValLayoutDst: {self.ValLayoutDst}\n"
                f"  ValLayoutRef: {self.ValLayoutRef}\n"
                f"  ValueType:    {self.bits}b")

    def __eq__(self, other: object) -> bool:
        return (type(other) is Copy_Atom and self.Traits == other.Traits
                and self.ValType == other.ValType)

    def __hash__(self) -> int:
        return hash(("Copy_Atom", self.Traits, self.ValType))

