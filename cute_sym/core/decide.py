"""The one decision procedure: prove or refute facts about integer expressions.

Every comparison of possibly-symbolic integers in cute_sym goes through this
module. :func:`prove` answers ``True`` (proved), ``False`` (refuted) or
``None`` (unknown) for

* ``"=="``, ``"!="``, ``"<"``, ``"<="``, ``">"``, ``">="``
* ``"|"``: ``a | b``, *a divides b* (``b % a == 0``)

from what is known: every symbol is an integer; the sign a symbol was made
with (:func:`~cute_sym.core.integers.Dyn`); the divisibility and bounds it carries;
and the facts stated with :func:`assume` or recorded by :func:`collect_guards`.
Static operands are decided by plain ``int`` arithmetic, without sympy.

How it reasons (sound, not complete):

* divisibility facts are kept as structure: a symbol ``M`` known to be a
  multiple of 16 is rewritten ``16*M'`` before anything else, so sympy's own
  algebra sees it;
* equalities that hold become ``0`` under ``expand``; differences are bounded
  by interval arithmetic over the expression tree (sums, products, powers,
  floor/ceiling, Mod, Min/Max, Abs), on the expanded and on the factored form;
* ``a | b`` holds when ``b/a`` is an integer polynomial; for a constant ``a`` it
  is decided from the coefficients of ``b`` when they settle it.

:func:`require` is what operations call: it returns the decided truth value,
raises :class:`~cute_sym.UndecidableError` naming the missing fact, or
(inside :func:`collect_guards`) assumes the branch the caller names and
records the fact.

>>> import sympy
>>> M, N = Dyn("M"), Dyn("N")
>>> prove("|", 4, 16 * N), prove("<", M, M + 1), prove("==", M, N)
(True, True, None)
>>> prove("|", 4, 4 * M + 2)
False
>>> with assume(sympy.Eq(M % 4, 0)):
...     prove("|", 4, M)
True
"""
from __future__ import annotations

import contextlib
import contextvars
import math
from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterator, Optional, Sequence, Union

import sympy

from .errors import LayoutError, UndecidableError
from .formula import formula_str
from .integers import DynSymbol, Dyn, IMod, IntLike, symbol_facts

__all__ = [
    "prove",
    "require",
    "fact_text",
    "assume",
    "collect_guards",
    "require_any",
    "Guards",
    "bounds",
]

Rel = str
_RELS = ("==", "!=", "<", "<=", ">", ">=", "|")

# A fact is a normalised tuple: ("ge0", e) e >= 0; ("eq0", e) e == 0; ("dvd", d, e) d | e.
Fact = tuple[Any, ...]
Bound = Optional[Union[int, sympy.Rational]]

_FACTS: contextvars.ContextVar[tuple[Fact, ...]] = contextvars.ContextVar("cute_sym_facts", default=())
_GUARDS: contextvars.ContextVar[Optional["Guards"]] = contextvars.ContextVar("cute_sym_guards", default=None)


# ---------------------------------------------------------------- static path
def _prove_int(rel: Rel, a: int, b: int) -> bool:
    if rel == "==":
        return a == b
    if rel == "!=":
        return a != b
    if rel == "<":
        return a < b
    if rel == "<=":
        return a <= b
    if rel == ">":
        return a > b
    if rel == ">=":
        return a >= b
    if rel == "|":
        return b == 0 if a == 0 else b % a == 0
    raise LayoutError(f"unknown relation {rel!r}")


_ZERO = sympy.Integer(0)
_ONE = sympy.Integer(1)


def _sym(x: Any) -> sympy.Expr:
    """``x`` as a sympy expression, without the cost of ``sympify`` for the usual cases."""
    if isinstance(x, sympy.Basic):
        return x
    if type(x) is int:
        return sympy.Integer(x)
    return sympy.sympify(x)


def _facts_in_force() -> tuple[Fact, ...]:
    facts = _FACTS.get()
    guards = _GUARDS.get()
    if guards is not None and guards._facts:
        facts = facts + guards._facts
    return facts


def prove(rel: Rel, a: IntLike, b: IntLike) -> Optional[bool]:
    """Decide ``a rel b``: ``True`` proved, ``False`` refuted, ``None`` unknown.

    @pre ``rel`` is one of ``== != < <= > >= |``; ``a``, ``b`` integers.
    @post a ``True``/``False`` answer holds for every value of the symbols that
          satisfies their facts (and the facts in force).

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
    return _prove_sym(rel, sa, sb, _facts_in_force())


@lru_cache(maxsize=16384)
def _prove_sym(rel: Rel, a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...]) -> Optional[bool]:
    if a == b:          # structurally identical: no reasoning needed
        return rel in ("==", "<=", ">=", "|")
    syms, nodes = _scan(a, b)
    sub, ge0 = _context(syms, facts)
    if sub:
        memo: dict[Any, Any] = {}
        a, b = _subst(a, sub, memo), _subst(b, sub, memo)
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
    if e.is_Add:
        lo, hi = _tighten((lo, hi), (_dominated_lo(e), _neg(_dominated_lo(-e))))
        r = _verdict(rel, lo, hi)
        if r is not None:
            return r
    # facts g >= 0 in force: e = (e - g) + g >= lo(e - g)
    esyms = _scan(e)[0] if ge0 else set()
    for g in ge0:
        if not (_fact_syms(g) & esyms):
            continue    # lo(e - g) = lo(e) - hi(g) <= lo(e): nothing to gain
        lo2 = _lower(e - g)     # both sides expanded: so is the difference
        hi2 = _neg(_lower(-e - g))
        lo, hi = _tighten((lo, hi), (lo2, hi2))
        r = _verdict(rel, lo, hi)
        if r is not None:
            return r
    # last resort, small polynomials only: the factored form (e.g. (M-1)*(N-1))
    if e.is_Add and len(e.args) <= _FACTOR_MAX_TERMS and _nonlinear(e) and is_polynomial(e):
        targets: list[tuple[sympy.Expr, bool]] = []
        if rel == "<":
            targets = [(e - 1, True), (-e, False)]
        elif rel == "<=":
            targets = [(e, True), (-e - 1, False)]
        else:
            targets = [(e - 1, rel == "!="), (-e - 1, rel == "!=")]
        for t, answer in targets:
            f = sympy.factor(t)
            if f != t and not f.is_Add:
                flo = _bounds(f)[0]
                if flo is not None and flo >= 0:
                    return answer
    return None


_FACTOR_MAX_TERMS = 6


def _nonlinear(e: sympy.Expr) -> bool:
    """Some term of the sum has degree >= 2 (factoring a linear sum only pulls out its content)."""
    for t in e.args:
        m = t.as_coeff_Mul()[1]
        if m is not _ONE and sum(int(k) if k.is_Integer else 2 for k in m.as_powers_dict().values()) >= 2:
            return True
    return False


def _neg(x: Bound) -> Bound:
    return None if x is None else -x


def _tighten(x: tuple[Bound, Bound], y: tuple[Bound, Bound]) -> tuple[Bound, Bound]:
    lo = x[0] if y[0] is None else (y[0] if x[0] is None else max(x[0], y[0]))
    hi = x[1] if y[1] is None else (y[1] if x[1] is None else min(x[1], y[1]))
    return lo, hi


def _lower(e: sympy.Expr) -> Bound:
    lo = _bounds(e)[0]
    if e.is_Add:
        d = _dominated_lo(e)
        if d is not None and (lo is None or d > lo):
            lo = d
    return lo


def _monomial(m: sympy.Expr) -> Optional[dict[Any, int]]:
    """``m`` as ``{generator: exponent}`` when every generator is at least 1, else None."""
    out: dict[Any, int] = {}
    for base, ex in m.as_powers_dict().items():
        if not ex.is_Integer or ex <= 0:
            return None
        lo = _bounds(base)[0]
        if lo is None or lo < 1:
            return None
        out[base] = int(ex)
    return out


def _dominated_lo(e: sympy.Expr) -> Bound:
    """Lower bound of a sum, pairing each negative term ``-c*m`` with positive terms
    ``c'*m*r`` (``r`` a product of generators >= 1), which pay for it.

    Sound because ``p*m*r - p*m = p*m*(r-1) >= 0`` when ``m >= 1`` and ``r >= 1``.
    """
    pos: list[list[Any]] = []   # [coefficient left, powers, monomial]
    neg: list[list[Any]] = []
    rest: list[sympy.Expr] = []
    const: Any = 0
    for t in e.args:
        c, m = t.as_coeff_Mul()
        if m is _ONE:
            const += c
            continue
        if not c.is_Rational:
            rest.append(t)
            continue
        pw = _monomial(m)
        if pw is None:
            rest.append(t)
            continue
        (pos if c > 0 else neg).append([c if c > 0 else -c, pw, m])
    if not neg and const >= 0:
        return None     # nothing to pay for: plain interval bounds are as good
    if const < 0:
        neg.append([-const, {}, _ONE])
        const = 0
    neg.sort(key=lambda x: -sum(x[1].values()))
    total: Any = const
    for item in neg:
        need, pw, m = item
        for p in pos:
            if p[0] <= 0:
                continue
            if all(p[1].get(g, 0) >= k for g, k in pw.items()):
                take = need if need <= p[0] else p[0]
                p[0] -= take
                need -= take
                if need == 0:
                    break
        if need > 0:
            rest.append(-need * m)
    for p in pos:
        if p[0] > 0:
            rest.append(p[0] * p[2])
    for t in rest:
        lo = _bounds(t)[0]
        if lo is None:
            return None
        total += lo
    return total


# ---------------------------------------------------------------- divisibility
def _is_int_poly_term(q: sympy.Expr) -> bool:
    """``q`` is an integer times a product of integer-valued generators (non-negative powers)."""
    c, m = q.as_coeff_Mul()
    if not c.is_Integer:
        return False
    if m is _ONE:
        return True
    for base, ex in m.as_powers_dict().items():
        if not ex.is_Integer or ex < 0 or base.is_integer is not True:
            return False
    return True


def _int_gcd_divides(n: int, b: sympy.Expr) -> Optional[bool]:
    """``n | b`` for an integer ``n > 0`` from the coefficients of the expanded ``b``."""
    const, terms = b.as_coeff_Add()
    if not const.is_Integer:
        return None
    g = 0
    for t in sympy.Add.make_args(terms):
        if t is _ZERO:
            continue
        c, m = t.as_coeff_Mul()
        if not c.is_Integer or m.is_integer is not True:
            return None
        g = math.gcd(g, int(c))
    if g % n == 0:
        return int(const) % n == 0
    return None


def _nonzero(e: sympy.Expr) -> bool:
    lo, hi = _bounds(e)
    return (lo is not None and lo > 0) or (hi is not None and hi < 0)


def _divides(a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...], sub: dict[Any, Any]) -> Optional[bool]:
    if b.is_zero:
        return True
    if a.is_zero:
        return _decide_diff("==", b, ())
    if a.is_Number and b.is_Number:
        if a.is_Integer and b.is_Integer:
            return _prove_int("|", int(a), int(b))
        return None
    if a == 1 or a == -1 or a == b or a == -b:
        return True
    for f in facts:
        if f[0] == "dvd" and _subst(f[2], sub) == b and (
                f[1] == a or _subst(f[1], sub) == a or (a.is_Integer and f[1].is_Integer and int(f[1]) % int(a) == 0)):
            return True
    eb = _expand(b)
    if eb.is_zero:
        return True
    ca, ma = a.as_coeff_Mul()
    if ma is _ONE:      # a is a number
        if not a.is_Integer:
            return None
        r = _int_gcd_divides(abs(int(a)), eb)
        return r if r is not None else _smaller_refutes(a, eb)
    # a monomial (c * x**k * ...): every term of b divided by it is an integer monomial
    q = eb / a
    if q.is_Number:
        if q.is_Integer:
            return True
        if _nonzero(a):
            return False     # b = q*a with q not an integer and a != 0
    if not ma.is_Add and _is_int_poly_term(ma):
        if all(_is_int_poly_term(t / a) for t in sympy.Add.make_args(eb)):
            return True
    # a = c*m with m an integer: c must divide b
    if ca.is_Integer and abs(int(ca)) > 1 and not ma.is_Add and _is_int_poly_term(ma) \
            and _int_gcd_divides(abs(int(ca)), eb) is False:
        return False
    # a polynomial a: exact polynomial division (small expressions only)
    ea = _expand(a)
    if ea.is_Add and len(ea.args) + len(sympy.Add.make_args(eb)) <= 8:
        try:
            qp, rp = sympy.div(eb, ea)
        except (sympy.PolynomialError, sympy.polys.polyerrors.PolificationFailed, NotImplementedError):  # pragma: no cover
            qp, rp = None, None
        if rp is not None and rp == 0 and all(_is_int_poly_term(t) for t in sympy.Add.make_args(sympy.expand(qp))):
            return True
    return _smaller_refutes(a, eb)


def _smaller_refutes(a: sympy.Expr, eb: sympy.Expr) -> Optional[bool]:
    """``a | b`` is false when ``0 < |b| < |a|``."""
    if _nonzero(eb):
        lo_a = _abs_lo(_bounds(a))
        hi_b = _abs_hi(_bounds(eb))
        if lo_a is not None and hi_b is not None and hi_b < lo_a:
            return False
    return None


def _abs_lo(iv: tuple[Bound, Bound]) -> Bound:
    lo, hi = iv
    if lo is not None and lo >= 0:
        return lo
    if hi is not None and hi <= 0:
        return -hi
    return 0


def _abs_hi(iv: tuple[Bound, Bound]) -> Bound:
    lo, hi = iv
    if lo is None or hi is None:
        return None
    return max(-lo, hi)


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
    return not e.has(sympy.floor, sympy.ceiling, sympy.Min, sympy.Max, sympy.Mod, IMod, sympy.Abs, sympy.sign)


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


def _expand(e: sympy.Expr) -> sympy.Expr:
    """Polynomial expansion of ``e`` over ``+``, ``*`` and integer powers.

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
        return sympy.expand(e)
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
            y = x
            if all(t.is_Atom or (_is_poly_node(t) and _scan(t)[1] <= 16 and all(
                    u.is_Atom or _is_poly_node(u) for u in sympy.preorder_traversal(t))) for t in x.args):
                y = x.func(*[sympy.expand(t) for t in x.args])
            if y.is_Atom or _is_poly_node(y):
                r = y
            else:
                r = atoms.get(y)
                if r is None:
                    r = atoms[y] = sympy.Dummy(integer=True)
        memo[x] = r
        return r

    p = sympy.expand(atomize(e))
    return p.xreplace({v: k for k, v in atoms.items()}) if atoms else p


def _context(syms: set[Any], facts: tuple[Fact, ...]) -> tuple[dict[Any, Any], tuple[sympy.Expr, ...]]:
    """Substitution and remaining ``>= 0`` facts for deciding about ``a`` and ``b``.

    Divisibility facts become structure (``M -> 16*M_16``); simple bounds
    (``s >= c``, ``s <= c``) become the bounds of a fresh symbol standing for
    ``s``, so interval reasoning sees them everywhere (inside floor, Mod, ...).
    """
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
                    sub[s] = sympy.expand(-e.subs(s, 0) / c)
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
            sub[s] = d * _Fresh(f"{s.name}_{d}", 1, lo, hi, **_sign_assumptions(sign))
        elif (lo, hi) != symbol_facts(s)[1:] or sign == "positive" and not s.is_positive:
            sub[s] = _Fresh(s.name, 1, lo, hi, **_sign_assumptions(sign))
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


def _subst(e: sympy.Expr, sub: dict[Any, Any], memo: Optional[dict[Any, Any]] = None) -> sympy.Expr:
    """``e.xreplace(sub)``, visiting shared subexpressions once, and rebuilding Min/Max
    without sympy's costly pairwise comparisons."""
    if e.is_Atom:
        return sub.get(e, e)
    if memo is None:
        memo = {}
    r = memo.get(e)
    if r is not None:
        return r
    args = [_subst(t, sub, memo) for t in e.args]
    if all(x is y for x, y in zip(args, e.args)):
        r = e
    elif e.func is sympy.Min or e.func is sympy.Max:
        r = _minmax(e.func, args)
    else:
        r = e.func(*args)
    memo[e] = r
    return r


def _minmax(f: Any, args: list[sympy.Expr]) -> sympy.Expr:
    """``Min``/``Max`` of ``args`` without the arguments that are proved not to matter."""
    keep = list(dict.fromkeys(args))
    i = 0
    while i < len(keep) and len(keep) > 1:
        x = keep[i]
        # x does not matter when some other argument y is proved y <= x (Min) / y >= x (Max)
        if any(j != i and _decide_diff("<=", (x - y) if f is sympy.Min else (y - x), ()) is True
               for j, y in enumerate(keep)):
            del keep[i]
        else:
            i += 1
    return keep[0] if len(keep) == 1 else f(*keep, evaluate=False)


class _Fresh(DynSymbol):
    """A symbol standing for another one with the facts in force as its bounds (internal).

    Its hashable content has no ``None`` (sympy orders symbols of one name by it,
    and ``None`` does not compare).
    """

    __slots__ = ()

    def _hashable_content(self) -> tuple[Any, ...]:
        base = sympy.Symbol._hashable_content(self)
        return base + (self.divisor, self.lo is None, self.lo or 0, self.hi is None, self.hi or 0)  # type: ignore[no-any-return]


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

    >>> M = Dyn("M")
    >>> bounds(3 * M + 2), bounds(sympy.Mod(M, 8))
    ((5, None), (0, 7))
    """
    e = _sym(e)
    facts = _facts_in_force()
    if facts:
        sub, _ = _structure(_scan(e)[0], facts)
        if sub:
            e = _subst(e, sub)
    return _bounds(e)


@lru_cache(maxsize=16384)
def _bounds(e: sympy.Expr) -> tuple[Bound, Bound]:
    if e.is_Number:
        v = e if not e.is_Integer else int(e)
        return v, v
    if e.is_Symbol:
        facts = symbol_facts(e)
        return facts[1], facts[2]
    if e.is_Add:
        lo: Bound = 0
        hi: Bound = 0
        for t in e.args:
            tl, th = _bounds(t)
            lo = None if lo is None or tl is None else lo + tl
            hi = None if hi is None or th is None else hi + th
        return lo, hi
    if e.is_Mul:
        acc: tuple[Bound, Bound] = (1, 1)
        for t in e.args:
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
                return (0 if bh is None else sympy.Rational(1, bh ** k)), sympy.Rational(1, bl ** k)
            if bh is not None and bh < 0 and k % 2 == 1:
                return -sympy.Rational(1, (-bh) ** k), (0 if bl is None else -sympy.Rational(1, (-bl) ** k))
        return None, None
    f = e.func
    if f is sympy.floor or f is sympy.ceiling:
        bl, bh = _bounds(e.args[0])
        rnd = math.floor if f is sympy.floor else math.ceil
        lo2 = None if bl is None else int(rnd(bl))
        if f is sympy.ceiling and e.args[0].is_positive and (lo2 is None or lo2 < 1):
            lo2 = 1     # the ceiling of a positive number is at least 1
        return lo2, (None if bh is None else int(rnd(bh)))
    if f is sympy.Mod or f is IMod:
        x, m = e.args
        ml, mh = _bounds(m)
        xl, xh = _bounds(x)
        if ml is not None and ml > 0:
            if xl is not None and xl >= 0 and mh is not None and xh is not None and xh < ml:
                return xl, xh
            return 0, (None if mh is None else mh - 1)
        return None, None
    if f is sympy.Min or f is sympy.Max:
        bs = [_bounds(t) for t in e.args]
        if f is sympy.Min:
            lo_ = None if any(b[0] is None for b in bs) else min(b[0] for b in bs)  # type: ignore[type-var]
            his = [b[1] for b in bs if b[1] is not None]
            return lo_, (min(his) if his else None)
        los = [b[0] for b in bs if b[0] is not None]
        hi_ = None if any(b[1] is None for b in bs) else max(b[1] for b in bs)  # type: ignore[type-var]
        return (max(los) if los else None), hi_
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


def _mul_iv(x: tuple[Bound, Bound], y: tuple[Bound, Bound]) -> tuple[Bound, Bound]:
    (al, ah), (bl, bh) = x, y
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


# ---------------------------------------------------------------- facts as text
def fact_text(rel: Rel, a: IntLike, b: IntLike) -> str:
    """The fact ``a rel b`` as a person writes it.

    >>> fact_text("|", 4, Dyn("M"))
    'M % 4 == 0'
    """
    if rel == "|":
        return f"{_text(b)} % {_text(a)} == 0"
    if isinstance(a, (int, sympy.Integer)) and not isinstance(b, (int, sympy.Integer)):
        # the number on the right, as a person writes it
        rel, a, b = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(rel, rel), b, a
    return f"{_text(a)} {rel} {_text(b)}"


def _text(x: Any) -> str:
    if isinstance(x, sympy.Basic) and not isinstance(x, (sympy.Integer, sympy.Symbol)):
        return formula_str(x)
    return str(x)


def _to_facts(rel: Rel, a: IntLike, b: IntLike) -> list[Fact]:
    sa, sb = sympy.sympify(a), sympy.sympify(b)
    if rel == "|":
        return [("dvd", sa, sb)]
    if rel == "==":
        return [("eq0", _expand(sa - sb))]
    if rel == "<=":
        return [("ge0", _expand(sb - sa))]
    if rel == "<":
        return [("ge0", _expand(sb - sa - 1))]
    if rel == ">=":
        return [("ge0", _expand(sa - sb))]
    if rel == ">":
        return [("ge0", _expand(sa - sb - 1))]
    return []   # "!=" adds nothing usable


def _negate(rel: Rel) -> Optional[Rel]:
    return {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}.get(rel)


# ---------------------------------------------------------------- guards
def _canon_sign(e: sympy.Expr) -> sympy.Expr:
    return -e if e.could_extract_minus_sign() else e


def _fact_key(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> tuple[Any, ...]:
    """A key equal for facts that say the same thing (``M < N`` and ``N > M``, ...)."""
    if rel == "|":
        return ("dvd", _canon_sign(_expand(a)), _expand(b))
    if rel == "!|":
        return ("ndvd", _canon_sign(_expand(a)), _expand(b))
    if rel == "==":
        return ("eq0", _canon_sign(_expand(a - b)))
    if rel == "!=":
        return ("ne0", _canon_sign(_expand(a - b)))
    return tuple(_to_facts(rel, a, b))


def _relation(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> sympy.Basic:
    """The fact as a sympy relation, as a person writes it."""
    ev = _scan(a, b)[1] <= _EVAL_MAX_NODES     # sympy's own simplification is slow on big formulas
    if rel in ("|", "!|"):
        m = sympy.Mod(b, a, evaluate=ev)
        return sympy.Eq(m, 0, evaluate=ev) if rel == "|" else sympy.Ne(m, 0, evaluate=ev)
    # a relation between two expressions: keep it; against a number: the number on the right
    if a.is_Number and not b.is_Number:
        rel, a, b = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[rel], b, a
    ops = {"==": sympy.Eq, "!=": sympy.Ne, "<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}
    return ops[rel](a, b, evaluate=ev)


_EVAL_MAX_NODES = 30


class _NotANumber(Exception):
    pass


def _num(e: Any, values: dict[str, int]) -> Fraction:
    """Exact value of an expression for the symbol values (by name); ``_NotANumber`` when undefined."""
    if e.is_Integer:
        return Fraction(int(e))
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if e.is_Symbol:
        val = values.get(e.name)
        if val is None:
            raise _NotANumber(f"no value for {e.name}")
        return Fraction(val)
    if e.is_Add:
        s = Fraction(0)
        for t in e.args:
            s += _num(t, values)
        return s
    if e.is_Mul:
        p = Fraction(1)
        for t in e.args:
            p *= _num(t, values)
        return p
    if e.is_Pow:
        base, ex = e.args
        if ex.is_Integer:
            bv = _num(base, values)
            k = int(ex)
            if k < 0 and bv == 0:
                raise _NotANumber("division by zero")
            return bv ** k
        raise _NotANumber(f"cannot evaluate {e}")
    f = e.func
    if f is sympy.floor or f is sympy.ceiling:
        v = _num(e.args[0], values)
        return Fraction(math.floor(v) if f is sympy.floor else math.ceil(v))
    if f is sympy.Mod or f is IMod:
        x, m = _num(e.args[0], values), _num(e.args[1], values)
        if m == 0:
            raise _NotANumber("modulo by zero")
        return x % m
    if f is sympy.Min:
        return min(_num(t, values) for t in e.args)
    if f is sympy.Max:
        return max(_num(t, values) for t in e.args)
    if f is sympy.Abs:
        return abs(_num(e.args[0], values))
    if f is sympy.sign:
        v = _num(e.args[0], values)
        return Fraction((v > 0) - (v < 0))
    # anything else: let sympy evaluate it
    r = e.xreplace({s: sympy.Integer(values[s.name]) for s in e.free_symbols if s.name in values})
    if not r.is_Rational:
        raise _NotANumber(f"cannot evaluate {e}")
    return Fraction(int(r.p), int(r.q))


def _holds(rel: Rel, a: sympy.Expr, b: sympy.Expr, values: dict[str, int]) -> bool:
    try:
        x, y = _num(a, values), _num(b, values)
    except (_NotANumber, ZeroDivisionError):
        return False
    if rel in ("|", "!|"):
        if x.denominator != 1 or y.denominator != 1:
            return False        # divisibility is a fact about integers
        dv = _prove_int("|", int(x), int(y))
        return dv if rel == "|" else not dv
    return _prove_int(rel, x, y)  # type: ignore[arg-type]


Alt = tuple[Rel, sympy.Expr, sympy.Expr]


class Guards:
    """The facts assumed while :func:`collect_guards` was active.

    A condition is one relation, or an ``Or`` of relations where an operation
    needs one of several facts (CuTe's "s | r or r < s").

    >>> M = Dyn("M")
    >>> with collect_guards() as g:
    ...     _ = require("|", 4, M), require(">=", M, 8), require(">", M, 4)
    >>> g.conditions
    [Eq(Mod(M, 4), 0), M >= 8]
    >>> g.holds({"M": 12}), g.holds({"M": 4}), g.holds({"M": 10})
    (True, False, False)
    """

    __slots__ = ("_entries", "_keys", "_facts", "_simplified", "_kept")

    def __init__(self) -> None:
        # each entry is a disjunction of alternatives (most often just one)
        self._entries: list[tuple[Alt, ...]] = []
        self._keys: set[tuple[Any, ...]] = set()
        self._facts: tuple[Fact, ...] = ()
        self._simplified: Optional[list[sympy.Basic]] = None
        self._kept: list[int] = []      # the entries behind the conditions

    @property
    def conditions(self) -> list[sympy.Basic]:
        """The recorded facts as sympy relations: without duplicates, without the
        ones that are trivially true or follow from the others."""
        if self._simplified is None:
            self._simplified = self._simplify()
        return list(self._simplified)

    def _simplify(self) -> list[sympy.Basic]:
        kept = list(range(len(self._entries)))
        if len(kept) <= _PRUNE_MAX:
            for i in list(kept):
                facts: tuple[Fact, ...] = ()
                for j in kept:
                    if j != i and len(self._entries[j]) == 1:
                        rel, a, b = self._entries[j][0]
                        facts += tuple(_to_facts(rel, a, b)) if rel not in ("!|", "!=") else ()
                if any(_implied(rel, a, b, facts) for rel, a, b in self._entries[i]):
                    kept.remove(i)
        out: list[sympy.Basic] = []
        self._kept = []
        for i in kept:
            alts = [_relation(*alt) for alt in self._entries[i]]
            if any(c is sympy.true for c in alts):
                continue
            c = alts[0] if len(alts) == 1 else sympy.Or(*alts, evaluate=False)
            if c in out:
                continue
            out.append(c)
            self._kept.append(i)
        return out

    def _record(self, alts: Sequence[tuple[Rel, IntLike, IntLike]]) -> None:
        entry = tuple((rel, _sym(a), _sym(b)) for rel, a, b in alts)
        key = tuple(sorted((_fact_key(*alt) for alt in entry), key=repr))   # order does not matter
        if key in self._keys:
            return
        self._keys.add(key)
        self._entries.append(entry)
        if len(entry) == 1 and entry[0][0] not in ("!|", "!="):
            self._facts = self._facts + tuple(_to_facts(*entry[0]))
        self._simplified = None

    def holds(self, values: dict[str, int]) -> bool:
        """True when every recorded condition holds for ``values`` (by symbol name).

        Evaluated exactly with Python integers and fractions, without sympy.
        """
        return all(any(_holds(rel, a, b, values) for rel, a, b in entry) for entry in self._entries)

    def describe(self) -> list[str]:
        """The conditions as a person writes them, one line each (as in error messages).

        >>> M = Dyn("M")
        >>> with collect_guards() as g:
        ...     _ = require_any([("|", 4, M), ("|", M, 4)]), require("<", M, 100, assume=False)
        >>> g.describe()
        ['M % 4 == 0 or 4 % M == 0', 'M >= 100']
        """
        self.conditions     # computes which entries are kept
        out: list[str] = []
        for i in self._kept:
            text = " or ".join(fact_text(*alt) if alt[0] != "!|" else f"{_text(alt[2])} % {_text(alt[1])} != 0"
                               for alt in self._entries[i])
            if text not in out:
                out.append(text)
        return out

    def __str__(self) -> str:
        return "; ".join(self.describe()) or "(no conditions)"

    def __repr__(self) -> str:
        return f"Guards({self.conditions!r})"


_PRUNE_MAX = 12


def _implied(rel: Rel, a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...]) -> bool:
    """``a rel b`` follows from ``facts`` alone (with the symbols' own facts)."""
    if rel == "!|":
        return _prove_sym("|", a, b, facts) is False
    return _prove_sym(rel, a, b, facts) is True


@contextlib.contextmanager
def collect_guards() -> Iterator[Guards]:
    """Run a computation that assumes (and records) every fact it cannot decide.

    @post a result computed inside is right for every value of the symbols that
          satisfies ``g.conditions``.
    @post inside, no :class:`UndecidableError` is raised for an undecided fact;
          the fact (or its negation, for ``assume=False``) is recorded once instead.

    >>> M = Dyn("M")
    >>> with collect_guards() as g:
    ...     require("|", 4, M), require("<", M, 100, assume=False)
    (True, False)
    >>> g.conditions
    [Eq(Mod(M, 4), 0), M >= 100]
    >>> g.holds({"M": 128}), g.holds({"M": 8})
    (True, False)
    """
    g = Guards()
    token = _GUARDS.set(g)
    try:
        yield g
    finally:
        _GUARDS.reset(token)


def require(rel: Rel, a: IntLike, b: IntLike, *, assume: bool = True, why: str = "") -> bool:
    """Decide ``a rel b`` for an operation that needs the answer.

    Undecided: inside :func:`collect_guards`, record ``a rel b`` (when
    ``assume`` is true) or its negation, and return ``assume``; otherwise raise
    :class:`UndecidableError` naming the fact.

    >>> require("<", 2, 3)
    True
    >>> try:
    ...     require("|", 4, Dyn("M"), why="composition")
    ... except UndecidableError as e:
    ...     print(e)
    composition needs M % 4 == 0 (cannot be decided)
    """
    if type(a) is int and type(b) is int:
        return _prove_int(rel, a, b)
    r = prove(rel, a, b)
    if r is not None:
        return r
    g = _GUARDS.get()
    if g is None:
        fact = fact_text(rel, a, b)
        raise UndecidableError(fact, f"{why + ' ' if why else ''}needs {fact} (cannot be decided)")
    if assume:
        g._record([(rel, a, b)])
    else:
        g._record([(_negate(rel) or "!|", a, b)])
    return assume


def require_any(alternatives: Sequence[tuple[Rel, IntLike, IntLike]], *, why: str = "") -> bool:
    """Decide whether at least one of the facts ``a rel b`` holds.

    ``True`` when one is proved, ``False`` when every one is refuted.
    Undecided: inside :func:`collect_guards`, record the disjunction (the
    alternatives not refuted) and return ``True``; otherwise raise
    :class:`UndecidableError` naming it.

    @post a ``True`` answer outside guards holds for every value of the symbols.

    >>> M = Dyn("M")
    >>> require_any([("|", M, 8), ("<", 8, M)], why="composition")
    Traceback (most recent call last):
    ...
    cute_sym.UndecidableError: composition needs 8 % M == 0 or M > 8 (cannot be decided)
    >>> require_any([("|", 4, 8 * M), ("<", M, 0)])
    True
    >>> with collect_guards() as g:
    ...     require_any([("|", M, 8), ("<", 8, M)])
    True
    >>> g.conditions, g.holds({"M": 4}), g.holds({"M": 6}), g.holds({"M": 9})
    ([(M > 8) | Eq(Mod(8, M), 0)], True, False, True)
    """
    open_: list[tuple[Rel, IntLike, IntLike]] = []
    for rel, a, b in alternatives:
        r = _prove_int(rel, a, b) if type(a) is int and type(b) is int else prove(rel, a, b)
        if r:
            return True
        if r is None:
            open_.append((rel, a, b))
    if not open_:
        return False
    if len(open_) > 1 and _by_cases(open_):
        return True
    g = _GUARDS.get()
    if g is None:
        fact = " or ".join(fact_text(rel, a, b) for rel, a, b in open_)
        raise UndecidableError(fact, f"{why + ' ' if why else ''}needs {fact} (cannot be decided)")
    g._record(open_)
    return True


def _by_cases(alts: list[tuple[Rel, IntLike, IntLike]]) -> bool:
    """Some alternative follows once the others (orderings, equalities) are assumed false.

    ``B | 1 or B > 1`` holds for every positive ``B``: with ``B <= 1`` it is ``1 | 1``.
    """
    base = _facts_in_force()
    for i, (rel, a, b) in enumerate(alts):
        negs: list[Fact] = []
        for j, (rj, aj, bj) in enumerate(alts):
            n = _negate(rj) if j != i else None
            if n is not None and n != "!=":
                negs.extend(_to_facts(n, aj, bj))
        if negs and _prove_sym(rel, _sym(a), _sym(b), base + tuple(negs)) is True:
            return True
    return False


# ---------------------------------------------------------------- assume
def _parse_fact(f: Any, names: dict[str, sympy.Symbol]) -> list[Fact]:
    if isinstance(f, bool) or f is sympy.true or f is sympy.false:
        raise LayoutError("assume: got a plain bool; write the fact as sympy.Eq(M % 4, 0) or as the string 'M % 4 == 0'")
    if isinstance(f, str):
        f = sympy.sympify(f.replace("==", "__EQ__").replace("__EQ__", "=="), locals=dict(names), evaluate=False)
        if isinstance(f, bool):
            raise LayoutError("assume: the fact text evaluated to a constant")
    if isinstance(f, sympy.Eq):
        lhs, rhs = f.lhs, f.rhs
        if isinstance(lhs, sympy.Mod) and rhs == 0:
            return [("dvd", lhs.args[1], lhs.args[0])]
        return _to_facts("==", lhs, rhs)
    for cls, rel in ((sympy.StrictLessThan, "<"), (sympy.LessThan, "<="),
                     (sympy.StrictGreaterThan, ">"), (sympy.GreaterThan, ">=")):
        if isinstance(f, cls):
            return _to_facts(rel, f.lhs, f.rhs)
    if isinstance(f, sympy.And):
        out: list[Fact] = []
        for a in f.args:
            out.extend(_parse_fact(a, names))
        return out
    raise LayoutError(f"assume: cannot use {f!r} as a fact (use ==, <, <=, >, >= or a Mod(...) == 0)")


@contextlib.contextmanager
def assume(*facts: Any, symbols: Sequence[sympy.Symbol] = ()) -> Iterator[None]:
    """State facts about symbols for a block of code.

    Facts are sympy relations (``N >= K``, ``sympy.Eq(M % 128, 0)``) or strings
    (``"M % 128 == 0"``; names are looked up among ``symbols`` and the symbols
    of the other facts, else made positive).

    @pre each fact is a relation (``==``, ``<``, ``<=``, ``>``, ``>=``, a
         ``Mod(...) == 0`` or an ``And`` of those), not a plain bool (else :class:`LayoutError`).
    @post inside the block :func:`prove` and :func:`require` may use the facts
          (added to those of enclosing blocks); on exit they are forgotten.

    >>> M, N = Dyn("M"), Dyn("N")
    >>> with assume(N >= M + 1):
    ...     prove("<", M, N)
    True
    >>> prove("<", M, N) is None
    True
    >>> with assume("M % 4 == 0", symbols=[M]):
    ...     prove("|", 4, M)
    True
    """
    names: dict[str, sympy.Symbol] = {s.name: s for s in symbols}
    for f in facts:
        if isinstance(f, sympy.Basic):
            for s in f.free_symbols:
                names.setdefault(s.name, s)
    parsed: list[Fact] = []
    for f in facts:
        if isinstance(f, str):
            import re
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f):
                if name not in names and name not in ("Mod", "floor", "ceiling", "Min", "Max"):
                    names[name] = Dyn(name)
        parsed.extend(_parse_fact(f, names))
    token = _FACTS.set(_FACTS.get() + tuple(parsed))
    try:
        yield
    finally:
        _FACTS.reset(token)
