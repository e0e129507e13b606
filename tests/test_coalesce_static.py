"""coalesce and filter: the pure-int kernel: exhaustive sweeps of small static layouts (every nesting to
depth 3, extents 0 and 1, negative strides) against the general path on the same layout and
against coalesce's post-conditions."""
from __future__ import annotations

import itertools

import pytest

import cute_sym as cs
from cute_sym import Layout
from cute_sym.algebra.coalesce import _coalesce_static, _transform_layout
from cute_sym.layout.layout import is_static_layout

from postconditions import check_coalesce, check_coalesce_profile, check_filter
from static_sweep import general, nestings, outcome, sweep

_coalesce = cs.algebra.coalesce


def _same(L: Layout) -> None:
    R = _coalesce(L)
    assert is_static_layout(R) and R._st is True
    assert str(R) == str(_coalesce(general(L))), L
    # the kernel's answer is the result's shape and stride
    assert _coalesce_static(L.shape, L.stride) == (R.shape, R.stride)


@pytest.mark.parametrize("n", [1, 2, 3])
def test_kernel_is_general_path(n: int) -> None:
    for shape in itertools.product((0, 1, 2, 4), repeat=n):
        for stride in itertools.product((-1, 0, 1, 2, 4), repeat=n):
            for L in nestings(shape, stride):
                _same(L)


def test_kernel_four_leaves() -> None:
    for shape in itertools.product((1, 2), repeat=4):
        for stride in itertools.product((1, 2, 4), repeat=4):
            for L in nestings(shape, stride):
                _same(L)


def test_postconditions() -> None:
    # pointwise, on every nesting of up to three leaves
    for L in sweep((1, 2, 3), (0, 1, 2), 3):
        check_coalesce(L, _coalesce(L))


def test_profile_is_general_path() -> None:
    for L in sweep((1, 2), (0, 1, 2), 3):
        r = cs.rank(L)
        for k in range(0, r + 2):
            prof = (1,) * k
            got = outcome(lambda X: _coalesce(X, prof), L)
            want = outcome(lambda X: _transform_layout(X, prof, _coalesce), general(L))
            assert got == want, (L, prof)
            if got[0] == "ok" and k:
                check_coalesce_profile(L, prof, _coalesce(L, prof))


def test_profile_nested_takes_general_path() -> None:
    L = cs.parse("((_2,_4),(_3,(_1,_5))):((_1,_2),(_8,(_0,_24)))")
    R = _coalesce(L, ((1, 1), 1))
    assert str(R) == "((_2,_4),_15):((_1,_2),_8)"
    check_coalesce_profile(L, ((1, 1), 1), R)
    with pytest.raises(cs.LayoutError, match="Too many modes"):
        _coalesce(cs.parse("_4:_1"), (1, 1))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_filter_is_general_path(n: int) -> None:
    for shape in itertools.product((0, 1, 2, 4), repeat=n):
        for stride in itertools.product((-1, 0, 1, 2), repeat=n):
            for L in nestings(shape, stride, few=True):
                R = cs.filter(L)
                assert R._st is True and str(R) == str(cs.filter(general(L))), L


def test_filter_postconditions() -> None:
    for L in sweep((1, 2, 3), (0, 1, 2), 3, few=True):
        check_filter(L, cs.filter(L))
