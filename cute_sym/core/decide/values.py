"""Values: the few values a formula can take, and divisibility read off them.

Two sources, both from the symbols' own facts (so they hold whatever the facts in force):

* a formula's bounds: every value lies in its interval (not every integer there need be one);
* exactly, a ``Min`` of numbers and one nondecreasing formula of one symbol (``k*S``,
  ``ceiling(k*S)``, ``floor(k*S)``, ``k > 0``): below the least number its values are
  enumerated over the symbol's allowed values (multiples of its divisor in its bounds), and
  from there on it is that number. ``min(4, S/3)`` for ``S`` a multiple of 6 takes 2 and 4.
"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import symbol_facts
from .base import _FLIP, _mentions
from .divisibility import _int_product
from .intervals import _bounds, _fraction

# an interval of at most this many integers is read value by value
_SMALL_RANGE = 16
# the most allowed values of a symbol enumerated for one formula
_ENUM_MAX = 256


@lru_cache(maxsize=4096)
def value_set(e: sympy.Expr) -> Optional[tuple[frozenset[int], bool]]:
    """``(values, exact)``: every value of ``e`` is in ``values``, and with ``exact`` each of
    them is taken at some allowed value of the symbols; None when there are too many.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=6)
    >>> value_set(sympy.Min(4, S / 3, evaluate=False))
    (frozenset({2, 4}), True)
    >>> value_set(sympy.ceiling(sympy.Integer(8) / Dyn("T", divisible_by=4)))
    (frozenset({1, 2}), True)
    >>> value_set(sympy.ceiling(Dyn("U", max=20) / 8))
    (frozenset({1, 2, 3}), False)
    """
    if e.is_Atom:
        return None     # a number is decided elsewhere; a symbol's values are its own facts
    if e.func is sympy.Min:
        vals = _min_values(e)
        if vals is not None:
            return vals, True
    elif e.is_Mul and len(e.args) == 2 and e.args[0].is_Rational:
        scaled = _scaled_values(e.args[0], e.args[1])
        if scaled is not None:
            return scaled
    elif e.func is sympy.ceiling or e.func is sympy.floor:
        vals = _decreasing_values(e)
        if vals is not None:
            return vals, True
    lo, hi = _bounds(e)
    if lo is None or hi is None:
        return None
    lo_i, hi_i = math.ceil(lo), math.floor(hi)     # e is an integer
    if hi_i - lo_i >= _SMALL_RANGE:
        return None
    return frozenset(range(lo_i, hi_i + 1)), False


def _decreasing_values(e: sympy.Expr) -> Optional[frozenset[int]]:
    """The values of ``ceiling(c/S)`` or ``floor(c/S)`` (``c >= 1``, ``S`` a positive symbol),
    exactly: ``S``'s allowed values below ``c``, then 1 (0) from ``c`` (above ``c``) on."""
    x = e.args[0]
    if not (x.is_Mul and len(x.args) == 2):
        return None
    c, p = x.args
    if not (c.is_Integer and c.p >= 1 and p.is_Pow and p.exp == -1 and p.base.is_Symbol
            and p.base.is_integer):
        return None
    sym, c = p.base, int(c.p)
    d, lo, hi = symbol_facts(sym)
    if lo is None or lo < 1:
        return None
    first = -(-lo // d) * d
    last = c if hi is None else min(hi, c)
    if (last - first) // d > _ENUM_MAX:
        return None
    up = e.func is sympy.ceiling
    vals = {(-(-c // s) if up else c // s) for s in range(first, last + 1, d)}
    if hi is None or hi // d * d > c:
        vals.add(1 if up else 0)        # the values above c
    return frozenset(vals)


def _scaled_values(k: Any, x: Any) -> Optional[tuple[frozenset[int], bool]]:
    """The values of ``k * x`` or ``k / x`` (``k`` a number, ``x`` a formula with few values):
    ``2/min(2, ceil_div(S,8))`` takes 2 and 1."""
    inv = x.is_Pow and x.exp == -1
    inner = value_set(x.base if inv else x)
    if inner is None:
        return None
    kf = _fraction()(int(k.p), int(k.q))
    out: set[int] = set()
    for v in inner[0]:
        if inv and v == 0:
            return None
        w = kf / v if inv else kf * v
        if w.denominator != 1:
            return None     # not an integer at this value: not read this way
        out.add(int(w))
    return frozenset(out), inner[1]


def _min_values(e: sympy.Expr) -> Optional[frozenset[int]]:
    """The values of ``Min(c1, .., cn, f(S))`` (numbers ``ci``, ``f`` nondecreasing), exactly."""
    ints: list[int] = []
    f: Any = None
    for x in e.args:
        if x.is_Integer:
            ints.append(int(x))
        elif f is None:
            f = x
        else:
            return None
    form = _monotone(f) if f is not None and ints else None
    if form is None:
        return None
    sym, p, q, rnd = form
    cmin = min(ints)
    d, lo, hi = symbol_facts(sym)
    if lo is None or sym.is_integer is not True:
        return None     # no least value to count from
    s = -(-lo // d) * d
    vals: set[int] = set()
    for _ in range(_ENUM_MAX):
        if hi is not None and s > hi:
            return frozenset(vals)      # every allowed value seen: the number never reached
        n = p * s       # f(s) = rnd(n / q), in ints
        if rnd == 0:
            if n % q:
                return None     # not an integer here: not a formula of the algebra
            v = n // q
        else:
            v = -(-n // q) if rnd > 0 else n // q
        if v >= cmin:
            vals.add(cmin)  # here and at every larger value (f does not decrease)
            return frozenset(vals)
        vals.add(v)
        s += d
    return None


def _monotone(f: Any) -> Optional[tuple[Any, int, int, int]]:
    """``f`` as ``(S, p, q, round)`` with ``f(S) = round(p*S/q)``, ``p, q > 0``; ``round`` is 0
    (exact), 1 (ceiling) or -1 (floor). None for other shapes."""
    rnd = 0
    if f.func is sympy.ceiling or f.func is sympy.floor:
        rnd = 1 if f.func is sympy.ceiling else -1
        f = f.args[0]
    if f.is_Symbol:
        return f, 1, 1, rnd
    if f.is_Mul and len(f.args) == 2:
        k, x = f.args
        if k.is_Rational and k.p > 0 and x.is_Symbol:
            return x, int(k.p), int(k.q), rnd
    return None


def _holds(rel: str, x: int, y: int) -> bool:
    if rel == "|":
        return y == 0 if x == 0 else y % x == 0
    return _OPS[rel](x, y)


def _unbounded_apart(x: Any, other: Any) -> bool:
    """``x`` is a positive integer symbol unbounded above that ``other`` does not contain."""
    if not x.is_Symbol or x.is_integer is not True:
        return False
    _d, lo, hi = symbol_facts(x)
    return hi is None and lo is not None and lo >= 1 and not _mentions(other, x)


_OPS: dict[str, Callable[[int, int], bool]] = {"==": lambda x, c: x == c, "!=": lambda x, c: x != c, "<": lambda x, c: x < c,
        "<=": lambda x, c: x <= c, ">": lambda x, c: x > c, ">=": lambda x, c: x >= c}


def symbol_apart_by_values(rel: str, a: sympy.Expr, b: sympy.Expr,
                           front: Callable[[str, Any, Any], Any]) -> tuple[bool, Optional[bool]]:
    """``a rel b`` for a symbol ``S`` against a formula ``F`` of few values without ``S`` (a
    ceil_div or min of other symbols), either way round, no facts in force: ``S`` against each
    value ``v`` of ``F`` in turn, read off ``S``'s own facts (``front(rel, x, y)``: final
    answers, a None open, anything else not settled). ``(settled, answer)`` as
    :func:`divides_by_values`.

    ``S`` and ``F`` vary independently, so the relation holds everywhere when it holds against
    every value, fails everywhere when it fails against every one, and is open when the values
    (each taken: an exact set) give both outcomes or an open one.

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide.quick import _front
    >>> S, T = sympy.sympify(Dyn("S", divisible_by=4)), sympy.sympify(Dyn("T", divisible_by=2))
    >>> symbol_apart_by_values("<=", T, 4 / sympy.Min(4, S / 2), _front)      # T <= 2 at T = 2 only
    (True, None)
    >>> symbol_apart_by_values("|", sympy.ceiling(8 / S), 2 * T, _front)[0]    # not a lone symbol
    False
    """
    if a.is_Symbol and not b.is_Symbol and not b.is_Number:
        sym, f, left = a, b, True
    elif b.is_Symbol and not a.is_Symbol and not a.is_Number:
        sym, f, left = b, a, False
    else:
        return False, None
    if not (f.is_Function or f.is_Mul or f.is_Pow) or _mentions(f, sym):
        return False, None
    vf = value_set(f)
    if vf is None or not vf[1] or len(vf[0]) > _APART_VALUES:
        return False, None
    seen: set[Any] = set()
    for v in vf[0]:
        seen.add(front(rel, sym, v) if left else front(rel, v, sym))
        if len(seen) > 1 and None in seen:
            break
    if len(seen) == 1 and (True in seen or False in seen or None in seen):
        return True, seen.pop()
    if seen <= {True, False, None} and len(seen) > 1:
        return True, None       # both outcomes, or an open one, at values F takes
    return False, None


# the most values of a formula read in turn against a symbol
_APART_VALUES = 16


def order_by_values(rel: str, a: sympy.Expr, b: sympy.Expr) -> tuple[bool, Optional[bool]]:
    """``a rel b`` (an order or equality, one side a number) read off the other side's values,
    as :func:`divides_by_values`.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=6)
    >>> order_by_values("==", sympy.Min(4, S / 3, evaluate=False), sympy.Integer(0))
    (True, False)
    >>> order_by_values("<", sympy.Integer(3), sympy.Min(4, S / 3, evaluate=False))
    (True, None)
    """
    if b.is_Integer:
        e, c = a, int(b)
    elif a.is_Integer:
        e, c, rel = b, int(a), _FLIP[rel]
    else:
        return False, None
    ve = value_set(e)
    if ve is None:
        return False, None
    op = _OPS[rel]
    hits = [op(v, c) for v in ve[0]]
    if all(hits):
        return True, True
    if not any(hits):
        return True, False
    return ve[1], None


def divides_by_values(a: sympy.Expr, b: sympy.Expr) -> tuple[bool, Optional[bool]]:
    """``a | b`` read off the values of one operand: ``(settled, answer)``; a settled None is
    open (an exact set with values that divide and values that do not).

    @post a True (False) answer holds (fails) at every value of the symbols their facts allow.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=4)
    >>> divides_by_values(sympy.Min(2, sympy.ceiling(S / 8), evaluate=False), sympy.Integer(2))
    (True, True)
    >>> divides_by_values(sympy.Min(4, S / 2, evaluate=False), sympy.Integer(4))
    (True, True)
    >>> divides_by_values(sympy.Min(12, S, evaluate=False), sympy.Integer(16))
    (True, None)
    """
    va = value_set(a)
    if va is not None:
        vals, exact = va
        if b.is_Integer:
            c = int(b)
            ok = [(c % k == 0) if k else (c == 0) for k in vals]
            if all(ok):
                return True, True
            if not any(ok):
                return True, False
            return exact, None
        # every value of a divides b (b a monomial: through the divisors its symbols carry)
        if 0 not in vals and all(_divisor_of_monomial(abs(k), b) for k in vals):
            return True, True
        if exact and 0 not in vals and _unbounded_apart(b, a):
            # b a symbol T apart from a, all multiples of its divisor d from some point: k | T
            # at T = lcm(k, d)*m, and k does not divide T = d*(k*m + 1) unless k | d
            return True, None
    lo_a, lo_b, hi_b = _bounds(a)[0], *_bounds(b)
    if lo_a is not None and lo_b is not None and hi_b is not None and 0 < lo_b and hi_b < lo_a:
        return True, False      # 0 < b < a: a does not divide b
    if va is not None:
        return False, None
    vb = value_set(b) if _unbounded_apart(a, b) else None
    if vb is not None and vb[1] and 0 not in vb[0]:
        # a a symbol apart from b: it fails above every |v|; it holds where one of its values
        # divides one of b's
        d, lo, _hi = symbol_facts(a)
        top = max(abs(v) for v in vb[0])
        first = -(-(lo or 1) // d) * d
        if (top - first) // d <= _ENUM_MAX:
            held = any(v % t == 0 for t in range(first, top + 1, d) for v in vb[0])
            return True, (None if held else False)
    if a.is_Integer and a.p != 0:
        vb = value_set(b)
        if vb is not None:
            n = abs(int(a))
            hits = [k % n == 0 for k in vb[0]]
            if all(hits):
                return True, True
            if not any(hits):
                return True, False
            return vb[1], None
    return False, None


def _divisor_of_monomial(n: int, b: sympy.Expr) -> bool:
    """``n | b`` for ``b = c * s1**k1 * ...`` (integer ``c``, integer symbols, positive powers):
    ``n`` divides ``c`` times the divisors the symbols carry. A sufficient test, from the structure."""
    if n == 0:
        return False
    c, m = b.as_coeff_Mul()
    if not c.is_Integer:
        return False
    v = int(c)
    if v % n == 0:
        # n | c: n | b exactly when the rest is an integer (not 6/min(6,a), say)
        return m is sympy.S.One or _int_product(m)
    if m is sympy.S.One:
        return False
    # the factors of m read off its args (as_powers_dict builds a dict through sympy's machinery)
    if m.is_Symbol or m.is_Pow:
        factors: tuple[Any, ...] = (m,)
    elif m.is_Mul:
        factors = m.args
    else:
        return False
    for f in factors:
        if f.is_Symbol:
            base, k = f, 1
        elif f.is_Pow and f.args[1].is_Integer and f.args[1].p > 0:
            base, k = f.args[0], int(f.args[1].p)
        else:
            return False
        if not (base.is_Symbol and base.is_integer is True):
            return False
        v *= symbol_facts(base)[0] ** k
    return v % n == 0


