"""The products and tile_to_shape: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import Layout, make_layout, parse

from postconditions import (
    check_blocked_product, check_flat_product, check_logical_product,
    check_raked_product,
    check_tile_to_shape, check_tiled_product, check_zipped_product, same_function,
)

from algebra_support import MASKS, P2, _pairs, _static_vs_symbolic, layouts


@pytest.mark.parametrize("a, b", [
    ("(_2,_2):(_4,_1)", "_6:_1"), ("(_2,_2):(_4,_1)", "(_4,_2):(_2,_1)"), ("(_2,_2):(_1,_2)", "(_3,_4):(_4,_1)"),
    ("(_32,_8):(_1,_32)", "(_4,_1):(_1,_4)"),
])
def test_logical_product_examples(a: str, b: str) -> None:
    A, B = parse(a), parse(b)
    R = cs.logical_product(A, B)
    check_logical_product(A, B, R)
    check_zipped_product(A, B, cs.zipped_product(A, B))
    check_tiled_product(A, B, cs.tiled_product(A, B))
    check_flat_product(A, B, cs.flat_product(A, B))


def test_logical_product_docs() -> None:
    R = cs.logical_product(parse("(_2,_2):(_4,_1)"), parse("_6:_1"))
    assert str(R) == "((_2,_2),(_2,_3)):((_4,_1),(_2,_8))"


@pytest.mark.parametrize("a, b", [("(_2,_5):(_5,_1)", "(_3,_4):(_1,_3)"), ("(_2,_2):(_1,_2)", "(_3,_4):(_4,_1)"),
                                  ("(_32,_8):(_1,_32)", "(_4,_1):(_1,_4)")])
def test_blocked_raked_examples(a: str, b: str) -> None:
    A, B = parse(a), parse(b)
    check_blocked_product(A, B, cs.blocked_product(A, B))
    check_raked_product(A, B, cs.raked_product(A, B))


def test_blocked_raked_docs() -> None:
    A, B = parse("(_2,_5):(_5,_1)"), parse("(_3,_4):(_1,_3)")
    assert str(cs.blocked_product(A, B)) == "((_2,_3),(_5,_4)):((_5,_10),(_1,_30))"
    assert str(cs.raked_product(A, B)) == "((_3,_2),(_4,_5)):((_10,_5),(_30,_1))"


def test_tile_to_shape() -> None:
    B = parse("(_8,_8):(_8,_1)")
    R = cs.tile_to_shape(B, (32, 64))
    check_tile_to_shape(B, (32, 64), R)
    assert same_function(R, cs.blocked_product(B, make_layout((4, 8))))
    with pytest.raises(cs.LayoutError):
        cs.tile_to_shape(B, (12, 64))


def test_tile_to_shape_postconditions() -> None:
    # CuTe coalesces each mode of the blocked product (profile = product shape)
    block = parse("(_8,_8):(_8,_1)")
    R = cs.tile_to_shape(block, (32, 64))
    assert [int(cs.size(R[k])) for k in range(2)] == [32, 64]
    assert cs.depth(R[0]) <= 1 and cs.depth(R[1]) <= 1
    offsets = {int(R(i, j)) for i in range(32) for j in range(64)}
    assert len(offsets) == 32 * 64                      # injective
    for i in range(8):                                  # the first tile is the block
        for j in range(8):
            assert int(R(i, j)) == int(block(i, j))
    for ti in range(4):                                 # every tile is the block, shifted
        for tj in range(8):
            base = int(R(8 * ti, 8 * tj))
            assert all(int(R(8 * ti + i, 8 * tj + j)) - base == int(block(i, j))
                       for i in range(8) for j in range(8))


def test_sweep_products() -> None:
    n = 0
    for A, B in _pairs(4):
        try:
            R = cs.logical_product(A, B)
        except cs.LayoutError:
            continue
        check_logical_product(A, B, R)
        check_zipped_product(A, B, cs.zipped_product(A, B))
        try:
            BP, RP = cs.blocked_product(A, B), cs.raked_product(A, B)
        except cs.LayoutError:
            continue
        check_blocked_product(A, B, BP)
        check_raked_product(A, B, RP)
        n += 1
    assert n > 300


@given(layouts(ext=P2, max_rank=2), MASKS, st.sampled_from(["_2:_1", "(_2,_2):(_1,_2)", "_4:_1"]))
def test_prop_symbolic_logical_product(L: Layout, mask: list[bool], tiler: str) -> None:
    _static_vs_symbolic(cs.logical_product, L, mask, parse(tiler), compare="by_mode")
