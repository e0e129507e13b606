"""prove: proved, refuted or unknown, for one relation between two integers."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..errors import LayoutError
from ..integers import IntLike, symbol_facts
from .base import Fact, Rel, _RELS, _facts_in_force, _prove_int, _sym
from .divisibility import _divides
from .witness import open_by_witnesses, open_divides_int_symbol
from .reason import _EXPAND_MAX_NODES, _bounds, _context, _decide_diff, _scan, _subst, _verdict


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
    if rel not in _RELS:
        raise LayoutError(f"unknown relation {rel!r}")
    sa, sb = _sym(a), _sym(b)
    if sa.is_Integer and sb.is_Integer:
        return _prove_int(rel, int(sa), int(sb))
    if sa == sb:        # the same formula: no reasoning needed
        return rel in ("==", "<=", ">=", "|")
    facts = _facts_in_force()
    if rel == "|":
        if sa.is_Integer and _divisor_of_monomial(int(sa), sb):
            return True     # holds whatever the facts in force
        if not sa.is_Number and _monomial_divides(sa, sb):
            return True
        if not facts and open_divides_int_symbol(sa, sb):
            return None     # holds at one allowed value, fails at another: open for any procedure
        if not facts and not sa.is_Number and _constant_ratio_not_int(sa, sb):
            return False    # b = q*a, q not an integer, a != 0 (the full procedure's reading of b/a)
        if not facts and sb.is_Integer and sb.p != 0:
            # a monomial above |b| > 0 does not divide it (the full procedure's last check, on the
            # same or weaker bounds: the symbols' own facts are all there is)
            mlo = _monomial_lo(sa)
            if mlo is not None and mlo[0] > abs(int(sb.p)) * mlo[1]:
                return False
    elif not facts:
        if sb.is_Integer:
            k, x = sa.as_coeff_Mul() if sa.is_Mul else (sympy.S.One, sa)
            if x.is_Symbol and k.is_Integer and k.p > 0:    # final: the symbol's facts are all there is
                return _scaled_symbol_vs_int(rel, int(k.p), x, int(sb))
        elif sa.is_Integer:
            k, x = sb.as_coeff_Mul() if sb.is_Mul else (sympy.S.One, sb)
            if x.is_Symbol and k.is_Integer and k.p > 0:
                return _scaled_symbol_vs_int(_FLIP[rel], int(k.p), x, int(sa))
        quick = _quick_vs_int(rel, sa, int(sb)) if sb.is_Integer else _quick_ratio(rel, sa, sb)
        if quick is not None:
            return quick
    if not facts:
        # ceil_div(c, S) / c // S that the symbol's own facts pin (as the reasoning's substitution
        # would): pinned, the question usually has a quick answer
        pa, pb = _pinned(sa), _pinned(sb)
        if pa is not sa or pb is not sb:
            return prove(rel, pa, pb)
    return _prove_sym(rel, sa, sb, facts)


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
    if pa is None or pb is None or not pa[2] or sorted(pa[2], key=str) != sorted(pb[2], key=str):
        return False
    return (pb[0] * pa[1]) % (pb[1] * pa[0]) != 0


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
        return True
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
    c, m = e.as_coeff_Mul()
    if not c.is_Rational or c.p <= 0:
        return None
    out: list[tuple[Any, int]] = []
    if m is not sympy.S.One:
        for base, ex in (((m, sympy.S.One),) if m.is_Symbol else m.as_powers_dict().items()):
            if not (base.is_Symbol and ex.is_Integer and ex.p > 0 and base.is_positive is True
                    and base.is_integer is True):
                return None
            out.append((base, int(ex.p)))
    return int(c.p), int(c.q), tuple(out)


def _prove_int_frac(rel: Rel, q: Any) -> bool:
    """``a rel b`` for ``a = q*b``, ``b > 0``: ``q rel 1``."""
    n, d = int(q.p), int(q.q)
    if rel == "<":
        return n < d
    if rel == "<=":
        return n <= d
    if rel == ">":
        return n > d
    return n >= d


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


_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


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


def _positive(e: sympy.Expr) -> bool:
    """A product (or sum) of positive numbers and positive symbols: positive by its shape alone."""
    if e.is_Symbol:
        return e.is_positive is True
    if e.is_Number:
        return bool(e > 0)
    if e.is_Mul:
        return all(_positive(f) for f in e.args)
    if e.is_Pow:
        return bool(e.exp.is_Integer) and _positive(e.base)
    if e.is_Add:
        return all(_positive(t) for t in e.args)
    if e.func is sympy.ceiling:     # the ceiling of a positive number is at least 1
        return _positive(e.args[0])
    return False


# Formulas this large come from long folds under collect_guards (each step nests the last);
# reasoning on them takes seconds and almost never settles anything.
_GIVE_UP_NODES = 160


@lru_cache(maxsize=16384)
def _prove_sym(rel: Rel, a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...]) -> Optional[bool]:
    if a == b:          # structurally identical: no reasoning needed
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
    return f(*new)
