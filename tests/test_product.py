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


# ---------------------------------------------------------------- round two of the fuzzed corpus
def test_tile_to_shape_keeps_cute_nesting() -> None:
    """Uncoalesced, as CuTe: mode k is (block_k, tiles_k); the post-condition holds."""
    for block, target, order, want in [
        ("(_4):(_1)", (16,), None, "((_4,_4)):((_1,_4))"),
        ("_8:_1", (8,), None, "((_8,(_1))):((_1,(_0)))"),
        ("_4:_1", (8, 2), (1, 0), "((_4,_2),(_1,_2)):((_1,_8),(_0,_4))"),
        ("(_8,_2,_2):(_1,_8,_16)", (8, 4, 2, 2), None,
         "((_8,_1),(_2,_2),(_2,_1),(_1,_2)):((_1,_0),(_8,_32),(_16,_0),(_0,_64))"),
    ]:
        B = parse(block)
        R = cs.tile_to_shape(B, target) if order is None else cs.tile_to_shape(B, target, order)
        assert str(R) == want
        check_tile_to_shape(B, target, R)


def test_sweep_tile_to_shape_and_product_of_swizzled() -> None:
    from postconditions import check_logical_product_swizzled, check_tile_to_shape_any, swizzled_layouts
    n = refused = 0
    for C in swizzled_layouts():
        s = C.layout_b.shape
        for t in [(2 * s[0], s[1]), (s[0], 3 * s[1]), (2 * s[0], 2 * s[1], 2)]:
            for o in (None, (1, 0) if len(t) == 2 else (1, 0, 2)):
                R = cs.tile_to_shape(C, t) if o is None else cs.tile_to_shape(C, t, o)
                check_tile_to_shape_any(C, t, R)
        for a in ("(_2,_2):(_1,_2)", "(_4,_2):(_1,_4)", "_4:_1", "(_2,_4):(_4,_1)"):
            A = parse(a)
            try:
                R = cs.logical_product(A, C)
            except cs.LayoutError as e:
                assert "Something went wrong" in str(e) or "SShift" in str(e) or "Y and Z" in str(e)
                refused += 1
                continue
            check_logical_product_swizzled(A, C, R)
            n += 1
    assert n > 100
    # CuTe's answer (fuzz logical_product/50072)
    R = cs.logical_product(parse("(_2,_2):(_1,_2)"), parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"))
    assert str(R) == "Sw<3,2,3> o _0 o ((_2,_2),(_8,_8)):((_1,_2),(_32,_4))"
    with pytest.raises(cs.LayoutError, match="Require Swizzle offset == 0"):
        cs.logical_product(parse("(_2,_2):(_1,_2)"), parse("Sw<3,0,3> o _8 o (_8,_8):(_8,_1)"))


def test_raked_and_blocked_follow_cute_zip() -> None:
    # an integral first operand of zip wraps the pair (CuTe answers raked_product/50002)
    R = cs.raked_product(parse("(_3):(_1)"), parse("_24:_1"))
    assert str(R) == "((_24,(_3))):((_3,(_1)))"
    check_raked_product(parse("(_3):(_1)"), parse("_24:_1"), R)
    # a tuple first operand with an integral second one: CuTe does not compile it
    with pytest.raises(cs.RankError, match="integral shape where the first is a tuple"):
        cs.blocked_product(parse("((_4,_1)):((_1,_1))"), parse("_4:_1"))


def test_refusals_where_cute_breaks_the_contract() -> None:
    # copies of the block overlap: the tiler steps unevenly across the complement (fuzz tile_to_shape/50086)
    with pytest.raises(cs.LayoutError, match="steps unevenly across the complement.*overlap"):
        cs.tile_to_shape(parse("((_16,_1),(_2),_1):((_1,_64),(_64),_128)"), (16, 6, 2), (1, 0, 2))
    # a negative stride gives the complement a negative extent (fuzz zipped_product/50012)
    with pytest.raises(cs.LayoutError, match="negative stride.*non-positive extent"):
        cs.zipped_product(parse("(_4,_1,_8,_1):(_8,_-8,_-1,_-32)"), parse("(_8):(_1)"))
    with pytest.raises(cs.LayoutError, match="negative stride.*non-positive extent"):
        cs.complement(parse("(_4,_8):(_8,_-1)"), 64)


def test_logical_product_pointwise_or_checked() -> None:
    """Where CuTe's rest is not complement(tiler(i)), the answer is kept only when it is still
    ordered like the tiler and the block copies do not overlap (sweep of small cases)."""
    from postconditions import is_injective, small_layouts
    kept = 0
    for A in small_layouts((1, 2, 4), (1, 2, 4), 2):
        for B in small_layouts((1, 2, 3), (1, 2, 3), 2):
            if not is_injective(B):
                continue
            try:
                R = cs.logical_product(A, B)
            except cs.LayoutError:
                continue
            # CuTe's rest need not be complement(B(j)) point by point (its composition works
            # mode by mode); what holds is: block first, rest ordered like B, no overlap
            assert same_function(A, R[0])
            b = [int(B(j)) for j in range(int(cs.size(B)))]
            r = [int(R[1](j)) for j in range(len(b))]
            assert all((b[i] < b[j]) == (r[i] < r[j]) for i in range(len(b)) for j in range(len(b)))
            a = [int(A(i)) for i in range(int(cs.size(A)))]
            if len(set(a)) == len(a):
                assert len({x + y for x in a for y in r}) == len(a) * len(r)
            kept += 1
    assert kept > 100
