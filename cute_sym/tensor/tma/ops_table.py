"""The TMA copy operations as data: direction, CTAs per instruction, multicast
(``cute/arch/copy_sm90_tma.hpp``, ``copy_sm100_tma.hpp`` and their ``Copy_Traits``:
``ThrID = Layout<_1>`` and ``SrcLayout = Layout<Shape<_1,NumBits>>`` for one CTA,
``ThrID = Layout<_2>`` and ``Layout<Shape<_2,NumBits>,Stride<NumBits,_1>>`` for the
2-SM loads).

>>> tma_op("SM90_TMA_LOAD_MULTICAST")
TmaOp(name='SM90_TMA_LOAD_MULTICAST', direction='load', ctas=1, multicast=True)
"""
from __future__ import annotations

from typing import Mapping, NamedTuple

from ...core.errors import LayoutError
from ..atoms.copy_types import type_name

__all__ = ["TmaOp", "TMA_OPS", "TMA_IM2COL_OPS", "tma_op"]


class TmaOp(NamedTuple):
    name: str
    direction: str      # "load" (gmem -> smem), "store" or "reduce" (smem -> gmem)
    ctas: int           # CTAs one instruction serves (ThrID's size)
    multicast: bool


TMA_OPS: Mapping[str, TmaOp] = {t.name: t for t in (
    TmaOp("SM90_TMA_LOAD", "load", 1, False),
    TmaOp("SM90_TMA_LOAD_MULTICAST", "load", 1, True),
    TmaOp("SM90_TMA_STORE", "store", 1, False),
    TmaOp("SM90_TMA_REDUCE_ADD", "reduce", 1, False),
    TmaOp("SM100_TMA_2SM_LOAD", "load", 2, False),
    TmaOp("SM100_TMA_2SM_LOAD_MULTICAST", "load", 2, True),
)}

# im2col (convolution) TMA: CuTe builds these through make_im2col_tma_copy, not done here
TMA_IM2COL_OPS = ("SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_MULTICAST", "SM90_TMA_STORE_IM2COL",
                  "SM100_TMA_2SM_LOAD_IM2COL", "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST",
                  "SM100_TMA_LOAD_2D_GATHER4", "SM100_TMA_LOAD_MULTICAST_2D_GATHER4", "SM100_TMA_STORE_2D_SCATTER4")


def tma_op(name: str) -> TmaOp:
    """The TMA operation named ``name`` (CuTe's struct name, ``cute::`` allowed).

    @pre one of :data:`TMA_OPS`, else :class:`LayoutError` listing them; the im2col and
         gather/scatter operations raise ``NotImplementedError`` (not modelled).
    """
    if not isinstance(name, str):
        raise LayoutError(f"TMA: the copy operation is named by a string, got {type(name).__name__}")
    key = type_name(name).rstrip("{}")
    if key in TMA_OPS:
        return TMA_OPS[key]
    if key in TMA_IM2COL_OPS:
        raise NotImplementedError(f"{key}: im2col and gather/scatter TMA copies are not modelled by cute_sym")
    raise LayoutError(f"TMA: {name!r} is not a TMA copy operation; one of {', '.join(TMA_OPS)}")
