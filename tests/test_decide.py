"""The decision procedure (issue 2): prove, require, assume, collect_guards."""
from __future__ import annotations

import itertools
import math
from typing import Any

import pytest
import sympy
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import Dyn
from cute_sym.core import decide
from cute_sym.core.decide import require, require_any
from cute_sym.core.decide.prove import _pinned
from cute_sym.core.decide.witness import open_divides_int_symbol


def test_static_relations() -> None:
    assert cs.prove("<=", 3, 5) is True and cs.prove("|", 3, 5) is False
    assert cs.prove("|", 4, 12) is True and cs.prove("==", 7, 7) is True
    assert cs.prove(">", 2, 9) is False and cs.prove("!=", 2, 9) is True


def test_symbolic_relations() -> None:
    M, N = Dyn("M"), Dyn("N")
    assert cs.prove("<", M, M + 1) is True
    assert cs.prove("==", M, N) is None
    assert cs.prove("|", 4, 16 * N) is True
    assert cs.prove("|", 4, 4 * M + 2) is False
    assert cs.prove(">=", M * M, M) is True
    assert cs.prove(">", M, 0) is True
    assert cs.prove("<", M, 4) is None


def test_facts_on_symbols() -> None:
    K = Dyn("K", divisible_by=8)
    assert cs.prove("|", 4, K) is True and cs.prove("|", 16, K) is None
    B = Dyn("B", min=3, max=10)
    assert cs.prove(">", B, 2) is True and cs.prove("<", B, 11) is True and cs.prove("<", B, 10) is None


def test_unknown_relation_is_a_layout_error() -> None:
    with pytest.raises(cs.LayoutError):
        cs.prove("~", 1, 2)


def test_assume_scopes_facts() -> None:
    M, N = Dyn("M"), Dyn("N")
    with cs.assume(N >= M + 1):
        assert cs.prove("<", M, N) is True
    assert cs.prove("<", M, N) is None
    with cs.assume(sympy.Eq(M % 4, 0)):
        assert cs.prove("|", 4, M) is True
    assert cs.prove("|", 4, M) is None


def test_assume_rejects_plain_bools() -> None:
    with pytest.raises(cs.LayoutError):
        with cs.assume(True):
            pass


def test_require_raises_undecidable_naming_fact() -> None:
    M = Dyn("M")
    with pytest.raises(cs.UndecidableError) as ei:
        require("|", 4, M, why="composition")
    assert "M % 4 == 0" in str(ei.value)
    assert ei.value.fact == "M % 4 == 0"
    assert isinstance(ei.value, cs.LayoutError) and isinstance(ei.value, ValueError)


def test_collect_guards_records_facts() -> None:
    M = Dyn("M")
    with cs.collect_guards() as g:
        assert require("|", 4, M) is True
        assert require("<", M, 100, assume=False) is False
    assert len(g.conditions) == 2
    assert g.holds({"M": 200}) and g.holds({"M": 104})
    assert not g.holds({"M": 6}) and not g.holds({"M": 8})


def test_guard_conditions_as_relations() -> None:
    """An ordering prints as recorded (left open by the procedure, it is not handed to sympy's
    assumption system); an (in)equality sympy settles, such as ``1/a != 0``, is dropped."""
    M, a = Dyn("M"), sympy.sympify(Dyn("a", sign="nonnegative"))
    with cs.collect_guards() as g:
        assert require("<", M, 100, assume=False) is False
        assert require("==", 1 / a, 0, assume=False) is False
    M_ = sympy.sympify(M)
    assert g.conditions == [sympy.Ge(M_, 100, evaluate=False)]
    assert str(g) == "M >= 100"
    assert g.holds({"M": 100, "a": 1}) and not g.holds({"M": 99, "a": 1})


def test_require_any_names_and_records_the_disjunction() -> None:
    M = Dyn("M")
    with pytest.raises(cs.UndecidableError) as ei:
        require_any([("|", M, 16), ("<", 16, M)], why="composition")
    assert ei.value.fact == "16 % M == 0 or M > 16"
    assert require_any([("|", M, 16), ("|", 4, 8 * M)]) is True      # the second is proved
    assert require_any([("<", M, 0), ("|", 3, 4)]) is False            # every one refuted
    assert require_any([("|", M, 1), ("<", 1, M)]) is True             # by cases: M <= 1 means M == 1
    assert cs.prove("|", M, 3) is None
    with cs.assume(M <= 1):
        assert cs.prove("|", M, 3) is True                                 # M is pinned to 1
    with cs.collect_guards() as g:
        assert require_any([("|", M, 16), ("<", 16, M)]) is True
        assert require_any([("<", 16, M), ("|", M, 16)]) is True      # the same fact, other order
    assert len(g.conditions) == 1 and isinstance(g.conditions[0], sympy.Or)
    for m in range(1, 40):
        assert g.holds({"M": m}) == (16 % m == 0 or m > 16)


def test_guarded_algebra_result_is_right_where_guards_hold() -> None:
    M = Dyn("M")
    L = cs.parse("(_2,M):(_1,d)")
    with cs.collect_guards() as g:
        C = cs.complement(L, 64)
    assert g.conditions
    from postconditions import check_complement, to_static
    tried = 0
    for m, d in itertools.product((1, 2, 4), (2, 4, 8, 16)):
        vals = {"M": m, "d": d}
        if not g.holds(vals):
            continue
        S = to_static(L, vals)
        check_complement(S, 64, to_static(C, vals))
        tried += 1
    assert tried > 0
    del M


def test_assumed_bounds_reach_floor() -> None:
    d = Dyn("d", sign="any")
    with cs.assume(d >= 2):
        assert cs.prove(">", sympy.floor(d / 2), 0) is True


# ---------------------------------------------------------------- soundness
M_, N_ = Dyn("M"), Dyn("N")
TERMS = [M_, N_, 2 * M_, M_ * N_, M_ + 3, 4 * N_ + 2, M_ * M_, 8 * M_ * N_, sympy.Integer(4), sympy.Integer(6)]


@given(st.sampled_from(TERMS), st.sampled_from(TERMS), st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "|"]),
       st.lists(st.tuples(st.integers(1, 40), st.integers(1, 40)), min_size=5, max_size=10))
def test_prop_prove_is_sound(a: sympy.Expr, b: sympy.Expr, rel: str, values: list[tuple[int, int]]) -> None:
    """A decided answer holds for every substitution of positive values."""
    r = cs.prove(rel, a, b)
    if r is None:
        return
    for m, n in values:
        x, y = int(a.subs({M_: m, N_: n})), int(b.subs({M_: m, N_: n}))
        truth = {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y,
                 "|": (y == 0 if x == 0 else y % x == 0)}[rel]
        assert truth == r, f"prove({rel!r}, {a}, {b}) = {r}, but M={m}, N={n} gives {truth}"


KA, LA = Dyn("KA", sign="any"), Dyn("LA", sign="any")


@given(st.lists(st.tuples(st.integers(-12, 12), st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=4),
       st.integers(-20, 20), st.sampled_from(["==", "!="]))
def test_prop_equality_apart_by_a_divisor(terms: list[tuple[int, int, int]], c: int, rel: str) -> None:
    """``c + sum(k * KA**i * LA**j)`` is never 0 when the gcd of the ``k`` does not divide ``c``
    (``4*KA + 1 == 0`` is refuted); every decided answer holds at every integer point."""
    e = sympy.Integer(c) + sum((k * KA ** i * LA ** j for k, i, j in terms), sympy.Integer(0))
    r = cs.prove(rel, e, 0)
    g, c0 = 0, c     # the gcd of the coefficients of the non-constant terms; the whole constant
    for k, i, j in terms:
        if i or j:
            g = math.gcd(g, k)
        else:
            c0 += k
    e2 = sympy.expand(e)
    if g > 1 and c0 % g and not e2.is_Number:
        assert r is (rel == "!=")
    if r is not None:
        for kv, lv in itertools.product(range(-6, 7), repeat=2):
            assert (int(e.subs({KA: kv, LA: lv})) != 0) == (r if rel == "!=" else not r)


def test_divides_quotient_divisor_not_refuted() -> None:
    """``2/a`` (an exact quotient under a guard) may divide 5 (a = 2): never refuted."""
    a = Dyn("a")
    assert cs.prove("|", 2 / a, 5) is not False
    assert cs.prove("|", 4 * a, 4 * a + 2) is False


def test_bounds_facts_and_guards_reach_nested_calls() -> None:
    d, M = Dyn("d", sign="any"), Dyn("M")
    with cs.assume(d >= 1, M <= 4):
        assert cs.prove(">=", sympy.ceiling(d / M), 1) is True
        assert cs.prove("<=", sympy.Min(M, d), 4) is True
    with cs.collect_guards() as g:
        require(">=", d, 3)
        assert cs.prove(">", sympy.floor(d / 3), 0) is True
    assert [str(c) for c in g.conditions] == ["d >= 3"]


# The cheap structural checks prove() runs before any reasoning (a symbol against an
# integer, monomials against each other): each answer holds for every value the facts
# allow, and never contradicts the full procedure.
_QS = [Dyn("qa"), Dyn("qb", divisible_by=4), Dyn("qc", min=2, max=9), Dyn("qd", divisible_by=8, max=64)]


def _values(sym: sympy.Symbol) -> list[int]:
    from cute_sym.core.integers import symbol_facts
    d, lo, hi = symbol_facts(sym)
    top = hi if hi is not None else 70
    return [v for v in range(max(lo or 1, 1), top + 1) if v % d == 0][:12]


@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=0, max_size=3),
       st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2)), min_size=0, max_size=3),
       st.integers(1, 6), st.integers(1, 6), st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "|"]))
def test_quick_checks_are_sound(ma: list[tuple[int, int]], mb: list[tuple[int, int]], ca: int, cb: int, rel: str) -> None:
    from cute_sym.core.decide.base import _prove_int
    from cute_sym.core.decide.prove import _prove_sym
    a = sympy.Integer(ca) * sympy.Mul(*[_QS[i] ** k for i, k in ma])
    b = sympy.Integer(cb) * sympy.Mul(*[_QS[i] ** k for i, k in mb])
    answer = cs.prove(rel, a, b)
    full = _prove_sym(rel, a, b, ())
    assert full is None or answer is None or full == answer, (a, rel, b, answer, full)
    if answer is None:
        return
    syms = sorted(a.free_symbols | b.free_symbols, key=str)
    for vals in itertools.islice(itertools.product(*[_values(s) for s in syms]), 400):
        env = dict(zip(syms, vals))
        got = _prove_int(rel, int(a.xreplace(env)), int(b.xreplace(env)))
        assert got == answer, (a, rel, b, env)


def test_quick_checks_symbol_against_integer() -> None:
    K = Dyn("K", divisible_by=8, max=64)
    assert cs.prove(">=", K, 8) is True and cs.prove("<", K, 8) is False
    assert cs.prove("==", K, 12) is False and cs.prove("<=", K, 64) is True
    assert cs.prove("==", K, 16) is None and cs.prove(">", K, 8) is None
    M, N = Dyn("M", divisible_by=4), Dyn("N")
    assert cs.prove("<", M * N, M) is False and cs.prove(">=", 2 * M * N, M) is True
    assert cs.prove("==", M * N, M) is None and cs.prove("!=", M * M, M) is True


def test_quick_divisibility_from_the_symbols_divisors() -> None:
    M, N = Dyn("M", divisible_by=128), Dyn("N", divisible_by=6)
    assert cs.prove("|", 128, M) is True and cs.prove("|", 256, 2 * M * N) is True
    assert cs.prove("|", 12, M * N) is True and cs.prove("|", 9, M * N) is None
    assert cs.prove("|", 256, M) is None


def test_quick_divisibility_between_monomials() -> None:
    M, N = Dyn("M", divisible_by=4), Dyn("N")
    assert cs.prove("|", M, M * N) is True and cs.prove("|", 2 * M, M * M) is True
    assert cs.prove("|", 8 * M, M * M * N) is None
    assert cs.prove("|", M * N, 3 * M * N) is True


# ---- the quick front paths of prove (read off a symbol's facts) against plain evaluation
def _multiples(d: int, lo: int) -> list[int]:
    k0 = -((-lo) // d)
    return [d * k for k in range(k0, k0 + 200)]


def test_open_divides_int_symbol_is_open() -> None:
    # True only when the relation holds at one allowed value and fails at another
    for d in range(1, 7):
        for lo in (1, 3, 8):
            s = Dyn(f"S{d}_{lo}", divisible_by=d, min=lo)
            vals = _multiples(d, lo)
            for n in range(1, 41):
                for a, b, rel in ((sympy.Integer(n), s, lambda v: v % n == 0),
                                  (s, sympy.Integer(n), lambda v: n % v == 0)):
                    seen = {rel(v) for v in vals}
                    got = open_divides_int_symbol(a, b)
                    if got:
                        assert seen == {True, False}, (d, lo, n, a, b)
                        assert cs.prove("|", a, b) is None


def test_pinned_keeps_the_value() -> None:
    for d in (1, 2, 4, 8):
        s = Dyn(f"P{d}", divisible_by=d)
        for c in range(1, 20):
            up, down = sympy.ceiling(sympy.Integer(c) / s), sympy.floor(sympy.Integer(c) / s)
            # mins and maxes with a pinned argument are rebuilt without sympy's evaluation
            mm = [f(*args, evaluate=False) for f in (sympy.Min, sympy.Max)
                  for args in ((2, up), (up, s / d), (down, 1, 3), (2 * s, up, down))]
            for e in (up, down, 7 * s / up, *mm, 5 / sympy.Min(4, up, evaluate=False)):
                p = _pinned(e)
                for v in _multiples(d, 1)[:30]:
                    assert p.subs(s, v) == e.subs(s, v), (d, c, e, p, v)


def test_int_valued_reads_the_structure_soundly() -> None:
    """_int_valued: True only for formulas integer at every allowed value (checked by substitution),
    and it recognises the ceilings and mins the algebra builds without sympy's assumption system."""
    from cute_sym.core.decide.divisibility import _int_valued, _int_product
    S, T = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T"))
    forms = [S, S / 2, sympy.ceiling(8 / S), sympy.floor(S / 3) * T, sympy.Min(4, S / 2), sympy.Min(4, S),
             sympy.ceiling(S / 8) ** 2, sympy.ceiling(S / 8) ** -1, sympy.Max(T, sympy.ceiling(S / 3)) + S,
             T * S / 8, sympy.ceiling(sympy.sqrt(S))]
    expected = [True, False, True, True, False, True, True, False, True, False, False]
    for e, want in zip(forms, expected):
        assert _int_valued(e) is want, e
        if want:
            for s, t in itertools.product(range(4, 40, 4), range(1, 6)):
                v = e.subs({S: s, T: t})
                assert v.is_Integer, (e, s, t, v)
    assert _int_product(S * T * sympy.ceiling(S / 8) / sympy.ceiling(8 / S)) is False
    assert _int_product(S * T * sympy.ceiling(S / 8)) is True


@given(st.integers(1, 80), st.sampled_from([1, 2, 3, 4, 8]), st.integers(1, 20), st.sampled_from([None, 24, 100]),
       st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), st.integers(-1, 10), st.booleans())
def test_reciprocal_rounding_against_a_number_is_exact(n: int, d: int, lo: int, hi: int | None, rel: str, c: int,
                                                      up: bool) -> None:
    """floor(n/S) or ceiling(n/S) against a number, read off S's values: True/False hold at every
    allowed value, None only where both outcomes occur."""
    from cute_sym.core.decide.base import _prove_int
    from cute_sym.core.decide.quick import _MISS, _reciprocal_vs_int
    S = sympy.sympify(Dyn("S", divisible_by=d, min=lo, **({} if hi is None else {"max": hi})))
    a = (sympy.ceiling if up else sympy.floor)(sympy.Integer(n) / S)
    r = _reciprocal_vs_int(rel, a, c)     # type: ignore[arg-type]
    values = [v for v in range(d, 400, d) if v >= lo and (hi is None or v <= hi)]
    if r is _MISS or not values:
        return
    seen = {_prove_int(rel, -(-n // v) if up else n // v, c) for v in values}    # type: ignore[arg-type]
    assert seen == ({True, False} if r is None else {r}), (n, d, lo, hi, rel, c, up, r)


def test_shortcuts_for_positive_formulas_and_common_factors_are_the_values() -> None:
    """The early answers (a positive formula against 0, a common factor cancelled before the rest)
    agree with the values at every sampled allowed value, with and without facts in force."""
    from cute_sym.core import decide
    S, T = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T", divisible_by=2))
    c8, cs_ = sympy.ceiling(8 / S), sympy.ceiling(S / 8)
    questions = [("==", sympy.Min(4, S / 2), 0), ("!=", c8 * T, 0), (">", c8, 0), ("<=", c8 * T, 0),
                 ("<", 0, sympy.Min(4, S / 2)), (">=", 0, c8 * T), ("|", cs_, T * 3 * cs_ / c8),
                 ("<=", T / c8, T * S / c8), ("<", cs_ * T / c8, cs_ * T), ("|", sympy.Min(2, cs_), T * sympy.Min(2, cs_))]
    for rel, a, b in questions:
        for facts in ((), (S >= 8,)):
            with decide.assume(*facts) if facts else _nothing():
                r = decide.prove(rel, a, b)
            for s in range(4, 120, 4):
                if facts and s < 8:
                    continue
                for t in (2, 4, 6, 16):
                    av, bv = (int(sympy.sympify(x).subs({S: s, T: t})) for x in (a, b))
                    holds = {"==": av == bv, "!=": av != bv, "<=": av <= bv, "<": av < bv, ">": av > bv,
                             ">=": av >= bv, "|": bv % av == 0 if av else bv == 0}[rel]
                    assert r is None or r == holds, (rel, a, b, facts, s, t, r)


def test_a_positive_quotient_is_above_0() -> None:
    """A formula positive by its structure is > 0 even where it is no integer (``2/c``: the
    orderings read ``> 0`` as ``>= 1``), with or without facts in force; checked exactly."""
    from postconditions import exact_value, symbol_values
    C, T = sympy.sympify(Dyn("C")), sympy.sympify(Dyn("T", divisible_by=2))
    questions = [(">", 2 / C, 0), (">=", 4 / (C * T), 0), ("<", 0, 3 / C), ("<=", 0, sympy.Min(2 / C, T)),
                 (">", sympy.ceiling(T / 4) / C, 0)]
    for rel, a, b in questions:
        for facts in ((), (C <= 9,)):
            with decide.assume(*facts) if facts else _nothing():
                assert decide.prove(rel, a, b) is True, (rel, a, b, facts)
            for c in symbol_values(C):
                for t in symbol_values(T):
                    env = {C: c, T: t}
                    av, bv = exact_value(sympy.sympify(a), env), exact_value(sympy.sympify(b), env)
                    assert av is not None and bv is not None
                    assert {">": av > bv, ">=": av >= bv, "<": av < bv, "<=": av <= bv}[rel], (rel, a, b, env)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@given(st.sampled_from([1, 2, 4]), st.integers(1, 9), st.sampled_from([2, 4, 8]), st.integers(1, 6),
       st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "|"]), st.integers(0, 3), st.booleans())
def test_symbol_against_a_formula_of_few_values_is_exact(ds: int, los: int, dt: int, c: int, rel: str, shape: int,
                                                        swap: bool) -> None:
    """S against F(T) (a ceil_div or min of another symbol) value by value: True/False hold at
    every pair of allowed values, None only where both outcomes occur."""
    from fractions import Fraction

    from cute_sym.core.decide.quick import _front
    from cute_sym.core.decide.values import symbol_apart_by_values
    S = sympy.sympify(Dyn("S", divisible_by=ds, min=los))
    T = sympy.sympify(Dyn("T", divisible_by=dt))
    F = [sympy.ceiling(sympy.Integer(8 * c) / T), sympy.Min(c, T / dt), 4 * c / sympy.Min(4, T / 2),
         sympy.Min(2, sympy.ceiling(T / 8))][shape]
    f = [lambda t: -(-8 * c // t), lambda t: min(c, t // dt), lambda t: Fraction(4 * c, min(4, t // 2)),
         lambda t: min(2, -(-t // 8))][shape]       # F in plain ints (T/dt, T/2 are exact here)
    a, b = (F, S) if swap else (S, F)
    settled, r = symbol_apart_by_values(rel, a, b, _front)
    if not settled:
        return
    seen = set()
    for s in [v for v in range(ds, 200, ds) if v >= los]:
        for t in range(dt, 400, dt):
            av, bv = (f(t), s) if swap else (s, f(t))
            if rel == "|" and (Fraction(av).denominator != 1 or Fraction(bv).denominator != 1):
                return      # divisibility of a non-integer value: not this question
            seen.add({"==": av == bv, "!=": av != bv, "<": av < bv, "<=": av <= bv, ">": av > bv, ">=": av >= bv,
                      "|": (bv % av == 0) if av else bv == 0}[rel])
    assert seen == ({True, False} if r is None else {r}), (rel, a, b, r)


def test_is_polynomial_is_sympys_has() -> None:
    """is_polynomial walks the formula itself: the same verdict as sympy's has() over the same classes."""
    from cute_sym.core.decide import is_polynomial
    from cute_sym.core.symbolic import IMod
    S, T = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T"))
    atoms = [S, T, sympy.Integer(3), S * T, S + 2 * T, S ** 2]
    wraps = [lambda x: x, sympy.ceiling, sympy.floor, lambda x: sympy.Min(x, 4), lambda x: sympy.Max(x, T),
             lambda x: sympy.Mod(x, 3), lambda x: IMod(x, 5), sympy.Abs, sympy.sign, lambda x: 8 / x,
             lambda x: x * sympy.ceiling(T / 3), lambda x: x + sympy.Min(S, 2)]
    bad = (sympy.floor, sympy.ceiling, sympy.Min, sympy.Max, sympy.Mod, IMod, sympy.Abs, sympy.sign)
    for a, f, g in itertools.product(atoms, wraps, wraps):
        e = sympy.sympify(g(f(a)))
        assert is_polynomial(e) == (not e.has(*bad)), e


def test_powers_is_sympys_decomposition() -> None:
    """prove's _powers (read off the args by monomials.monomial_parts) against sympy's own
    as_coeff_Mul / as_powers_dict over products, powers, quotients and non-monomials."""
    from cute_sym.core.decide.prove import _powers

    def reference(e: Any) -> Any:
        c, m = e.as_coeff_Mul()
        if not c.is_Rational or c.p <= 0:
            return None
        out = []
        if m is not sympy.S.One:
            for base, ex in (((m, sympy.S.One),) if m.is_Symbol else m.as_powers_dict().items()):
                if not (base.is_Symbol and ex.is_Integer and ex.p > 0 and base.is_positive is True
                        and base.is_integer is True):
                    return None
                out.append((base, int(ex.p)))
        return int(c.p), int(c.q), dict(out)

    S, T = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T"))
    A = sympy.sympify(Dyn("A", sign="any"))
    factors = [sympy.Integer(3), sympy.Rational(1, 8), sympy.Integer(-2), S, T, S ** 2, 1 / T, A,
               sympy.ceiling(S / 8), S + T, sympy.Min(S, 4)]
    for f, g in itertools.product(factors, repeat=2):
        e = sympy.sympify(f * g)
        got = _powers(e)
        want = reference(e)
        assert (got is None) == (want is None), e
        if got is not None:
            assert (got[0], got[1], dict(got[2])) == want, e


def test_numer_denom_is_sympys() -> None:
    """_quotient_divides' numerator and denominator of a monomial (read off its args) are sympy's
    as_numer_denom(), for quotients of products of symbols, powers, roundings and mins."""
    from cute_sym.core.decide.prove import _numer_denom
    S, T = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T"))
    factors = [sympy.Integer(3), sympy.Rational(1, 8), sympy.Rational(-3, 4), S, T, S ** 2, 1 / T, T ** -3,
               sympy.ceiling(S / 8), 1 / sympy.ceiling(8 / S), sympy.Min(4, S / 2), S + T]
    for f, g, h in itertools.product(factors, repeat=3):
        q = sympy.sympify(f * g / h)
        n, m = _numer_denom(q)
        wn, wm = q.as_numer_denom()
        assert (n, m) == (wn, wm) and hash(n) == hash(wn) and hash(m) == hash(wm), q


def test_mentions_is_free_symbols() -> None:
    """decide.mentions(e, s) is ``s in e.free_symbols``, equal-but-distinct symbols included."""
    import pickle
    from cute_sym.core.decide import mentions
    S, T = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T"))
    S2 = pickle.loads(pickle.dumps(S))
    forms = [S, T, 3 * S, S * T, sympy.ceiling(8 / S), 4 / sympy.Min(4, T / 2), sympy.Integer(5),
             S + T ** 2, sympy.floor(sympy.ceiling(S / 8) / T)]
    for e in forms:
        for s in (S, T, S2, sympy.sympify(Dyn("S"))):
            assert mentions(e, s) == (s in e.free_symbols), (e, s)


def test_a_dynamic_number_is_asked_as_its_int() -> None:
    """A sympy Integer (a pinned ceil_div, the 1 a fold carries) against a formula: the answer the
    plain int gets, on either side (the int's quick paths)."""
    S, T = Dyn("S", divisible_by=4), Dyn("T", min=2)
    forms = [S, T, 2 * S, S * T, sympy.ceiling(sympy.Integer(8) / S), sympy.Min(4, S / 2)]
    for e in forms:
        for c in (0, 1, 2, 4, 8, 9):
            for rel in ("==", "!=", "<", "<=", ">", ">=", "|"):
                decide.clear_caches()
                want_l, want_r = decide.prove(rel, c, e), decide.prove(rel, e, c)
                decide.clear_caches()
                assert decide.prove(rel, sympy.Integer(c), e) == want_l, (c, rel, e)
                assert decide.prove(rel, e, sympy.Integer(c)) == want_r, (e, rel, c)


def test_public_prove_checks_its_arguments() -> None:
    import cute_sym as cs
    M = Dyn("M", divisible_by=4)
    assert cs.prove("|", 4, M) is True and cs.prove("|", 8, M) is None
    for bad, what in ((("~", M, 1), "unknown relation"), (("|", "x", M), "left operand"),
                      (("|", 4, 4.5), "right operand"), (("==", None, 1), "left operand"), ((None, 1, 2), "relation")):
        with pytest.raises(cs.LayoutError, match=what):
            cs.prove(*bad)


def test_assume_takes_the_triples_prove_takes() -> None:
    import cute_sym as cs
    N = Dyn("N")
    with cs.assume(("|", 8, N), (">=", N, 64)):
        assert cs.prove("|", 4, N) is True and cs.prove(">", N, 32) is True
        assert str(cs.shape_div(N, 8)) == "N/8"
    assert cs.prove("|", 4, N) is None
    for bad, what in ((("!=", N, 0), "relation '!='"), (("|", "x", N), "operand"), (("<", N), "cannot use")):
        with pytest.raises(cs.LayoutError, match=what):
            with cs.assume(bad):
                pass


# ---------------------------------------------------------------- issue 33
@pytest.mark.parametrize("text", ["M %% 4", "M +", "((", "M % 4 == 0 =="])
def test_assume_unreadable_text_is_a_layout_error(text: str) -> None:
    M = Dyn("M")
    with pytest.raises(cs.LayoutError, match="assume: cannot read the fact"):
        with cs.assume(text, symbols=[M]):
            pass
