"""How a symbolic relation is decided: facts become structure (divisibility facts become multiples, bounds become fresh symbols), formulas get intervals, and differences are ordered by the bounds of their terms. (One module: these three call one another.)"""
from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import IntLike, symbol_facts, symbolic_module
from .base import Bound, Fact, Rel, _facts_in_force, _sym
from .rounding import rounded
from .intervals import _bounds as _bounds, _symbol_bounds, _mul_iv as _mul_iv  # re-exported: the modules above read them here
from .expansion import expand, expand_over_calls
from .sums import _combined, _dominated_lo, _lower, _terms


# ---------------------------------------------------------------- orderings
def _verdict(rel: Rel, lo: Bound, hi: Bound) -> Optional[bool]:
    """The answer to ``d rel 0`` (``rel`` in ``== != < <=`` read as ``0 rel d``) from bounds of ``d``."""
    if rel == "<":      # d >= 1 ?
        if lo is not None and lo >= 1:
            return True
        if hi is not None and hi <= 0:
            return False
        return None
    if rel == "<=":     # d >= 0 ?
        if lo is not None and lo >= 0:
            return True
        if hi is not None and hi <= -1:
            return False
        return None
    # "==" / "!="
    r: Optional[bool] = None
    if (lo is not None and lo >= 1) or (hi is not None and hi <= -1):
        r = False
    elif lo is not None and hi is not None and lo == 0 and hi == 0:
        r = True
    if r is None or rel == "==":
        return r
    return not r


def _decide_diff(rel: Rel, d: sympy.Expr, ge0: tuple[sympy.Expr, ...]) -> Optional[bool]:
    """Decide ``0 rel d`` for ``rel`` in ``== != < <=``, cheapest reasoning first."""
    if d.is_Number:
        return _verdict(rel, d, d)
    lo, hi = _bounds(d)
    r = _verdict(rel, lo, hi)
    if r is not None:
        return r
    e = _expand(d)
    if e.is_Number:
        return _verdict(rel, e, e)
    if e != d:
        lo, hi = _tighten((lo, hi), _bounds(e))
        r = _verdict(rel, lo, hi)
        if r is not None:
            return r
    # every negative monomial paid for by a positive multiple of it (symbols >= 1)
    te = _terms(e) if e.is_Add or ge0 else ()
    if e.is_Add:
        lo, hi = _tighten((lo, hi), (_dominated_lo(te), _neg(_dominated_lo(_combined(te, (), -1)))))
        r = _verdict(rel, lo, hi)
        if r is not None:
            return r
    # facts g >= 0 in force: e = (e - g) + g >= lo(e - g)
    esyms = _scan(e)[0] if ge0 else set()
    for g in ge0:
        if not (_fact_syms(g) & esyms):
            continue    # lo(e - g) = lo(e) - hi(g) <= lo(e): nothing to gain
        # both sides expanded: the difference's terms, without building it
        tg = _terms(g)
        lo2 = _lower(_combined(te, tg, 1))
        hi2 = _neg(_lower(_combined(te, tg, -1)))
        lo, hi = _tighten((lo, hi), (lo2, hi2))
        r = _verdict(rel, lo, hi)
        if r is not None:
            return r
    if (rel == "==" or rel == "!=") and e.is_Add and _apart_by_divisor(e):
        return rel == "!="
    # last resort, small polynomials only: measured from the symbols' lower bounds
    # (s = lo + s', s' >= 0) every coefficient is >= 0, e.g. MN-M-N+1 = M'N' for M, N >= 1
    if e.is_Add and len(e.args) <= _SHIFT_MAX_TERMS and _nonlinear(e) and is_polynomial(e):
        targets: list[tuple[sympy.Expr, bool]] = []
        if rel == "<":
            targets = [(e - 1, True), (-e, False)]
        elif rel == "<=":
            targets = [(e, True), (-e - 1, False)]
        else:
            targets = [(e - 1, rel == "!="), (-e - 1, rel == "!=")]
        for t, answer in targets:
            if _shifted_nonneg(t):
                return answer
    return None


_SHIFT_MAX_TERMS = 6


def _apart_by_divisor(e: sympy.Expr) -> bool:
    """``e != 0`` at every value because ``e = c + g*Z`` with ``Z`` an integer and ``g`` (the gcd of
    the coefficients of the terms other than the constant ``c``) not dividing ``c``: ``4*K + 1``,
    ``2*M*N + 4*N + 3``. False: not shown this way.

    >>> from cute_sym.core.integers import Dyn
    >>> K, N = Dyn("K", sign="any"), Dyn("N", sign="any")
    >>> _apart_by_divisor(sympy.expand(4 * K + 6 * K * N + 1)), _apart_by_divisor(2 * K + 3 * N + 1)
    (True, False)
    """
    c, rest = e.as_coeff_Add()
    if not c.is_Integer or c.p == 0:
        return False
    g = 0
    for t in sympy.Add.make_args(rest):
        k, m = t.as_coeff_Mul()
        if not k.is_Integer or m.is_integer is not True:
            return False
        g = math.gcd(g, int(k.p))
        if g == 1:
            return False
    return int(c.p) % g != 0


def _shifted_nonneg(t: sympy.Expr) -> bool:
    """``t >= 0`` because, with every symbol written as its lower bound plus a
    non-negative symbol, the polynomial has no negative coefficient (a sufficient,
    structural test: one expand of a small polynomial, no factoring)."""
    sub: dict[Any, Any] = {}
    for s in t.free_symbols:
        lo = _bounds(s)[0]
        if lo is None or lo < 0:
            return False
        if lo != 0:
            sub[s] = s + lo
    p = expand(t.xreplace(sub)) if sub else t
    for mono, coeff in p.as_coefficients_dict().items():
        if not coeff.is_Number or coeff < 0:
            return False
        for base, ex in mono.as_powers_dict().items():
            if not (ex.is_Integer and ex > 0) and base is not sympy.S.One:
                return False
    return True


def _nonlinear(e: sympy.Expr) -> bool:
    """Some term of the sum has degree >= 2 (factoring a linear sum only pulls out its content)."""
    for t in e.args:
        m = t.as_coeff_Mul()[1]
        if m is not sympy.S.One and sum(int(k) if k.is_Integer else 2 for k in m.as_powers_dict().values()) >= 2:
            return True
    return False


def _neg(x: Bound) -> Bound:
    return None if x is None else -x


def _tighten(x: tuple[Bound, Bound], y: tuple[Bound, Bound]) -> tuple[Bound, Bound]:
    lo = x[0] if y[0] is None else (y[0] if x[0] is None else max(x[0], y[0]))
    hi = x[1] if y[1] is None else (y[1] if x[1] is None else min(x[1], y[1]))
    return lo, hi


# ---------------------------------------------------------------- facts as structure
def _linear1(e: sympy.Expr) -> Optional[tuple[Any, int, int]]:
    """``e == c*s + k`` for one symbol ``s`` and integers ``c != 0``, ``k``: ``(s, c, k)``."""
    k, rest = e.as_coeff_Add()
    if not k.is_Integer:
        return None
    c, s = rest.as_coeff_Mul()
    if not s.is_Symbol or not c.is_Integer or c == 0:
        return None
    return s, int(c), int(k)


_EXPAND_MAX_NODES = 120


def is_polynomial(e: sympy.Expr) -> bool:
    """No floor, ceiling, min, max, modulo, abs or sign inside (sympy's polynomial tools are slow on those)."""
    if not _NOT_POLY:
        from ..symbolic import IMod
        _NOT_POLY.append((sympy.floor, sympy.ceiling, sympy.Min, sympy.Max, sympy.Mod, IMod, sympy.Abs, sympy.sign))
    not_poly = _NOT_POLY[0]
    # the nodes, each shared one once (sympy's has() walks the tree with its own machinery)
    seen: set[Any] = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, not_poly):
            return False
        args = x.args
        if args and x not in seen:
            seen.add(x)
            stack.extend(args)
    return True


_NOT_POLY: list[tuple[Any, ...]] = []      # the functions that are not polynomial (sympy is imported lazily)


def is_big(*es: Any) -> bool:
    """The formulas have more distinct subexpressions than the procedure expands (guard mode builds such)."""
    return _scan(*(_sym(e) for e in es))[1] > _EXPAND_MAX_NODES


def _scan(*es: sympy.Expr) -> tuple[set[Any], int]:
    """Symbols and number of distinct subexpressions, visiting shared subexpressions once
    (``free_symbols`` walks the tree, which can be exponentially larger than the DAG)."""
    seen: set[Any] = set()
    syms: set[Any] = set()
    stack = list(es)
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if x.is_Symbol:
            syms.add(x)
        elif x.args:
            stack.extend(x.args)
    return syms, len(seen)


def _is_poly_node(x: Any) -> bool:
    return bool(x.is_Add or x.is_Mul or (x.is_Pow and x.exp.is_Integer))


@lru_cache(maxsize=8192)
def _expand(e: sympy.Expr) -> sympy.Expr:
    """Polynomial expansion of ``e`` over ``+``, ``*`` and integer powers (memoised: guard mode
    expands the same recorded facts and differences again and again).

    Calls (floor, ceiling, Mod, Min, ...) are kept as atoms: their arguments are
    expanded only when they are small polynomials themselves (sympy's deep
    ``expand`` re-evaluates every nested floor, which is very slow on the nested
    formulas guard mode builds). A huge ``e`` is returned as is.
    """
    if e.is_Atom:
        return e
    seen: set[Any] = set()
    stack = [e]
    calls = False
    while stack:
        x = stack.pop()
        if x in seen:
            continue
        seen.add(x)
        if x.args:
            if not _is_poly_node(x):
                calls = True
            stack.extend(x.args)
    if len(seen) > _EXPAND_MAX_NODES:
        return e
    if not calls:
        return expand(e)
    if not _is_poly_node(e):
        # a call at the top: what the atomizing below gives, without a stand-in symbol
        y = _call_expanded(e)
        return expand(y) if y.is_Atom or _is_poly_node(y) else y
    called: dict[Any, Any] = {}

    def call(x: Any) -> Any:
        y = called.get(x)
        if y is None:
            y = called[x] = _call_expanded(x)
        return y

    # the calls as atoms, in plain Python (the usual case); else each call a stand-in symbol
    r = expand_over_calls(e, call)
    if r is not None:
        return r
    atoms: dict[Any, Any] = {}
    memo: dict[Any, Any] = {}

    def atomize(x: Any) -> Any:
        if x.is_Atom:
            return x
        r = memo.get(x)
        if r is not None:
            return r
        if _is_poly_node(x):
            r = x.func(*[atomize(t) for t in x.args])
        else:
            y = call(x)
            if y.is_Atom or _is_poly_node(y):
                r = y
            else:
                r = atoms.get(y)
                if r is None:
                    r = atoms[y] = sympy.Dummy(integer=True)
        memo[x] = r
        return r

    p = expand(atomize(e))
    return p.xreplace({v: k for k, v in atoms.items()}) if atoms else p


def _call_expanded(x: Any) -> Any:
    """A call (floor, Min, ...) with its arguments expanded when they are small polynomials."""
    if all(t.is_Atom or (_is_poly_node(t) and _scan(t)[1] <= 16 and all(
            u.is_Atom or _is_poly_node(u) for u in sympy.preorder_traversal(t))) for t in x.args):
        args = [expand(t) for t in x.args]
        # Min/Max re-evaluated search their arguments for an order (factor_terms, gcd_terms):
        # the same value unevaluated is all the expansion needs
        if x.func is sympy.floor or x.func is sympy.ceiling:
            return rounded(x.func, args[0], False)
        return x.func(*args, evaluate=False) if x.func in (sympy.Min, sympy.Max) else x.func(*args)
    return x


def _context(syms: set[Any], facts: tuple[Fact, ...]) -> tuple[dict[Any, Any], tuple[sympy.Expr, ...]]:
    """Substitution and remaining ``>= 0`` facts for deciding about ``a`` and ``b``.

    Divisibility facts become structure (``M -> 16*M_16``); simple bounds
    (``s >= c``, ``s <= c``) become the bounds of a fresh symbol standing for
    ``s``, so interval reasoning sees them everywhere (inside floor, Mod, ...).
    """
    DynSymbol = symbolic_module().DynSymbol
    if not facts and not any(type(s) is DynSymbol for s in syms):
        return {}, ()
    return _structure(syms, facts)


def _structure(syms: set[Any], facts: tuple[Fact, ...]) -> tuple[dict[Any, Any], tuple[sympy.Expr, ...]]:
    """Rewrite symbols with divisibility facts as multiples of fresh symbols, and
    symbols with bound facts as fresh symbols carrying those bounds."""
    sub: dict[Any, Any] = {}
    divisors: dict[Any, int] = {}
    lows: dict[Any, int] = {}
    highs: dict[Any, int] = {}
    for s in syms:
        d = symbol_facts(s)[0]
        if d > 1:
            divisors[s] = d
    ge0: list[sympy.Expr] = []
    for f in facts:
        if f[0] == "dvd" and f[1].is_Integer and f[2].is_Symbol and f[2] in syms and int(f[1]) != 0:
            divisors[f[2]] = math.lcm(divisors.get(f[2], 1), abs(int(f[1])))
        elif (f[0] == "dvd" and f[1].is_Symbol and f[1] in syms and f[2].is_Integer and int(f[2]) != 0
              and f[1].is_positive):
            # a positive divisor of c is at most |c|
            v = abs(int(f[2]))
            highs[f[1]] = v if f[1] not in highs else min(highs[f[1]], v)
        elif f[0] == "ge0":
            lin = _linear1(f[1])
            if lin is not None and lin[0] in syms:
                s, c, k = lin     # c*s + k >= 0
                if c > 0:
                    v = -(k // c)                     # s >= ceil(-k/c)
                    lows[s] = v if s not in lows else max(lows[s], v)
                else:
                    v = k // (-c)                     # s <= floor(k/-c)
                    highs[s] = v if s not in highs else min(highs[s], v)
            elif _fact_syms(f[1]) & syms:     # a fact about other symbols only does not help
                ge0.append(f[1])
    for f in facts:
        if f[0] == "eq0":
            e = f[1]
            for s in sorted(_fact_syms(e) & syms, key=str):
                c = e.coeff(s)
                if c in (1, -1) and s not in e.subs(s, 0).free_symbols and s not in divisors:
                    sub[s] = expand(-e.subs(s, 0) / c)
                    break
    for s in set(divisors) | set(lows) | set(highs):
        if s in sub:    # replaced by an equality: keep its bounds as plain facts
            if s in lows:
                ge0.append(s - lows[s])
            if s in highs:
                ge0.append(highs[s] - s)
            continue
        d, lo, hi = symbol_facts(s)
        d = divisors.get(s, 1)
        if s in lows:
            lo = lows[s] if lo is None else max(lo, lows[s])
        if s in highs:
            hi = highs[s] if hi is None else min(hi, highs[s])
        if d > 1:
            lo = None if lo is None else -((-lo) // d)
            hi = None if hi is None else hi // d
        if lo is not None and hi is not None and lo > hi:
            # contradictory facts: leave the symbol alone rather than build an empty range
            continue
        if lo is not None and lo == hi:
            sub[s] = sympy.Integer(d * lo)      # pinned to one value
            continue
        if s.is_positive or (lo is not None and lo >= 1):
            sign = "positive"
        elif s.is_nonnegative or (lo is not None and lo >= 0):
            sign = "nonnegative"
        else:
            sign = "any"
        if d > 1:
            sub[s] = d * _fresh(f"{s.name}_{d}", lo, hi, sign)
        elif (lo, hi) != symbol_facts(s)[1:] or sign == "positive" and not s.is_positive:
            sub[s] = _fresh(s.name, lo, hi, sign)
    if sub and ge0:
        items = tuple(sorted(sub.items(), key=lambda kv: str(kv[0])))
        ge0 = [_rewrite_fact(g, items) for g in ge0]
    return sub, tuple(ge0)


@lru_cache(maxsize=4096)
def _fact_syms(e: sympy.Expr) -> frozenset[Any]:
    return frozenset(_scan(e)[0])


@lru_cache(maxsize=4096)
def _rewrite_fact(g: sympy.Expr, items: tuple[tuple[Any, Any], ...]) -> sympy.Expr:
    """A ``>= 0`` fact with the structural substitution applied (facts repeat across calls)."""
    return _expand(_subst(g, dict(items)))


def _subst(e: sympy.Expr, sub: dict[Any, Any], memo: Optional[dict[Any, Any]] = None,
           pin: bool = False) -> sympy.Expr:
    """``e.xreplace(sub)``, visiting shared subexpressions once, and rebuilding Min/Max
    without sympy's costly pairwise comparisons. ``pin``: a floor or ceiling that the
    symbols' own facts pin to one value (``ceiling(1/k)`` for ``k >= 1``) becomes that value
    (only with no facts in force: the answers stay those of the general reasoning)."""
    if e.is_Atom:
        return sub.get(e, e)
    if not sub and not pin:
        return e
    if memo is None:
        memo = {}
    r = memo.get(e)
    if r is not None:
        return r
    args = [_subst(t, sub, memo, pin) for t in e.args]
    if all(x is y for x, y in zip(args, e.args)):
        r = e
    elif e.func is sympy.Min or e.func is sympy.Max:
        r = _minmax(e.func, tuple(args))
    elif e.func is sympy.floor or e.func is sympy.ceiling:
        # pinned by the symbols' facts (ceiling(1/k) for k >= 1): its value
        r = rounded(e.func, args[0], pin)
    else:
        r = e.func(*args)
    memo[e] = r
    return r


_MINMAX_MAX_NODES = 48


@lru_cache(maxsize=4096)
def _minmax(f: Any, args: tuple[sympy.Expr, ...]) -> sympy.Expr:
    """``Min``/``Max`` of ``args`` without the arguments that are proved not to matter
    (pairs too large to compare quickly are kept: a Min with one argument too many is
    still exact)."""
    keep = list(dict.fromkeys(args))
    small = {x: _scan(x)[1] <= _MINMAX_MAX_NODES for x in keep}
    i = 0
    while i < len(keep) and len(keep) > 1:
        x = keep[i]
        # x does not matter when some other argument y is proved y <= x (Min) / y >= x (Max)
        if small[x] and any(j != i and small[y] and _decide_diff(
                "<=", (x - y) if f is sympy.Min else (y - x), ()) is True for j, y in enumerate(keep)):
            del keep[i]
        else:
            i += 1
    return keep[0] if len(keep) == 1 else f(*keep, evaluate=False)


@lru_cache(maxsize=4096)
def _fresh(name: str, lo: Optional[int], hi: Optional[int], sign: str) -> Any:
    """The fresh symbol for these facts: one object per facts, so sympy's own cache and the
    assumptions it deduced for the symbol serve every later question about it."""
    from ..symbolic import _Fresh
    return _Fresh(name, 1, lo, hi, **_sign_assumptions(sign))


def _sign_assumptions(sign: str) -> dict[str, bool]:
    if sign == "positive":
        return {"integer": True, "positive": True}
    if sign == "nonnegative":
        return {"integer": True, "nonnegative": True}
    return {"integer": True}


# ---------------------------------------------------------------- intervals
def bounds(e: IntLike) -> tuple[Bound, Bound]:
    """Inclusive lower and upper bound of an integer expression (``None``: unbounded),
    from the symbols' facts and the bound facts in force.

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import bounds
    >>> M = Dyn("M")
    >>> bounds(3 * M + 2), bounds(sympy.Mod(M, 8))
    ((5, None), (0, 7))
    """
    e = _sym(e)
    facts = _facts_in_force()
    if not facts and e.is_Symbol:
        return _symbol_bounds(e)     # (ints) the usual question, without the cache's hashing
    if facts:
        sub, _ = _structure(_scan(e)[0], facts)
        if sub:
            e = _subst(e, sub)
    lo, hi = _bounds(e)
    return _public(lo), _public(hi)


def _public(x: Bound) -> Any:
    """A bound as users see it: an int, or a sympy Rational (the procedure keeps Fractions)."""
    return x if x is None or type(x) is int else sympy.Rational(x.numerator, x.denominator)
