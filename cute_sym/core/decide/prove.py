"""prove: proved, refuted or unknown, for one relation between two integers."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional, cast

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..errors import LayoutError
from ..integers import IntLike, symbol_facts
from .base import Fact, Rel, _RELS, _facts_in_force, _prove_int, _sym
from .divisibility import _divides
from .values import _divisor_of_monomial, divides_by_values, order_by_values
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


def _front(rel: Rel, a: Any, b: Any) -> Any:
    """A (scaled) symbol against a number, the usual question of a fold, with no facts in force:
    the symbol's own facts settle it in plain ints. ``_MISS``: left to the procedure."""
    if type(b) is int:
        if getattr(a, "is_Symbol", False):
            return _symbol_int(rel, a, b)
        if rel != "|" and rel in _FLIP and hasattr(a, "func"):
            return _monotone_vs_int(rel, a, b)
    elif type(a) is int:
        if getattr(b, "is_Symbol", False):
            return _int_symbol(rel, a, b)
        if rel != "|" and rel in _FLIP and hasattr(b, "func"):
            return _monotone_vs_int(_FLIP[rel], b, a)
    return _MISS


# ceil(x) rel c  <=>  x rel' c'  (and floor likewise), for an integer c
_CEIL = {"<=": ("<=", 0), "<": ("<=", -1), ">=": (">", -1), ">": (">", 0)}
_FLOOR = {"<=": ("<", 1), "<": ("<", 0), ">=": (">=", 0), ">": (">=", 1)}


def _monotone_vs_int(rel: Rel, a: Any, c: int) -> Any:
    """``a rel c`` (an order) for ``a`` = ``(p/q)*S``, ``ceiling`` or ``floor`` of one: the symbol
    against a number, final (its own facts are all there is). ``_MISS``: another shape."""
    f = a.func
    if f is sympy.ceiling or f is sympy.floor:
        if rel not in _CEIL:
            return _MISS        # == is two bounds: left to the procedure
        rel, shift = (_CEIL if f is sympy.ceiling else _FLOOR)[rel]
        c += shift
        a = a.args[0]
    if a.is_Symbol:
        return _symbol_vs_int(rel, a, c)
    if a.is_Mul and len(a.args) == 2:
        k, x = a.args        # (p/q) * symbol against c: p*symbol against c*q
        if k.is_Rational and k.p > 0 and x.is_Symbol:
            return _scaled_symbol_vs_int(rel, int(k.p), x, c * int(k.q))
    return _MISS


# An operation asks the same few questions again and again (each lhs mode, each retry of a
# fold): the answer to a (relation, operands, facts in force) question never changes.
_MEMO: dict[tuple[Any, ...], Optional[bool]] = {}
_MEMO_MAX = 16384
_MISS = object()


# the most values of a symbol counted one by one to settle a divisibility question
_ENUM_MAX = 256


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


def _prove(rel: Rel, a: IntLike, b: IntLike, facts: tuple[Fact, ...]) -> Optional[bool]:
    if rel not in _RELS:
        raise LayoutError(f"unknown relation {rel!r}")
    sa, sb = _sym(a), _sym(b)
    if sa.is_Integer and sb.is_Integer:
        return _prove_int(rel, int(sa), int(sb))
    if sa == sb:        # the same formula: no reasoning needed
        return rel in ("==", "<=", ">=", "|")
    if rel == "|":
        if not facts and sb.is_Integer and sb.p != 0:
            # a monomial above |b| > 0 does not divide it (the full procedure's last check, on the
            # same or weaker bounds: the symbols' own facts are all there is)
            mlo = _monomial_lo(sa)
            if mlo is not None and mlo[0] > abs(int(sb.p)) * mlo[1]:
                return False
        settled, small = divides_by_values(sa, sb)
        if settled and (small is not None or not facts):     # open: for the symbols' own facts only
            return small
        if sa.is_Integer and _divisor_of_monomial(int(sa), sb):
            return True     # holds whatever the facts in force
        if not sa.is_Number and _monomial_divides(sa, sb):
            return True
        if not facts and open_divides_int_symbol(sa, sb):
            return None     # holds at one allowed value, fails at another: open for any procedure
        if not facts and not sa.is_Number and _constant_ratio_not_int(sa, sb):
            return False    # b = q*a, q not an integer, a != 0 (the full procedure's reading of b/a)
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
        quick = _interval_order(rel, sa, sb)
        if quick is not None:
            return quick
        if sa.is_Integer or sb.is_Integer:
            settled, quick = order_by_values(rel, sa, sb)
            if settled and (quick is not None or not facts):
                return quick
        elif sa.is_Add or sb.is_Add:
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


def _interval_order(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> Optional[bool]:
    """``a rel b`` when the two sides' bounds (their symbols' own facts: sound under any facts
    in force) do not overlap, or pin both to one value. None: not settled this way."""
    la, ha = _bounds(a)
    lb, hb = _bounds(b)
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


# _verdict(rel, d, d) answers 0 rel d: a rel b on d = b - a for these, on a - b for > and >=
_AS_IS = ("<", "<=", "==", "!=")
_AS_IS_OF = {">": "<", ">=": "<="}


def _product(e: sympy.Expr) -> bool:
    """A product of factors (no sum at the top): a quotient of two of them cancels their common factors."""
    return bool(e.is_Mul or e.is_Pow or e.is_Symbol or e.func is sympy.ceiling or e.func is sympy.floor)


def _ratio_order(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> Optional[bool]:
    """``a rel b`` for positive ``a``, ``b`` read off the bounds of ``b/a``, in which their common
    factors cancel: ``c <= S*T*c/d`` for ``S*T >= 6 > d``. Sound with any facts in force (the
    symbols' own bounds hold under them). None: not settled this way."""
    la, lb = _bounds(a)[0], _bounds(b)[0]
    if la is None or lb is None or la <= 0 or lb <= 0:
        return None
    lo, hi = _bounds(b / a)
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
