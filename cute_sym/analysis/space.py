"""One case of a symbolic answer: element offsets as (high part, residue), compared exactly.

:class:`Space` is what an analysis reads in one case of :func:`.cases.by_cases`: the
address of an offset modulo the period (the residue, swizzled) and its high part, and
whether two high parts are one address, decided (else :class:`Undecided`). In keyed mode
the offsets are integer linear forms over the access's symbols (:mod:`.tables`), read a
row at a time without sympy.
"""
from __future__ import annotations

import math
from itertools import repeat
from operator import add
from typing import TYPE_CHECKING, Any, Iterable, Optional, Sequence

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core import decide
from ..core.int_tuple import cdiv, cmod
from ..core.integers import Dyn, IntLike, symbol_facts, symbolic_module
from ..swizzle import Swizzle
from .tables import KeyColumns, Lin, linear_form, swizzle_table

__all__ = ["Space", "Undecided", "Invalid", "Step", "settle", "linear_form", "Lin"]

class Undecided(Exception):
    """Raised inside one case when the decision procedure answers *unknown*; ``symbols``: the
    case's own symbols (``s'``) the open question is about (the ones a finer split can settle)."""

    def __init__(self, text: str, symbols: Iterable[Any] = ()) -> None:
        super().__init__(text)
        self.symbols = frozenset(symbols)


class Invalid(Exception):
    """Raised inside one case when the access is no legal instruction (a misaligned vector)."""


# per split symbol: (m, r, s' or None when fixed, the fixed value of s')
Step = tuple[int, int, Optional["sympy.Symbol"], int]


class Space:
    """Element offsets of one case as (high part, residue): ``offset == q * period + c``.

    ``swizzle`` and ``base`` are those of a composed layout ``Sw o base o L``: the
    residue returned is the swizzled one (the swizzle moves no bit at or above the period).
    With ``lin`` (linear forms of the offsets) and ``steps`` (the case: ``s = m*s' + r``)
    a high part is kept as (constant, coefficients of the ``s'``), compared without sympy
    when the coefficients settle it, else by the decision procedure.
    """
    __slots__ = ("period", "subst", "swizzle", "base", "_memo", "lin", "steps", "keyed", "_sw", "flat", "_rows", "_same")

    def __init__(self, period: int, subst: dict[sympy.Symbol, Any],
                 swizzle: Optional[Swizzle] = None, base: IntLike = 0,
                 lin: Optional[dict[IntLike, Optional[Lin]]] = None, steps: Sequence[Step] = (),
                 keyed: Optional[tuple[tuple[Optional[int], ...], Lin]] = None) -> None:
        self.period = period
        self.subst = subst
        self.swizzle = swizzle
        self.base = base
        self.lin = lin
        self.steps = tuple(steps)
        self.keyed = keyed
        self._sw: Optional[list[int]] = None
        self.flat: Optional[Sequence[Sequence[int]]] = None     # a static access's swizzled offsets (vector.py)
        self._rows: Optional[_Rows] = None
        self._same: dict[tuple[Any, Any], bool] = {}
        self._memo: dict[IntLike, tuple[Any, int]] = {}

    @property
    def static(self) -> bool:
        """No symbol: offsets are ints, high parts ints (compared by ``==``)."""
        return not self.subst and self.keyed is None and type(self.base) is int

    def swizzled(self) -> Optional[list[int]]:
        """The swizzle as a table over the residues (``None``: no swizzle)."""
        if self.swizzle is not None and self._sw is None:
            self._sw = swizzle_table(self.swizzle, self.period)
        return self._sw

    def addr(self, inner: Any) -> tuple[Any, int]:
        """(q, c) of the element at ``swizzle(base + inner)`` (``inner``: an offset, or in keyed
        mode its linear form ``(const, coeffs)`` over the access's symbols)."""
        got = self._memo.get(inner)
        if got is None:
            got = self._fast(inner) if self.keyed is None else self._fast_key(inner)
            if got is None:
                got = self._split(inner if type(self.base) is int and self.base == 0 else inner + self.base)
            if self.swizzle is not None:
                got = (got[0], self.swizzle(got[1]))
            self._memo[inner] = got
        return got

    def _fast(self, inner: IntLike) -> Optional[tuple[Any, int]]:
        if self.lin is None:
            return None
        a, b = self.lin.get(inner), self.lin.get(self.base)
        if a is None or b is None:
            return None
        P = self.period
        full, qco = a[0] + b[0], []
        for (m, r, fresh, v), k1, k2 in zip(self.steps, a[1], b[1]):
            k = k1 + k2
            full += k * (r if fresh is not None else m * v + r)
            if fresh is None:
                qco.append(0)
            elif (k * m) % P:
                raise Undecided(f"the offset {inner} is not fixed modulo {P} elements", (fresh,))
            else:
                qco.append(k * m // P)
        c = full % P
        return ((full - c) // P, tuple(qco)), c

    def rows(self, cols: KeyColumns) -> "_Rows":
        """The keys of an access (keyed mode) in this case: :meth:`addr` of every key row by row,
        and the residues of runs, read off the access's columns (:class:`_Rows`), once a case."""
        if self._rows is None:
            self._rows = _Rows(self, cols)
        return self._rows

    def _fast_key(self, a: Lin) -> tuple[Any, int]:
        """:meth:`_fast` for an offset given by its linear form over the access's symbols."""
        proj, b = self.keyed if self.keyed is not None else ((), (0, ()))
        P = self.period
        full, qco = a[0] + b[0], []
        ks = a[1]
        for (m, r, fresh, v), j, k2 in zip(self.steps, proj, b[1]):
            k = (ks[j] if j is not None else 0) + k2
            full += k * (r if fresh is not None else m * v + r)
            if fresh is None:
                qco.append(0)
            elif (k * m) % P:
                raise Undecided(f"the offset {a} is not fixed modulo {P} elements", (fresh,))
            else:
                qco.append(k * m // P)
        c = full % P
        return ((full - c) // P, tuple(qco)), c

    def _split(self, off: IntLike) -> tuple[IntLike, int]:
        P = self.period
        if type(off) is int:
            return off // P, off % P
        e = sympy.sympify(off).xreplace(self.subst)
        e = sympy.expand(e if decide.is_polynomial(e) else settle(e))
        if e.is_Integer:
            return int(e) // P, int(e) % P
        const, rest = e.as_coeff_Add()
        if not const.is_Integer or decide.prove("|", P, rest) is not True:
            raise Undecided(f"the offset {off} is not fixed modulo {P} elements", e.free_symbols)
        c = int(const) % P
        q = sympy.expand((e - c) / P)
        return (int(q) if q.is_Integer else q), c

    def _expr(self, q: Any) -> Any:
        if type(q) is tuple:
            return q[0] + sum((k * st[2] for k, st in zip(q[1], self.steps) if k and st[2] is not None),
                              sympy.Integer(0))
        return q

    def same(self, q1: Any, q2: Any) -> bool:
        """Whether two high parts are equal, decided (else :class:`Undecided`)."""
        if type(q1) is int and type(q2) is int:
            return q1 == q2
        if type(q1) is tuple and type(q2) is tuple:
            got = self._same.get((q1, q2))
            if got is None:
                got = self._same[(q1, q2)] = self._same_lin(q1, q2)
            return got
        return self._same_expr(q1, q2)

    def _same_lin(self, q1: Any, q2: Any) -> bool:
        """:meth:`same` of two linear high parts: the root of ``c + a*s'`` against the bounds of ``s'``."""
        # c + a*s' == 0 in ints (the usual: one symbol apart): no integer root, or none in the
        # bounds of s', refutes it; a root that is the only value of s' proves it
        c = q1[0] - q2[0]
        diff = [(x - y, st[2]) for x, y, st in zip(q1[1], q2[1], self.steps) if x != y]
        if not diff:
            return bool(c == 0)
        if len(diff) == 1:
            a, fresh = diff[0]
            dv, lo, hi = symbol_facts(fresh)
            if c % a or (-c // a) % dv:
                return False
            v = -c // a
            if lo is not None and v < lo or hi is not None and v > hi:
                return False
            if lo == v and hi == v:
                return True
        return self._same_expr(q1, q2)

    def _same_expr(self, q1: Any, q2: Any) -> bool:
        e1, e2 = self._expr(q1), self._expr(q2)
        got = decide.prove("==", e1, e2)
        if got is None and not (decide.is_polynomial(sympy.sympify(e1)) and decide.is_polynomial(sympy.sympify(e2))):
            e1, e2 = settle(e1), settle(e2)
            got = decide.prove("==", e1, e2)
        if got is None:
            d = e1 - e2
            raise Undecided(f"whether {self._user_text(d)} == 0", sympy.sympify(d).free_symbols)
        return got

    def _user_text(self, d: Any) -> Any:
        """``d`` in the symbols the user wrote (``K`` for ``64*K' + r``), times the least positive
        number that clears the denominators and the common factor: ``K' == 0`` reads ``K == 0``."""
        inv: dict[Any, Any] = {}
        den = 1
        for sym, val in self.subst.items():
            if val.is_Integer:
                continue
            r, mf = val.as_coeff_Add()
            m, fresh = mf.as_coeff_Mul()
            inv[fresh] = (sym - r) / m
            den = math.lcm(den, int(m))
        e = sympy.expand(sympy.sympify(d).xreplace(inv) * den)
        c, _ = e.as_content_primitive()
        return sympy.expand(e / c) if c.is_Rational and c > 0 and c != 1 else e


class _Rows:
    """The keys of an access in one keyed case, read off its :class:`.tables.KeyColumns` in
    C-level passes over whole columns, each computed once a case when first asked:

    * ``full(n)``: ``base + offset`` (before the swizzle) of every ``n``-th key (``x = 0, n,
      2n, ..``: the first of each run of ``n`` when ``n`` divides the rows' width);
    * ``residues(n)``: their residues ``c`` after the swizzle (as :meth:`Space.addr`);
    * ``highs(n)``: their high parts ``q`` (as :meth:`Space.addr`);
    * ``self[i]``: row ``i``'s ``(q, c)`` pairs, as :meth:`Space.addr` gives them.

    The high part of a key is :meth:`Space._fast_key`'s: ``(floor(full / P), (k_s * m_s // P
    for each symbol s))`` with ``k_s`` its coefficient (plus the base's) and ``m_s`` the
    case's step (0 for a pinned symbol); ``m_s`` was chosen so that ``k_s * m_s`` is a
    multiple of ``P``.
    """
    __slots__ = ("space", "cols", "s0", "terms", "sw", "_full", "_res", "_high", "_rows")

    def __init__(self, space: Space, cols: KeyColumns) -> None:
        self.space, self.cols = space, cols
        proj, b = space.keyed if space.keyed is not None else ((), (0, ()))
        s0, terms = b[0], []
        for (m, r, fresh, v), j, k2 in zip(space.steps, proj, b[1]):
            rr = r if fresh is not None else m * v + r
            s0 += k2 * rr
            terms.append((j, k2, rr, m if fresh is not None else 0))
        self.s0, self.terms = s0, terms
        self.sw = space.swizzled()
        self._full: dict[int, list[int]] = {}
        self._res: dict[int, list[int]] = {}
        self._high: dict[int, list[Any]] = {}
        self._rows: Optional[list[list[tuple[Any, int]]]] = None

    def __len__(self) -> int:
        return len(self.cols.keys)

    def full(self, n: int) -> list[int]:
        """``base + offset`` (unswizzled) of keys ``0, n, 2n, ..`` of the flat columns."""
        got = self._full.get(n)
        if got is None:
            got = self._full[n] = self._fulls(n, None)
        return got

    def _fulls(self, n: int, stop: Optional[int]) -> list[int]:
        """``base + offset`` (unswizzled) of keys ``0, n, 2n, ..`` below ``stop`` (all: ``None``)."""
        cols = self.cols
        got = cols.const[:stop:n]
        if self.s0:
            got = list(map(self.s0.__add__, got))
        for j, _, rr, _ in self.terms:
            if j is not None and rr:
                got = list(map(add, got, map(rr.__mul__, cols.coeffs[j][:stop:n])))
        return got

    def residues(self, n: int) -> list[int]:
        """The residues (swizzled) of keys ``0, n, 2n, ..``: ``Space.addr(key)[1]``."""
        got = self._res.get(n)
        if got is None:
            got = list(map((self.space.period - 1).__and__, self.full(n)))
            if self.sw is not None:
                got = list(map(self.sw.__getitem__, got))
            self._res[n] = got
        return got

    def first_bad(self, n: int) -> Optional[int]:
        """For runs of ``n`` values made steady by the layout (:meth:`KeyColumns.steady`): the
        flat index of the first run that is no vector (``-1``: none), else ``None`` (not steady:
        ask pair by pair). A steady run is a vector (one high part, residues ``c0 .. c0+n-1``,
        ``c0 % n == 0``) exactly when its first key's unswizzled residue ``r`` has ``r + n <= P``
        and the swizzle maps ``r .. r+n-1`` to ``c0 .. c0+n-1`` (:func:`_vector_residues`).

        @post ``-1`` => every run of ``n`` is one high part (equal tuples) and consecutive
              aligned residues; ``x >= 0`` => the runs before ``x`` are, the run at ``x`` is not.
        """
        if not self.cols.steady(n):
            return None
        P = self.space.period
        good = _vector_residues(self.space.swizzle, self.sw, P, n)
        head = 2 * (self.cols.width or 0)          # a failing case fails early as a rule: two rows first
        if n not in self._full and len(self.cols.const) > head:
            at = bytes(map(good.__getitem__, map((P - 1).__and__, self._fulls(n, head)))).find(0)
            if at >= 0:
                return at * n
        at = bytes(map(good.__getitem__, map((P - 1).__and__, self.full(n)))).find(0)
        return -1 if at < 0 else at * n

    def __getitem__(self, i: int) -> list[tuple[Any, int]]:
        if self._rows is None:
            self._rows = self._all()
        return self._rows[i]

    def highs(self, n: int) -> list[Any]:
        """The high parts of keys ``0, n, 2n, ..``: ``Space.addr(key)[0]``, equal tuples."""
        got = self._high.get(n)
        if got is None:
            got = self._high[n] = self._highs(n)
        return got

    def _highs(self, n: int) -> list[Any]:
        """:meth:`highs` built with ``zip`` over the columns (no per-key loop)."""
        P = self.space.period
        full = self.full(n)
        hi = map((P.bit_length() - 1).__rrshift__, full)          # floor(full / P)
        qcos: list[Any] = []
        for j, k2, _, qm in self.terms:
            if j is None or not qm:
                qcos.append(repeat(k2 * qm // P, len(full)))
            else:
                qcos.append(map(P.__rfloordiv__, map(qm.__mul__, map(k2.__add__, self.cols.coeffs[j][::n]))))
        return list(zip(hi, zip(*qcos)))

    def _all(self) -> list[list[tuple[Any, int]]]:
        """Every row's ``(q, c)`` pairs, built with ``zip`` over the columns (no per-key loop)."""
        pairs = list(zip(self.highs(1), self.residues(1)))
        out, at = [], 0
        for row in self.cols.keys:
            out.append(pairs[at:at + len(row)])
            at += len(row)
        return out


_good_cache: dict[tuple[Any, int, int], bytes] = {}


def _vector_residues(swizzle: Optional[Swizzle], sw: Optional[list[int]], period: int, n: int) -> bytes:
    """For each unswizzled residue ``r < period``: 1 when ``r + n <= period`` (``n`` elements
    from ``r`` share one high part), ``sw(r) % n == 0`` and ``sw(r + k) == sw(r) + k`` for
    ``k < n`` (``sw``: the swizzle's table, the identity when ``None``), else 0. Cached.

    >>> list(_vector_residues(None, None, 8, 2))
    [1, 0, 1, 0, 1, 0, 1, 0]
    """
    key = (swizzle, period, n)
    got = _good_cache.get(key)
    if got is None:
        t = sw if sw is not None else range(period)
        got = bytes(r + n <= period and t[r] % n == 0 and all(t[r + k] == t[r] + k for k in range(1, n))
                    for r in range(period))
        if len(_good_cache) >= 256:
            _good_cache.clear()
        _good_cache[key] = got
    return got


def settle(e: Any) -> Any:
    """``e`` with each ``a % b`` and ``floor(a/b)`` computed again, inside out, by the algebra's
    own ``cmod`` and ``cdiv`` (which ask the decision procedure): a case's substitution makes
    what they could not settle for the symbol settled for its values (``1 % M`` is ``1`` once
    ``M = 64*M' + 2``). A floor keeps its form unless its numerator is known non-negative and
    its denominator positive (where C's division is the floor).

    @post ``settle(e) == e`` at every value of the symbols.

    >>> from cute_sym.core.symbolic import IMod
    >>> Mp = Dyn("M'", min=0, sign="nonnegative")
    >>> M = 64 * Mp + 2
    >>> settle(4 * IMod(1, M) + sympy.floor(1 / M))
    4
    """
    if not getattr(e, "args", None) or e.is_Atom:
        return e
    args = [settle(a) for a in e.args]
    if e.func is symbolic_module().IMod:
        return sympy.sympify(cmod(args[0], args[1]))
    if e.func is sympy.floor:
        num, den = args[0].as_numer_denom()
        if decide.prove(">=", num, 0) is True and decide.prove(">", den, 0) is True:
            return sympy.sympify(cdiv(num, den))
        return sympy.floor(args[0])
    return e.func(*args) if any(a is not b for a, b in zip(args, e.args)) else e
