"""Post-conditions of the operations taken from NVIDIA PyCuTe (issue 34), on random inputs:
layout_add (pointwise sum, any stride kind), greatest_common_domain, the shape join/meet,
coalesce_z (the extended domain) and the hierarchical-tuple helpers."""
from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import assume, given, settings, strategies as st

import cute_sym as cs
from cute_sym import E, F2, LayoutError, make_layout
from cute_sym.core.int_tuple import crd2idx, idx2crd

ext = st.sampled_from([1, 2, 3, 4, 6])
flat_shapes = st.lists(ext, min_size=1, max_size=4).map(tuple)


def _nest(draw: Any, shape: tuple[int, ...]) -> Any:
    """``shape`` with a random grouping of its leaves (a coarser or equal profile's refinement)."""
    out, i = [], 0
    while i < len(shape):
        k = draw(st.integers(1, len(shape) - i))
        out.append(shape[i] if k == 1 else tuple(shape[i:i + k]))
        i += k
    return tuple(out)


@st.composite
def int_layouts(draw: Any, n: int = 12) -> Any:
    shapes = {12: [(12,), (4, 3), (2, 6), (2, 2, 3), (3, 4), (6, 2), (2, 3, 2)], 16: [(16,), (4, 4), (2, 8), (2, 2, 4)]}[n]
    s = draw(st.sampled_from(shapes))
    d = tuple(draw(st.sampled_from([0, 1, 2, 3, 4, 5, 12])) for _ in s)
    return make_layout(s, d)


@given(int_layouts(), int_layouts())
@settings(max_examples=150, deadline=None)
def test_layout_add_is_the_pointwise_sum(a: Any, b: Any) -> None:
    try:
        r = cs.layout_add(a, b)
    except LayoutError as e:
        assert "common refinement" in str(e)
        return
    assert cs.size(r) == cs.size(a) and r == cs.layout_add(b, a)
    assert all(r(i) == a(i) + b(i) for i in range(cs.size(a)))


@given(st.data())
@settings(max_examples=80, deadline=None)
def test_layout_add_of_bases_and_f2(data: Any) -> None:
    s = data.draw(st.sampled_from([(16,), (4, 4), (2, 8), (2, 2, 4)]))
    kind = data.draw(st.sampled_from(["basis", "f2"]))
    def one() -> Any:
        if kind == "basis":
            return make_layout(s, tuple(data.draw(st.integers(1, 3)) * E(data.draw(st.integers(0, 2))) for _ in s))
        return make_layout(s, tuple(F2(data.draw(st.integers(0, 64))) for _ in s))
    a, b = one(), one()
    r = cs.layout_add(a, b)
    assert all(r(i) == a(i) + b(i) for i in range(16))


@given(flat_shapes, flat_shapes)
@settings(max_examples=150, deadline=None)
def test_greatest_common_domain(a: Any, b: Any) -> None:
    r = cs.greatest_common_domain(a, b)
    assert cs.depth(r) == 1 and r == cs.greatest_common_domain(b, a)
    assert math.gcd(cs.product(a), cs.product(b)) % cs.size(r) == 0
    for shp in (a, b):
        c = cs.composition(make_layout(shp), r)        # R divides the domain of both
        assert all(c(i) == r(i) for i in range(cs.size(r)))
        assert cs.product(shp) % cs.size(r) == 0


@given(st.data())
@settings(max_examples=120, deadline=None)
def test_join_and_meet(data: Any) -> None:
    """Two coarsenings of one shape have a join (refined by that shape) and a meet; any two shapes
    of one size have a meet."""
    leaves_ = data.draw(st.lists(st.sampled_from([2, 3, 5]), min_size=1, max_size=5))
    fine = _nest(data.draw, tuple(leaves_))

    def coarsen(t: Any) -> Any:
        if type(t) is tuple:
            return cs.product(t) if data.draw(st.booleans()) else tuple(coarsen(e) for e in t)
        return t
    a, b = coarsen(fine), coarsen(fine)
    j, m = cs.common_refinement(a, b), cs.common_coarsening(a, b)
    assert cs.compatible(a, j) and cs.compatible(b, j) and cs.compatible(j, fine)
    assert cs.compatible(m, a) and cs.compatible(m, b) and cs.compatible(m, j)
    assert j == cs.common_refinement(b, a) and m == cs.common_coarsening(b, a)
    other = _nest(data.draw, tuple(leaves_[::-1]))
    m2 = cs.common_coarsening(a, other)
    assert cs.compatible(m2, a) and cs.compatible(m2, other)


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_coalesce_z_keeps_the_extended_domain(data: Any) -> None:
    s = tuple(data.draw(st.lists(ext, min_size=1, max_size=4)))
    kind = data.draw(st.sampled_from(["int", "basis", "f2"]))
    if kind == "int":
        d = tuple(data.draw(st.sampled_from([0, 1, 2, 3, 4, 8, 12])) for _ in s)
    elif kind == "basis":
        d = tuple(data.draw(st.integers(1, 4)) * E(data.draw(st.integers(0, 1))) for _ in s)
    else:
        d = tuple(F2(data.draw(st.integers(0, 16))) for _ in s)
    L = make_layout(s, d)
    r = cs.coalesce_z(L)
    assert cs.depth(r) <= 1 and cs.size(r) == cs.size(L) and cs.coalesce_z(r) == r
    assert all(r(i) == L(i) for i in range(cs.size(L) + 10))


@given(st.lists(st.integers(0, 3), max_size=4))
def test_lift_is_the_inverse_of_get(path: list[int]) -> None:
    t = cs.lift(99, tuple(path))
    assert (cs.get(t, *path) if path else t) == 99


@given(flat_shapes, st.data())
@settings(max_examples=60, deadline=None)
def test_leaf_walks_and_coordinates(shape: Any, data: Any) -> None:
    s = _nest(data.draw, shape)
    d = tuple(range(1, len(shape) + 1))
    dn = cs.unflatten(d, s)
    assert len(list(cs.zip_leaves(s, dn))) == len(shape)
    assert cs.fold_leaf(lambda v, a, b: v + a * b, 0, s, dn) == cs.inner_product(s, dn)
    assert cs.transform_leaf(lambda a: a, s) == s
    crds = list(cs.coordinates(s))
    assert crds == [idx2crd(i, s) for i in range(cs.product(s))]
    assert all(cs.in_bounds(c, s) and crd2idx(c, s) == i for i, c in enumerate(crds))
    assert not cs.in_bounds(cs.product(s), s)
