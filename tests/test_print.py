"""Printing as CuTe prints (issue 16): ``print(x)`` of every object, ``print_layout`` of
rank-2 and rank-1 layouts, ``print_tensor``."""
from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest

import cute_sym as cs
from cute_sym import Dyn, Int, make_layout, parse

import postconditions as pc


@pytest.mark.parametrize("make, text", [
    (lambda: Int[4], "_4"),
    (lambda: Int[0], "_0"),
    (lambda: Int[-1], "_-1"),
    (lambda: cs.size(make_layout((4, 8))), "_32"),
    (lambda: cs.size(make_layout((4, 8)), 1), "_8"),
    (lambda: cs.rank(make_layout((4, 8))), "_2"),
    (lambda: cs.cosize(make_layout((4, 8), (8, 1))), "_32"),
    (lambda: make_layout((4, 8))(1, 1), "5"),                     # CuTe: a run-time coordinate gives a run-time int
    (lambda: cs.shape(make_layout((4, (2, 3)))), "(_4,(_2,_3))"),
    (lambda: cs.stride(make_layout((4, (2, 3))), 1), "(_4,_8)"),
    (lambda: cs.make_shape(8), "(_8)"),
    (lambda: cs.make_coord(cs._, 1), "(_,_1)"),
    (lambda: cs.make_tile(make_layout(2, 3), cs._), "(_2:_3,_)"),
    (lambda: cs._, "_"),
    (lambda: make_layout((Dyn("M"), 8)), "(M,_8):(_1,M)"),
    (lambda: cs.size(make_layout((Dyn("M"), 8))), "8*M"),
    (lambda: parse("(4,_8):(_1,4)"), "(4,_8):(_1,4)"),
    (lambda: cs.Swizzle(3, 4, 3), "Sw<3,4,3>"),
    (lambda: parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"), "Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"),
    (lambda: cs.shape_div((12, 8), 4), "(_3,_8)"),
])
def test_print_of_every_object(make: Any, text: str) -> None:
    x = make()
    assert str(x) == text
    if not isinstance(x, int) or text.startswith("_"):
        assert cs.to_str(x) == text


def test_print_layout_rank1_shows_the_layout_itself() -> None:
    for text in ("_8:_1", "(_8):(_2)", "((_2,_4)):((_4,_1))"):
        L = parse(text)
        lines = cs.layout_table(L).splitlines()
        assert lines[0] == text                           # not a padded (_8,_1):(_1,_0)
        rows = [[int(c) for c in ln.split("|")[1:-1]] for ln in lines if "|" in ln]
        assert rows == [[pc.f(L, i)] for i in range(pc.nsize(L))]


def test_print_layout_to_a_file() -> None:
    buf = io.StringIO()
    cs.print_layout(parse("(_2,_3):(_3,_1)"), file=buf)
    assert buf.getvalue() == cs.layout_table(parse("(_2,_3):(_3,_1)"))
    with pytest.raises(cs.RankError):
        cs.print_layout(parse("(_2,_2,_2):(_1,_2,_4)"))


def _cells(text: str) -> list[list[str]]:
    return [ln.split() for ln in text.splitlines()[1:] if ln and set(ln) - set("-=")]


@pytest.mark.parametrize("layout", ["_6:_1", "(_2,_3):(_3,_1)", "(_2,_3,_2):(_1,_2,_6)", "(_2,_2,_2,_2):(_8,_4,_2,_1)"])
def test_print_tensor_shows_every_element_where_cute_does(layout: str) -> None:
    L = parse(layout)
    T = cs.make_tensor(np.arange(100, 100 + pc.nsize(L) * 8, dtype=np.int32), L)
    text = _capture(T)
    lines = text.splitlines()
    assert lines[0] == f"{T}:"
    r = cs.rank(L)
    if r == 1:
        assert [int(ln) for ln in lines[1:]] == [100 + pc.f(L, i) for i in range(6)]
        assert all(len(ln) == 5 for ln in lines[1:])          # CuTe's %5d
        return
    m, n = int(cs.size(L, 0)), int(cs.size(L, 1))
    rest = [int(cs.size(L, k)) for k in range(2, r)]
    blocks = [[int(c) for c in row] for row in _cells(text)]
    want = []
    ks = [()] if r == 2 else [(k,) for k in range(rest[0])] if r == 3 else [
        (k, p) for p in range(rest[1]) for k in range(rest[0])]
    for extra in ks:    # CuTe prints the (_,_,_,p) blocks in order, each its (_,_,k) slices in order
        want += [[100 + pc.f(L, (i, j) + extra) for j in range(n)] for i in range(m)]
    assert blocks == want
    seps = [ln for ln in lines[1:] if set(ln) <= set("-=")]
    if r == 3:
        assert seps == ["-" * (5 * n)] * (rest[0] - 1)
    if r == 4:
        assert seps.count("=" * (5 * n)) == rest[1] - 1


def _capture(T: Any) -> str:
    buf = io.StringIO()
    cs.print_tensor(T, file=buf)
    return buf.getvalue()


def test_print_tensor_of_floats_and_pointers() -> None:
    F = cs.make_tensor(np.arange(4, dtype=np.float32), parse("_4:_1"))
    assert _capture(F).splitlines()[1:] == [f"{v:10.2e}" for v in (0.0, 1.0, 2.0, 3.0)]
    P = cs.make_tensor(cs.make_gmem_ptr("A"), parse("(_2,_2):(_2,_1)"))
    assert _capture(P).splitlines()[1] == "  gmem_ptr(A)  gmem_ptr(A+1)"
    with pytest.raises(cs.LayoutError):
        cs.print_tensor(parse("_4:_1"))  # type: ignore[arg-type]
