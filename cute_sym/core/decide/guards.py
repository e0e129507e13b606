"""Guards: require, require_any, collect_guards, and the facts as text."""
from __future__ import annotations

import contextlib
import contextvars
import math
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence, cast

if TYPE_CHECKING:
    from fractions import Fraction  # imported where used: it pulls in decimal

    import sympy
else:
    from ..lazy import sympy

from ..errors import UndecidableError
from ..integers import IntLike
from .base import _GUARDS, Fact, GuardFacts, Rel, _facts_in_force, _prove_int, _sym
from .prove import _prove_sym, prove
from .reason import _expand, _scan, is_polynomial
from .disjunction import disjunction_by_values





# ---------------------------------------------------------------- facts as text
def fact_text(rel: Rel, a: IntLike, b: IntLike) -> str:
    """The fact ``a rel b`` as a person writes it.

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import fact_text
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
        from ..formula import formula_str
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
    # sympy's own simplification is slow on big formulas, and on any with a call inside (a
    # rounding, a min: milliseconds of assumption queries each, for a fact left as it is)
    ev = _scan(a, b)[1] <= _EVAL_MAX_NODES and is_polynomial(a) and is_polynomial(b)
    if rel in ("|", "!|"):
        # (by a formula: what sympy's evaluation settles, the procedure settled before recording it)
        m = sympy.Mod(b, a, evaluate=ev and a.is_Number)
        return sympy.Eq(m, 0, evaluate=ev) if rel == "|" else sympy.Ne(m, 0, evaluate=ev)
    # a relation between two expressions: keep it; against a number: the number on the right
    if a.is_Number and not b.is_Number:
        rel, a, b = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}[rel], b, a
    ops = {"==": sympy.Eq, "!=": sympy.Ne, "<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}
    # an ordering is kept as recorded: the procedure left it open, and sympy's evaluation (the
    # assumption system, milliseconds a relation) settled none over the corpora; it does settle
    # (in)equalities such as 1/a != 0, which are dropped as true
    return ops[rel](a, b, evaluate=ev and rel in ("==", "!="))


_EVAL_MAX_NODES = 30


class _NotANumber(Exception):
    pass


def _num(e: Any, values: dict[str, int], memo: Optional[dict[Any, Fraction]] = None) -> Fraction:
    """Exact value of an expression for the symbol values (by name); ``_NotANumber`` when undefined.
    Shared subexpressions are evaluated once (guard formulas are DAGs far smaller than their trees)."""
    if memo is None:
        memo = {}
    if e.args:
        r = memo.get(e)
        if r is None:
            r = memo[e] = _num1(e, values, memo)
        return r
    return _num1(e, values, memo)


def _num1(e: Any, values: dict[str, int], memo: dict[Any, Fraction]) -> Fraction:
    from fractions import Fraction
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
            s += _num(t, values, memo)
        return s
    if e.is_Mul:
        p = Fraction(1)
        for t in e.args:
            p *= _num(t, values, memo)
        return p
    if e.is_Pow:
        base, ex = e.args
        if ex.is_Integer:
            bv = _num(base, values, memo)
            k = int(ex)
            if k < 0 and bv == 0:
                raise _NotANumber("division by zero")
            return bv ** k
        raise _NotANumber(f"cannot evaluate {e}")
    f = e.func
    if f is sympy.floor or f is sympy.ceiling:
        v = _num(e.args[0], values, memo)
        return Fraction(math.floor(v) if f is sympy.floor else math.ceil(v))
    from ..symbolic import IMod
    if f is sympy.Mod or f is IMod:
        x, m = _num(e.args[0], values, memo), _num(e.args[1], values, memo)
        if m == 0:
            raise _NotANumber("modulo by zero")
        return x % m
    if f is sympy.Min:
        return min(_num(t, values, memo) for t in e.args)
    if f is sympy.Max:
        return max(_num(t, values, memo) for t in e.args)
    if f is sympy.Abs:
        return abs(_num(e.args[0], values, memo))
    if f is sympy.sign:
        v = _num(e.args[0], values, memo)
        return Fraction((v > 0) - (v < 0))
    # anything else: let sympy evaluate it
    r = e.xreplace({s: sympy.Integer(values[s.name]) for s in e.free_symbols if s.name in values})
    if not r.is_Rational:
        raise _NotANumber(f"cannot evaluate {e}")
    return Fraction(int(r.p), int(r.q))


def _holds(rel: Rel, a: sympy.Expr, b: sympy.Expr, values: dict[str, int]) -> bool:
    try:
        memo: dict[Any, Fraction] = {}
        x, y = _num(a, values, memo), _num(b, values, memo)
    except (_NotANumber, ZeroDivisionError):
        return False
    if rel in ("|", "!|"):
        if x.denominator != 1 or y.denominator != 1:
            return False        # divisibility is a fact about integers
        dv = _prove_int("|", int(x), int(y))
        return dv if rel == "|" else not dv
    return _prove_int(rel, x, y)  # type: ignore[arg-type]


Alt = tuple[Rel, "sympy.Expr", "sympy.Expr"]


class Guards(GuardFacts):
    """The facts assumed while :func:`collect_guards` was active.

    A condition is one relation, or an ``Or`` of relations where an operation
    needs one of several facts (CuTe's "s | r or r < s").

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import require, collect_guards
    >>> M = Dyn("M")
    >>> with collect_guards() as g:
    ...     _ = require("|", 4, M), require(">=", M, 8), require(">", M, 4)
    >>> g.conditions
    [Eq(Mod(M, 4), 0), M >= 8]
    >>> g.holds({"M": 12}), g.holds({"M": 4}), g.holds({"M": 10})
    (True, False, False)
    """

    __slots__ = ("_entries", "_keys", "_simplified", "_kept")

    def __init__(self) -> None:
        super().__init__()
        # each entry is a disjunction of alternatives (most often just one)
        self._entries: list[tuple[Alt, ...]] = []
        self._keys: set[frozenset[Any]] = set()
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
        # order does not matter (a set, not a sort by repr: printing a large formula is slow)
        key = frozenset(_fact_key(*alt) for alt in entry)
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

        >>> from cute_sym.core.integers import Dyn
        >>> from cute_sym.core.decide import require, require_any, collect_guards, assume
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

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import require, collect_guards, assume
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


class _Undecided(UndecidableError):
    """An :class:`UndecidableError` whose text is written when first read: printing formulas
    costs more than deciding them, and callers often catch the error without reading it.
    Reads, prints and pickles as the plain error with the same ``fact`` and message."""

    def __init__(self, alts: tuple[tuple[Rel, IntLike, IntLike], ...], why: str) -> None:
        Exception.__init__(self)
        self._alts = alts
        self._why = why
        self._text: Optional[tuple[str, str]] = None

    def _texts(self) -> tuple[str, str]:
        if self._text is None:
            fact = " or ".join(fact_text(rel, a, b) for rel, a, b in self._alts)
            self._text = (fact, f"{self._why + ' ' if self._why else ''}needs {fact} (cannot be decided)")
            self.args = (self._text[1],)
        return self._text

    @property
    def fact(self) -> str:  # type: ignore[override]
        return self._texts()[0]

    def __str__(self) -> str:
        return self._texts()[1]

    def __repr__(self) -> str:
        return f"UndecidableError({self._texts()[1]!r})"

    def __reduce__(self) -> Any:
        fact, message = self._texts()
        return (UndecidableError, (fact, message))


class _OpenAtValues(_Undecided):
    """An :class:`UndecidableError` known from values: the operation succeeds at one allowed value
    of its symbols and fails at another, so no sound procedure decides it. Its fact and text are
    those of the operation's own symbolic steps, run when the text is first read (in the context
    of the raise); where those steps do not name one, the two values are the text."""

    def __init__(self, steps: Callable[[], object], seen: str) -> None:
        Exception.__init__(self)
        self._steps = steps
        self._seen = seen
        self._ctx = contextvars.copy_context()
        self._text = None

    def _texts(self) -> tuple[str, str]:
        if self._text is None:
            try:
                self._ctx.run(self._steps)
            except UndecidableError as e:
                self._text = (e.fact, str(e))
            except Exception:  # noqa: BLE001 - any other outcome: the values are the evidence
                pass
            if self._text is None:
                self._text = (self._seen, f"needs {self._seen} (cannot be decided)")
            self.args = (self._text[1],)
        return self._text


def open_at_values(steps: Callable[[], object], seen: str) -> UndecidableError:
    """The error for an operation seen to succeed at one allowed value of its symbols and fail at
    another (``seen`` says where); ``steps`` runs the operation's symbolic steps, which name the
    fact when the text is read.

    >>> from cute_sym.core.integers import Dyn
    >>> e = open_at_values(lambda: require("|", 4, Dyn("M"), why="tile"), "M = 4 but not M = 2")
    >>> print(e)
    tile needs M % 4 == 0 (cannot be decided)
    >>> print(open_at_values(lambda: None, "a condition true at M = 4, false at M = 2"))
    needs a condition true at M = 4, false at M = 2 (cannot be decided)
    """
    return _OpenAtValues(steps, seen)


# tracebacks and doctests name them as the public class
for _cls in (_Undecided, _OpenAtValues):
    _cls.__name__ = _cls.__qualname__ = "UndecidableError"
    _cls.__module__ = "cute_sym"
del _cls


def require(rel: Rel, a: IntLike, b: IntLike, *, assume: bool = True, why: str = "") -> bool:
    """Decide ``a rel b`` for an operation that needs the answer.

    Undecided: inside :func:`collect_guards`, record ``a rel b`` (when
    ``assume`` is true) or its negation, and return ``assume``; otherwise raise
    :class:`UndecidableError` naming the fact.

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import require
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
    g = cast(Optional[Guards], _GUARDS.get())
    if g is None:
        raise _Undecided(((rel, a, b),), why)
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

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import require_any, collect_guards
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
    if len(open_) > 1:
        # one symbol against numbers: its values settle the disjunction; else by cases
        by_values = disjunction_by_values(open_) if not _facts_in_force() else None
        if by_values if by_values is not None else _by_cases(open_):
            return True
    g = cast(Optional[Guards], _GUARDS.get())
    if g is None:
        raise _Undecided(tuple(open_), why)
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


