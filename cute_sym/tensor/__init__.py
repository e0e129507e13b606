"""CuTe's tensor layer: scaled bases, engines, tensors, partitions.

* :mod:`.arith_tuple` - ``ScaledBasis`` (``_1@0``), ``ArithmeticTuple``, ``E``, ``make_basis_like``.
* :mod:`.basis_layout` - layouts whose strides are scaled bases, through the algebra.
* :mod:`.engine` - symbolic pointers (``make_gmem_ptr``...), NumPy arrays, counting engines.
* :mod:`.tensor` - ``Tensor``, ``make_tensor``, ``make_identity_tensor``, ``make_fragment_like``.
* :mod:`.ops` - the algebra's entry points taking tensors and basis layouts.
* :mod:`.partition` - ``local_tile``, ``local_partition``, ``inner_partition``, ``outer_partition``.
"""
from __future__ import annotations

from .arith_tuple import (
    ArithmeticTuple, E, ScaledBasis, as_arithmetic_tuple, basis_get, basis_value, make_basis_like,
)
from .basis_layout import is_basis_layout, make_identity_layout
from .engine import (
    ArrayEngine, CountingEngine, Pointer, make_counting_engine, make_gmem_ptr, make_rmem_ptr, make_smem_ptr,
)
from .tensor import (
    Tensor, is_tensor, make_coord_tensor, make_fragment_like, make_identity_tensor, make_tensor, make_tensor_like,
)
from .ops import (
    blocked_product, coalesce, composition, filter, filter_zeros, flat_divide, flat_product, flatten,
    group_modes, logical_divide, logical_product, raked_product, take, tiled_divide, tiled_product,
    zipped_divide, zipped_product,
)
from .partition import dice_tuple, get_flat_coord, inner_partition, local_partition, local_tile, outer_partition
from ..notation.notation import register_builder as _register_builder

# the notation reads ``ArithTuple(_0,_0) o L`` (how a coordinate tensor prints) and
# ``smem_ptr[half_t](sA) o L`` (a tensor over a symbolic pointer) into ours
_register_builder("coord_tensor", lambda start, layout: Tensor(CountingEngine(start), layout))
_register_builder("pointer", lambda space, name, dtype, offset: Pointer(space, name, dtype, offset))
_register_builder("pointer_tensor", lambda space, name, dtype, offset, layout: make_tensor(
    Pointer(space, name, dtype, offset), layout))

__all__ = [
    "ArithmeticTuple", "E", "ScaledBasis", "as_arithmetic_tuple", "basis_get", "basis_value", "make_basis_like",
    "is_basis_layout", "make_identity_layout", "ArrayEngine", "CountingEngine", "Pointer", "make_counting_engine",
    "make_gmem_ptr", "make_rmem_ptr", "make_smem_ptr", "Tensor", "is_tensor", "make_coord_tensor",
    "make_fragment_like", "make_identity_tensor", "make_tensor", "make_tensor_like", "blocked_product", "coalesce", "composition",
    "filter", "filter_zeros", "flat_divide", "flat_product", "flatten", "group_modes", "logical_divide",
    "logical_product", "raked_product", "take", "tiled_divide", "tiled_product", "zipped_divide",
    "zipped_product", "dice_tuple", "get_flat_coord", "inner_partition", "local_partition", "local_tile",
    "outer_partition",
]
