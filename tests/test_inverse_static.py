"""right_inverse and left_inverse's pure-int paths: exhaustive sweeps of small static layouts
(every nesting to depth 3, extents 0 and 1, negative strides) against the general path on the
same layout, CuTe's inverse_seq written out plainly, and the post-conditions."""
from __future__ import annotations

import importlib
import itertools
from typing import Any

import pytest

import cute_sym as cs
from cute_sym import Layout
from cute_sym.layout.layout import is_static_layout

from postconditions import check_left_inverse, check_right_inverse, is_injective
from static_sweep import general, layouts, outcome, sweep


def _cute_right_inverse(L: Layout) -> str:
    """CuTe's right_inverse spelled out: follow the strides 1, s*d, ... through coalesce(L), over
    the modes in the order of CuTe's sort by stride."""
    C = cs.coalesce(L)
    fs = list(C.shape) if isinstance(C.shape, tuple) else [C.shape]
    fd = list(C.stride) if isinstance(C.stride, tuple) else [C.stride]
    rstride, cur = [], 1
    for s in fs:
        rstride.append(0 if s == 1 else cur)
        cur *= s
    # CuTe sorts the modes by stride with an exchange sort (not stable: equal strides may swap)
    order = list(range(len(fd)))
    for i in range(len(order)):
        for j in range(i + 1, len(order)):
            if fd[order[j]] < fd[order[i]]:
                order[i], order[j] = order[j], order[i]
    seq: list[int] = []
    nxt = 1
    while True:
        js = [j for j in order if fd[j] == nxt and j not in seq]
        if not js:
            break
        seq.append(js[0])
        if fs[js[0]] * fd[js[0]] == nxt:
            break
        nxt = fs[js[0]] * fd[js[0]]
    if not seq:
        return "_1:_0"
    shp: Any = tuple(fs[j] for j in seq)
    std: Any = tuple(rstride[j] for j in seq)
    return str(Layout(shp[0], std[0]) if len(seq) == 1 else Layout(shp, std))


@pytest.fixture(autouse=True)
def _check_on_the_real_layout(monkeypatch: pytest.MonkeyPatch) -> None:
    """The general path's preimage check (non-injective layouts) runs on static layouts only:
    give it the layout with its real flag, not the copy marked non-static."""
    inv = importlib.import_module("cute_sym.algebra.inverse")
    check = inv._check_generalized_inverse
    monkeypatch.setattr(inv, "_check_generalized_inverse",
                        lambda L, R, why: check(Layout(L.shape, L.stride), R, why))


@pytest.mark.parametrize("n", [1, 2, 3])
def test_right_inverse_is_general_path(n: int) -> None:
    for L in layouts(n, (0, 1, 2, 4), (-1, 0, 1, 2, 4), few=True):
        R = cs.right_inverse(L)
        assert R._st is True and is_static_layout(R)
        assert str(R) == str(cs.right_inverse(general(L))) == _cute_right_inverse(L), L


@pytest.mark.parametrize("n", [1, 2, 3])
def test_left_inverse_is_general_path(n: int) -> None:
    # answers and refusals (divisibility, negative strides, non-injective) alike
    for L in layouts(n, (0, 1, 2, 4), (-1, 0, 1, 2, 4), few=True):
        got = outcome(cs.left_inverse, L)
        assert got == outcome(cs.left_inverse, general(L)), L
        if got[0] == "ok":
            assert cs.left_inverse(L)._st is True


def test_four_leaves_are_general_path() -> None:
    for L in layouts(4, (1, 2), (0, 1, 2, 4), few=True):
        assert str(cs.right_inverse(L)) == str(cs.right_inverse(general(L))), L
        assert outcome(cs.left_inverse, L) == outcome(cs.left_inverse, general(L)), L


def test_postconditions() -> None:
    for L in sweep((1, 2, 3), (0, 1, 2, 3, 6), 3, few=True):
        check_right_inverse(L, cs.right_inverse(L))
        if is_injective(L):
            try:
                Li = cs.left_inverse(L)
            except cs.DivisibilityError:
                continue
            check_left_inverse(L, Li)
