"""decide.sums: lower bounds of an expanded sum from its terms, and the terms of ``s*e - g``."""
from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import sympy
from hypothesis import given, strategies as st

from cute_sym import Dyn
from cute_sym.core.decide.sums import _combined, _dominated_lo, _lower, _terms

from postconditions import exact_value, symbol_values

_SYMS = [sympy.sympify(s) for s in (Dyn("A"), Dyn("B", divisible_by=2), Dyn("C", min=3, max=9),
                                    Dyn("T", sign="nonnegative", max=6))]


def _value(terms: Any, env: dict[Any, int]) -> Fraction:
    """The sum of the terms at ``env`` (a polynomial's: defined everywhere)."""
    return sum(((1 if c is None else c) * exact_value(m, env) for c, m in terms), Fraction(0))


def check_sum_bounds(e: Any, g: Any) -> None:
    """The terms of ``e`` (and of ``e - g``, ``-e - g``) have the sum's values, and ``_lower`` and
    ``_dominated_lo`` bound them from below at every allowed value of the symbols."""
    te, tg = _terms(sympy.expand(e)), _terms(sympy.expand(g))
    cases = [(te, sympy.expand(e)), (_combined(te, tg, 1), sympy.expand(e - g)),
             (_combined(te, tg, -1), sympy.expand(-e - g))]
    syms = sorted((sympy.sympify(e).free_symbols | sympy.sympify(g).free_symbols), key=str)
    for terms, expr in cases:
        lo, dom = _lower(terms), _dominated_lo(terms)
        for vals in itertools.islice(itertools.product(*[symbol_values(s) for s in syms]), 300):
            env = dict(zip(syms, vals))
            value = exact_value(expr, env)
            assert _value(terms, env) == value, (terms, expr, env)
            assert lo is None or lo <= value, (expr, lo, env)
            assert dom is None or dom <= value, (expr, dom, env)


def test_sum_bounds_examples() -> None:
    A, B, C, _ = _SYMS
    check_sum_bounds(A * B - A + 3, sympy.Integer(0))
    check_sum_bounds(A * B - A - B + 1, A - 1)               # A*B - A - B + 1 = (A-1)*(B-1)
    check_sum_bounds(C ** 2 - 2 * C, C - 3)
    assert _lower(_terms(sympy.expand(A * B - A))) == 0     # A*(B-1), B >= 2: paid for
    assert _combined(_terms(A + B), _terms(A), 1) == _terms(B)


_MONO = st.lists(st.sampled_from(_SYMS), max_size=2)


@given(st.lists(st.tuples(st.integers(-4, 4), _MONO), min_size=1, max_size=4),
       st.lists(st.tuples(st.integers(-4, 4), _MONO), max_size=3))
def test_sum_bounds_hold_at_every_value(es: list[tuple[int, list[Any]]], gs: list[tuple[int, list[Any]]]) -> None:
    e = sympy.Add(*[c * sympy.Mul(*m) for c, m in es])
    g = sympy.Add(*[c * sympy.Mul(*m) for c, m in gs])
    check_sum_bounds(e, g)
