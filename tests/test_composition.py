"""Composition: examples, sweeps and properties, judged by tests/postconditions.py."""
from __future__ import annotations


import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import cute_sym as cs
from cute_sym import Layout, parse
from cute_sym.core.int_tuple import leaves

from postconditions import (
    check_composition, check_composition_tiler, image, is_injective, nsize, to_static,
)

from algebra_support import MASKS, P2, P2S, POW2, POW2_INJ, _static_vs_symbolic, layouts


@pytest.mark.parametrize("a, b, expect", [
    ("(_6,_2):(_8,_2)", "(_4,_3):(_3,_1)", "((_2,_2),_3):((_24,_2),_8)"),
    ("_20:_2", "(_5,_4):(_4,_1)", "(_5,_4):(_8,_2)"),
    ("(_10,_2):(_16,_4)", "(_5,_4):(_1,_5)", "(_5,(_2,_2)):(_16,(_80,_4))"),
    ("(_20,_2):(_16,_4)", "(_4,_5):(_1,_4)", "(_4,_5):(_16,_64)"),
    ("(_4,_3):(_1,_4)", "(_12):(_1)", "(_12):(_1)"),
])
def test_composition_examples(a: str, b: str, expect: str) -> None:
    A, B = parse(a), parse(b)
    R = cs.composition(A, B)
    assert str(R) == expect
    check_composition(A, B, R)


def test_composition_with_tiler_and_shape_and_int() -> None:
    A = parse("(_12,(_4,_8)):(_59,(_13,_1))")
    T = parse("(_3:_4,_8:_2)")
    R = cs.composition(A, T)
    check_composition_tiler(A, T, R)
    R2 = cs.composition(A, parse("(_3,_8)"))
    assert str(R2) == "(_3,(_4,_2)):(_59,(_13,_1))"
    check_composition_tiler(A, (3, 8), R2)
    R3 = cs.composition(parse("_20:_2"), 5)
    check_composition(parse("_20:_2"), Layout(5, 1), R3)
    R4 = cs.composition(A, (cs._, 8))
    check_composition_tiler(A, (cs._, 8), R4)


def test_composition_non_dividing_stride() -> None:
    A, B = parse("(_3,_4):(_4,_2)"), parse("_4:_2")
    try:
        R = cs.composition(A, B)
    except cs.LayoutError:
        return
    check_composition(A, B, R)


def test_sweep_composition() -> None:
    """Every pair of small power-of-two layouts whose rhs is injective and inside the lhs domain."""
    n = 0
    for A in POW2:
        for B in POW2_INJ:
            if max(image(B)) >= nsize(A):
                continue
            try:
                R = cs.composition(A, B)
            except cs.LayoutError:
                continue
            check_composition(A, B, R)
            n += 1
    assert n > 500


@given(layouts(ext=P2, rand_strides=P2S), layouts(ext=P2, max_rank=2, rand_strides=P2S))
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_prop_composition(A: Layout, B: Layout) -> None:
    assume(is_injective(B) and max(image(B)) < nsize(A))
    try:
        R = cs.composition(A, B)
    except cs.LayoutError:
        return
    check_composition(A, B, R)


@given(layouts(ext=P2, max_rank=2), MASKS, st.sampled_from(["_4:_1", "_2:_2", "(_2,_2):(_1,_4)", "_8:_1"]))
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_prop_symbolic_composition(L: Layout, mask: list[bool], rhs: str) -> None:
    B = parse(rhs)
    assume(max(image(B)) < nsize(L))
    _static_vs_symbolic(cs.composition, L, mask, B, compare="by_mode")


def test_rhs_stride_of_unknown_sign_names_a_positive_stride() -> None:
    """A symbolic rhs stride of unknown sign: the fact asked for is ``r > 0`` (not abs/sign
    formulas carried through the fold); with it, the answer is pointwise."""
    A = cs.parse("(_4,_8):(_8,_1)")
    y = sympy.Symbol("y", integer=True)
    with pytest.raises(cs.UndecidableError, match="y > 0"):
        cs.composition(A, cs.make_layout(4, y))
    with cs.collect_guards() as g:
        R = cs.composition(A, cs.make_layout(4, y))
    assert "y > 0" in str(g)
    for v in (1, 2, 8):
        Rv = cs.subs(R, {"y": v}, ignore_unknown=True)
        assert all(int(Rv(i)) == int(A(i * v)) for i in range(4))


def test_rhs_modes_that_carry_across_an_lhs_extent_are_refused() -> None:
    """CuTe composes mode by mode; (_4,_2):(_1,_8) o (_2,_2):(_1,_3) would give 4 at i = 3 where
    lhs(rhs(3)) = lhs(4) = 8. The carry is refused, naming it; a continued lhs stride is fine."""
    with pytest.raises(cs.DivisibilityError, match="with a carry"):
        cs.composition(parse("(_4,_2):(_1,_8)"), parse("(_2,_2):(_1,_3)"))
    R = cs.composition(parse("(_4,_2):(_1,_4)"), parse("(_2,_2):(_1,_3)"))
    assert [R(i) for i in range(4)] == [0, 1, 3, 4]
    a, b = cs.Dyn("a"), cs.Dyn("b")
    with pytest.raises(cs.UndecidableError, match="b == 2\\*a"):
        cs.composition(cs.make_layout((2, 1), (a, b)), parse("(_4,_2):(_1,_1)"))


def test_sweep_multi_mode_rhs_is_pointwise_or_refused() -> None:
    """Every answer over small static pairs is lhs(rhs(i)) for every i (the carry check included)."""
    from postconditions import small_layouts
    answered = 0
    for A in small_layouts((2, 3, 4), (1, 2, 4, 8), 2):
        for B in small_layouts((1, 2, 3), (0, 1, 2, 3, 5), 2):
            try:
                R = cs.composition(A, B)
            except cs.LayoutError:
                continue
            answered += 1
            assert all(R(i) == A(B(i)) for i in range(int(cs.size(B)))), (str(A), str(B), str(R))
    assert answered > 300


def test_sweep_negative_rhs_strides_are_pointwise_where_defined_or_refused() -> None:
    """A negative rhs stride takes values below 0, where lhs(rhs(i)) is not defined; wherever rhs(i)
    is in the lhs's domain the answer is lhs(rhs(i)), or the composition raises (CuTe's mode-by-mode
    answer need not be: (_16,_3):(_1,_512) o (_4,_16):(_8,_-1) gives 511 at i = 6, lhs(15) = 15)."""
    from postconditions import small_layouts
    with pytest.raises(cs.DivisibilityError, match="negative stride.*at i = 6"):
        cs.composition(parse("(_16,_3):(_1,_512)"), parse("(_4,_16):(_8,_-1)"))
    answered = refused = 0
    for A in small_layouts((2, 3, 4), (1, 2, 4, 8), 2):
        n = int(cs.size(A))
        for B in small_layouts((2, 3, 4), (-1, -2, -3, 1, 2, 4), 2):
            if all(d > 0 for d in leaves(B.stride)):
                continue
            try:
                R = cs.composition(A, B)
            except cs.LayoutError:
                refused += 1
                continue
            answered += 1
            for i in range(int(cs.size(B))):
                if 0 <= B(i) < n:
                    assert R(i) == A(B(i)), (str(A), str(B), str(R), i)
    assert answered > 300 and refused > 50


def test_product_by_a_negative_stride_tiler_keeps_its_order_or_raises() -> None:
    """logical_product's rest is complement(block) o tiler, in the tiler's order: CuTe's answer for
    _32:_16 by (_4,_16):(_8,_-1) maps equal tiler values 8 (i = 1 and 34) to 8 and 504."""
    with pytest.raises(cs.DivisibilityError, match="does not keep the tiler's order"):
        cs.logical_product(parse("_32:_16"), parse("(_4,_16):(_8,_-1)"))


@given(st.integers(1, 40), st.integers(1, 70), st.sampled_from([1, 2, 3, 4, 6, 8, 16]), st.integers(1, 20))
def test_max_digit_closed_forms_equal_the_scan(s: int, d: int, p: int, n: int) -> None:
    from cute_sym.algebra.composition import _max_digit
    assert _max_digit(s, d, p, n) == max((t * d // p) % n for t in range(s))


def test_symbolic_carry_through_a_continued_mode_is_guarded() -> None:
    """A carry out of lhs mode 0 is harmless where mode 1 continues it (``a == 4``), but it then
    adds into mode 1's digit: at ``b == 1`` it carries on into mode 2 (stride 16), where CuTe's
    mode-by-mode answer is not ``A(B(i))``. The guards exclude exactly the values where it breaks."""
    L = cs.parse("(a,b,_1):(_1,_4,_16)")
    R = cs.parse("(_2,_3):(_3,_1)")
    with cs.collect_guards() as g:
        RG = cs.composition(L, R)
    held = 0
    for a in range(1, 9):
        for b in range(1, 9):
            v = {"a": a, "b": b}
            if not g.holds(v):
                continue
            held += 1
            S, got = cs.subs(L, v, ignore_unknown=True), cs.subs(RG, v, ignore_unknown=True)
            assert [got(i) for i in range(6)] == [S(R(i)) for i in range(6)], v
    assert held > 0 and not g.holds({"a": 4, "b": 1})


@given(st.lists(st.tuples(st.integers(2, 6), st.integers(1, 40)), min_size=2, max_size=3),
       st.sampled_from([1, 2, 4]), st.sampled_from([1, 2, 4, 8]), st.integers(1, 12), st.sampled_from([None, 16, 64]))
def test_digits_fit_at_values_is_the_sum_at_every_value(modes: list[tuple[int, int]], p: int, dv: int, lo: int,
                                                        hi: int | None) -> None:
    """The enumeration's verdict holds at every allowed value of the extent (checked far past its threshold)."""
    from cute_sym.algebra.composition import _digits_fit_at_values
    n = sympy.sympify(cs.Dyn("n", divisible_by=dv, min=lo, **({} if hi is None else {"max": hi})))
    verdict = _digits_fit_at_values(modes, p, n)
    values = [v for v in range(dv, 1000, dv) if v >= lo and (hi is None or v <= hi)]
    assume(values)
    fits = {sum(max((t * d // p) % v for t in range(s)) for s, d in modes) < v for v in values}
    if verdict is not None:
        assert fits == {verdict}, (modes, p, dv, lo, hi)
    else:
        assert len(fits) == 2 or hi is None, (modes, p, dv, lo, hi)


@given(st.lists(st.tuples(st.integers(2, 6), st.integers(1, 40)), min_size=2, max_size=3),
       st.sampled_from([1, 2, 4]), st.integers(1, 12), st.sampled_from([None, 8, 64]),
       st.sampled_from([1, 2, 4, 8]), st.integers(1, 12), st.sampled_from([None, 16, 64]))
def test_digits_fit_at_values_over_a_symbolic_base(modes: list[tuple[int, int]], pdv: int, plo: int,
                                                    phi: int | None, dv: int, lo: int, hi: int | None) -> None:
    """A symbolic base (the extents before, one symbol): the verdict holds at every allowed pair of
    values of base and extent (the base checked past the largest rhs value, where digits are 0)."""
    from cute_sym.algebra.composition import _digits_fit_at_values
    assume((phi is None or plo <= phi) and (hi is None or lo <= hi))
    p = sympy.sympify(cs.Dyn("p", divisible_by=pdv, min=plo, **({} if phi is None else {"max": phi})))
    n = sympy.sympify(cs.Dyn("n", divisible_by=dv, min=lo, **({} if hi is None else {"max": hi})))
    verdict = _digits_fit_at_values(modes, p, n)
    bases = [b for b in range(pdv, 400, pdv) if b >= plo and (phi is None or b <= phi)]
    values = [v for v in range(dv, 600, dv) if v >= lo and (hi is None or v <= hi)]
    assume(bases and values)
    fits = {sum(max((t * d // b) % v for t in range(s)) for s, d in modes) < v for b in bases for v in values}
    if verdict is not None:
        assert fits == {verdict}, (modes, pdv, plo, phi, dv, lo, hi)
    else:
        assert len(fits) == 2 or hi is None or phi is None, (modes, pdv, plo, phi, dv, lo, hi)
    assert _digits_fit_at_values(modes, n, n) is None       # the same symbol twice: not independent


@given(st.sampled_from([1, 2, 3, 4, 8]), st.integers(1, 12), st.sampled_from([None, 16, 64]),
       st.sampled_from([1, 2, 4, 8]), st.integers(1, 9), st.integers(1, 40))
def test_stride_fits_at_every_value(dv: int, lo: int, hi: int | None, tdv: int, tlo: int, c: int) -> None:
    """Stride Divisibility ``cs | r or r < cs`` read off values: a True verdict holds at every allowed
    value of the extent ``cs``, for a static stride ``r = c`` and for the formula ``ceil_div(c, T)``
    (another symbol, its few values), at every pair of values."""
    from cute_sym.algebra.composition import _stride_fits
    from cute_sym.core.int_tuple import ceil_div
    assume(hi is None or lo <= hi)
    cs_ = cs.Dyn("cs", divisible_by=dv, min=lo, **({} if hi is None else {"max": hi}))
    t = cs.Dyn("T", divisible_by=tdv, min=tlo)
    values = [v for v in range(dv, 400, dv) if v >= lo and (hi is None or v <= hi)]
    assume(values)
    fits = lambda r, v: r % v == 0 or r < v     # noqa: E731
    if _stride_fits(cs_, c):
        assert all(fits(c, v) for v in values), (dv, lo, hi, c)
    r = ceil_div(c, t)
    if _stride_fits(cs_, r):
        ts = [k for k in range(tdv, 400, tdv) if k >= tlo]
        assert all(fits(-(-c // k), v) for k in ts for v in values), (dv, lo, hi, tdv, tlo, c)


@pytest.mark.parametrize("lhs, rhs", [
    ("(S0,S1,S2):(_1,_4,_32)", "(_2,_2,_2):(_2,_8,_1)"),       # pycute's test 8, extents symbolic
    ("(S0,S1,S2):(_2,_8,_1)", "(_2,_2,_2):(_1,_8,_2)"),        # pycute's test 9
])
def test_rhs_digits_below_a_symbolic_extent_at_every_value(lhs: str, rhs: str) -> None:
    """The rhs modes' digits fit in lhs extent S0 at every value of S0 (a multiple of 4): no carry,
    so the composition is decided, and it is lhs(rhs(i)) at each value."""
    syms = {"S0": cs.Dyn("S0", divisible_by=4), "S1": cs.Dyn("S1", divisible_by=8), "S2": cs.Dyn("S2", divisible_by=2)}
    A, B = cs.parse(lhs, syms), cs.parse(rhs)
    R = cs.composition(A, B)
    for s0 in (4, 8, 12, 16, 20, 44):
        for s1 in (8, 16, 24):
            v = {"S0": s0, "S1": s1, "S2": 2}
            check_composition(cs.subs(A, v, ignore_unknown=True), B, cs.subs(R, v, ignore_unknown=True))


def test_an_rhs_mode_of_extent_2_asks_nothing_about_ending_inside() -> None:
    """Over a symbolic lhs extent ``a``, an rhs mode ``2:e`` ends inside it (``2 <= ceil_div(a,e)``)
    or steps over all of it (``a <= e``) at every value: guard mode records no such condition
    (it had recorded ``a % e == 0 or ceil_div(a,e) >= 2 or a <= e``), and where the conditions
    it records hold the result is ``A(B(i))``."""
    A, B = parse("(a,b):(_1,_64)"), parse("_2:e")
    with cs.collect_guards() as g:
        R = cs.composition(A, B)
    assert g.conditions
    assert not any(rel == "<=" and x == 2 for entry in g._entries for rel, x, _ in entry), g
    grid = [{"a": a, "b": b, "e": e} for a in range(1, 9) for b in (1, 2, 4) for e in range(-4, 9)]
    tried = 0
    for v in grid:
        if g.holds(v):
            check_composition(to_static(A, v), to_static(B, v), to_static(R, v))
            tried += 1
    assert tried > 0
