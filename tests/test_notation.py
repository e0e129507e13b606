"""CuTe notation (issue 2, item 6): parse, print, subs."""
from __future__ import annotations

from typing import Any

import pytest
import sympy
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import Dyn, Layout, parse

from postconditions import image, plain, to_static

from corpus import cases  # noqa: E402


def _static_arg_strings() -> list[str]:
    return sorted({a for c in cases(where=lambda c: "bind" not in c) for a in c["args"] if "Sw<" not in a})


ARGS = _static_arg_strings()


@pytest.mark.skipif(not ARGS, reason="conformance corpus not found")
def test_roundtrip_every_static_corpus_argument() -> None:
    """``str(parse(s)) == s`` for every static (non-swizzle) argument string of the corpus."""
    bad = [s for s in ARGS if cs.to_str(parse(s)) != s]
    assert not bad, f"{len(bad)} strings do not round-trip, e.g. {bad[:5]}"
    assert len(ARGS) > 1000


@pytest.mark.parametrize("text, kind", [
    ("_4", int), ("(_2,(_3,_4))", tuple), ("(_4,_8):(_1,_4)", Layout), ("(_4):(_1)", Layout),
    ("()", tuple), ("_-1", int),
])
def test_parse_kinds(text: str, kind: type) -> None:
    x = parse(text)
    assert isinstance(x, kind)
    assert cs.to_str(x) == text


def test_one_tuple_is_not_its_element() -> None:
    a, b = parse("(_4):(_1)"), parse("_4:_1")
    assert a.shape == (4,) and b.shape == 4 and cs.rank(a) == cs.rank(b) == 1
    assert image(a) == image(b)


def test_underscore_and_tilers() -> None:
    assert parse("_") is cs._
    T = parse("(_4:_1,_)")
    assert isinstance(T[0], Layout) and T[1] is cs._
    T2 = parse("(_3:_3,(_2,_4):(_1,_8))")
    assert str(T2[1]) == "(_2,_4):(_1,_8)"


def test_symbols_by_role() -> None:
    L = parse("(M,_2):(_1,d)")
    m, d = L.shape[0], L.stride[1]
    assert m.is_positive and d.is_positive is None and d.is_integer
    assert not cs.is_static(L)
    L2 = parse("(M,N):(_1,M)", {"M": 128})
    assert str(L2) == "(_128,N):(_1,_128)"


def test_one_name_is_one_integer() -> None:
    # the stride's M in (M,N):(_1,M) is the shape's M: one symbol, positive, so the layout is
    # compact (its cosize is M*N exactly, and it coalesces to M*N:_1)
    L = parse("(M,N):(_1,M)")
    m = L.shape[0]
    assert L.stride[1] == m and m.is_positive
    assert sympy.expand(cs.cosize(L) - m * L.shape[1]) == 0
    assert str(cs.coalesce(L)) == "M*N:_1"
    # in a formula and inside a tiler too; a name only in strides keeps any sign
    T = parse("((M,_2):(_2,2*M),_4:d)")
    assert T[0].stride[1] == 2 * T[0].shape[0] and T[1].stride.is_positive is None
    # the composition with it is the rhs itself (the lhs is the identity on its domain):
    # R(i) == A(B(i)) at many values of the one M
    B = parse("(_4,_8):(_2,_1)")
    R = cs.composition(L, B)
    for mv, nv in [(1, 1), (2, 3), (3, 5), (4, 4), (7, 2), (16, 1)]:
        A, RR = cs.subs(L, {"M": mv, "N": nv}), cs.subs(R, {"M": mv, "N": nv}, ignore_unknown=True)
        assert all(int(RR(i)) == int(A(B(i))) for i in range(cs.size(B)))


def test_subs_gives_known_dynamic_values() -> None:
    L = parse("(_4,(M,_2)):(_1,(_4,4*M))")
    assert str(L) == "(_4,(M,_2)):(_1,(_4,4*M))"
    S = cs.subs(L, {"M": 8})
    assert str(S) == "(_4,(8,_2)):(_1,(_4,32))"
    assert to_static(S) == Layout((4, (8, 2)), (1, (4, 32)))


def test_formulas_parse_back() -> None:
    for text in ("16*N:_1", "(ceil_div(M,128),_4):(_1,M)", "(M//4,_2):(_2,M%4)"):
        x = parse(text)
        assert str(parse(str(x))) == str(x)


@pytest.mark.parametrize("bad", ["", "(_4,_8", "(_4,_8):", "_4:_1 junk", "(_4,,_8)", "@"])
def test_bad_text_is_notation_error(bad: str) -> None:
    with pytest.raises(cs.NotationError) as ei:
        parse(bad)
    assert str(ei.value)


@pytest.mark.parametrize("text, col", [("(_4,,_8)", 4), ("(_4,_8", 6), ("(_4,_8):(_1,_4))", 15), ("(_4,$)", 4),
                                       ("_4:_1 junk", 6), ("Sw<1,2,3> o _0 (_4)", 15)])
def test_notation_error_names_the_column(text: str, col: int) -> None:
    with pytest.raises(cs.NotationError) as ei:
        parse(text)
    assert ei.value.column == col and f"column {col}" in str(ei.value)


def test_deep_nesting_is_a_notation_error() -> None:
    from cute_sym.layout.layout import MAX_NESTING
    ok = "(" * MAX_NESTING + "_1" + ")" * MAX_NESTING
    assert cs.depth(parse(ok)) == MAX_NESTING
    for text in ["(" * (MAX_NESTING + 1) + "_1" + ")" * (MAX_NESTING + 1), "(" * 5000 + "M" + ")" * 5000 + "+1",
                 "-" * 5000 + "M"]:
        try:
            parse(text)
        except cs.NotationError as e:
            assert "nesting deeper" in str(e) and len(str(e)) < 300
    assert str(parse("-" * 5000 + "M")) == "M"


def test_parse_non_string() -> None:
    with pytest.raises(cs.LayoutError):
        parse(42)  # type: ignore[arg-type]


@st.composite
def tuples(draw: Any, depth: int = 2) -> Any:
    if depth == 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.integers(-3, 40))
    return tuple(draw(tuples(depth - 1)) for _ in range(draw(st.integers(0, 3))))


@given(tuples())
def test_prop_tuple_roundtrip(t: Any) -> None:
    s = cs.to_str(t)
    assert plain(parse(s)) == t
    assert cs.to_str(parse(s)) == s


@given(st.lists(st.integers(1, 9), min_size=1, max_size=4), st.data())
def test_prop_symbolic_subs_equals_static(shape: list[int], data: Any) -> None:
    names = [f"n{k}" for k in range(len(shape))]
    L = cs.make_layout(tuple(Dyn(n) for n in names))
    S = to_static(L, dict(zip(names, shape)))
    assert S.shape == tuple(shape)
    assert image(S) == image(cs.make_layout(tuple(shape)))   # a dynamic 1 keeps a stride: same function


def test_subs_takes_a_symbol_or_its_name_and_refuses_the_rest() -> None:
    M = cs.Dyn("M")
    L = cs.Layout((M, 2))
    for values in ({M: 4}, {"M": 4}, {M: cs.Int[4]}):
        got = cs.subs(L, values)
        assert [got(i) for i in range(8)] == [cs.make_layout((4, 2))(i) for i in range(8)], values
    for bad, what in (({M: 4.0}, "integer"), ({M: "4"}, "integer"), ({M: True}, "integer"),
                      ({3: 4}, "name"), ({M: cs.Dyn("Q") / 2}, "integer")):
        with pytest.raises(cs.LayoutError, match=what):
            cs.subs(L, bad)
    Q = cs.Dyn("Q", divisible_by=2)
    assert str(cs.subs(L, {M: Q / 2})) == "(Q/2,_2):(_1,Q/2)"       # an integer at every Q


ROUND_TRIP = [  # (op, first argument over S0, S1 (multiples of 4, 8), second argument)
    ("composition", "(S0,S1,_2):(_1,_4,_32)", "(_2,_2,_2):(_2,_8,_1)"),
    ("composition", "(S0,_2):(_2,_16)", "(_4,_2):(_1,_8)"),
    ("logical_divide", "(S0,S1,_3):(_2,_1,_8)", "_4:_2"),
    ("zipped_divide", "(S0,S1):(_1,S0)", "(_4,_2)"),
    ("logical_product", "(S0,_2):(_1,S0)", "(_3,_2):(_2,_1)"),
    ("complement", "(_4,_8):(_1,_128)", "S0"),
]


@pytest.mark.parametrize("k", range(len(ROUND_TRIP)))
def test_a_symbolic_result_reads_back_as_itself(k: int) -> None:
    # what a result prints (exact quotients S0/2, 4/min(4,S0/2), ceil_div, min) parses back to
    # the same text and the same function: a divisor that divides at every value reads exact
    op, a, b = ROUND_TRIP[k]
    syms = {"S0": cs.Dyn("S0", divisible_by=4), "S1": cs.Dyn("S1", divisible_by=8)}
    args = [cs.parse(a, syms), cs.parse(b, syms)]
    got = getattr(cs, op)(*args)
    back = cs.parse(str(got), syms)
    assert str(back) == str(got)
    for s0, s1 in ((4, 8), (8, 16), (12, 8), (20, 24)):
        v = {"S0": s0, "S1": s1}
        r1, r2 = cs.subs(got, v, ignore_unknown=True), cs.subs(back, v, ignore_unknown=True)
        assert [r1(i) for i in range(int(cs.size(r1)))] == [r2(i) for i in range(int(cs.size(r2)))], (v, str(got))


def test_a_quotient_reads_exact_only_where_it_divides() -> None:
    S = cs.Dyn("S", divisible_by=4)
    assert str(cs.parse("(S/2,_4):(_1,S)", {"S": S})) == "(S/2,_4):(_1,S)"
    assert str(cs.parse("(S/8,_4):(_1,S)", {"S": S})) == "(S//8,_4):(_1,S)"       # 8 does not divide 4, 12, ...
    assert str(cs.parse("(M/4,_2):(_1,M)")) == "(M//4,_2):(_1,M)"


# ---------------------------------------------------------------- subs keeps a symbol's facts (issue 33)
def test_subs_refuses_a_value_that_breaks_a_fact() -> None:
    L = parse("(M,_8):(_1,M)")
    with pytest.raises(cs.LayoutError, match=r"M = 0 breaks its fact M >= 1"):
        cs.subs(L, {"M": 0})
    F = parse("(M,_8):(_1,M)", {"M": cs.Dyn("M", divisible_by=4, min=8, max=64)})
    with pytest.raises(cs.LayoutError, match=r"M = 10 breaks its fact M % 4 == 0 \(divisible_by=4\)"):
        cs.subs(F, {"M": 10})
    with pytest.raises(cs.LayoutError, match=r"M = 4 breaks its fact M >= 8"):
        cs.subs(F, {"M": 4})
    with pytest.raises(cs.LayoutError, match=r"M = 128 breaks its fact M <= 64"):
        cs.subs(F, {"M": 128})
    with pytest.raises(cs.UndecidableError, match=r"needs \(N\) <= 64"):
        cs.subs(F, {"M": cs.Dyn("N", divisible_by=4, min=8)})
    # every allowed value is taken, and the result is the layout at it
    for m in range(8, 65, 4):
        S = cs.subs(F, {"M": m})
        assert [int(S(i)) for i in range(int(cs.size(S)))] == [(i % m) + (i // m) * m for i in range(8 * m)]
    assert str(cs.subs(F, {"M": 4 * cs.Dyn("K", min=2, max=16)})) == "(4*K,_8):(_1,4*K)"


def test_subs_refuses_an_unknown_name() -> None:
    # a name no symbol was ever made with is a typo (a name made elsewhere may be one binding given
    # to several objects: the test session makes Q elsewhere, so the typo here is one never made)
    L = parse("(M,_8):(_1,M)")
    with pytest.raises(cs.LayoutError, match=r"Qtypo33 is not a symbol of \(M,_8\):\(_1,M\) \(its symbols: M\)"):
        cs.subs(L, {"Qtypo33": 3})
    assert str(cs.subs(L, {"Qtypo33": 3, "M": 2}, ignore_unknown=True)) == "(2,_8):(_1,2)"
    N = cs.Dyn("N33made")         # made: a binding for several objects may name it
    assert str(cs.subs(L, {"N33made": 3, "M": 2})) == "(2,_8):(_1,2)" and N.name == "N33made"
