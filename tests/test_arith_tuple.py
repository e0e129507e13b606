"""Scaled bases (CuTe's E<i...>, ScaledBasis) and ArithmeticTuple: arithmetic, equality, printing."""
from __future__ import annotations

from typing import Any

import pytest
import sympy
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import LayoutError
from cute_sym.core.int_tuple import fmt
from cute_sym.tensor.arith_tuple import (
    ArithmeticTuple, E, ScaledBasis, as_arithmetic_tuple, basis_get, coord_add, coord_sum, coprofile_of,
    make_basis_like,
)

ints = st.integers(-50, 50)
paths = st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple)
bases = st.builds(ScaledBasis, ints, paths)


def bases_of(depth: int) -> Any:
    return st.builds(ScaledBasis, ints, st.lists(st.integers(0, 3), min_size=depth, max_size=depth).map(tuple))


# bases of one depth add (CuTe cannot add an integer to a tuple: E<0> + E<0,0> is an error)
triples = st.integers(1, 3).flatmap(lambda d: st.tuples(bases_of(d), bases_of(d), bases_of(d)))


def dense(x: Any) -> Any:
    """The plain nested tuple (or int) a coordinate stands for, zeros written out, trailing zeros cut."""
    x = as_arithmetic_tuple(x)
    if isinstance(x, ArithmeticTuple):
        items = [dense(e) for e in x]
        while items and items[-1] == 0:
            items.pop()
        return tuple(items) if items else 0
    return x


@given(ints, ints, bases)
def test_scaling_is_associative_and_commutative(a: int, b: int, e: ScaledBasis) -> None:
    assert (a * b) * e == a * (b * e) == e * (a * b)
    assert (a * e).modes == e.modes and (a * e).value == a * e.value


@given(triples)
def test_addition_is_commutative_and_associative(abc: tuple[ScaledBasis, ScaledBasis, ScaledBasis]) -> None:
    a, b, c = abc
    assert dense(a + b) == dense(b + a)
    assert dense((a + b) + c) == dense(a + (b + c))


@given(triples)
def test_addition_adds_the_dense_coordinates(abc: tuple[ScaledBasis, ScaledBasis, ScaledBasis]) -> None:
    a, b, _c = abc
    """``a + b`` is the element-wise sum of the tuples the bases stand for."""
    def at(x: Any, path: tuple[int, ...]) -> int:
        x = as_arithmetic_tuple(x)
        for m in path:
            if not isinstance(x, ArithmeticTuple):
                return 0
            if m >= len(x):
                return 0
            x = x[m]
        return x if not isinstance(x, ArithmeticTuple) else 0
    s = a + b
    for p in {a.modes, b.modes}:
        assert at(s, p) == (a.value if a.modes == p else 0) + (b.value if b.modes == p else 0)


def test_mixed_depths_do_not_add() -> None:
    with pytest.raises(LayoutError):
        E(0) + E(0, 0)


@given(bases)
def test_negation_and_subtraction(e: ScaledBasis) -> None:
    assert -(-e) == e
    assert dense(e - e) == 0
    assert dense(e + (-e)) == 0


@given(bases)
def test_basis_get_reads_the_value_back(e: ScaledBasis) -> None:
    assert basis_get(e, as_arithmetic_tuple(e)) == e.value


@given(st.lists(ints, min_size=1, max_size=5))
def test_sum_of_scaled_bases_is_the_tuple(cs_: list[int]) -> None:
    total = coord_sum(c * E(i) for i, c in enumerate(cs_))
    assert dense(total) == dense(ArithmeticTuple(tuple(cs_)))


@given(bases, bases)
def test_equality_is_modes_and_value(a: ScaledBasis, b: ScaledBasis) -> None:
    """Two bases are equal when their modes and values are, or both are zero (PyCuTe's
    implicit-zero equality: an element of Z^S; CuTe's C++ compares the modes alone)."""
    assert (a == b) == (a.modes == b.modes and a.value == b.value or a.value == 0 == b.value)
    if a == b:
        assert hash(a) == hash(b)
    assert (a == a.value) == (a.value == 0 or not a.modes)   # a non-zero basis is no integer


def test_printing_as_cute() -> None:
    assert str(E(0)) == "_1@0" and str(8 * E(1)) == "_8@1"
    assert str(E(0, 1)) == "_1@1@0"            # innermost index first, as CuTe's print
    assert str(E(1, 0, 2)) == "_1@2@0@1"
    M = cs.Dyn("M")
    assert str(M * E(0)) == "M@0" and str(sympy.Integer(4) * E(1)) == "4@1"
    assert str(ArithmeticTuple((0, 0))) == "(_0,_0)"
    assert str(cs.make_identity_tensor((4, 8)).engine) == "ArithTuple(_0,_0)"
    assert fmt((E(0), 2 * E(1))) == "(_1@0,_2@1)"


def test_static_zero_and_flattening() -> None:
    assert coord_add(0, E(1)) == E(1) and coord_add(E(1), 0) == E(1)
    assert ScaledBasis(ScaledBasis(3, (1,)), (0,)) == ScaledBasis(3, (0, 1))
    assert E() == 1
    with pytest.raises(LayoutError):
        coord_add(ArithmeticTuple((1, 2)), 5)      # only a static 0 adds to a tuple
    with pytest.raises(LayoutError):
        ScaledBasis("x", (0,))
    with pytest.raises(LayoutError):
        ScaledBasis(1, (-1,))
    with pytest.raises(AttributeError):
        E(0).value = 3  # type: ignore[misc]


def test_make_basis_like_and_coprofile() -> None:
    shape = (4, (2, (3, 5)), 6)
    basis = make_basis_like(shape)
    # the leaf at position p holds E(p...), and the coprofile is the codomain's nesting
    assert basis[1][1][0] == E(1, 1, 0) and basis[2] == E(2)
    assert coprofile_of(basis) == (0, (0, (0, 0)), 0)
    assert make_basis_like(7) == 1 and coprofile_of(1) == 0


def test_arithmetic_tuple_plain_tuple_interplay() -> None:
    a = ArithmeticTuple((1, (2, 3)))
    assert a == (1, (2, 3)) and a + (1, (1, 1)) == (2, (3, 4))
    assert (1, (0, 0)) + a == (2, (2, 3))
    assert a.is_static() and not ArithmeticTuple((cs.Dyn("k"), 0)).is_static()
