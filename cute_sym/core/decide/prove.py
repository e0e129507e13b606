"""prove: proved, refuted or unknown, for one relation between two integers."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional, cast

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..errors import LayoutError
from ..integers import IntLike, as_int_like, symbol_facts
from ..monomials import div, monomial_parts, mul
from .base import _FLIP, Fact, Rel, _RELS, _facts_in_force, _prove_int, _same, _sym
from .divisibility import _divides, _int_product
from .values import _divisor_of_monomial, divides_by_values, order_by_values, symbol_apart_by_values
from .quick import (
    _AS_IS, _AS_IS_OF, _MISS, _front, _interval_order, _linear_order, _scaled_symbol_vs_int, _symbol_vs_int,
)
from .witness import open_by_witnesses, open_divides_int_symbol
from .intervals import _positive
from .reason import _EXPAND_MAX_NODES, _bounds, _context, _decide_diff, _minmax, _scan, _subst, _verdict


def prove(rel: Rel, a: IntLike, b: IntLike) -> Optional[bool]:
    """Decide ``a rel b``: ``True`` proved, ``False`` refuted, ``None`` unknown.

    @pre ``rel`` is one of ``== != < <= > >= |``; ``a``, ``b`` integers.
    @post a ``True``/``False`` answer holds for every value of the symbols that
          satisfies their facts (and the facts in force).

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import prove
    >>> prove("<=", 3, 5), prove("|", 3, 5)
    (True, False)
    >>> K = Dyn("K")
    >>> prove(">=", K * K, K), prove("|", K, 3 * K * K)
    (True, True)
    """
    if type(a) is int and type(b) is int:
        return _prove_int(rel, a, b)
    ia = type(a) is int or getattr(a, "is_Integer", False)
    ib = type(b) is int or getattr(b, "is_Integer", False)
    if ia and ib:
        return _prove_int(rel, int(a), int(b))      # a dynamic number (a pinned ceil_div): plain ints
    if ia:
        a = int(a)      # a dynamic number against a formula: the number's quick paths
    elif ib:
        b = int(b)
    elif a is b:        # the same formula object (a rest used up): as _prove answers it
        return rel in ("==", "<=", ">=", "|")
    facts = _facts_in_force()
    if not facts:
        r = _front(rel, a, b)
        if r is not _MISS:
            return cast("Optional[bool]", r)
    key = (rel, a, b, facts)
    r = _MEMO.get(key, _MISS)
    if r is _MISS:
        r = _prove(rel, a, b, facts)
        if len(_MEMO) >= _MEMO_MAX:
            _MEMO.clear()
        _MEMO[key] = r
    return cast("Optional[bool]", r)


# An operation asks the same few questions again and again (each lhs mode, each retry of a
# fold): the answer to a (relation, operands, facts in force) question never changes.
_MEMO: dict[tuple[Any, ...], Optional[bool]] = {}
_MEMO_MAX = 16384


def prove_checked(rel: Any, a: Any, b: Any) -> Optional[bool]:
    """:func:`prove` for user code (``cute_sym.prove``): the arguments checked first.

    @pre ``rel`` is one of ``== != < <= > >= |``; ``a`` and ``b`` are integers or integer
         formulas (a name, a float or ``None`` is refused with a :class:`LayoutError`).
    @post :func:`prove`'s answer: ``True`` proved, ``False`` refuted, ``None`` unknown.

    >>> prove_checked("|", 4, 8), prove_checked("<", "x", 1)
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: prove: the left operand must be an int or a sympy integer expression, got 'x'
    """
    if not isinstance(rel, str) or rel not in _RELS:
        raise LayoutError(f"prove: unknown relation {rel!r} (one of {' '.join(_RELS)})")
    return prove(rel, as_int_like(a, "prove: the left operand"), as_int_like(b, "prove: the right operand"))


def _prove(rel: Rel, a: IntLike, b: IntLike, facts: tuple[Fact, ...]) -> Optional[bool]:
    if rel not in _RELS:
        raise LayoutError(f"unknown relation {rel!r}")
    sa, sb = _sym(a), _sym(b)
    if sa.is_Integer and sb.is_Integer:
        return _prove_int(rel, int(sa), int(sb))
    if _same(sa, sb):        # the same formula: no reasoning needed
        return rel in ("==", "<=", ">=", "|")
    if rel == "==" or rel == "!=":
        # a formula positive by its structure (an extent, a stride) against 0
        if sb.is_Integer and sb.p == 0 and _positive(sa) or sa.is_Integer and sa.p == 0 and _positive(sb):
            return rel == "!="
    elif sb.is_Integer and sb.p == 0 and (rel == ">" or rel == ">=") and _positive(sa) or \
            sa.is_Integer and sa.p == 0 and (rel == "<" or rel == "<=") and _positive(sb):
        # (the orderings below read ``> 0`` as ``>= 1``, which a quotient such as 2/c is not)
        return True
    if not facts:
        # a symbol against a formula of few values of other symbols: value by value, final
        settled, apart = symbol_apart_by_values(rel, sa, sb, _front)
        if settled:
            return apart
    if rel != "|" and rel != "==" and rel != "!=" and sa.is_Mul and sb.is_Mul and _shares_factor(sa, sb) \
            and (_calls(sa) or _calls(sb)):
        # products with a common factor and a rounding or min in them (``S/c <= S*T/c``, ``c`` a
        # ceil_div): their ratio, in which it cancels (plain monomials: _quick_ratio, below)
        quick = _ratio_order(rel, sa, sb)
        if quick is not None:
            return quick
    if rel == "|":
        if not sa.is_Number and not sb.is_Number:
            # positive monomials (strides, extents), in ints: a sufficient test, and the same
            # symbols and powers at a ratio that is not an integer (b = q*a, a != 0: refuted)
            if _monomial_divides(sa, sb):
                return True
            if not facts and _constant_ratio_not_int(sa, sb):
                return False
        if not facts and sb.is_Integer and sb.p != 0:
            # a monomial above |b| > 0 does not divide it (the full procedure's last check, on the
            # same or weaker bounds: the symbols' own facts are all there is)
            mlo = _monomial_lo(sa)
            if mlo is not None and mlo[0] > abs(int(sb.p)) * mlo[1]:
                return False
        if sb.is_Mul and not sa.is_Number and _shares_factor(sa, sb) and _product(sa):
            # a common factor cancels (``c | S*T*c/d`` is ``d | S*T``): the smaller question first
            quotient = _quotient_divides(sa, sb)
            if quotient is True or quotient is False:
                return quotient
        settled, small = divides_by_values(sa, sb)
        if settled and (small is not None or not facts):     # open: for the symbols' own facts only
            return small
        if sa.is_Integer and _divisor_of_monomial(int(sa), sb):
            return True     # holds whatever the facts in force
        if not sa.is_Number and sb.is_Number and _monomial_divides(sa, sb):
            return True
        if not facts and open_divides_int_symbol(sa, sb):
            return None     # holds at one allowed value, fails at another: open for any procedure
        if not sa.is_Number and _product(sa) and _product(sb):
            quotient = _quotient_divides(sa, sb)
            if quotient is not _MISS:
                return cast("Optional[bool]", quotient)
    elif not facts:
        if sb.is_Integer:
            k, x = sa.as_coeff_Mul() if sa.is_Mul else (sympy.S.One, sa)
            if x.is_Symbol and k.is_Rational and k.p > 0:    # final: the symbol's facts are all there is
                # (p/q)*x rel c  <=>  p*x rel c*q   (q > 0)
                return _scaled_symbol_vs_int(rel, int(k.p), x, int(sb) * int(k.q))
        elif sa.is_Integer:
            k, x = sb.as_coeff_Mul() if sb.is_Mul else (sympy.S.One, sb)
            if x.is_Symbol and k.is_Rational and k.p > 0:
                return _scaled_symbol_vs_int(_FLIP[rel], int(k.p), x, int(sa) * int(k.q))
        quick = _quick_vs_int(rel, sa, int(sb)) if sb.is_Integer else _quick_ratio(rel, sa, sb)
        if quick is not None:
            return quick
    if rel != "|":
        if sa.is_Integer or sb.is_Integer:
            # a formula of few values against a number: value by value (exact), then its bounds
            settled, quick = order_by_values(rel, sa, sb)
            if settled and (quick is not None or not facts):
                return quick
            quick = _interval_order(rel, sa, sb)
            if quick is not None:
                return quick
        else:
            quick = _interval_order(rel, sa, sb)
            if quick is not None:
                return quick
            if sa.is_Add or sb.is_Add:
                d = sb - sa
                if d.is_Integer:        # a constant difference: S - 1 < S
                    k = int(d)
                    # a > b is 0 < a - b; a >= b is 0 <= a - b
                    return _verdict(rel, k, k) if rel in _AS_IS else _verdict(_AS_IS_OF[rel], -k, -k)
                if not facts:
                    r = _linear_order(rel, d)
                    if r is not _MISS:
                        return cast("Optional[bool]", r)
    if rel != "|" and (sa.is_Mul or sb.is_Mul) and _product(sa) and _product(sb):
        quick = _ratio_order(rel, sa, sb)
        if quick is not None:
            return quick
    if not facts:
        # ceil_div(c, S) / c // S that the symbol's own facts pin (as the reasoning's substitution
        # would): pinned, the question usually has a quick answer
        pa, pb = _pinned(sa), _pinned(sb)
        if pa is not sa or pb is not sb:
            return prove(rel, pa, pb)
    return _prove_sym(rel, sa, sb, facts)


def _product(e: sympy.Expr) -> bool:
    """A product of factors (no sum at the top): a quotient of two of them cancels their common factors."""
    return bool(e.is_Mul or e.is_Pow or e.is_Symbol or e.func is sympy.ceiling or e.func is sympy.floor)


def _calls(e: sympy.Expr) -> bool:
    """A factor of the product ``e`` is a function (ceiling, min, ...) or a power of one."""
    return any(f.is_Function or f.is_Pow and f.base.is_Function for f in e.args)


def _shares_factor(a: sympy.Expr, b: sympy.Expr) -> bool:
    """A factor of the product ``a`` (or ``a`` itself) is a factor of the product ``b``, as written."""
    fb = b.args
    if not fb:
        return False
    sb = set(fb)        # by hash: sympy's == is a Python call per pair
    return a in sb or (a.is_Mul and any(f in sb for f in a.args))


def _quotient_divides(a: sympy.Expr, b: sympy.Expr) -> Any:
    """``a | b`` for products with ``a > 0``: ``b/a`` cancels their common factors to ``n/m`` (both
    products of integers), and ``a | b`` exactly when ``m | n``: ``ceil_div(S,8) | S*T*ceil_div(S,8)/d``
    is ``d | S*T``. ``_MISS``: another shape."""
    lo = _bounds(a)[0]
    if lo is None or lo <= 0:
        return _MISS
    n, m = _numer_denom(div(b, a))
    if m == a or not (_int_product(n) and _int_product(m)):
        return _MISS        # nothing cancelled (asking again would not end), or not integers
    return prove("|", m, n)


def _numer_denom(q: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    """sympy's ``q.as_numer_denom()``; for a monomial read off its args (the positive and the
    negative powers), without sympy's evaluation of the two products."""
    parts = monomial_parts(q)
    if parts is None:
        return q.as_numer_denom()  # type: ignore[no-any-return]
    num, den, powers = parts
    n: Any = sympy.Integer(num)
    m: Any = sympy.Integer(den)
    for base, k in powers.items():
        if k > 0:
            n = mul(n, base if k == 1 else sympy.Pow(base, k))
        elif k < 0:
            m = mul(m, base if k == -1 else sympy.Pow(base, -k))
    return n, m


def _ratio_order(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> Optional[bool]:
    """``a rel b`` for positive ``a``, ``b`` read off the bounds of ``b/a``, in which their common
    factors cancel: ``c <= S*T*c/d`` for ``S*T >= 6 > d``. Sound with any facts in force (the
    symbols' own bounds hold under them). None: not settled this way."""
    la, lb = _bounds(a)[0], _bounds(b)[0]
    if la is None or lb is None or la <= 0 or lb <= 0:
        return None
    lo, hi = _bounds(div(b, a))
    if rel == "<=":
        return True if lo is not None and lo >= 1 else (False if hi is not None and hi < 1 else None)
    if rel == "<":
        return True if lo is not None and lo > 1 else (False if hi is not None and hi <= 1 else None)
    if rel == ">=":
        return True if hi is not None and hi <= 1 else (False if lo is not None and lo > 1 else None)
    if rel == ">":
        return True if hi is not None and hi < 1 else (False if lo is not None and lo >= 1 else None)
    differ = (lo is not None and lo > 1) or (hi is not None and hi < 1)
    same = lo is not None and hi is not None and lo == 1 and hi == 1
    if not differ and not same:
        return None
    return (rel == "==") == same


def _monomial_divides(a: sympy.Expr, b: sympy.Expr) -> bool:
    """``a | b`` for positive monomials: every power of ``a`` is in ``b`` and what is left,
    with each symbol at a multiple of its divisor, is an integer. A sufficient test."""
    pa = _powers(a)
    pb = _powers(b) if pa is not None else None
    if pa is None or pb is None:
        return False
    have = dict(pb[2])
    num, den = pb[0] * pa[1], pb[1] * pa[0]
    for g, k in pa[2]:
        left = have.get(g, 0) - k
        if left < 0:
            return False
        have[g] = left
    for g, k in have.items():
        if k:
            num *= symbol_facts(g)[0] ** k
    return num % den == 0


def _constant_ratio_not_int(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Positive monomials with the same symbols and powers whose ratio ``b/a`` is not an integer."""
    pa = _powers(a)
    pb = _powers(b) if pa is not None else None
    if pa is None or pb is None or not pa[2] or dict(pa[2]) != dict(pb[2]):
        return False
    return (pb[0] * pa[1]) % (pb[1] * pa[0]) != 0


def _quick_ratio(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> Optional[bool]:
    """Two positive monomials: their order (and whether they differ) read off the ratio
    ``a/b = c * x**k * ...``, in plain ints: when every power is >= 0, ``a/b`` is at least
    its value with each symbol at its least value (likewise ``b/a``). None when the shapes
    do not settle it."""
    pa = _powers(a)
    pb = _powers(b) if pa is not None else None
    if pa is None or pb is None:
        return None
    diff = dict(pa[2])
    for g, k in pb[2]:
        diff[g] = diff.get(g, 0) - k
    up = all(k >= 0 for k in diff.values())
    down = all(k <= 0 for k in diff.values())
    for ok, num, den, flip in ((up, pa[0] * pb[1], pa[1] * pb[0], False), (down, pb[0] * pa[1], pb[1] * pa[0], True)):
        if not ok:
            continue
        for g, k in diff.items():
            if k:
                d, lo, _ = symbol_facts(g)
                num *= max(d, lo or 1) ** abs(k)
        if num < den:
            continue
        strict = num > den      # ratio >= num/den >= 1: a >= b (a <= b when flipped); a > b when > 1
        if rel in ("==", "!="):
            return (rel == "!=") if strict else None
        rr = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[rel] if flip else rel
        if rr == ">=":
            return True
        if rr == "<":
            return False
        return (rr == ">") if strict else None
    return None


@lru_cache(maxsize=16384)
def _powers(e: sympy.Expr) -> Optional[tuple[int, int, tuple[tuple[Any, int], ...]]]:
    """``c * s1**k1 * ...`` as ``(num, den, ((symbol, power), ...))``: ``c > 0`` rational,
    positive integer symbols, positive integer powers; None for any other shape.
    Memoised: an operation asks about the same strides again and again."""
    parts = monomial_parts(e)      # (sympy's as_coeff_Mul and as_powers_dict, read off the args)
    if parts is None or parts[0] <= 0:
        return None
    num, den, powers = parts
    for base, k in powers.items():
        if not (k > 0 and base.is_Symbol and base.is_positive is True and base.is_integer is True):
            return None
    return num, den, tuple(powers.items())


def _quick_vs_int(rel: Rel, a: sympy.Expr, c: int) -> Optional[bool]:
    """``a rel c`` read off the structure, the cheap checks before any reasoning (no facts in force):
    a symbol against its own bounds and divisor; a product of positive factors against 0.
    None: not settled here (the full procedure decides)."""
    if a.is_Symbol:
        return _symbol_vs_int(rel, a, c)
    if c == 0 and _positive(a):
        return rel in ("!=", ">", ">=")
    mlo = _monomial_lo(a)
    if mlo is not None and mlo[0] > c * mlo[1]:     # a >= lo > c (no upper bound is read here)
        return rel in ("!=", ">", ">=")
    return None


def _monomial_lo(e: sympy.Expr) -> Optional[tuple[int, int]]:
    """A lower bound ``num/den`` of a positive monomial (see :func:`_powers`): each symbol at
    its least value from its bounds and divisor."""
    p = _powers(e)
    if p is None:
        return None
    num = p[0]
    for g, k in p[2]:
        d, lo, _ = symbol_facts(g)
        num *= max(d, lo or 1) ** k
    return num, p[1]


# Formulas this large come from long folds under collect_guards (each step nests the last);
# reasoning on them takes seconds and almost never settles anything.
_GIVE_UP_NODES = 160


@lru_cache(maxsize=16384)
def _prove_sym(rel: Rel, a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...]) -> Optional[bool]:
    if _same(a, b):          # structurally identical: no reasoning needed
        return rel in ("==", "<=", ">=", "|")
    if not facts and open_by_witnesses(rel, a, b):
        return None     # seen to hold and to fail: no sound reasoning decides it
    syms, nodes = _scan(a, b)
    if nodes > _GIVE_UP_NODES:      # past this size no answer comes in time: unknown, not slow
        return None
    sub, ge0 = _context(syms, facts)
    if sub:
        memo: dict[Any, Any] = {}
        a, b = _subst(a, sub, memo, not facts), _subst(b, sub, memo, not facts)
    if nodes > _EXPAND_MAX_NODES:     # a huge formula (guard mode builds them): intervals only
        if rel == "|":
            return None
        if rel in (">", ">="):
            rel, a, b = ("<" if rel == ">" else "<="), b, a
        d = b - a
        return _verdict(rel, d, d) if d.is_Number else _verdict(rel, *_bounds(d))
    if rel == "|":
        return _divides(a, b, facts, sub)
    if rel in (">", ">="):
        rel, a, b = ("<" if rel == ">" else "<="), b, a
    return _decide_diff(rel, b - a, ge0)


def _pinned(e: sympy.Expr) -> sympy.Expr:
    """``e`` with every ``ceiling(c/S)`` (``floor(c/S)``), ``c`` a positive integer and ``S`` a
    symbol whose own facts put every value at or above ``c`` (above ``c``), replaced by its one
    value ``1`` (``0``); ``e`` itself (the same object) when there is none.

    @post ``_pinned(e)`` equals ``e`` at every value the symbols' own facts allow.

    >>> from cute_sym.core.integers import Dyn
    >>> S = Dyn("S", divisible_by=16)
    >>> _pinned(4 * S / sympy.ceiling(16 / S)), _pinned(sympy.ceiling(32 / S))
    (4*S, ceiling(32/S))
    """
    if e.is_Atom:
        return e
    return _pin_walk(e)


@lru_cache(maxsize=4096)
def _pin_walk(e: sympy.Expr) -> sympy.Expr:
    f = e.func
    if f is sympy.ceiling or f is sympy.floor:
        x = e.args[0]
        if x.is_Mul and len(x.args) == 2:
            c, p = x.args
            if c.is_Integer and c.p > 0 and p.is_Pow and p.exp == -1 and p.base.is_Symbol:
                d, lo, _hi = symbol_facts(p.base)
                if lo is not None and lo >= 1:
                    least = -(-lo // d) * d       # the smallest value: a multiple of d, >= lo
                    if f is sympy.ceiling and c.p <= least:
                        return sympy.S.One
                    if f is sympy.floor and c.p < least:
                        return sympy.S.Zero
        return e
    args = e.args
    new = [a if a.is_Atom else _pin_walk(a) for a in args]
    if all(x is y for x, y in zip(new, args)):
        return e
    if f is sympy.Min or f is sympy.Max:
        return _minmax(f, tuple(new))       # not sympy's evaluation: it compares every pair
    return f(*new)
