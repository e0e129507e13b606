"""Max_common_layout/vector, nullspace, upcast/downcast/recast_layout: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
from hypothesis import given

import cute_sym as cs
from cute_sym import Layout, parse

from postconditions import (
    check_downcast_upcast, check_filter, check_max_common_layout, check_max_common_vector, check_nullspace, nsize,
)

from algebra_support import POW2, layouts


@pytest.mark.parametrize("a, b", [("(_4,_8):(_1,_4)", "(_4,_8):(_1,_4)"), ("(_4,_8):(_1,_4)", "(_4,_8):(_1,_8)"),
                                  ("(_4,_8):(_8,_1)", "(_4,_8):(_1,_4)"), ("(_2,_4):(_1,_2)", "_8:_1")])
def test_max_common(a: str, b: str) -> None:
    A, B = parse(a), parse(b)
    n = int(cs.max_common_vector(A, B))
    check_max_common_vector(A, B, n)
    R = cs.max_common_layout(A, B)
    check_max_common_layout(A, B, R)
    assert nsize(R) == n


def test_max_common_vector_values() -> None:
    assert cs.max_common_vector(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_4)")) == 32
    assert cs.max_common_vector(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_8)")) == 4
    assert cs.max_common_vector(parse("(_4,_8):(_8,_1)"), parse("(_4,_8):(_1,_4)")) == 1


def test_nullspace_example() -> None:
    L = parse("(_2,_3,_4):(_1,_0,_0)")
    N = cs.nullspace(L)
    assert str(N) == "(_3,_4):(_2,_6)"
    check_nullspace(L, N)


@pytest.mark.parametrize("a, n", [("(_4,_8):(_1,_4)", 2), ("(_4,_8):(_8,_1)", 4), ("(_2,(_4,_2)):(_8,(_1,_4))", 2)])
def test_downcast_upcast(a: str, n: int) -> None:
    L = parse(a)
    check_downcast_upcast(L, n, cs.downcast(L, n))


def test_recast_layout() -> None:
    L = parse("(_4,_8):(_1,_4)")
    assert str(cs.recast_layout(L, 16, 32)) == str(cs.upcast(L, 2))
    assert str(cs.recast_layout(L, 32, 16)) == str(cs.downcast(L, 2))
    assert cs.recast_layout(L, 16, 16) == L
    with pytest.raises(cs.LayoutError):
        cs.recast_layout(L, 24, 16)


def test_sweep_max_common() -> None:
    n = 0
    for A in POW2:
        for B in POW2:
            if nsize(A) != nsize(B):
                continue
            try:
                v = cs.max_common_vector(A, B)
                R = cs.max_common_layout(A, B)
            except cs.LayoutError:
                continue
            check_max_common_vector(A, B, int(v))
            check_max_common_layout(A, B, R)
            n += 1
    assert n > 100


@given(layouts())
def test_prop_filter_and_nullspace(L: Layout) -> None:
    check_filter(L, cs.filter(L))
    check_nullspace(L, cs.nullspace(L))
