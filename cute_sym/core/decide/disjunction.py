"""A disjunction read off values: whether at least one of a few relations holds at every allowed
value of the symbols, for alternatives that compare one symbol (or formulas of few values) with
numbers. Past the largest number every order is settled and every divisibility repeats, so
finitely many values decide it, each evaluated exactly in plain ints.
"""
from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import symbol_facts
from .base import _mentions, _prove_int
from .values import _ENUM_MAX, _OPS, _SMALL_RANGE, _holds, _monotone, value_set
from .witness import _Undefined, evaluator


def disjunction_by_values(alts: Any) -> Optional[bool]:
    """Whether at least one of ``a rel b`` holds, for alternatives that each compare one symbol
    ``S`` (the same in all) with a number, read off ``S``'s allowed values (no facts in force).

    Past the largest number every order and every ``S | c`` is settled and every ``c | S``
    repeats with period ``lcm(c, divisor)``, so the values up to there and one period on
    decide it: True (always one holds), False (a value where none does), None (not this shape).

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=256)
    >>> disjunction_by_values([("|", S, 256), ("<", 256, S)])
    True
    >>> disjunction_by_values([("|", S, 512), ("<", 1024, S)])
    False

    Where each alternative compares the symbol with one formula ``F`` of other symbols instead,
    ``F`` of a few values known exactly (``ceil_div(8, T)``), each of those values is read in turn.

    >>> T = Dyn("T", divisible_by=4)
    >>> F = sympy.ceiling(sympy.Integer(8) / T)
    >>> disjunction_by_values([("|", Dyn("U", divisible_by=2), F), ("<", F, Dyn("U", divisible_by=2))])
    True
    """
    one = _one_symbol_disjunction(alts)
    if one is None:
        bounds = _as_symbol_bounds(alts)
        if bounds is not None:
            one = _one_symbol_disjunction(bounds)
    if one is None:
        one = _disjunction_by_formula_values(alts)
    return one if one is not None else _one_symbol_formulas_disjunction(alts)


# round(x) rel c  <=>  x rel' c + shift, for an integer c (round: 1 ceiling, -1 floor)
_ROUNDED = {1: {"<=": ("<=", 0), "<": ("<=", -1), ">=": (">", -1), ">": (">", 0)},
            -1: {"<=": ("<", 1), "<": ("<", 0), ">=": (">=", 0), ">": (">=", 1)}}
_SWAP = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}


def _as_symbol_bounds(alts: Any) -> Optional[list[tuple[str, Any, int]]]:
    """The alternatives as a symbol against numbers, each order between a number and a
    nondecreasing ``round(p*S/q)`` (``ceiling(S/8) >= 2``) rewritten as the bound on ``S`` it
    is (``S >= 9``: ``S`` is an integer), exactly; None when one is of another shape (or no
    rewriting was needed)."""
    out: list[tuple[str, Any, int]] = []
    changed = False
    for rel, a, b in alts:
        if type(a) is int and type(b) is not int:
            rel, a, b = (_SWAP.get(rel, rel) if rel != "|" else rel), b, a
            if rel == "|":
                if not a.is_Symbol:
                    return None
                out.append(("|", b, a))     # c | S as it was
                continue
        if type(b) is not int or type(a) is int:
            return None
        if a.is_Symbol:
            out.append((rel, a, b))
            continue
        form = _monotone(a) if rel in _SWAP else None
        if form is None:
            return None
        sym, p, q, rnd = form
        if rnd:
            rel, shift = _ROUNDED[rnd][rel]
            b += shift
        # p*S/q rel b  <=>  S rel b*q/p, read as an integer bound on S
        n, m = b * q, p
        if rel == "<=":
            out.append(("<=", sym, n // m))
        elif rel == "<":
            out.append(("<=", sym, -(-n // m) - 1))
        elif rel == ">=":
            out.append((">=", sym, -(-n // m)))
        else:
            out.append((">=", sym, n // m + 1))
        changed = True
    return out if changed else None


def _disjunction_by_formula_values(alts: Any) -> Optional[bool]:
    """:func:`disjunction_by_values` for alternatives comparing one symbol with formulas of other
    symbols, each of few values known exactly: the one-symbol question at each combination of
    those values. With one formula every combination is taken (a failing one is a real
    counterexample: False); with more, the combinations are a superset of those taken (their
    symbols may be shared), so only True is read."""
    forms: list[Any] = []
    plain: set[Any] = set()
    for _, a, b in alts:
        for x in (a, b):
            if type(x) is int:
                continue
            if x.is_Symbol:
                plain.add(x)
            elif x.is_Number:
                return None
            elif x not in forms:
                forms.append(x)
    if not forms or len(forms) > 3:
        return None
    sets: list[list[int]] = []
    combos = 1
    for f in forms:
        if any(_mentions(f, x) for x in plain):
            return None     # not independent: a value of F limits the other symbol's values
        vals = value_set(f)
        if vals is None or not vals[1] or len(vals[0]) > _SMALL_RANGE:
            return None
        sets.append(sorted(vals[0]))
        combos *= len(vals[0])
    if combos > 64:
        return None
    verdict: Optional[bool] = True
    for point in itertools.product(*sets):
        env = dict(zip(forms, point))
        at_v = [(rel, env.get(a, a) if type(a) is not int else a, env.get(b, b) if type(b) is not int else b)
                for rel, a, b in alts]
        if any(type(a) is int and type(b) is int and _prove_int(rel, a, b) for rel, a, b in at_v):
            continue        # a number against a number that holds: this combination is settled
        rest = [(rel, a, b) for rel, a, b in at_v if not (type(a) is int and type(b) is int)]
        r = _one_symbol_disjunction(rest) if rest else False
        if r is False:
            if len(forms) > 1:
                return None     # the combination may not be taken
            return False    # F takes it at some value, and the other symbol fails there (independent)
        if r is None:
            verdict = None
    return verdict


def _settles(e: sympy.Expr, sym: Any) -> Optional[int]:
    """A value from which on the one-symbol formula ``e`` is constant in ``sym`` (None: not known):
    ``ceiling(c/S)`` and ``floor(c/S)`` past ``c``, ``min(c, f(S))`` once ``f(S) >= c`` for a
    nondecreasing ``round(p*S/q)``, and sums, products and integer powers of such."""
    if e.is_Number:
        return 0
    if e.func is sympy.ceiling or e.func is sympy.floor:
        x = e.args[0]
        if x.is_Mul and len(x.args) == 2 and x.args[0].is_Integer and x.args[0].p > 0 \
                and x.args[1].is_Pow and x.args[1].base == sym and x.args[1].exp == -1:
            return int(x.args[0].p) + 1
        return None
    if e.func is sympy.Min:
        ints = [int(x) for x in e.args if x.is_Integer]
        rest = [x for x in e.args if not x.is_Integer]
        form = _monotone(rest[0]) if len(rest) == 1 and ints else None
        if form is None or form[0] != sym:
            return None
        _, p, q, _ = form
        return -(-min(ints) * q // p) + q       # round(p*S/q) >= min(ints) from here on
    if e.is_Mul or e.is_Add or e.is_Pow and e.exp.is_Integer:
        top = 0
        for x in (e.args if not e.is_Pow else (e.base,)):
            t = _settles(x, sym)
            if t is None:
                return None
            top = max(top, t)
        return top
    return None


def _one_symbol_formulas_disjunction(alts: Any) -> Optional[bool]:
    """:func:`disjunction_by_values` for alternatives in one symbol ``S`` with formulas of it that
    settle (``ceiling(8/S)``, ``2/min(2, ceiling(S/8))``): past where every formula is constant,
    they compare ``S`` with numbers, so ``S``'s values up to there, past those numbers and one
    period on decide it, each evaluated exactly."""
    forms: list[Any] = []       # the sides that are formulas, each compiled once
    for rel, a, b in alts:
        if rel not in _OPS and rel != "|":
            return None
        for x in (a, b):
            if type(x) is not int and not x.is_Symbol and x not in forms:
                forms.append(x)
    if not forms:
        return None
    ev = evaluator(forms)       # its symbols: exactly one, the plain sides' too (checked below)
    if ev is None or len(ev[0]) != 1:
        return None
    sym = ev[0][0]
    if sym.is_integer is not True:
        return None
    d, lo, hi = symbol_facts(sym)
    if lo is None:
        return None
    # each side as a number, the symbol (-1) or the index of its formula
    where: list[tuple[str, int, int]] = []
    consts: list[int] = []
    for rel, a, b in alts:
        ks = []
        for x in (a, b):
            if type(x) is int:
                consts.append(x)
                ks.append(-2 - (len(consts) - 1))
            elif x.is_Symbol:
                if x != sym:
                    return None
                ks.append(-1)
            else:
                ks.append(forms.index(x))
        where.append((rel, ks[0], ks[1]))
    settle = 0
    for x in forms:
        t = _settles(x, sym)
        if t is None:
            return None
        settle = max(settle, t)
    run = ev[1]
    first = -(-lo // d) * d

    def sides(v: int) -> Optional[list[tuple[str, int, int]]]:
        vals = run((v,))
        out: list[tuple[str, int, int]] = []
        for rel, i, j in where:
            xy = []
            for k in (i, j):
                if k >= 0:
                    num, den = vals[k]
                    if num % den:
                        return None
                    xy.append(num // den)
                else:
                    xy.append(v if k == -1 else consts[-2 - k])
            out.append((rel, xy[0], xy[1]))
        return out

    # the formulas' constants, at the first allowed value past where they settle
    at = max(first, -(-settle // d) * d)
    top, period = settle, d
    try:
        const_sides = sides(at)
    except _Undefined:
        return None
    if const_sides is None:
        return None     # not an integer: not a formula of the algebra
    for (rel, i, j), (_, x, y) in zip(where, const_sides):
        for k, c in ((i, x), (j, y)):
            if k == -1:
                continue
            top = max(top, abs(c))
            if rel == "|" and c != 0:
                period = period * abs(c) // math.gcd(period, abs(c))
    last = max(top + 1, first) + period
    if hi is not None:
        last = min(last, hi)
    if (last - first) // d > _ENUM_MAX:
        return None
    for v in range(first, last + 1, d):
        try:
            at_v = sides(v)
        except _Undefined:
            return None
        if at_v is None:
            return None
        if not any(_holds(rel, x, y) for rel, x, y in at_v):
            return False
    return True


def _one_symbol_disjunction(alts: Any) -> Optional[bool]:
    sym: Any = None
    qs: list[tuple[str, bool, int]] = []        # (rel, symbol on the left, number)
    top = 0
    period = 1
    for rel, a, b in alts:
        if type(b) is int and getattr(a, "is_Symbol", False):
            s, left, c = a, True, b
        elif type(a) is int and getattr(b, "is_Symbol", False):
            s, left, c = b, False, a
        else:
            return None
        if sym is None:
            sym = s
        elif s != sym:
            return None
        if rel not in _OPS and rel != "|":
            return None
        qs.append((rel, left, c))
        top = max(top, abs(c))
        if rel == "|" and not left and c != 0:
            period = period * abs(c) // math.gcd(period, abs(c))
    if sym is None or sym.is_integer is not True:
        return None
    d, lo, hi = symbol_facts(sym)
    if lo is None:
        return None
    period = period * d // math.gcd(period, d)
    first = -(-lo // d) * d
    last = max(top + 1, first) + period       # past every number, then one full period
    if hi is not None:
        last = min(last, hi)
    if (last - first) // d > _ENUM_MAX:
        return None
    for v in range(first, last + 1, d):
        if not any(_holds(rel, v, c) if left else _holds(rel, c, v) for rel, left, c in qs):
            return False
    return True
