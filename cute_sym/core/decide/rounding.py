"""Roundings: ``floor(q)`` and ``ceiling(q)`` built without sympy's assumption queries.

sympy's constructor evaluates a new rounding by asking its assumption system whether the
argument is an integer, real, positive, and whether its numerator is below its denominator
(``_eval_const_number``): on the nested formulas a symbolic fold and guard mode build, one
such construction takes milliseconds (a third of the conformance corpus's time under
``collect_guards``). :func:`rounded` gives an equal value from structure and the symbols' own
bounds instead.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import symbol_facts, symbolic_module
from ..monomials import unevaluated
from .intervals import _bounds


def rounded(f: Any, q: Any, pin: bool = True) -> Any:
    """``f(q)`` for ``f`` sympy's ``floor`` or ``ceiling``: the rounding of a number, ``q`` itself
    when it is an integer by its structure, the integer terms of a sum taken out, (``pin``) a
    value the symbols' own facts pin it to; else the rounding as it is (unevaluated).

    @pre ``q`` is real wherever it is defined (the algebra's formulas over integer symbols).
    @post ``rounded(f, q) == f(q)`` at every value of the symbols their facts allow; no assumption
          query on a formula (sympy's evaluation may leave a rounding this settles, and the other
          way round: equal values, perhaps other forms).

    >>> from cute_sym.core.integers import Dyn
    >>> S = sympy.sympify(Dyn("S", divisible_by=4))
    >>> rounded(sympy.ceiling, S / 8 + 2), rounded(sympy.floor, sympy.Rational(7, 2))
    (ceiling(S/8) + 2, 3)
    >>> rounded(sympy.ceiling, 2 / (S * S)), rounded(sympy.floor, sympy.ceiling(S / 8) * S)
    (1, S*ceiling(S/8))
    """
    q = sympy.sympify(q)
    if q.is_Number:
        return f(q)
    if integral(q):
        return q
    if q.is_Add:
        whole: list[Any] = []
        rest: list[Any] = []
        for t in q.args:
            (whole if integral(t) else rest).append(t)
        if whole:
            return sympy.Add(*whole) + rounded(f, sympy.Add(*rest), pin)
    r = unevaluated(f, q)
    if not pin:
        return r
    lo, hi = _bounds(r)
    if lo is not None and lo == hi:
        return sympy.Integer(lo)
    return r


def integral(e: Any, ask: bool = False) -> bool:
    """``e`` is an integer wherever it is defined, by its structure (False: not shown): integers,
    integer symbols, roundings of real formulas (:func:`real`), and sums, products,
    non-negative powers, mins, maxes, absolute values and remainders of such. ``ask``: a part of
    no such structure by sympy's own assumption (a query), else not shown."""
    if e.is_Integer:
        return True
    if e.is_Symbol:
        return e.is_integer is True
    f = e.func
    if f is sympy.floor or f is sympy.ceiling:
        return real(e.args[0])
    if e.is_Add or e.is_Mul or f is sympy.Min or f is sympy.Max or f is sympy.Abs \
            or f is sympy.Mod or f is symbolic_module().IMod:
        return all(integral(t, ask) for t in e.args)
    if e.is_Pow:
        return bool(e.exp.is_Integer and e.exp.p >= 0 and integral(e.base, ask))
    return ask and e.is_integer is True


def real(e: Any) -> bool:
    """``e`` is real wherever it is defined as a rational function of integer symbols whose
    denominators are symbols known positive (so it is defined and real everywhere), roundings
    of such included."""
    if e.is_Rational:
        return True
    if e.is_Symbol:
        return e.is_integer is True
    if e.is_Pow:
        if not e.exp.is_Integer:
            return False
        if e.exp.p >= 0:
            return real(e.base)
        b = e.base
        return bool(b.is_Symbol and b.is_integer is True and (symbol_facts(b)[1] or 0) >= 1)
    if e.is_Mul or e.is_Add or e.func is sympy.ceiling or e.func is sympy.floor:
        return all(real(t) for t in e.args)
    return False
