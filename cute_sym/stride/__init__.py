"""Stride kinds below the layout algebra (:mod:`.kind`): integers, scaled bases and arithmetic
tuples (:mod:`.basis`), elements of F2^n (:mod:`.f2`)."""
from .kind import (
    StrideKind, is_stride_kind, orderable, stride_add, stride_continues, stride_eq_fact, stride_is_zero, stride_mul,
)
from .f2 import F2, clmul, is_f2
from .basis import (
    ArithmeticTuple, Coord, E, ScaledBasis, as_arithmetic_tuple, basis_get, basis_value, coord_add, coord_sum,
    coprofile_of, is_scaled_basis, make_basis_like,
)

__all__ = [
    "StrideKind", "is_stride_kind", "orderable", "stride_add", "stride_continues", "stride_eq_fact", "stride_is_zero",
    "stride_mul", "F2", "clmul", "is_f2",
    "ArithmeticTuple", "Coord", "E", "ScaledBasis", "as_arithmetic_tuple", "basis_get", "basis_value", "coord_add",
    "coord_sum", "coprofile_of", "is_scaled_basis", "make_basis_like",
]
