"""Swizzles, composed layouts, and the algebra over every layout, plain or swizzled.

``swizzle`` holds CuTe's ``Swizzle<B,M,S>``, ``composed`` the ``ComposedLayout``
``A o O o B``, and ``ops`` every operation of the algebra, taking plain and
composed layouts alike: the layers above import the operations from here.
"""
from .swizzle import Swizzle, make_swizzle
from .composed import ComposedLayout, make_composed_layout
from .ops import (
    dispatch, compose_layout_swizzle, compose_swizzles,
    coalesce, coalesce_shape, filter, composition, complement, right_inverse, left_inverse,
    logical_divide, zipped_divide, tiled_divide, flat_divide, logical_product, zipped_product,
    tiled_product, flat_product, blocked_product, raked_product, tile_to_shape,
    max_common_layout, max_common_vector, nullspace, upcast, downcast, recast_layout, zip_layouts,
)

__all__ = [
    "Swizzle", "make_swizzle", "ComposedLayout", "make_composed_layout", "dispatch",
    "compose_layout_swizzle", "compose_swizzles",
    "coalesce", "coalesce_shape", "filter", "composition", "complement", "right_inverse", "left_inverse",
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product", "zipped_product",
    "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape",
    "max_common_layout", "max_common_vector", "nullspace", "upcast", "downcast", "recast_layout",
    "zip_layouts",
]
