"""The layout algebra on plain layouts: coalesce, composition, complement, inverses, divides, products.

One module a family; names, argument forms and results follow CuTe's
``layout.hpp``. Static layouts give CuTe's answer exactly (nesting and printing
included); dynamic ones give exact formulas, and every fact an answer depends on
is decided by :mod:`cute_sym.core.decide` (or the operation raises
:class:`~cute_sym.core.errors.UndecidableError` naming it). Swizzled (composed)
layouts are the next layer's (:mod:`cute_sym.swizzle.ops`).

>>> from cute_sym.notation import parse
>>> print(coalesce(parse("(_2,(_1,_6)):(_1,(_6,_2))")))
_12:_1
>>> print(composition(parse("(_6,_2):(_8,_2)"), parse("(_4,_3):(_3,_1)")))
((_2,_2),_3):((_24,_2),_8)
>>> print(complement(parse("_4:_2"), 24))
(_2,_3):(_1,_8)
>>> print(logical_divide(parse("_16:_3"), parse("_4:_2")))
(_4,(_2,_2)):(_6,(_3,_24))
"""
from .coalesce import coalesce, coalesce_shape, filter
from .composition import composition
from .complement import complement
from .inverse import right_inverse, left_inverse
from .divide import logical_divide, zipped_divide, tiled_divide, flat_divide
from .product import (
    logical_product, zipped_product, tiled_product, flat_product, blocked_product, raked_product,
    tile_to_shape, zip_layouts,
)
from .vector import max_common_layout, max_common_vector, nullspace, upcast, downcast, recast_layout
from .join import common_refinement, common_coarsening, greatest_common_domain, layout_add
from .coalesce_z import coalesce_z

__all__ = [
    "coalesce", "coalesce_shape", "filter", "composition", "complement", "right_inverse", "left_inverse",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
    "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape",
    "max_common_layout", "max_common_vector", "nullspace", "upcast", "downcast", "recast_layout",
    "zip_layouts", "common_refinement", "common_coarsening", "greatest_common_domain", "layout_add", "coalesce_z",
]
