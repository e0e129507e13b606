"""decide.expansion: sympy's expansion of a formula, computed without sympy's expand."""
from __future__ import annotations

from typing import Any

import sympy
from hypothesis import given, strategies as st

from cute_sym import Dyn
from cute_sym.core.decide.expansion import _MAX_TERMS, expand, expand_over_calls, is_expanded
from cute_sym.core.decide.reason import _call_expanded

from postconditions import check_expand, check_expand_over_calls

A, B, C = (sympy.sympify(s) for s in (Dyn("A"), Dyn("B", divisible_by=4), Dyn("C", min=2, max=9)))


def test_expand_examples() -> None:
    for e in [A * B + 3 * A - 1,                     # expanded already: itself
              (A + 2) * (B - 1) - A * B,             # multiplied out, terms cancel
              (A + B) ** 3, (A - B) ** 2 * (A + B),
              (A + B) ** 2 / A,                      # negative powers of symbols
              sympy.Rational(1, 2) * (A + B) * (2 * C + 4),    # rational coefficients
              (A + 1) / (B + C),                     # 1/(B+C) is a factor, kept
              (1 / (A + B) + 1) * (1 / (A + B) + 2),           # ... but its square is multiplied out
              A * B / (A + B) ** 2,
              1 / (A * (B + C) + 1),                 # a sum in a denominator: expanded inside
              sympy.floor((A + 1) * B / 4) * (C + 1),          # a call: sympy expands its argument
              sympy.Min(A * (B + 1), C) + (A + 1) * C,
              (A - A) * B, sympy.Integer(7), A]:
        check_expand(e)


def test_expand_over_calls_examples() -> None:
    F = sympy.floor(A / 4)
    for e in [(F + B) * (B - 1), F * (A + 1) ** 2 / B, sympy.Min(A, (B + 1) * C) * (F - 2),
              (sympy.floor((A + 1) * (B + 1) / 8) + 1) * C, F / (A + B)]:
        check_expand_over_calls(e, lambda x: x)
        check_expand_over_calls(e, _call_expanded)
    assert expand_over_calls((F + B) * (B - 1), lambda x: x) == sympy.expand((F + B) * (B - 1))
    assert expand_over_calls(F * B + 1, lambda x: x) is not None
    # a rounding whose integer terms the caller takes out (floor(A/4 + 1) = floor(A/4) + 1)
    G = sympy.floor(A / 4 + 1, evaluate=False)
    check_expand_over_calls(C * G, _call_expanded)
    assert expand_over_calls(C * G, _call_expanded) == C * F + C


def test_is_expanded() -> None:
    assert is_expanded(A * B - 3 * C + 1) and is_expanded(A / (B + C)) and is_expanded(A ** 2 / B)
    assert not is_expanded(A * (B + 1)) and not is_expanded((A + B) ** 2) and not is_expanded(1 / (A + B) ** 2)
    assert not is_expanded(sympy.floor(A / 4))      # a call: sympy rebuilds its arguments


def test_expand_leaves_huge_products_to_sympy() -> None:
    e = sympy.Mul(*[sympy.sympify(Dyn(f"X{k}")) + 1 for k in range(10)])     # 2**10 > _MAX_TERMS terms
    assert len(sympy.Add.make_args(sympy.expand(e))) > _MAX_TERMS
    assert expand(e) == sympy.expand(e)


def _formula(calls: bool) -> st.SearchStrategy[Any]:
    leaf = st.one_of(st.sampled_from([A, B, C]), st.integers(-3, 5).map(sympy.Integer),
                     st.sampled_from([sympy.Rational(1, 2), sympy.Rational(-2, 3)]))
    sums = st.lists(leaf, min_size=2, max_size=3).map(lambda xs: sympy.Add(*xs))

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        parts = [
            st.lists(inner, min_size=2, max_size=3).map(lambda xs: sympy.Add(*xs)),
            st.lists(st.one_of(inner, sums), min_size=2, max_size=3).map(lambda xs: sympy.Mul(*xs)),
            st.tuples(st.one_of(inner, sums), st.integers(-2, 3)).map(lambda t: _pow(*t)),
        ]
        if calls:
            parts.append(inner.map(lambda x: sympy.floor(x / 4)))
        return st.one_of(*parts)
    return st.recursive(leaf, extend, max_leaves=8)


def _pow(x: Any, n: int) -> Any:
    return x if n == 0 or x == 0 else x ** n


@given(_formula(calls=False))
def test_expand_polynomials_is_sympys(e: Any) -> None:
    check_expand(e)


@given(_formula(calls=True))
def test_expand_with_calls_is_sympys(e: Any) -> None:
    check_expand(e)


@given(_formula(calls=True))
def test_expand_over_calls_contract(e: Any) -> None:
    check_expand_over_calls(e, lambda x: x)
    check_expand_over_calls(e, _call_expanded)
