"""The decision procedure's cheap paths (a symbol against a number, the few values of a one-symbol
formula, the ratio of two products) checked value by value: a True answer holds and a False answer
fails at every allowed value of the symbols; an answer the paths call open is seen both ways."""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Callable, Optional

import pytest
import sympy
from hypothesis import given, settings, strategies as st

from cute_sym import Dyn
from cute_sym.core import decide
from cute_sym.core.decide.prove import _ratio_order
from cute_sym.core.decide.quick import _front, _MISS
from cute_sym.core.decide.disjunction import disjunction_by_values
from cute_sym.core.decide.values import divides_by_values, order_by_values, value_set

RELS = ("==", "!=", "<", "<=", ">", ">=")
# (divisor, min, max) of the symbol S
FACTS = [(1, None, None), (2, None, None), (4, None, None), (6, None, None), (8, None, None),
         (4, 8, None), (2, None, 12), (3, 3, 30)]
# how many allowed values are tried for an unbounded symbol (every threshold below is under it)
SPAN = 400


def _symbol(d: int, lo: Optional[int], hi: Optional[int]) -> Any:
    return Dyn("S", divisible_by=d, min=lo, max=hi)


def _allowed(d: int, lo: Optional[int], hi: Optional[int]) -> list[int]:
    first = -(-(lo if lo is not None else 1) // d) * d
    last = hi if hi is not None else first + SPAN * d
    return list(range(first, last + 1, d))


def _truth(rel: str, x: Any, y: Any) -> bool:
    if rel == "|":
        return bool(y == 0) if x == 0 else bool(y % x == 0)
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[rel]


def _check(answer: Optional[bool], truths: list[bool], what: str, open_is_final: bool) -> None:
    if answer is True:
        assert all(truths), f"{what}: proved, but fails at some allowed value"
    elif answer is False:
        assert not any(truths), f"{what}: refuted, but holds at some allowed value"
    elif open_is_final:
        assert any(truths) and not all(truths), f"{what}: called open, but is the same everywhere"


# one-symbol formulas, as sympy expressions and as Python functions of the symbol's value
def _forms(S: Any) -> list[tuple[Any, Callable[[int], Fraction]]]:
    out: list[tuple[Any, Callable[[int], Fraction]]] = []
    for p, q in ((1, 1), (1, 2), (3, 2), (1, 8), (2, 3), (2, 1), (6, 1)):
        k = sympy.Rational(p, q)
        fk = Fraction(p, q)
        out.append((k * S, lambda s, fk=fk: fk * s))
        out.append((sympy.ceiling(k * S), lambda s, fk=fk: Fraction(math.ceil(fk * s))))
        out.append((sympy.floor(k * S), lambda s, fk=fk: Fraction(math.floor(fk * s))))
    return out


@pytest.mark.parametrize("facts", FACTS)
def test_symbol_and_scaled_symbol_against_numbers(facts: tuple[int, Optional[int], Optional[int]]) -> None:
    """``_front``: a (scaled, rounded) symbol against a number is decided exactly, in plain ints."""
    S = _symbol(*facts)
    vals = _allowed(*facts)
    for e, f in [(S, lambda s: Fraction(s))] + _forms(S):
        values = [f(s) for s in vals]
        if any(v.denominator != 1 for v in values):
            continue    # not an integer at every allowed value: not a formula of the algebra
        ints = [int(v) for v in values]
        for rel in RELS + ("|",):
            for c in range(-3, 40):
                for flip in (False, True):
                    a, b = (c, e) if flip else (e, c)
                    r = _front(rel, a, b)
                    if r is _MISS:
                        continue
                    truths = [_truth(rel, c, v) if flip else _truth(rel, v, c) for v in ints]
                    # final: the symbol's values are all there are (bounded: the whole range is seen)
                    final = rel != "|" or facts[2] is not None or not flip
                    _check(r, truths, f"{a} {rel} {b} with S in {facts}", open_is_final=final and bool(truths))


@pytest.mark.parametrize("facts", FACTS)
def test_min_values_are_exact(facts: tuple[int, Optional[int], Optional[int]]) -> None:
    """``value_set`` of ``Min(c, f(S))``: exactly the values taken; and divisibility read off them."""
    S = _symbol(*facts)
    vals = _allowed(*facts)
    for (fe, f), c in itertools.product(_forms(S), (1, 2, 3, 4, 6, 8, 12)):
        e = sympy.Min(c, fe, evaluate=False)
        if any(f(s).denominator != 1 for s in vals):
            continue    # not an integer at every allowed value: not a formula of the algebra
        taken = {min(Fraction(c), f(s)) for s in vals}
        got = value_set(e)
        if got is None:
            continue
        vs, exact = got
        if exact:
            assert taken == {Fraction(v) for v in vs}, f"{e}: {sorted(vs)} but takes {sorted(taken)}"
        else:
            assert taken <= {Fraction(v) for v in vs}, f"{e}: {sorted(vs)} misses values"
        for n in (1, 2, 4, 6, 8, 12, 24):
            settled, r = divides_by_values(e, sympy.Integer(n))
            if settled:
                _check(r, [_truth("|", v, n) for v in taken], f"{e} | {n}", open_is_final=True)
            settled, r = divides_by_values(sympy.Integer(n), e)
            if settled:
                _check(r, [_truth("|", n, v) for v in taken], f"{n} | {e}", open_is_final=True)
            for rel in RELS:
                settled, r = order_by_values(rel, e, sympy.Integer(n))
                if settled:
                    _check(r, [_truth(rel, v, n) for v in taken], f"{e} {rel} {n}", open_is_final=True)
                settled, r = order_by_values(rel, sympy.Integer(n), e)
                if settled:
                    _check(r, [_truth(rel, n, v) for v in taken], f"{n} {rel} {e}", open_is_final=True)


@pytest.mark.parametrize("facts", FACTS)
def test_prove_on_min_formulas_is_sound(facts: tuple[int, Optional[int], Optional[int]]) -> None:
    """Through the public entry (memo, quick paths and the full reasoning together), with a
    constant difference among the questions."""
    S = _symbol(*facts)
    vals = _allowed(*facts)
    for (fe, f), c in itertools.product(_forms(S)[:6], (2, 4, 8)):
        e = sympy.Min(c, fe, evaluate=False)
        values = [min(Fraction(c), f(s)) for s in vals]
        if any(v.denominator != 1 for v in values):
            continue
        for rel, n in itertools.product(RELS + ("|",), (1, 2, 4, 8)):
            decide.clear_caches()
            r = decide.prove(rel, e, n)
            _check(r, [_truth(rel, v, n) for v in values], f"{e} {rel} {n}", open_is_final=False)
        for rel, n in itertools.product(RELS, (-1, 0, 2)):
            r = decide.prove(rel, e + n, e)
            _check(r, [_truth(rel, v + n, v) for v in values], f"{e} + {n} {rel} {e}", open_is_final=False)


A = Dyn("A", divisible_by=2)
B = Dyn("B", divisible_by=3)
C = Dyn("C", divisible_by=4)
FACTORS = [A, B, C, sympy.ceiling(8 / C), sympy.ceiling(C / 8), sympy.Integer(2), sympy.Integer(3)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(FACTORS), min_size=1, max_size=3),
       st.lists(st.sampled_from(FACTORS), min_size=1, max_size=3),
       st.lists(st.sampled_from(FACTORS), max_size=2),
       st.sampled_from(RELS),
       st.lists(st.tuples(st.integers(1, 30), st.integers(1, 30), st.integers(1, 30)), min_size=8, max_size=12))
def test_ratio_order_is_sound(fa: list[Any], fb: list[Any], common: list[Any], rel: str,
                              values: list[tuple[int, int, int]]) -> None:
    """``_ratio_order``: two products with common factors, compared through their ratio's bounds."""
    a = sympy.Mul(*(fa + common))
    b = sympy.Mul(*(fb + common))
    if not (a.is_Mul or b.is_Mul):
        return
    r = _ratio_order(rel, a, b)
    if r is None:
        return
    for x, y, z in values:
        sub = {A: 2 * x, B: 3 * y, C: 4 * z}
        assert _truth(rel, a.xreplace(sub), b.xreplace(sub)) == r, f"{a} {rel} {b} at {sub}: not {r}"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FACTS),
       st.lists(st.tuples(st.sampled_from(RELS + ("|",)), st.booleans(), st.integers(-4, 40)), min_size=1, max_size=3))
def test_disjunction_by_values(facts: tuple[int, Optional[int], Optional[int]],
                               alts: list[tuple[str, bool, int]]) -> None:
    """One symbol against numbers: True exactly when some alternative holds at every allowed value
    (checked over many more values than the procedure looks at), False when one value fails all."""
    S = _symbol(*facts)
    qs = [(rel, S, c) if left else (rel, c, S) for rel, left, c in alts]
    r = disjunction_by_values(qs)
    if r is None:
        return
    first = -(-(facts[1] or 1) // facts[0]) * facts[0]
    last = facts[2] if facts[2] is not None else first + 2000 * facts[0]
    ok = [any(_truth(rel, v, c) if left else _truth(rel, c, v) for rel, left, c in alts)
          for v in range(first, last + 1, facts[0])]
    assert r == all(ok), f"{qs}: {r}"


@pytest.mark.parametrize("facts", FACTS)
def test_decreasing_values_and_independent_symbols(facts: tuple[int, Optional[int], Optional[int]]) -> None:
    """``ceiling(c/S)``, ``floor(c/S)``: exactly the values taken; and ``a | T``, ``T | a`` for a
    symbol ``T`` apart from ``a``, over both symbols' values."""
    S = _symbol(*facts)
    vals = _allowed(*facts)
    T = Dyn("T", divisible_by=4)
    tvals = list(range(4, 4 * 300, 4))
    for c, f in itertools.product((1, 3, 8, 24, 32), (sympy.ceiling, sympy.floor)):
        e = f(sympy.Integer(c) / S)
        if e.is_Number:
            continue        # sympy settled it itself (floor(1/S) for S >= 2)
        taken = {int(f(sympy.Rational(c, s))) for s in vals}
        got = value_set(e)
        assert got is not None
        if got[1]:
            assert taken == set(got[0]), f"{e}: {sorted(got[0])} but takes {sorted(taken)}"
        else:
            assert taken <= set(got[0])
        if 0 in taken:
            continue
        for a, b, pairs in ((e, T, [(v, t) for v in taken for t in tvals]),
                            (T, e, [(t, v) for v in taken for t in tvals])):
            settled, r = divides_by_values(sympy.sympify(a), sympy.sympify(b))
            if settled:
                _check(r, [_truth("|", x, y) for x, y in pairs], f"{a} | {b}", open_is_final=True)


def test_divisor_of_a_quotient_is_not_read_off_its_coefficient() -> None:
    """Regression: ``2 | 6/min(6,a)`` was read off the 6 (``a = 6`` gives 1); and under the guard
    ``min(6,a) | 6`` composition then claimed ``(a,_2,b):(_1,_16,_4) o _6:_1`` for ``a = 2``,
    where the static layout fails (CuTe's Shape Divisibility Condition, 3 % 2)."""
    import cute_sym as cs
    a = Dyn("a")
    q = 6 / sympy.Min(6, a, evaluate=False)
    decide.clear_caches()
    assert decide.prove("|", 2, q) is None
    assert decide.prove("|", sympy.Min(2, q, evaluate=False), q) is None
    with cs.collect_guards() as g:
        cs.composition(cs.parse("(a,_2,b):(_1,_16,_4)"), cs.parse("_6:_1"))
    assert not g.holds({"a": 2, "b": 1})
    with pytest.raises(cs.LayoutError):
        cs.composition(cs.parse("(_2,_2,_1):(_1,_16,_4)"), cs.parse("_6:_1"))


@pytest.mark.parametrize("facts", FACTS)
def test_linear_order(facts: tuple[int, Optional[int], Optional[int]]) -> None:
    """``_linear_order``: ``a rel b`` for ``b - a = c + k*S``, exactly, over the symbol's values."""
    from cute_sym.core.decide.quick import _linear_order
    S = _symbol(*facts)
    vals = _allowed(*facts)
    for c, k in itertools.product((-9, -1, 0, 2, 7), (sympy.Rational(1), sympy.Rational(-2), sympy.Rational(3, 2),
                                                       sympy.Rational(-1, 4))):
        d = c + k * S
        for rel in RELS:
            r = _linear_order(rel, d)
            if r is _MISS:
                continue
            truths = [_truth(rel, 0, c + k * s) if rel in ("<", "<=", "==", "!=") else _truth(rel, -(c + k * s), 0)
                      for s in vals]
            _check(r, truths, f"0 vs {d} ({rel}) with S in {facts}", open_is_final=False)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(FACTS), st.sampled_from([1, 2, 4]), st.sampled_from([3, 8, 16, 24]),
       st.sampled_from([sympy.ceiling, sympy.floor]),
       st.lists(st.tuples(st.sampled_from(RELS + ("|",)), st.booleans()), min_size=1, max_size=3))
def test_disjunction_by_formula_values(facts: tuple[int, Optional[int], Optional[int]], du: int, c: int,
                                       f: Any, alts: list[tuple[str, bool]]) -> None:
    """A symbol U against one formula F = f(c/S) of another symbol, F's values read in turn: True
    exactly when some alternative holds at every pair of allowed values, False when a pair fails
    all (brute force over both symbols, far past every threshold)."""
    S = _symbol(*facts)
    U = Dyn("U", divisible_by=du)
    F = f(sympy.Integer(c) / sympy.sympify(S))
    if F.is_Number:
        return
    qs = [(rel, U, F) if left else (rel, F, U) for rel, left in alts]
    r = disjunction_by_values(qs)
    if r is None:
        return
    # F's values (S past c gives F's last value) against U far past every number involved
    fvals = {int(F.xreplace({sympy.sympify(S): s})) for s in _allowed(*facts)[:60]}
    ok = all(any(_truth(rel, u, fv) if left else _truth(rel, fv, u) for rel, left in alts)
             for fv in fvals for u in range(du, du * 100, du))
    assert r == ok, f"{qs}: {r}"


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FACTS),
       st.lists(st.tuples(st.sampled_from(RELS + ("|",)), st.integers(0, 5), st.booleans(), st.integers(-2, 40)),
                min_size=1, max_size=3))
def test_disjunction_of_settling_formulas(facts: tuple[int, Optional[int], Optional[int]],
                                          alts: list[tuple[str, int, bool, int]]) -> None:
    """One symbol S, formulas of it that settle (ceiling(c/S), min(c, S/k), ...) and S itself
    against numbers: True exactly when some alternative holds at every allowed value, False when
    one value fails all (brute force far past every threshold)."""
    S = _symbol(*facts)
    s = sympy.sympify(S)
    pool = [s, sympy.ceiling(8 / s), sympy.floor(24 / s), sympy.Min(4, s / 2),
            2 / sympy.Min(2, sympy.ceiling(s / 8)), sympy.ceiling(8 / s) * sympy.Min(3, s)]
    qs = [(rel, pool[i], c) if left else (rel, c, pool[i]) for rel, i, left, c in alts]
    qs = [(rel, a if not getattr(a, "is_Integer", False) else int(a), b if not getattr(b, "is_Integer", False)
           else int(b)) for rel, a, b in qs]
    try:
        r = disjunction_by_values(qs)
    except (ZeroDivisionError, ValueError):
        return
    _agrees_with_every_value(r, qs, s, facts, 300)


def _agrees_with_every_value(r: Optional[bool], qs: list[tuple[str, Any, Any]], s: Any,
                             facts: tuple[int, Optional[int], Optional[int]], upto: Optional[int] = None) -> None:
    """A verdict on the disjunction ``qs`` (of one symbol ``s``) against brute force over the
    allowed values (the first ``upto``): True where one alternative holds at each, False where
    a value fails them all; None says nothing."""
    if r is None:
        return
    ok = True
    for v in _allowed(*facts)[:upto]:
        vals = [(sympy.sympify(a).xreplace({s: v}), sympy.sympify(b).xreplace({s: v})) for _, a, b in qs]
        ok = ok and any(_truth(rel, x, y) for (rel, _, _), (x, y) in zip(qs, vals))
    assert r == ok, f"{qs}: {r}"


def test_disjunction_with_equal_but_distinct_symbols() -> None:
    """The same symbol as two objects (a pickled copy, another call's inputs): still one symbol."""
    import pickle
    S = sympy.sympify(Dyn("S0", divisible_by=4))
    T = pickle.loads(pickle.dumps(S))
    assert S == T and S is not T
    alts = [("|", 8, T), ("==", 2 / sympy.Min(2, sympy.ceiling(S / 8)), 1), ("<=", T, 8)]
    assert disjunction_by_values(alts) is True      # S = 4: 2/1 != 1 but S <= 8; S = 12: 2/2 == 1
    assert disjunction_by_values([("|", 8, T), ("<=", S, 4)]) is False      # S = 12


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(FACTS),
       st.lists(st.tuples(st.sampled_from(RELS + ("|",)), st.integers(0, 6), st.booleans(), st.integers(-3, 40)),
                min_size=1, max_size=3))
def test_disjunction_of_monotone_bounds(facts: tuple[int, Optional[int], Optional[int]],
                                        alts: list[tuple[str, int, bool, int]]) -> None:
    """Orders between numbers and ``round(p*S/q)`` (read as bounds on ``S``) and the symbol against
    numbers: True exactly when some alternative holds at every allowed value, False when one
    value fails them all (brute force over many more values than the procedure reads)."""
    S = _symbol(*facts)
    s = sympy.sympify(S)
    pool = [s, sympy.ceiling(s / 8), sympy.floor(s / 3), 3 * s / 2, sympy.ceiling(3 * s / 4), sympy.floor(s / 5), s]
    qs = []
    for rel, i, left, c in alts:
        x = pool[i]
        if rel == "|" and not x.is_Symbol:
            rel = "<="
        qs.append((rel, x, c) if left else (rel, c, x))
    _agrees_with_every_value(disjunction_by_values(qs), qs, s, facts)


@pytest.mark.parametrize("facts", FACTS)
def test_by_bounds_is_sound_and_is_what_prove_says(facts: tuple[int, Optional[int], Optional[int]]) -> None:
    """``by_bounds`` (the intervals alone): a True (False) answer holds (fails) at every allowed
    value and is prove's answer; and smin/smax, which ask it first, are the min/max at every value."""
    from cute_sym.core.int_tuple import smax, smin
    S = _symbol(*facts)
    values = _allowed(*facts)[:60]
    forms = _forms(S) + [(sympy.Integer(c), lambda s, c=c: Fraction(c)) for c in (1, 2, 5, 16)]
    forms = [(e, f) for e, f in forms if all(f(s).denominator == 1 for s in values)]      # integer formulas
    forms += [(sympy.ceiling(8 / sympy.sympify(S)), lambda s: Fraction(math.ceil(Fraction(8, s))))]
    decided = 0
    for (a, fa), (b, fb) in itertools.product(forms, repeat=2):
        for rel in RELS:
            decide.clear_caches()
            r = decide.by_bounds(rel, a, b)
            _check(r, [_truth(rel, fa(s), fb(s)) for s in values], f"{a} {rel} {b}", False)
            if r is not None:
                decided += 1
                assert decide.prove(rel, a, b) is r, (a, rel, b)
        lo, hi = smin(a, b), smax(a, b)
        for s in values[:12]:
            env = {sympy.sympify(S): s}
            assert sympy.sympify(lo).subs(env) == min(fa(s), fb(s)), (a, b, s)
            assert sympy.sympify(hi).subs(env) == max(fa(s), fb(s)), (a, b, s)
    assert decided > 0


@pytest.mark.parametrize("facts", FACTS)
def test_bounds_hold_at_every_value(facts: tuple[int, Optional[int], Optional[int]]) -> None:
    """``decide.bounds`` of formulas of a symbol (``c/S``, its roundings, products, reciprocals,
    mins, negative multiples) contains the formula's value at every allowed value; for ``c/S``
    the bounds are the values themselves at the symbol's least (and greatest) value."""
    S = _symbol(*facts)
    sS = sympy.sympify(S)
    values = _allowed(*facts)[:80]
    assume_positive = values[0] > 0
    forms: list[tuple[Any, Callable[[int], Fraction]]] = []
    for c in (1, 3, 8, 12, 64):
        forms.append((sympy.Integer(c) / sS, lambda s, c=c: Fraction(c, s)))
        forms.append((sympy.ceiling(sympy.Integer(c) / sS), lambda s, c=c: Fraction(-(-c // s))))
        forms.append((sympy.floor(sympy.Integer(c) / sS), lambda s, c=c: Fraction(c // s)))
        forms.append((-sympy.Integer(c) / sS, lambda s, c=c: Fraction(-c, s)))
        forms.append((sympy.Integer(c) / sympy.ceiling(sympy.Integer(c) / sS),
                      lambda s, c=c: Fraction(c, -(-c // s))))
        forms.append((sympy.Min(c, sS / 2), lambda s, c=c: min(Fraction(c), Fraction(s, 2))))
        forms.append((sS * sympy.ceiling(sympy.Integer(c) / sS) / 4, lambda s, c=c: Fraction(s * -(-c // s), 4)))
    for e, f in forms:
        decide.clear_caches()
        lo, hi = decide.bounds(e)
        for s in values:
            v = f(s)
            assert (lo is None or lo <= v) and (hi is None or v <= hi), (e, s, lo, hi)
    if assume_positive:
        for c in (1, 3, 8, 12, 64):
            decide.clear_caches()
            lo, hi = decide.bounds(sympy.Integer(c) / sS)
            assert hi == Fraction(c, values[0])
            assert lo == (0 if facts[2] is None else Fraction(c, values[-1]))
