"""The one decision procedure: prove or refute facts about integer expressions.

Every comparison of possibly-symbolic integers in cute_sym goes through this
module. :func:`prove` answers ``True`` (proved), ``False`` (refuted) or
``None`` (unknown) for

* ``"=="``, ``"!="``, ``"<"``, ``"<="``, ``">"``, ``">="``
* ``"|"``: ``a | b``, *a divides b* (``b % a == 0``)

from what is known: every symbol is an integer; the sign a symbol was made
with (:func:`~cute_sym.integers.Dyn`); the divisibility and bounds it carries;
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
raises :class:`~cute_sym.errors.UndecidableError` naming the missing fact, or
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
from functools import lru_cache
from typing import Any, Iterator, Optional, Sequence, Union

import sympy

from .errors import LayoutError, UndecidableError
from .integers import DynSymbol, Dyn, IMod, IntLike, symbol_facts

__all__ = [
    "prove",
    "require",
    "fact_text",
    "assume",
    "collect_guards",
    "Guards",
    "bounds",
]

Rel = str
_RELS = ("==", "!=", "<", "<=", ">", ">=", "|")

# A fact is a normalised tuple: ("ge0", e) e >= 0; ("eq0", e) e == 0; ("dvd", d, e) d | e.
Fact = tuple[Any, ...]

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
    sa, sb = sympy.sympify(a), sympy.sympify(b)
    if sa.is_Integer and sb.is_Integer:
        return _prove_int(rel, int(sa), int(sb))
    facts = _FACTS.get()
    guards = _GUARDS.get()
    if guards is not None:
        facts = facts + tuple(guards._facts)
    return _prove_sym(rel, sa, sb, facts)


@lru_cache(maxsize=8192)
def _prove_sym(rel: Rel, a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...]) -> Optional[bool]:
    sub, extra = _structure(a.free_symbols | b.free_symbols, facts)
    if sub:
        a, b = a.xreplace(sub), b.xreplace(sub)
    ge0 = extra
    if rel == "|":
        return _divides(a, b, facts, sub)
    if rel in (">", ">="):
        rel, a, b = ("<" if rel == ">" else "<="), b, a
    d = sympy.expand(b - a)
    if rel == "==":
        r = _sign_zero(d, ge0)
        return r
    if rel == "!=":
        r = _sign_zero(d, ge0)
        return None if r is None else not r
    if rel == "<":      # b - a >= 1
        if _nonneg(d - 1, ge0):
            return True
        if _nonneg(-d, ge0):
            return False
        return None
    # "<=": b - a >= 0
    if _nonneg(d, ge0):
        return True
    if _nonneg(-d - 1, ge0):
        return False
    return None


def _sign_zero(d: sympy.Expr, ge0: tuple[sympy.Expr, ...]) -> Optional[bool]:
    if d == 0:
        return True
    if d.is_number:
        return bool(d == 0)
    if _nonneg(d - 1, ge0) or _nonneg(-d - 1, ge0):
        return False
    return None


def _nonneg(e: sympy.Expr, ge0: tuple[sympy.Expr, ...]) -> bool:
    """Sufficient test for ``e >= 0``."""
    if e.is_number:
        return bool(e >= 0)
    lo, _ = bounds(e)
    if lo is not None and lo >= 0:
        return True
    if e.is_Add or e.is_Mul:
        f = sympy.factor(e)
        if f != e:
            lo, _ = bounds(f)
            if lo is not None and lo >= 0:
                return True
    for g in ge0:   # e >= g >= 0
        lo, _ = bounds(sympy.expand(e - g))
        if lo is not None and lo >= 0:
            return True
    return False


def _divides(a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...], sub: dict[Any, Any]) -> Optional[bool]:
    if b == 0:
        return True
    if a == 0:
        return _sign_zero(sympy.expand(b), ())
    if a.is_number and b.is_number:
        return _prove_int("|", int(a), int(b))
    for f in facts:
        if f[0] == "dvd" and f[2].xreplace(sub) == b and (f[1] == a or (a.is_Integer and f[1].is_Integer and int(f[1]) % int(a) == 0)):
            return True
    q = sympy.cancel(b / a)
    if q.is_integer:
        return True
    if q.is_number:         # q not an integer, both numbers handled above: a rational ratio
        return False
    if a.is_Integer:
        n = abs(int(a))
        poly = sympy.expand(b)
        const, terms = poly.as_coeff_Add()
        g = 0
        for t in sympy.Add.make_args(terms):
            c, m = t.as_coeff_Mul()
            if not c.is_Integer or not m.is_integer:
                g = -1
                break
            g = math.gcd(g, int(c))
        if g >= 0 and const.is_Integer:
            if g % n == 0:
                return int(const) % n == 0
    # |b| < |a| with b != 0 refutes
    ab, bb = sympy.Abs(a), sympy.Abs(b)
    if _nonneg(sympy.expand(b * b - 1), ()) or _sign_zero(sympy.expand(b), ()) is False:
        lo_a, _ = bounds(ab)
        _, hi_b = bounds(bb)
        if lo_a is not None and hi_b is not None and hi_b < lo_a:
            return False
    return None


def _structure(syms: set[Any], facts: tuple[Fact, ...]) -> tuple[dict[Any, Any], tuple[sympy.Expr, ...]]:
    """Rewrite symbols with divisibility facts as multiples of fresh symbols."""
    sub: dict[Any, Any] = {}
    divisors: dict[Any, int] = {}
    for s in syms:
        d = symbol_facts(s)[0]
        if d > 1:
            divisors[s] = d
    ge0: list[sympy.Expr] = []
    for f in facts:
        if f[0] == "dvd" and f[1].is_Integer and f[2].is_Symbol and f[2] in syms:
            divisors[f[2]] = math.lcm(divisors.get(f[2], 1), abs(int(f[1])))
        elif f[0] == "ge0":
            ge0.append(f[1])
    for f in facts:
        if f[0] == "eq0":
            e = f[1]
            for s in sorted(e.free_symbols & syms, key=str):
                c = e.coeff(s)
                if c in (1, -1) and s not in e.subs(s, 0).free_symbols and s not in divisors:
                    sub[s] = sympy.expand(-e.subs(s, 0) / c)
                    break
    for s, d in divisors.items():
        _, lo, hi = symbol_facts(s)
        fresh = Dyn(f"{s.name}_{d}",
                    sign="positive" if s.is_positive else ("nonnegative" if s.is_nonnegative else "any"),
                    min=None if lo is None else -((-lo) // d), max=None if hi is None else hi // d)
        sub[s] = d * fresh
    if sub:
        ge0 = [sympy.expand(g.xreplace(sub)) for g in ge0]
    return sub, tuple(ge0)


# ---------------------------------------------------------------- intervals
Bound = Optional[Union[int, sympy.Rational]]


def bounds(e: sympy.Expr) -> tuple[Bound, Bound]:
    """Inclusive lower and upper bound of an integer expression (``None``: unbounded).

    >>> M = Dyn("M")
    >>> bounds(3 * M + 2), bounds(sympy.Mod(M, 8))
    ((5, None), (0, 7))
    """
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
        if ex == -1:
            bl, bh = _bounds(base)
            if bl is not None and bl > 0:
                return 0, (None if bh is None else sympy.Rational(1, 1) / bl)
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
        return f"{b} % {a} == 0"
    return f"{a} {rel} {b}"


def _fact_relation(rel: Rel, a: IntLike, b: IntLike) -> sympy.Basic:
    sa, sb = sympy.sympify(a), sympy.sympify(b)
    if rel == "|":
        return sympy.Eq(sympy.Mod(sb, sa), 0, evaluate=False)
    ops = {"==": sympy.Eq, "!=": sympy.Ne, "<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}
    return ops[rel](sa, sb)


def _to_facts(rel: Rel, a: IntLike, b: IntLike) -> list[Fact]:
    sa, sb = sympy.sympify(a), sympy.sympify(b)
    if rel == "|":
        return [("dvd", sa, sb)]
    if rel == "==":
        return [("eq0", sympy.expand(sa - sb))]
    if rel == "<=":
        return [("ge0", sympy.expand(sb - sa))]
    if rel == "<":
        return [("ge0", sympy.expand(sb - sa - 1))]
    if rel == ">=":
        return [("ge0", sympy.expand(sa - sb))]
    if rel == ">":
        return [("ge0", sympy.expand(sa - sb - 1))]
    return []   # "!=" adds nothing usable


def _negate(rel: Rel) -> Optional[Rel]:
    return {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}.get(rel)


# ---------------------------------------------------------------- guards
class Guards:
    """The facts assumed while :func:`collect_guards` was active."""

    __slots__ = ("_conditions", "_facts")

    def __init__(self) -> None:
        self._conditions: list[sympy.Basic] = []
        self._facts: list[Fact] = []

    @property
    def conditions(self) -> list[sympy.Basic]:
        """The recorded facts as sympy relations, without duplicates."""
        return list(self._conditions)

    def _record(self, rel: Rel, a: IntLike, b: IntLike) -> None:
        cond = _fact_relation(rel, a, b)
        if cond in self._conditions:
            return
        self._conditions.append(cond)
        self._facts.extend(_to_facts(rel, a, b))

    def holds(self, values: dict[str, int]) -> bool:
        """True when every recorded condition holds for ``values`` (by symbol name)."""
        for c in self._conditions:
            sub = {s: values[s.name] for s in c.free_symbols if s.name in values}
            v = c.xreplace(sub)
            if v.free_symbols or not bool(sympy.simplify(v)):
                return False
        return True

    def __repr__(self) -> str:
        return f"Guards({self._conditions!r})"


@contextlib.contextmanager
def collect_guards() -> Iterator[Guards]:
    """Run a computation that assumes (and records) every fact it cannot decide.

    @post a result computed inside is right for every value of the symbols that
          satisfies ``g.conditions``.
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
        g._record(rel, a, b)
    else:
        neg = _negate(rel)
        if neg is None:     # not (a | b): record as b % a != 0
            cond = sympy.Ne(sympy.Mod(sympy.sympify(b), sympy.sympify(a)), 0)
            if cond not in g._conditions:
                g._conditions.append(cond)
        else:
            g._record(neg, a, b)
    return assume


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

    >>> M, N = Dyn("M"), Dyn("N")
    >>> with assume(N >= M + 1):
    ...     prove("<", M, N)
    True
    >>> prove("<", M, N) is None
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
