"""MMA_Atom: CuTe's ``MMA_Atom<Op>``, the traits of one MMA instruction as the unit a TiledMMA tiles."""
from __future__ import annotations

from typing import Union

from ...core.errors import RankError
from ...core.int_tuple import congruent, fmt
from ...layout import Layout
from .mma_traits import MMA_Traits

__all__ = ["MMA_Atom"]


class MMA_Atom(MMA_Traits):
    """CuTe's ``MMA_Atom<Op>``: the traits of one MMA instruction, as the unit a TiledMMA tiles.

    ``LayoutA_TV``/``LayoutB_TV``/``LayoutC_TV`` are the traits' A/B/C layouts.

    @pre ``name`` names an atom (see :class:`MMA_Traits`) whose layouts CuTe can use: the
         traits' shapes and strides are congruent.

    >>> atom = MMA_Atom("SM75_16x8x8_F32F16F16F32_TN")
    >>> print(atom.LayoutB_TV, atom.Shape_MNK)
    ((_4,_8),_2):((_16,_1),_8) (_16,_8,_8)
    """

    __slots__ = ()

    def __init__(self, name: Union[str, MMA_Traits]) -> None:
        super().__init__(name.name if isinstance(name, MMA_Traits) else name)
        for what in ("ThrID", "ALayout", "BLayout", "CLayout"):
            lay = getattr(self, what)
            if not congruent(lay.shape, lay.stride):
                raise RankError(f"MMA_Atom {self.name}: CuTe's {what} {lay} has a stride not congruent "
                                "with its shape; no layout operation can use it")

    def __str__(self) -> str:
        """As CuTe's ``print(mma_atom)``."""
        return (f"MMA_Atom\n  ThrID:      {self.ThrID}\n  Shape_MNK:  {fmt(self.Shape_MNK)}\n"
                f"  LayoutA_TV: {self.ALayout}\n  LayoutB_TV: {self.BLayout}\n  LayoutC_TV: {self.CLayout}")

    @property
    def LayoutA_TV(self) -> Layout:
        return self.ALayout

    @property
    def LayoutB_TV(self) -> Layout:
        return self.BLayout

    @property
    def LayoutC_TV(self) -> Layout:
        return self.CLayout
