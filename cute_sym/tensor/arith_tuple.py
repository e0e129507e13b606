"""Scaled bases and arithmetic tuples, by their earlier address: they are stride kinds now
(:mod:`cute_sym.stride.basis`), below the layout algebra."""
from ..stride.basis import (
    ArithmeticTuple, Coord, E, ScaledBasis, as_arithmetic_tuple, basis_get, basis_value, coord_add, coord_sum,
    coprofile_of, is_scaled_basis, make_basis_like,
)

__all__ = [
    "ScaledBasis", "ArithmeticTuple", "E", "make_basis_like", "as_arithmetic_tuple", "basis_value",
    "basis_get", "is_scaled_basis", "coord_add", "coord_sum", "coprofile_of", "Coord",
]
