"""Quick answers: a symbol, a scaled symbol or the ceiling/floor of one against a number, exactly,
from the symbol's allowed values (the multiples of its divisor in its bounds), in plain ints; and
two sides whose bounds settle an order. The first checks ``prove`` makes: about a microsecond each.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import scaled_symbol, symbol_facts
from .base import _FLIP, Rel, _prove_int
from .intervals import _bounds, _positive
from .values import _ENUM_MAX, _monotone

_MISS: Any = object()     # not settled by these checks: the procedure goes on

# the relations a positive formula has with 0 (formula rel 0)
_ABOVE_0 = frozenset((">", ">=", "!="))

# _verdict(rel, d, d) answers 0 rel d: a rel b on d = b - a for these, on a - b for > and >=
_AS_IS = ("<", "<=", "==", "!=")
_AS_IS_OF = {">": "<", ">=": "<="}


def _front(rel: Rel, a: Any, b: Any) -> Any:
    """A (scaled) symbol against a number, the usual question of a fold, with no facts in force:
    the symbol's own facts settle it in plain ints. ``_MISS``: left to the procedure."""
    if rel == "|":
        return _front_divides(a, b)
    if type(b) is int:
        if getattr(a, "is_Symbol", False):
            return _symbol_int(rel, a, b)
        if b == 0 and rel in _FLIP and hasattr(a, "func") and _positive(a):
            return rel in _ABOVE_0      # positive by its structure (an extent, a stride)
        if rel in _FLIP and hasattr(a, "func"):
            r = _monotone_vs_int(rel, a, b)
            return _reciprocal_vs_int(rel, a, b) if r is _MISS else r
    elif type(a) is int:
        if getattr(b, "is_Symbol", False):
            return _int_symbol(rel, a, b)
        if a == 0 and rel in _FLIP and hasattr(b, "func") and _positive(b):
            return _FLIP[rel] in _ABOVE_0
        if rel in _FLIP and hasattr(b, "func"):
            r = _monotone_vs_int(_FLIP[rel], b, a)
            return _reciprocal_vs_int(_FLIP[rel], b, a) if r is _MISS else r
    return _MISS


def _reciprocal_vs_int(rel: Rel, a: Any, c: int) -> Any:
    """``a rel c`` (an order or an equality) for ``a = floor(n/S)`` or ``ceiling(n/S)``, ``n`` a
    positive number and ``S`` a symbol of least value at least 1: the values ``a`` takes, read
    off ``S``'s allowed values up to ``n`` (past ``n`` it is 0, or 1 for the ceiling), final (the
    symbol's own facts are all there is). ``_MISS``: another shape, or too many values.

    >>> import sympy
    >>> from cute_sym.core.integers import Dyn
    >>> S = sympy.sympify(Dyn("S", divisible_by=4))
    >>> _reciprocal_vs_int("!=", sympy.floor(6 / S), 0), _reciprocal_vs_int(">=", sympy.ceiling(6 / S), 1)
    (None, True)
    >>> _reciprocal_vs_int("<=", sympy.ceiling(32 / S), 8), _reciprocal_vs_int("==", sympy.floor(2 / S), 0)
    (True, True)
    """
    f = a.func
    if not (f is sympy.ceiling or f is sympy.floor):
        return _MISS
    q = a.args[0]
    if not (q.is_Mul and len(q.args) == 2):
        return _MISS
    n, x = q.args
    if not (n.is_Integer and n.p > 0 and x.is_Pow and x.exp == -1 and x.base.is_Symbol):
        return _MISS
    sym, n = x.base, int(n.p)
    d, lo, hi = symbol_facts(sym)
    if lo is None or lo < 1 or not sym.is_integer:
        return _MISS
    first = -(-lo // d) * d
    top = n if hi is None else min(hi, n)
    if top >= first and (top - first) // d > _ENUM_MAX:
        return _MISS
    up = f is sympy.ceiling
    seen = {_prove_int(rel, -(-n // v) if up else n // v, c) for v in range(first, top + 1, d)}
    past = max(first, (n // d + 1) * d)         # the least allowed value above n
    if hi is None or past <= hi:
        seen.add(_prove_int(rel, 1 if up else 0, c))
    return seen.pop() if len(seen) == 1 else (None if seen else _MISS)


def _front_divides(a: Any, b: Any) -> Any:
    """``a | b`` for a symbol or ``k*S`` (``k`` a positive integer) and a number, exactly:
    ``k*S | c`` is ``S | c/k`` (false unless ``k | c``); ``c | k*S`` is ``c/gcd(c,k) | S``."""
    if type(b) is int:
        if getattr(a, "is_Symbol", False):
            return _symbol_int("|", a, b)
        k, x = scaled_symbol(a)
        if x is None:
            return _MISS
        if b % k:
            return b == 0       # k*S | b needs k | b (b == 0: everything divides it)
        return _symbol_int("|", x, b // k)
    if type(a) is int:
        if getattr(b, "is_Symbol", False):
            return _int_symbol("|", a, b)
        k, x = scaled_symbol(b)
        if x is None or a == 0:
            return _MISS
        return _int_symbol("|", abs(a) // math.gcd(a, k), x)
    return _MISS


# ceil(x) rel c  <=>  x rel' c'  (and floor likewise), for an integer c
_CEIL = {"<=": ("<=", 0), "<": ("<=", -1), ">=": (">", -1), ">": (">", 0)}
_FLOOR = {"<=": ("<", 1), "<": ("<", 0), ">=": (">=", 0), ">": (">=", 1)}


def _monotone_vs_int(rel: Rel, a: Any, c: int) -> Any:
    """``a rel c`` (an order) for ``a`` = ``(p/q)*S``, ``ceiling`` or ``floor`` of one: the symbol
    against a number, final (its own facts are all there is). ``_MISS``: another shape."""
    form = _monotone(a)
    if form is None:
        return _MISS
    x, p, q, rnd = form
    if rnd:
        if rel not in _CEIL:
            return _MISS        # == is two bounds: left to the procedure
        rel, shift = (_CEIL if rnd > 0 else _FLOOR)[rel]
        c += shift
    return _scaled_symbol_vs_int(rel, p, x, c * q)     # (p/q)*S rel c: p*S rel c*q


def _symbol_int(rel: Rel, a: Any, c: int) -> Any:
    """``a rel c`` for a symbol ``a`` (no facts in force), read off its values (the multiples of
    its divisor in its bounds, all of them possible); ``_MISS``: left to the procedure.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=4)
    >>> _symbol_int("|", S, 8), _symbol_int("|", S, 2), _symbol_int("<", S, 4)
    (None, False, False)
    """
    if rel != "|":
        return _symbol_vs_int(rel, a, c) if rel in _FLIP else _MISS
    if c == 0:
        return True
    d, lo, hi = symbol_facts(a)
    if lo is None or lo < 1 or not a.is_integer:
        return _MISS
    first = -(-lo // d) * d
    top = abs(c) if hi is None else min(hi, abs(c))
    if (top - first) // d > _ENUM_MAX:
        return _MISS
    some = any(abs(c) % v == 0 for v in range(first, top + 1, d))
    # a value above |c| (there is one when the bounds reach past it) divides nothing
    every = (hi is not None and hi // d * d <= abs(c)) and all(abs(c) % v == 0 for v in range(first, top + 1, d))
    if every:
        return True
    return None if some else False


def _int_symbol(rel: Rel, c: int, b: Any) -> Any:
    """``c rel b`` for a symbol ``b`` (no facts in force), as :func:`_symbol_int`.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=4)
    >>> _int_symbol("|", 2, S), _int_symbol("|", 8, S), _int_symbol("<=", 4, S)
    (True, None, True)
    """
    if rel != "|":
        return _symbol_vs_int(_FLIP[rel], b, c) if rel in _FLIP else _MISS
    if c == 0 or not b.is_integer:
        return _MISS
    d, lo, hi = symbol_facts(b)
    if d % c == 0:
        return True         # c divides the symbol's divisor
    if hi is None or lo is None:
        # infinitely many values: the multiples of lcm(c, d) among them and d*(k*c+1) not
        return None
    first = -(-lo // d) * d
    if (hi - first) // d > _ENUM_MAX:
        return _MISS
    hits = [v % c == 0 for v in range(first, hi + 1, d)]
    if hits and all(hits):
        return True
    return None if any(hits) else False


def _interval_order(rel: Rel, a: Any, b: Any) -> Optional[bool]:
    """``a rel b`` (an order or an equality) when the two sides' bounds (their symbols' own facts:
    sound under any facts in force) do not overlap, or pin both to one value. None: not settled
    this way. A plain int side is its own bounds (no sympy number is built for it)."""
    la, ha = (a, a) if type(a) is int else _bounds(a)
    lb, hb = (b, b) if type(b) is int else _bounds(b)
    lt = ha is not None and lb is not None and ha < lb      # every a below every b
    le = ha is not None and lb is not None and ha <= lb
    gt = la is not None and hb is not None and la > hb
    ge = la is not None and hb is not None and la >= hb
    if rel == "<":
        return True if lt else (False if ge else None)
    if rel == "<=":
        return True if le else (False if gt else None)
    if rel == ">":
        return True if gt else (False if le else None)
    if rel == ">=":
        return True if ge else (False if lt else None)
    if lt or gt:
        return rel == "!="
    if le and ge:       # both pinned to the same value
        return rel == "=="
    return None


def by_bounds(rel: Rel, a: Any, b: Any) -> Optional[bool]:
    """``a rel b`` (an order or an equality) read off the two sides' bounds alone (the symbols' own
    facts): True or False where the intervals do not overlap (or pin both sides to one value),
    else None; None for ``|`` (bounds say nothing about divisibility). Cheap (the bounds are
    memoised) and sound under any facts in force, which only narrow the values.

    @post a True (False) answer is what :func:`~cute_sym.core.decide.prove` answers.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=2)
    >>> by_bounds("<=", 2, S), by_bounds("<", 2, S), by_bounds(">", 1, S), by_bounds("|", 1, S)
    (True, None, False, None)
    """
    if rel == "|":
        return None
    if type(a) is int and type(b) is int:
        return _prove_int(rel, a, b)
    return _interval_order(rel, a, b)


def _linear_order(rel: Rel, d: sympy.Expr) -> Any:
    """``a rel b`` for ``d = b - a = c + k*S`` (one symbol, no facts in force): the scaled symbol
    against a number, exactly. ``_MISS``: another shape."""
    c, rest = d.as_coeff_Add()
    if not c.is_Integer:
        return _MISS
    if rel not in _AS_IS:       # a > b is 0 < a - b = -d
        rel, c, rest = _AS_IS_OF[rel], -c, -rest
    k, x = rest.as_coeff_Mul()
    if not (k.is_Rational and x.is_Symbol) or k == 0:
        return _MISS
    if k > 0:       # 0 rel c + k*x  <=>  k*x FLIP(rel) -c
        return _scaled_symbol_vs_int(_FLIP[rel], int(k.p), x, -int(c) * int(k.q))
    # 0 rel c - |k|*x  <=>  |k|*x rel c
    return _scaled_symbol_vs_int(rel, int(-k.p), x, int(c) * int(k.q))



def _scaled_symbol_vs_int(rel: Rel, k: int, a: sympy.Symbol, c: int) -> Optional[bool]:
    """``k*a rel c`` for ``k > 0``: ``a`` against ``c/k``, rounded the way the relation needs."""
    if k == 1:
        return _symbol_vs_int(rel, a, c)
    if rel == "==" or rel == "!=":
        if c % k:
            return rel == "!="
        return _symbol_vs_int(rel, a, c // k)
    up, down = -(-c // k), c // k       # ceil(c/k), floor(c/k)
    if rel == "<":
        return _symbol_vs_int("<", a, up)
    if rel == "<=":
        return _symbol_vs_int("<=", a, down)
    if rel == ">":
        return _symbol_vs_int(">", a, down)
    return _symbol_vs_int(">=", a, up)


def _symbol_vs_int(rel: Rel, a: sympy.Symbol, c: int) -> Optional[bool]:
    """``a rel c`` for a symbol, with no facts in force: its values are the multiples of its
    divisor in its bounds, all of them possible, so the answer here is final (None: unknown)."""
    d, lo, hi = symbol_facts(a)
    if lo is not None:
        lo = -(-lo // d) * d        # the least multiple of d in range
    if hi is not None:
        hi = (hi // d) * d
    if lo is not None and hi is not None and lo >= hi:
        return _prove_int(rel, lo, c) if lo == hi else None     # pinned (or no value: leave it)
    if rel == "==" or rel == "!=":
        differ = (lo is not None and c < lo) or (hi is not None and c > hi) or c % d != 0
        return (rel == "!=") if differ else None
    return _interval(rel, lo, hi, c)


def _interval(rel: Rel, lo: Optional[int], hi: Optional[int], c: int) -> Optional[bool]:
    """``x rel c`` for every ``x`` in ``[lo, hi]`` (None: unbounded on that side)."""
    if rel == "<":
        return True if hi is not None and hi < c else (False if lo is not None and lo >= c else None)
    if rel == "<=":
        return True if hi is not None and hi <= c else (False if lo is not None and lo > c else None)
    if rel == ">":
        return True if lo is not None and lo > c else (False if hi is not None and hi <= c else None)
    if rel == ">=":
        return True if lo is not None and lo >= c else (False if hi is not None and hi < c else None)
    return None
