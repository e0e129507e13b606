"""Scaled bases and arithmetic tuples, at their old address.

The value types live in :mod:`cute_sym.core.arith_tuple` (layer 0): they are pure
values, and the notation (layer 4) reads ``_1@0`` and ``ArithTuple(...)`` into
them, which it could not do from here (layer 5) without importing upward.
"""
from __future__ import annotations

from ..core.arith_tuple import (
    ArithmeticTuple as ArithmeticTuple, Coord as Coord, E as E, ScaledBasis as ScaledBasis,
    as_arithmetic_tuple as as_arithmetic_tuple, basis_get as basis_get, basis_value as basis_value,
    coord_add as coord_add, coord_sum as coord_sum, coprofile_of as coprofile_of, is_scaled_basis as is_scaled_basis,
    make_basis_like as make_basis_like,
)

__all__ = [
    "ScaledBasis", "ArithmeticTuple", "E", "make_basis_like", "as_arithmetic_tuple", "basis_value",
    "basis_get", "is_scaled_basis", "coord_add", "coord_sum", "coprofile_of", "Coord",
]
