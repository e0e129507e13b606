"""Stride kinds below the algebra (cute_sym.stride): integers, scaled bases and arithmetic tuples
go through ONE algebra. Each operation's post-condition is checked on user-built layouts with
scaled-basis strides, against the same operation on the integer layout of the same shape
(a basis layout over a compact shape is that integer layout with each value written as its
coordinate)."""
from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

import cute_sym as cs
from cute_sym import ArithmeticTuple, E, LayoutError, make_layout
from cute_sym.core.int_tuple import crd2idx, idx2crd
from cute_sym.stride import ScaledBasis, is_stride_kind, stride_eq_fact, stride_mul

SHAPES = [(4, 3), (8, 6), ((2, 4), 8), (4, (2, 2), 3), (2, 2, 2)]


def _coord(x: Any, shape: Any) -> Any:
    """A layout value (an int, a basis, an arithmetic tuple) as a coordinate of ``shape``."""
    if is_stride_kind(x):
        x = x.coordinate()
    if x == 0 and type(shape) is tuple:
        return tuple(_coord(0, s) for s in shape)
    if type(shape) is tuple:
        x = tuple(x) + (0,) * (len(shape) - len(x))
        return tuple(_coord(a, s) for a, s in zip(x, shape))
    return x


def _lin(x: Any, shape: Any, stride: Any = None) -> int:
    return crd2idx(_coord(x, shape), shape, stride)  # type: ignore[no-any-return]


def _encoded(shape: tuple[int, ...]) -> Any:
    """The integer layout that is the identity layout of a flat ``shape`` read with strides that
    never merge (``100**k``): the same modes, the same steps of the algebra."""
    return make_layout(shape, tuple(100 ** k for k in range(len(shape))))


def test_public_make_layout_takes_scaled_bases() -> None:
    """make_layout((4,3), (E(0), E(1))) is the identity layout of (4,3); int strides stay ints."""
    L = make_layout((4, 3), (E(0), E(1)))
    assert str(L) == "(_4,_3):(_1@0,_1@1)" and L == cs.make_identity_layout((4, 3))
    assert all(L(i, j) == ArithmeticTuple((i, j)) for i in range(4) for j in range(3))
    P = make_layout((4, 3))
    assert all(type(d) is int for d in P.stride)     # no stride kind on the integer path


def test_stride_kind_operations() -> None:
    """The handful of operations the algebra asks: scale, compare, zero."""
    e1 = E(1)
    assert stride_mul(3, e1) == 3 * e1 and stride_mul(0, e1) == 0 and stride_mul(1, e1) is e1
    assert stride_eq_fact(2 * E(0), 2 * E(0)) is True and stride_eq_fact(E(0), E(1)) is False
    assert stride_eq_fact(E(0), 1) is False and stride_eq_fact(0 * E(0), 0) is True
    at = ArithmeticTuple((1, 2))
    assert stride_mul(2, at) == ArithmeticTuple((2, 4)) and stride_eq_fact(at, E(0) + 2 * E(1)) is True


@pytest.mark.parametrize("shape", SHAPES)
def test_coalesce_of_a_basis_layout_is_the_same_function(shape: Any) -> None:
    for perm in itertools.permutations(range(len(shape))):
        strides = tuple(cs.make_basis_like(shape)[k] for k in perm)
        shp = tuple(shape[k] for k in perm)
        L = make_layout(shp, strides)
        R = cs.coalesce(L)
        assert cs.size(R) == cs.size(L)
        assert all(R(i) == L(i) for i in range(cs.size(L)))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("rhs", ["(_2,_2):(_1,_2)", "_4:_2", "(_3,_2):(_2,_1)", "((_2,_2),_2):((_1,_8),_4)",
                                 "(_4,_4):(_0,_2)", "_2:_1"])
def test_composition_with_a_basis_lhs(shape: Any, rhs: str) -> None:
    """R(i) == I(B(i)) read as indices (a coordinate may pass an extent, as in CuTe), and the result
    has B's shape; the integer layout of the same shape gives the same indices."""
    I = cs.make_identity_layout(shape)
    B = cs.parse(rhs)
    if cs.cosize(B) > cs.size(I):
        return
    try:
        R = cs.composition(I, B)
    except LayoutError:
        with pytest.raises(LayoutError):
            cs.composition(make_layout(shape, tuple(100 ** k for k in range(len(cs.flatten(shape))))
                                       if type(shape[0]) is int and len(cs.flatten(shape)) == len(shape)
                                       else cs.make_layout(shape)), B)
        return
    assert cs.compatible(cs.shape(B), cs.shape(R))
    flat = cs.product(shape)
    for i in range(cs.size(B)):
        assert _lin(R(i), shape) == B(i) % flat or _lin(R(i), shape) == B(i)


@given(st.data())
@settings(max_examples=60, deadline=None)
def test_composition_with_a_basis_rhs(data: Any) -> None:
    """An rhs stride k@i composes with lhs mode i: R(c) == A(B(c)) (B's values are coordinates)."""
    a_shape = tuple(data.draw(st.sampled_from([2, 3, 4])) for _ in range(2))
    A = make_layout(a_shape, tuple(data.draw(st.sampled_from([1, 2, 5, 7])) for _ in range(2)))
    k = data.draw(st.integers(0, 1))
    n = data.draw(st.sampled_from([1, 2]))
    if a_shape[k] % n:
        return
    B = make_layout((a_shape[k] // n, a_shape[1 - k]), (n * E(k), E(1 - k)))
    R = cs.composition(A, B)
    assert all(R(i) == A(B(i)) for i in range(cs.size(B)))


@pytest.mark.parametrize("shape", [(8, 6), (4, 8), (16, 8), (6, 4, 2)])
@pytest.mark.parametrize("tiler", [(2, 3), (4, 2), "(_2,_2):(_1,_4)", "_4:_2", "(_2,_3):(_3,_1)"])
@pytest.mark.parametrize("op", ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"])
def test_divides_of_a_basis_layout_follow_the_integer_divides(shape: Any, tiler: Any, op: str) -> None:
    """The divide of the identity layout is the divide of the integer layout of the same modes
    (strides that never merge), value for value, error for error."""
    t = cs.parse(tiler) if isinstance(tiler, str) else tiler
    f = getattr(cs, op)
    enc = _encoded(shape)
    try:
        want = f(enc, t)
    except LayoutError:
        with pytest.raises(LayoutError):
            f(cs.make_identity_layout(shape), t)
        return
    got = f(cs.make_identity_layout(shape), t)
    assert cs.shape(got) == cs.shape(want)
    assert all(_lin(got(i), shape, enc.stride) == want(i) for i in range(cs.size(want)))


def test_divide_by_a_basis_strided_tiler() -> None:
    """A tiler whose strides are bases selects lhs modes (composition's basis rhs)."""
    A = make_layout((8, 6), (6, 1))
    T = make_layout((2, 3), (E(0), E(1)))
    R = cs.composition(A, T)
    assert all(R(i) == A(T(i)) for i in range(cs.size(T)))


@pytest.mark.parametrize("op", ["complement", "right_inverse", "left_inverse"])
def test_orderless_strides_are_refused(op: str) -> None:
    with pytest.raises(LayoutError, match="order"):
        getattr(cs, op)(make_layout((4, 3), (E(0), E(1))))
    with pytest.raises(LayoutError):
        cs.logical_product(make_layout((4, 3), (E(0), E(1))), make_layout(2))


@pytest.mark.parametrize("cast", [lambda L: cs.upcast(L, 2), lambda L: cs.downcast(L, 2),
                                  lambda L: cs.recast_layout(L, 16, 32)])
def test_casts_of_coordinate_strides_are_refused(cast: Any) -> None:
    with pytest.raises(LayoutError, match="not integers"):
        cast(make_layout((4, 3), (E(0), E(1))))


def test_arithmetic_tuple_elements() -> None:
    """Z^S: scalar *, colex order, implicit-zero equality (PyCuTe's atuple facts)."""
    a = ArithmeticTuple((1, 2, 3))
    assert a * 4 == (4, 8, 12) and 4 * a == (4, 8, 12)
    assert E(0) == ArithmeticTuple((1, 0)) == ArithmeticTuple((1,))
    assert 0 * E(2) == 0 and ScaledBasis(0, (3,)) == 0 and ArithmeticTuple((5,)) != 5
    assert hash(E(0)) == hash(ArithmeticTuple((1, 0)))
    shape = (4, (5, 6), 2)
    crds = [ArithmeticTuple(idx2crd(i, shape)) for i in range(cs.size(shape))]
    assert all(crds[i] < crds[i + 1] and crds[i + 1] > crds[i] for i in range(len(crds) - 1))
    assert all(0 < E(*seq) for seq in [(0,), (1,), (1, 2)])
