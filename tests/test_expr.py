"""Index expressions: FloorDiv/IMod semantics, index_expr, coord_expr, rewriting."""
from __future__ import annotations

from typing import Any

import pytest
import sympy
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym.core.errors import LayoutError, RankError
from cute_sym.codegen.expr import (
    FloorDiv, IMod, coord_expr, dynamic_divisors, expr_bounds, index_expr, index_symbol, rewrite,
)
from cute_sym.layout import Layout, make_layout


def _subs(e: Any, values: dict[str, int]) -> int:
    r = sympy.sympify(e).xreplace({s: sympy.Integer(values[s.name]) for s in sympy.sympify(e).free_symbols})
    assert r.is_Integer, r
    return int(r)


def test_floordiv_imod_integer_semantics() -> None:
    for a in range(0, 50):
        for b in range(1, 9):
            assert FloorDiv(a, b) == a // b and IMod(a, b) == a % b
    x = sympy.Symbol("x", integer=True, nonnegative=True)
    assert FloorDiv(x, 4).is_integer and IMod(x, 4).is_nonnegative
    assert str(FloorDiv(x + 1, 4)) == "(x + 1) // 4" and str(IMod(x, 4) * 2) == "2*(x % 4)"
    with pytest.raises(LayoutError):
        FloorDiv(x, 0)
    with pytest.raises(LayoutError):
        IMod(x, -2)


def test_index_expr_canonical_simplifications() -> None:
    assert str(index_expr(cs.parse("(_4,_8):(_1,_4)"))) == "i"             # coalesced
    e = index_expr(cs.parse("(_4,_8,_2):(_1,_0,_4)"))
    assert "8" not in {str(a.args[1]) for a in sympy.preorder_traversal(e) if isinstance(a, IMod)}
    e = index_expr(cs.parse("(_3,_5,_7):(_35,_7,_1)"))
    mods = [a for a in sympy.preorder_traversal(e) if isinstance(a, IMod)]
    divs = [a for a in sympy.preorder_traversal(e) if isinstance(a, FloorDiv)]
    assert len(set(mods)) == 2 and len(set(divs)) == 2                               # last mode: no modulo
    assert any(isinstance(d.args[0], FloorDiv) for d in divs)               # a shared chain


def test_index_expr_bounds_drop_modulo() -> None:
    L = cs.parse("(_8,_16,_4):(_1,_100,_1000)")
    x = cs.Dyn("x", sign="nonnegative", max=100)
    e = index_expr(L, x)
    assert not any(isinstance(a, IMod) and a.args[1] == 16 for a in sympy.preorder_traversal(e))
    assert "1000" not in str(e)                                             # x // 128 == 0
    assert all(_subs(e, {"x": v}) == L(v) for v in range(101))


def test_index_expr_coordinates() -> None:
    L = cs.parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")
    e = index_expr(L, "t", "v")
    assert {s.name for s in e.free_symbols} == {"t", "v"}
    assert not any(isinstance(a, IMod) and a.args[0].is_Symbol and a.args[0].name == "v" and a.args[1] == 4
                   for a in sympy.preorder_traversal(e))
    for t in range(32):
        for v in range(4):
            assert _subs(e, {"t": t, "v": v}) == L((t, v))
    m, n = sympy.symbols("m n", integer=True, nonnegative=True)
    e2 = index_expr(L, ((m, n), 3))
    assert all(_subs(e2, {"m": a, "n": b}) == L(((a, b), 3)) for a in range(4) for b in range(8))
    with pytest.raises(RankError):
        index_expr(L, "a", "b", "c")
    with pytest.raises(LayoutError):
        index_expr((4, 8))  # type: ignore[arg-type]


def test_index_expr_dynamic() -> None:
    M, N = cs.Dyn("M"), cs.Dyn("N")
    L = make_layout((4, M, N), (M * N, N, 1))
    e = index_expr(L)
    assert dynamic_divisors(e) == (M,)
    for mv, nv in [(1, 1), (3, 5), (4, 2)]:
        B = cs.subs(L, {"M": mv, "N": nv})
        assert all(_subs(e, {"i": i, "M": mv, "N": nv}) == B(i) for i in range(4 * mv * nv))
    assert str(index_expr(make_layout((16, N), (1, 16)))) == "i"


def test_index_symbol_and_bounds() -> None:
    i = index_symbol(64)
    assert expr_bounds(i) == (0, 63)
    assert expr_bounds(IMod(FloorDiv(i, 4), 8) * 3 + 1) == (1, 22)
    assert expr_bounds(index_symbol(cs.Dyn("M"))) == (0, None)


def test_rewrite_rules() -> None:
    x = cs.Dyn("x", sign="nonnegative")
    assert rewrite(IMod(IMod(x, 64), 8)) == IMod(x, 8)
    assert rewrite(FloorDiv(IMod(x, 64), 8)) == IMod(FloorDiv(x, 8), 8)
    assert rewrite(FloorDiv(FloorDiv(x, 4), 8)) == FloorDiv(x, 32)
    shared = FloorDiv(FloorDiv(x, 4), 8) + IMod(FloorDiv(x, 4), 8)
    assert rewrite(shared) == shared
    y = cs.Dyn("y", sign="nonnegative", max=9)
    assert rewrite(IMod(y, 10) + FloorDiv(y, 10)) == y


def test_coord_expr_round_trip() -> None:
    shape = (4, (2, 3), 5)
    c = coord_expr(shape)
    for i in range(120):
        got = sympy.Tuple(*cs.flatten(c)).xreplace({s: i for s in sympy.Tuple(*cs.flatten(c)).free_symbols})
        assert tuple(int(v) for v in got) == tuple(cs.flatten(cs.idx2crd(i, shape)))
    assert coord_expr((4, 8), (3, 5)) == (3, 5)
    M = cs.Dyn("M")
    cm = coord_expr((M, 4))
    assert str(cm) == "(i % M, i // M)"
    with pytest.raises(RankError):
        coord_expr((4, 8), (1, 2, 3))


# ---------------------------------------------------------------- properties
@st.composite
def layouts(draw: Any) -> Layout:
    s = draw(st.lists(st.integers(1, 6), min_size=1, max_size=4))
    d = draw(st.lists(st.integers(-5, 50), min_size=len(s), max_size=len(s)))
    if draw(st.booleans()) and len(s) >= 2:
        return make_layout((tuple(s[:2]), *s[2:]), (tuple(d[:2]), *d[2:]))
    return make_layout(tuple(s), tuple(d))


@given(layouts(), st.data())
def test_index_expr_equals_layout(L: Layout, data: Any) -> None:
    e = index_expr(L)
    n = int(cs.size(L))
    for i in data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=8)):
        assert _subs(e, {"i": i}) == L(i)


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data())
def test_index_expr_symbolic_equals_static(ext: list[int], data: Any) -> None:
    names = "ABCD"[: len(ext)]
    syms = [cs.Dyn(n) for n in names]
    dyn = data.draw(st.lists(st.booleans(), min_size=len(ext), max_size=len(ext)))
    shape = tuple(s if w else v for s, w, v in zip(syms, dyn, ext))
    strides = data.draw(st.sampled_from(["left", "right"]))
    L = make_layout(shape, cs.LayoutRight) if strides == "right" else make_layout(shape)
    e = index_expr(L)
    bind = {n: v for n, w, v in zip(names, dyn, ext) if w}
    B = cs.subs(L, bind)
    n = int(cs.size(B))
    for i in data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=6)):
        assert _subs(e, {"i": i, **bind}) == B(i)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.integers(0, 10 ** 6))
def test_coord_expr_property(shape: list[int], seed: int) -> None:
    c = coord_expr(tuple(shape))
    i = seed % int(cs.size(tuple(shape)))
    flat = sympy.Tuple(*cs.flatten(c))
    got = tuple(int(v) for v in flat.xreplace({s: i for s in flat.free_symbols}))
    assert got == tuple(cs.flatten(cs.idx2crd(i, tuple(shape))))


def test_coord_expr_takes_parsed_shapes() -> None:
    assert cs.coord_expr(cs.parse("(_4,_8)"), 13) == cs.coord_expr((4, 8), 13) == (1, 3)
