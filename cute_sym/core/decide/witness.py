"""Witnesses: a relation seen to hold at one value of its symbols and to fail at another is open.

The procedure is sound: a ``True`` (``False``) answer holds (fails) for every value of the
symbols their facts allow. So when plain evaluation finds one allowed value where ``a rel b``
holds and one where it fails, the procedure's answer is ``None`` whatever reasoning it would
try; :func:`open_by_witnesses` finds such a pair cheaply (Python ints and fractions, no sympy
arithmetic) and says nothing otherwise. Only used with no facts in force: the symbols' own
facts (divisor, bounds) are then all there is, and every value they allow is a real one.
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Iterator, Optional, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import symbol_facts
from .base import Rel

Num = Union[int, Fraction]

# offsets (in multiples of the divisor) from a symbol's least value: small values, where the
# edge cases live, then a few far ones
_STEPS = (0, 1, 2, 3, 5, 7, 11, 15, 31, 63, 1023)
_MAX_NODES = 12         # larger formulas: not worth evaluating here
_MAX_POINTS = 12
_MAX_SYMBOLS = 2


def _points(cands: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """At most ``_MAX_POINTS`` values: all symbols at their least; each symbol through its values
    with the others at their least; all together through their values."""
    least = tuple(c[0] for c in cands)
    yield least
    count = 1
    if len(cands) == 1:
        for v in cands[0][1:_MAX_POINTS]:
            yield (v,)
        return
    for j, c in enumerate(cands):
        for v in c[1:]:
            if count >= _MAX_POINTS:
                return
            count += 1
            yield least[:j] + (v,) + least[j + 1:]
    for k in range(1, max(len(c) for c in cands)):
        if count >= _MAX_POINTS:
            return
        count += 1
        yield tuple(c[min(k, len(c) - 1)] for c in cands)


class _Undefined(Exception):
    pass


def _candidates(s: Any) -> Optional[list[int]]:
    if s.is_integer is not True:
        return None
    d, lo, hi = symbol_facts(s)
    if lo is not None:
        base = -((-lo) // d)        # ceil(lo / d): the least allowed value, in multiples of d
    elif hi is not None:
        base = hi // d - _STEPS[-1]
    else:
        base = -3
    out = []
    for k in _STEPS:
        v = (base + k) * d
        if hi is not None and v > hi:
            break
        out.append(v)
    return out


def _shape_ok(e: Any, syms: dict[Any, list[int]], seen: set[Any]) -> bool:
    """Only nodes evaluated exactly here; collects the symbols and their candidate values."""
    stack = [e]
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if len(seen) > _MAX_NODES:
            return False
        if x.is_Symbol:
            if x not in syms:
                c = _candidates(x)
                if not c:
                    return False
                syms[x] = c
            continue
        if x.is_Rational:
            continue
        if x.is_Add or x.is_Mul or x.func in _CALLS or (x.is_Pow and x.exp.is_Integer):
            stack.extend(x.args)
            continue
        return False
    return True


def _frac(n: int, d: int) -> Num:
    if d < 0:
        n, d = -n, -d
    return n // d if n % d == 0 else Fraction(n, d)


def _ev(e: Any, env: dict[Any, int], memo: dict[Any, Num]) -> Num:
    """The exact value of ``e`` (an int where it is one; a Fraction only where needed)."""
    r = memo.get(e)
    if r is not None:
        return r
    if e.is_Symbol:
        r = env[e]
    elif e.is_Integer:
        r = int(e)
    elif e.is_Rational:
        r = Fraction(int(e.p), int(e.q))
    elif e.is_Add:
        r = 0
        for t in e.args:
            r += _ev(t, env, memo)
        if type(r) is Fraction and r.denominator == 1:
            r = int(r)
    elif e.is_Mul:
        num, den = 1, 1
        for t in e.args:
            if t.is_Rational:
                num *= int(t.p)
                den *= int(t.q)
                continue
            v = _ev(t, env, memo)
            if type(v) is int:
                num *= v
            else:
                num *= v.numerator
                den *= v.denominator
        r = num if den == 1 else _frac(num, den)
    elif e.is_Pow:
        b, k = _ev(e.args[0], env, memo), int(e.args[1])
        if k < 0:
            if b == 0:
                raise _Undefined
            p = b ** (-k)
            r = _frac(1, p) if type(p) is int else 1 / p
        else:
            r = b ** k
    else:
        f = e.func
        if f is sympy.floor:
            v = _ev(e.args[0], env, memo)
            r = v if type(v) is int else v.numerator // v.denominator
        elif f is sympy.ceiling:
            v = _ev(e.args[0], env, memo)
            r = v if type(v) is int else -((-v.numerator) // v.denominator)
        elif f is sympy.Min:
            r = min(_ev(t, env, memo) for t in e.args)
        else:
            r = max(_ev(t, env, memo) for t in e.args)
    memo[e] = r
    return r


_CALLS: tuple[Any, ...] = ()


def _holds(rel: Rel, x: Num, y: Num) -> Optional[bool]:
    if rel == "|":
        if type(x) is not int or type(y) is not int:
            return None         # divisibility is a fact about integers: no witness here
        return y == 0 if x == 0 else y % x == 0
    if rel == "==":
        return x == y
    if rel == "!=":
        return x != y
    if rel == "<":
        return x < y
    if rel == "<=":
        return x <= y
    if rel == ">":
        return x > y
    return x >= y


def open_by_witnesses(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> bool:
    """``a rel b`` holds at one allowed value of the symbols and fails at another (no facts in
    force): the answer of any sound procedure is ``None``. False: no such pair found (the
    answer may still be ``None``).

    @pre no facts in force beyond the symbols' own (divisor, bounds, sign).
    @post True only when two allowed values were evaluated exactly with different outcomes.

    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M", divisible_by=4)
    >>> open_by_witnesses("|", M, sympy.Integer(8)), open_by_witnesses("|", M, sympy.Integer(2))
    (True, False)
    """
    global _CALLS
    if not _CALLS:
        _CALLS = (sympy.floor, sympy.ceiling, sympy.Min, sympy.Max)
    syms: dict[Any, list[int]] = {}
    seen: set[Any] = set()
    if not (_shape_ok(a, syms, seen) and _shape_ok(b, syms, seen)) or not syms or len(syms) > _MAX_SYMBOLS:
        return False
    keys = list(syms)
    cands = [syms[s] for s in keys]
    seen_true = seen_false = False
    for p in _points(cands):
        env = dict(zip(keys, p))
        memo: dict[Any, Num] = {}
        try:
            r = _holds(rel, _ev(a, env, memo), _ev(b, env, memo))
        except (_Undefined, ZeroDivisionError):
            continue
        if r is None:
            continue
        if r:
            seen_true = True
        else:
            seen_false = True
        if seen_true and seen_false:
            return True
    return False
