"""The divides: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import cute_sym as cs
from cute_sym import Layout, make_layout, parse

from postconditions import (
    check_flat_divide,
    check_logical_divide, check_logical_product,
    check_tiled_divide, check_zipped_divide,
    is_injective,
)

from algebra_support import MASKS, P2, P2S, _pairs, _static_vs_symbolic, layouts


@pytest.mark.parametrize("a, b", [
    ("_24:_2", "_4:_2"), ("_16:_3", "_4:_1"), ("_16:_3", "_4:_4"), ("_16:_3", "_4:_2"),
    ("_16:_3", "(_2,_2):(_4,_1)"), ("(_4,_2,_3):(_2,_1,_8)", "_4:_2"),
])
def test_logical_divide_examples(a: str, b: str) -> None:
    A, B = parse(a), parse(b)
    R = cs.logical_divide(A, B)
    check_logical_divide(A, B, R)
    check_zipped_divide(A, B, cs.zipped_divide(A, B))
    check_tiled_divide(A, B, cs.tiled_divide(A, B))
    check_flat_divide(A, B, cs.flat_divide(A, B))


def test_divides_by_tiler() -> None:
    A = parse("(_9,(_4,_8)):(_59,(_13,_1))")
    T = parse("(_3:_3,(_2,_4):(_1,_8))")
    R = cs.logical_divide(A, T)
    assert str(R) == "((_3,_3),((_2,_4),(_2,_2))):((_177,_59),((_13,_2),(_26,_1)))"
    check_logical_divide(A, T, R)
    Z = cs.zipped_divide(A, T)
    assert str(Z) == "((_3,(_2,_4)),(_3,(_2,_2))):((_177,(_13,_2)),(_59,(_26,_1)))"
    check_zipped_divide(A, T, Z)
    Td = cs.tiled_divide(A, T)
    assert str(Td) == "((_3,(_2,_4)),_3,(_2,_2)):((_177,(_13,_2)),_59,(_26,_1))"
    check_tiled_divide(A, T, Td)
    F = cs.flat_divide(A, T)
    assert str(F) == "(_3,(_2,_4),_3,(_2,_2)):(_177,(_13,_2),_59,(_26,_1))"
    check_flat_divide(A, T, F)


def test_zipped_divide_shape_tiler() -> None:
    A = parse("(_64,_32):(_32,_1)")
    Z = cs.zipped_divide(A, parse("(_16,_8)"))
    assert str(Z) == "((_16,_8),(_4,_4)):((_32,_1),(_512,_8))"
    check_zipped_divide(A, (16, 8), Z)


def test_sweep_divides() -> None:
    n = 0
    for A, B in _pairs(3):
        try:
            R = cs.logical_divide(A, B)
        except cs.LayoutError:
            continue
        check_logical_divide(A, B, R)
        check_zipped_divide(A, B, cs.zipped_divide(A, B))
        n += 1
    assert n > 300


@given(layouts(ext=P2, max_rank=2, rand_strides=P2S), layouts(ext=P2, max_rank=2, rand_strides=P2S))
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_prop_divide_and_product(A: Layout, B: Layout) -> None:
    assume(is_injective(B))
    try:
        R = cs.logical_divide(A, B)
    except cs.LayoutError:
        R = None
    if R is not None:
        check_logical_divide(A, B, R)
    try:
        P = cs.logical_product(A, B)
    except cs.LayoutError:
        return
    check_logical_product(A, B, P)


@given(layouts(ext=P2, max_rank=2), MASKS, st.sampled_from(["_4:_1", "_2:_2", "(_2,_2):(_1,_4)"]))
def test_prop_symbolic_logical_divide(L: Layout, mask: list[bool], tiler: str) -> None:
    _static_vs_symbolic(cs.logical_divide, L, mask, parse(tiler), compare="by_mode")


def test_logical_divide_one_mode_by_an_integer_sweep() -> None:
    """The fast path for one static mode divided by an integer (the tile of a tuple tiler)
    agrees with the general construction and with the post-condition."""
    from cute_sym.algebra.complement import _complement
    from cute_sym.algebra.composition import _composition_cute
    for s in range(2, 25):
        for d in (-3, -1, 1, 2, 5):
            for n in range(2, 30):
                A = make_layout(s, d)
                R = cs.logical_divide(A, n)
                T = make_layout(n, 1)
                general = _composition_cute(A, make_layout(T, _complement(T, s)))
                assert str(R) == str(general), (s, d, n)
                check_logical_divide(A, T, R)


def test_logical_divide_by_a_printed_static_integer() -> None:
    """An integer tiler ``_16`` (as the public API prints and reads it) divides like ``16:1``."""
    for a, n in [("(_4096,_64):(_64,_1)", 16), ("(_4,_8,_1):(_8,_1,_1)", 2), ("(_256,_128):(_1,_256)", 5)]:
        A = parse(a)
        R = cs.logical_divide(A, parse(f"_{n}"))
        assert str(R) == str(cs.logical_divide(A, Layout(n, 1)))
        check_logical_divide(A, Layout(n, 1), R)
