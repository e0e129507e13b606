"""The decision procedure layer by layer (``core.decide`` is a stack, tests/test_layering.py
STACKS): each lower layer's answer is checked on its own against exact evaluation, so a wrong
answer is pinned to the layer that gave it. The upper layers (values, quick, disjunction, prove,
guards) have their own files: test_decide_values.py, test_decide.py, test_symbolic.py."""
from __future__ import annotations

import itertools
import operator
from fractions import Fraction
from typing import Any

import sympy

from cute_sym import Dyn
from cute_sym.core.decide import base, expansion, intervals, rounding, witness

PY_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}


def test_base_static_path_is_python() -> None:
    """layer 0: the static path is Python's own comparison, and ``a | b`` is ``b % a == 0``."""
    for a, b in itertools.product(range(-6, 7), repeat=2):
        for rel, op in PY_OPS.items():
            assert base._prove_int(rel, a, b) is op(a, b)
        assert base._prove_int("|", a, b) is (b == 0 if a == 0 else b % a == 0)


def test_base_guard_facts_is_the_root_of_guards() -> None:
    """layer 0 reads the guards being collected through ``GuardFacts`` only."""
    from cute_sym.core.decide.guards import Guards
    assert issubclass(Guards, base.GuardFacts) and Guards()._facts == ()


S = Dyn("S", divisible_by=4, min=8, max=64)
T = Dyn("T", min=1, max=9)
FORMULAS: list[Any] = [S, 3 * S + 1, S * T, S / 4, sympy.ceiling(S / 3), sympy.floor(T / 2) + S,
                       sympy.Min(S, 4 * T), sympy.Max(S, T) - T, S ** 2 / T, 7 - T, sympy.ceiling(8 / T) * S]


def _points() -> list[dict[Any, int]]:
    s_sym, t_sym = sympy.sympify(S), sympy.sympify(T)
    return [{s_sym: s, t_sym: t} for s in range(8, 65, 4) for t in range(1, 10)]


def test_intervals_are_sound() -> None:
    """layer 1: every allowed value of a formula lies inside its interval."""
    pts = _points()
    for e in FORMULAS:
        e = sympy.sympify(e)
        lo, hi = intervals._bounds(e)
        for p in pts:
            v = Fraction(str(e.subs(p)))
            assert (lo is None or lo <= v) and (hi is None or v <= hi), (e, p, lo, hi)


def test_witness_evaluator_is_exact() -> None:
    """layer 1: the compiled evaluator gives each formula's exact value (as a fraction)."""
    exprs = [sympy.sympify(e) for e in FORMULAS]
    compiled = witness.evaluator(exprs)
    assert compiled is not None
    syms, f = compiled
    for p in _points()[::7]:
        got = f(tuple(p[s] for s in syms))
        for e, (num, den) in zip(exprs, got):
            assert Fraction(num, den) == Fraction(str(e.subs(p))), e


def test_rounding_and_expansion_keep_values() -> None:
    """layer 2: ``rounded`` (floor/ceiling built without assumption queries) and ``expand`` give
    formulas equal to the ones they replace at every allowed value."""
    s_sym, t_sym = sympy.sympify(S), sympy.sympify(T)
    pts = _points()[::5]
    for num, den in [(s_sym, 3), (s_sym + t_sym, 4), (3 * s_sym, 8)]:
        for f in (sympy.ceiling, sympy.floor):
            r = rounding.rounded(f, num / den)
            assert all(r.subs(p) == f(num / den).subs(p) for p in pts)
    for e in [(s_sym + t_sym) * (s_sym - 2), (s_sym + 1) ** 2 - s_sym * t_sym]:
        x = expansion.expand(e)
        assert x == sympy.expand(e)
