"""TMA copies (CuTe's ``copy_traits_sm90_tma.hpp``): the box from the smem layout, the
descriptor's fields, the TMA coordinate tensor, the CTA-collective tiled copy.

* :mod:`.ops_table` - the TMA operations as data.
* :mod:`.gbasis` - ``construct_tma_gbasis``, ``coalesce_256``: the box in gmem modes.
* :mod:`.desc` - ``make_tma_desc``: the descriptor's fields, CuTe's asserts as refusals.
* :mod:`.traits` - ``AuxTmaParams``, the TMA traits, atom and tiled copy.
* :mod:`.make` - ``make_tma_copy``, ``make_tma_atom``, ``tma_partition``.
* :mod:`.sm100` - ``make_tma_atom_A_sm100``, ``make_tma_atom_B_sm100`` (the CTA tile from the tiled MMA).
"""
from .ops_table import TMA_OPS, TmaOp, tma_op
from .desc import TmaDescriptor, make_tma_desc, tma_swizzle_mode
from .gbasis import coalesce_256, construct_tma_gbasis
from .traits import AuxTmaParams, TmaCopyAtom, TmaCopyTraits, TmaTiledCopy
from .make import make_tma_atom, make_tma_copy, tma_partition
from .sm100 import make_tma_atom_A_sm100, make_tma_atom_B_sm100

__all__ = ["TMA_OPS", "TmaOp", "tma_op", "TmaDescriptor", "make_tma_desc", "tma_swizzle_mode", "coalesce_256",
           "construct_tma_gbasis", "AuxTmaParams", "TmaCopyAtom", "TmaCopyTraits", "TmaTiledCopy",
           "make_tma_atom", "make_tma_copy", "tma_partition", "make_tma_atom_A_sm100", "make_tma_atom_B_sm100"]
