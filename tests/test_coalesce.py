"""Coalesce and filter: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import Layout, parse

from postconditions import (
    check_coalesce, check_coalesce_profile, check_filter,
)

from algebra_support import MASKS, P2, _static_vs_symbolic, layouts


@pytest.mark.parametrize("a, expect", [
    ("(_2,(_1,_6)):(_1,(_6,_2))", "_12:_1"),
    ("(_2,_2):(_2,_1)", "(_2,_2):(_2,_1)"),
    ("(_4,_1,_8):(_1,_0,_4)", "_32:_1"),
    ("_1:_5", "_1:_0"),
    ("(_2,_4):(_0,_1)", "(_2,_4):(_0,_1)"),
])
def test_coalesce_examples(a: str, expect: str) -> None:
    L = parse(a)
    R = cs.coalesce(L)
    assert str(R) == expect
    check_coalesce(L, R)


def test_coalesce_profile() -> None:
    L = parse("(_2,(_1,_6)):(_1,(_6,_2))")
    R = cs.coalesce(L, parse("(_1,_1)"))
    assert str(R) == "(_2,_6):(_1,_2)"
    check_coalesce_profile(L, (1, 1), R)


def test_filter_example() -> None:
    L = parse("(_4,_2,_3):(_1,_0,_4)")
    R = cs.filter(L)
    assert str(R) == "_12:_1"
    check_filter(L, R)


@given(layouts())
def test_prop_coalesce(L: Layout) -> None:
    check_coalesce(L, cs.coalesce(L))


@given(layouts(ext=P2, max_rank=2), MASKS)
def test_prop_symbolic_coalesce(L: Layout, mask: list[bool]) -> None:
    _static_vs_symbolic(cs.coalesce, L, mask)


@given(layouts(), st.integers(1, 3))
def test_prop_coalesce_profile(L: Layout, n: int) -> None:
    """The static by-mode path: each profiled mode is that mode coalesced, the rest kept."""
    n = min(n, cs.rank(L))
    profile = (1,) * n
    R = cs.coalesce(L, profile)
    check_coalesce_profile(L, profile, R)
    for k in range(cs.rank(L)):
        want = cs.coalesce(L[k]) if k < n else L[k]
        assert (R[k].shape, R[k].stride) == (want.shape, want.stride), (L, profile, R)


@given(layouts(ext=P2, max_rank=3), MASKS, st.integers(1, 3))
def test_prop_symbolic_coalesce_profile(L: Layout, mask: list[bool], n: int) -> None:
    """coalesce by mode with symbolic leaves: mode by mode the static answer at the values."""
    profile = (1,) * min(n, cs.rank(L))

    def by_mode(X: Layout) -> Layout:
        return cs.coalesce(X, profile)
    by_mode.__name__ = "coalesce"
    _static_vs_symbolic(by_mode, L, mask, compare="by_mode")


# ---------------------------------------------------------------- issue 33: a stride that may be 0
def test_filter_records_that_a_symbolic_stride_must_not_be_0() -> None:
    import cute_sym as cs
    from cute_sym.core.decide import collect_guards
    L = cs.parse("(_4,_8):(_1,s)")
    with collect_guards() as g:
        F = cs.filter(L)
    assert g.describe() == ["s != 0"]
    # where the guard holds the answer is the filtered layout (no stride-0 mode, the same image);
    # at s = 0 the guard fails (the mode stays, as CuTe keeps a dynamic stride)
    for s in (-3, -1, 1, 2, 4, 7):
        assert g.holds({"s": s})
        Fs, Ls = cs.subs(F, {"s": s}), cs.subs(L, {"s": s})
        assert 0 not in [int(x) for x in cs.flatten(Fs.stride)]
        assert sorted({int(Fs(i)) for i in range(int(cs.size(Fs)))}) == \
            sorted({int(Ls(i)) for i in range(int(cs.size(Ls)))})
    assert not g.holds({"s": 0})
    with collect_guards() as g2:      # a stride that is not 0 (positive) asks nothing
        cs.filter(cs.parse("(_4,M):(_1,M)"))
    assert g2.describe() == []
