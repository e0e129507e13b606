"""Intervals: inclusive bounds of an integer formula from its symbols' own facts (interval
arithmetic over sums, products, powers, floor/ceiling, Mod, Min/Max, Abs, sign)."""
from __future__ import annotations

import math
import sys
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fractions import Fraction

    import sympy
else:
    from ..lazy import sympy

from ..integers import symbol_facts, symbolic_module
from .base import Bound


def _fraction() -> type[Fraction]:
    # imported on first use (it pulls in decimal), then read from sys.modules: an import
    # statement costs a microsecond, more than the arithmetic it serves
    mod: Any = sys.modules.get("fractions")
    if mod is None:
        import fractions as mod
    return mod.Fraction     # type: ignore[no-any-return]


def _symbol_bounds(e: Any) -> tuple[Bound, Bound]:
    """A symbol's own bounds: the least and greatest multiple of its divisor in its range."""
    d, slo, shi = symbol_facts(e)
    if d > 1:
        slo = None if slo is None else -(-slo // d) * d
        shi = None if shi is None else (shi // d) * d
    return slo, shi


@lru_cache(maxsize=16384)
def _bounds(e: sympy.Expr) -> tuple[Bound, Bound]:
    if e.is_Number:
        # Python Fractions, not sympy Rationals: every comparison of a sympy number goes
        # through its relational machinery (tens of microseconds a bound)
        if e.is_Integer:
            return int(e), int(e)
        v: Any = _fraction()(int(e.p), int(e.q)) if e.is_Rational else e
        return v, v
    if e.is_Symbol:
        return _symbol_bounds(e)
    if e.is_Add:
        lo: Bound = 0
        hi: Bound = 0
        for t in e.args:
            tl, th = _bounds(t)
            lo = None if lo is None or tl is None else lo + tl
            hi = None if hi is None or th is None else hi + th
        return lo, hi
    if e.is_Mul:
        args = e.args
        k = args[0]
        if k.is_Rational and len(args) == 2 and k.p > 0:
            x = args[1]
            if not k.is_Integer:
                # S/q*p: scaled in ints where it divides evenly (the usual S/16), no Fraction
                p, q = int(k.p), int(k.q)
                tl, th = _bounds(x)
                return _scaled(tl, p, q), _scaled(th, p, q)
            if x.is_Pow and x.exp == -1:
                # c/S (the usual ceil_div(8, S)): c over the base's bounds, in ints where they divide
                bl, bh = _bounds(x.base)
                if bl is not None and bl > 0:
                    c = int(k.p)
                    return (0 if bh is None else _quotient(c, bh)), _quotient(c, bl)
        acc: tuple[Bound, Bound] = (1, 1)
        for t in args:
            acc = _mul_iv(acc, _bounds(t))
        return acc
    if e.is_Pow:
        base, ex = e.args
        if ex.is_Integer and int(ex) > 0:
            k = int(ex)
            bl, bh = _bounds(base)
            if k % 2 == 0:
                if bl is not None and bl >= 0:
                    return bl ** k, None if bh is None else bh ** k
                if bh is not None and bh <= 0:
                    return bh ** k, None if bl is None else bl ** k
                hi2 = None if bl is None or bh is None else max(bl ** k, bh ** k)
                return 0, hi2
            return (None if bl is None else bl ** k), (None if bh is None else bh ** k)
        if ex.is_Integer and int(ex) < 0:
            k = -int(ex)
            bl, bh = _bounds(base)
            if bl is not None and bl > 0:       # 1/base**k decreases on a positive range
                return (0 if bh is None else _inverse(bh ** k)), _inverse(bl ** k)
            if bh is not None and bh < 0 and k % 2 == 1:
                return -_fraction()(1, (-bh) ** k), (0 if bl is None else -_fraction()(1, (-bl) ** k))
        return None, None
    f = e.func
    if f is sympy.floor or f is sympy.ceiling:
        bl, bh = _bounds(e.args[0])
        rnd = math.floor if f is sympy.floor else math.ceil
        lo2 = None if bl is None else int(rnd(bl))
        if f is sympy.ceiling and (lo2 is None or lo2 < 1) and _positive(e.args[0]):
            lo2 = 1     # the ceiling of a positive number is at least 1
        return lo2, (None if bh is None else int(rnd(bh)))
    if f is sympy.Min or f is sympy.Max:
        bs = [_bounds(t) for t in e.args]
        if f is sympy.Min:
            lo_ = None if any(b[0] is None for b in bs) else min(b[0] for b in bs)  # type: ignore[type-var]
            his = [b[1] for b in bs if b[1] is not None]
            return lo_, (min(his) if his else None)
        los = [b[0] for b in bs if b[0] is not None]
        hi_ = None if any(b[1] is None for b in bs) else max(b[1] for b in bs)  # type: ignore[type-var]
        return (max(los) if los else None), hi_
    if f is sympy.Mod or f is symbolic_module().IMod:
        x, m = e.args
        ml, mh = _bounds(m)
        xl, xh = _bounds(x)
        if ml is not None and ml > 0:
            if xl is not None and xl >= 0 and mh is not None and xh is not None and xh < ml:
                return xl, xh
            return 0, (None if mh is None else mh - 1)
        return None, None
    if f is sympy.Abs:
        bl, bh = _bounds(e.args[0])
        if bl is not None and bl >= 0:
            return bl, bh
        if bh is not None and bh <= 0:
            return -bh, (None if bl is None else -bl)
        hi3 = None if bl is None or bh is None else max(-bl, bh)
        return 0, hi3
    if f is sympy.sign:
        bl, bh = _bounds(e.args[0])
        return (-1 if bl is None or bl < 0 else (0 if bl == 0 else 1)), (1 if bh is None or bh > 0 else (0 if bh == 0 else -1))
    if e.is_positive:
        return 1 if e.is_integer else 0, None
    if e.is_nonnegative:
        return 0, None
    return None, None


def _inverse(v: Any) -> Bound:
    """``1/v`` for ``v > 0``: the int 1 for 1 (no Fraction in the usual ``1/S``, ``S >= 1``)."""
    return 1 if v == 1 else _fraction()(1, v)


def _quotient(c: int, v: Any) -> Any:
    """``c / v`` for ``v > 0``: an int when it divides evenly."""
    if type(v) is int:
        return c // v if c % v == 0 else _fraction()(c, v)
    return c / v


def _scaled(v: Bound, p: int, q: int) -> Bound:
    """``v * p / q`` (``p, q > 0``): an int when it divides evenly."""
    if v is None:
        return None
    if type(v) is int:
        n = v * p
        return n // q if n % q == 0 else _fraction()(n, q)
    return v * p / _fraction()(q)


def _positive(e: sympy.Expr) -> bool:
    """Positive by its structure: positive numbers and positive symbols (the assumption they were
    made with), and products, powers and sums of them; no deduction by sympy's assumption system
    (on a fresh formula it takes milliseconds)."""
    if e.is_Symbol:
        return e.is_positive is True
    if e.is_Rational:
        return bool(e.p > 0)    # its numerator's sign (a sympy comparison costs microseconds)
    if e.is_Number:
        return bool(e > 0)
    if e.is_Mul or e.is_Add:
        return all(_positive(t) for t in e.args)
    if e.is_Pow:
        return bool(e.exp.is_Integer) and _positive(e.base)
    if e.func is sympy.ceiling:
        return _positive(e.args[0])
    if e.func is sympy.Min or e.func is sympy.Max:
        return all(_positive(t) for t in e.args)
    return False


def _whole(v: Any) -> Any:
    """A Fraction that is a whole number as an int (the later comparisons stay in ints); any
    other bound as it is."""
    return v.numerator if type(v) is _fraction() and v.denominator == 1 else v


def _mul_iv(x: tuple[Bound, Bound], y: tuple[Bound, Bound]) -> tuple[Bound, Bound]:
    (al, ah), (bl, bh) = x, y
    if al is not None and bl is not None and al >= 0 and bl >= 0:
        # the usual case (extents, strides): no infinities, no sign cases
        if type(al) is int and type(bl) is int:
            lo = al * bl
        else:
            lo = _whole(al * bl)
        if ah is None or bh is None:
            return lo, (0 if ah == 0 or bh == 0 else None)
        return lo, (ah * bh if type(ah) is int and type(bh) is int else _whole(ah * bh))
    inf = math.inf
    ends: list[Any] = []
    for p in (-inf if al is None else al, inf if ah is None else ah):
        for q in (-inf if bl is None else bl, inf if bh is None else bh):
            if p == 0 or q == 0:
                ends.append(0)
            else:
                ends.append(p * q)
    lo, hi = min(ends), max(ends)
    return (None if lo == -inf else lo), (None if hi == inf else hi)


