"""The typed signatures of the lazily loaded MMA functions (the atoms' tables load on first use:
``cute_sym.__getattr__`` enters the implementation through :mod:`cute_sym.api.lazy`). Read by
type checkers only."""
# mypy: disable-error-code="empty-body"
from __future__ import annotations

from typing import Any as _Any, Union as _Union

from ..layout.layout import Layout
from ..swizzle import ComposedLayout
from ..tensor.atoms import MMA_Traits
from ..tensor.mma import MMA_Atom, TiledMMA
from .types import IntTuple

def make_tiled_mma(atom: _Union[str, MMA_Traits, MMA_Atom], atom_layout: _Any = (1, 1, 1),
                   permutations: _Any = None) -> TiledMMA: ...
def tile_shape(mma: TiledMMA) -> IntTuple: ...
def partition_shape_A(mma: TiledMMA, shape_mk: IntTuple) -> IntTuple: ...
def partition_shape_B(mma: TiledMMA, shape_nk: IntTuple) -> IntTuple: ...
def partition_shape_C(mma: TiledMMA, shape_mn: IntTuple) -> IntTuple: ...

# --- Blackwell UMMA (issue 35, MMA side): tile_to_mma_shape, tmem_frg_layout
def tile_to_mma_shape(atom: _Union[Layout, ComposedLayout], mma_tile_shape: IntTuple,
                      order: _Any = None) -> _Union[Layout, ComposedLayout]: ...
def tmem_frg_layout(frg_type: str, tmem_shape: IntTuple) -> Layout: ...
def tmem_sf_frg_layout(sf_type: str, n_sm: int, is_sfa: bool, tmem_shape: IntTuple,
                       alloc: str = "ScaleFactorDuplicated4by1") -> Layout: ...

