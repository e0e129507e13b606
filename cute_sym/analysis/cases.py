"""Symbolic answers by cases: split each symbol on the residues the hardware rule reads.

A hardware rule reads byte addresses modulo a period (128 bytes for banks and
sectors, more under a swizzle) and compares addresses for equality. For an offset
that is an integer polynomial in symbols, the residue modulo the period (``P``
elements) is fixed once each symbol ``s`` is fixed modulo ``m_s = P / gcd(P, g_s)``
(``g_s``: the gcd of the coefficients of ``s``). Each case substitutes
``s = m_s * s' + r`` and every question about the remaining high part goes to the
decision procedure (:mod:`cute_sym.core.decide`): an address whose residue the
procedure cannot prove fixed, or two high parts it cannot prove equal or unequal,
make the case *undecidable*, named as such, never guessed.
"""
from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any, Callable, Generic, Hashable, Iterable, Optional, Sequence, TypeVar, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core import decide
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.errors import LayoutError, UndecidableError
from ..core.int_tuple import cdiv, cmod
from ..core.integers import Dyn, IntLike, symbol_facts, symbolic_module
from ..swizzle import Swizzle

R = TypeVar("R")
MAX_CASES = 4096
PEEL = 2        # values of s' tried one by one when s' >= lo leaves a question open
# per symbol: None (s' as its bounds allow), ("eq", v): s' == v, ("ge", v): s' >= v, ("le", v): s' <= v
Bound1 = Optional[tuple[str, int]]
Sub = tuple[Bound1, ...]


class Undecided(Exception):
    """Raised inside one case when the decision procedure answers *unknown*; ``symbols``: the
    case's own symbols (``s'``) the open question is about (the ones a finer split can settle)."""

    def __init__(self, text: str, symbols: Iterable[Any] = ()) -> None:
        super().__init__(text)
        self.symbols = frozenset(symbols)


class Invalid(Exception):
    """Raised inside one case when the access is no legal instruction (a misaligned vector)."""


Lin = tuple[int, tuple[int, ...]]          # const + sum(coeff_i * symbol_i)
# per split symbol: (m, r, s' or None when fixed, the fixed value of s')
Step = tuple[int, int, Optional["sympy.Symbol"], int]


def linear_form(e: IntLike, syms: Sequence[sympy.Symbol]) -> Optional[Lin]:
    """``e`` as (constant, integer coefficient of each symbol), or ``None`` when not linear.

    >>> K, N = sympy.symbols("K N", integer=True)
    >>> linear_form(3 * K + 2 * N + 5, [K, N]), linear_form(K * N, [K, N])
    ((5, (3, 2)), None)
    """
    zero = (0,) * len(syms)
    if type(e) is int:
        return e, zero
    idx = {s: i for i, s in enumerate(syms)}
    const, co = 0, list(zero)
    for term, k in sympy.expand(e).as_coefficients_dict().items():
        if not k.is_Integer:
            return None
        if term == 1:
            const += int(k)
        elif term in idx:
            co[idx[term]] += int(k)
        else:
            return None
    return const, tuple(co)


class Space:
    """Element offsets of one case as (high part, residue): ``offset == q * period + c``.

    ``swizzle`` and ``base`` are those of a composed layout ``Sw o base o L``: the
    residue returned is the swizzled one (the swizzle moves no bit at or above the period).
    With ``lin`` (linear forms of the offsets) and ``steps`` (the case: ``s = m*s' + r``)
    a high part is kept as (constant, coefficients of the ``s'``), compared without sympy
    when the coefficients settle it, else by the decision procedure.
    """
    __slots__ = ("period", "subst", "swizzle", "base", "_memo", "lin", "steps")

    def __init__(self, period: int, subst: dict[sympy.Symbol, Any],
                 swizzle: Optional[Swizzle] = None, base: IntLike = 0,
                 lin: Optional[dict[IntLike, Optional[Lin]]] = None, steps: Sequence[Step] = ()) -> None:
        self.period = period
        self.subst = subst
        self.swizzle = swizzle
        self.base = base
        self.lin = lin
        self.steps = tuple(steps)
        self._memo: dict[IntLike, tuple[Any, int]] = {}

    def addr(self, inner: IntLike) -> tuple[Any, int]:
        """(q, c) of the element at ``swizzle(base + inner)``."""
        got = self._memo.get(inner)
        if got is None:
            got = self._fast(inner)
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


class Cases(Generic[R]):
    """A symbolic answer: ``(condition, result)`` pairs covering every feasible case,
    and the cases the decision procedure could not settle (``undecidable``).

    ``invalid``: the cases where the access is no legal instruction (with the reason).
    ``at(K=72)`` is the result for one value of each symbol.
    """
    __slots__ = ("cases", "undecidable", "invalid", "_split", "_results")
    cases: tuple[tuple[str, R], ...]
    undecidable: tuple[tuple[str, str], ...]
    invalid: tuple[tuple[str, str], ...]
    _split: tuple[tuple[sympy.Symbol, int], ...]
    _results: dict[tuple[int, ...], list[tuple[Sub, Union[R, str]]]]

    def __init__(self, cases: Sequence[tuple[str, R]], undecidable: Sequence[tuple[str, str]],
                 split: Sequence[tuple[sympy.Symbol, int]],
                 results: dict[tuple[int, ...], list[tuple[Sub, Union[R, str]]]],
                 invalid: Sequence[tuple[str, str]] = ()) -> None:
        object.__setattr__(self, "cases", tuple(cases))
        object.__setattr__(self, "invalid", tuple(invalid))
        object.__setattr__(self, "undecidable", tuple(undecidable))
        object.__setattr__(self, "_split", tuple(split))
        object.__setattr__(self, "_results", dict(results))

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Cases is immutable")

    def at(self, **values: int) -> R:
        """The result when each symbol takes the value given (by its name).

        @pre a value for every symbol split on, in a decided case (else :class:`LayoutError`).
        """
        key, high = [], []
        for s, m in self._split:
            if s.name not in values:
                raise LayoutError(f"Cases.at: no value for {s.name}")
            key.append(values[s.name] % m)
            high.append(values[s.name] // m)
        got: Union[R, str, None] = None
        for sub, res in self._results.get(tuple(key), []):
            if all(b is None or (h == b[1] if b[0] == "eq" else h >= b[1] if b[0] == "ge" else h <= b[1])
                   for h, b in zip(high, sub)):
                got = res
                break
        if got is None:
            raise LayoutError(f"Cases.at: {values} is in no feasible case")
        if isinstance(got, str):
            if got.startswith("invalid"):
                raise LayoutError(got)
            raise UndecidableError(got)
        return got

    def __str__(self) -> str:
        lines = [f"{r} if {c}" for c, r in self.cases]
        lines += [f"undecidable if {c}: {why}" for c, why in self.undecidable]
        lines += [f"no legal access if {c}: {why}" for c, why in self.invalid]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Cases({self.cases!r}, undecidable={self.undecidable!r})"


def _symbols(exprs: Iterable[IntLike]) -> list[sympy.Symbol]:
    found: set[sympy.Symbol] = set()
    for e in exprs:
        if type(e) is not int:
            found |= sympy.sympify(e).free_symbols
    return sorted(found, key=lambda s: s.name)


def _modulus(s: sympy.Symbol, exprs: Sequence[IntLike], period: int) -> int:
    g = 0
    for e in exprs:
        if type(e) is int:
            continue
        for term, coeff in sympy.expand(e).as_coefficients_dict().items():
            if s in term.free_symbols:
                if term == s and coeff.is_Integer:
                    g = math.gcd(g, int(coeff))
                else:
                    return period          # not linear in s: split on the whole period
    return period // math.gcd(period, g) if g else 1


def _feasible(s: sympy.Symbol, m: int) -> list[int]:
    divisor = symbol_facts(s)[0]
    g = math.gcd(divisor, m)
    return [r for r in range(m) if r % g == 0 and decide.prove("|", m, s - r) is not False
            and _fresh(s, m, r) is not None]


def _fresh(s: sympy.Symbol, m: int, r: int) -> Optional[sympy.Symbol]:
    """``s'`` with ``s == m * s' + r``, carrying the bounds of ``s`` (``None``: no such ``s'``)."""
    _, lo, hi = symbol_facts(s)
    if lo is None and (s.is_positive or s.is_nonnegative):
        lo = 1 if s.is_positive else 0
    lo2 = None if lo is None else -((r - lo) // m)         # ceil((lo - r) / m)
    hi2 = None if hi is None else (hi - r) // m
    if lo2 is not None and hi2 is not None and lo2 > hi2:
        return None
    sign = "any" if lo2 is None or lo2 < 0 else "nonnegative"
    return Dyn(f"{s.name}'", min=lo2, max=hi2, sign=sign)


def _fresh_sure(s: sympy.Symbol, m: int, r: int) -> sympy.Symbol:
    got = _fresh(s, m, r)
    if got is None:   # excluded by _feasible
        raise LayoutError(f"{s} % {m} == {r} is infeasible")
    return got


def _class_text(s: sympy.Symbol, m: int, residues: frozenset[int], feasible: Sequence[int]) -> str:
    """The residues ``residues`` of ``s`` modulo ``m`` (among ``feasible``) as few words say."""
    d = 1
    while d <= m:
        if m % d == 0:
            small = {r % d for r in residues}
            if {r for r in feasible if r % d in small} == set(residues):
                break
        d *= 2
    small_sorted = sorted({r % d for r in residues})
    others = sorted({r % d for r in feasible} - set(small_sorted))
    if not others:
        return ""
    if len(others) < len(small_sorted):     # the shorter text: the residues left out
        if len(others) == 1:
            return f"{s.name} % {d} != {others[0]}"
        return f"{s.name} % {d} not in {{{', '.join(map(str, others))}}}"
    if len(small_sorted) == 1:
        return f"{s.name} % {d} == {small_sorted[0]}"
    return f"{s.name} % {d} in {{{', '.join(map(str, small_sorted))}}}"


def _condition(split: Sequence[tuple[sympy.Symbol, int]], feas: Sequence[Sequence[int]],
               keys: Sequence[tuple[int, ...]]) -> str:
    keyset = set(keys)
    proj = [frozenset(k[i] for k in keys) for i in range(len(split))]
    if len(keyset) == math.prod(len(p) for p in proj):       # a product of per-symbol classes
        parts = [_class_text(s, m, proj[i], feas[i]) for i, (s, m) in enumerate(split)]
        text = " and ".join(p for p in parts if p)
        return text or "always"
    return " or ".join(
        "(" + " and ".join(f"{s.name} % {m} == {k[i]}" for i, (s, m) in enumerate(split)) + ")"
        for k in sorted(keyset))


def _sub_text(split: Sequence[tuple[sympy.Symbol, int]], combo: tuple[int, ...], sub: Sub) -> str:
    parts = []
    for (sym, m), r, b in zip(split, combo, sub):
        if b is None:
            parts.append(f"{sym.name} % {m} == {r}")
        elif b[0] == "eq":
            parts.append(f"{sym.name} == {m * b[1] + r}")
        else:
            rel = ">=" if b[0] == "ge" else "<="
            parts.append(f"{sym.name} % {m} == {r} and {sym.name} {rel} {m * b[1] + r}")
    return " and ".join(parts)


def _conditions(split: Sequence[tuple[sympy.Symbol, int]], feas: Sequence[Sequence[int]],
                keys: Sequence[tuple[tuple[int, ...], Sub]]) -> str:
    whole = [c for c, sub in keys if all(b is None for b in sub)]
    parts = [_condition(split, feas, whole)] if whole else []
    # the split cases, grouped by how each symbol was split (its bound, not its residue): a
    # bound on s' reads as one on s for every residue (s = m*s' + r >= m*b  <=>  s' >= b), so
    # "K % 16 == 1 and K >= 64", not one line per residue; pinned values read "K in {5, 7}"
    groups: dict[tuple[Any, ...], list[tuple[tuple[int, ...], Sub]]] = {}
    for c, sub in keys:
        if not all(b is None for b in sub):
            shape = tuple(None if b is None else (b[0], None if b[0] == "eq" else b[1]) for b in sub)
            groups.setdefault(shape, []).append((c, sub))
    for shape, entries in groups.items():
        text = _bounded_text(split, feas, shape, entries)
        if text is not None:
            parts.append(text)
            continue
        for c, sub in entries:      # not a product of per-symbol sets: one line each
            fixed = [i for i, b in enumerate(sub) if b is not None]
            text = _sub_text([split[i] for i in fixed], tuple(c[i] for i in fixed), tuple(sub[i] for i in fixed))
            free = [i for i, b in enumerate(sub) if b is None]
            rest = _condition([split[i] for i in free], [feas[i] for i in free], [tuple(c[i] for i in free)])
            parts.append(text if rest == "always" else f"{text} and {rest}")
    return " or ".join(parts)


def _bounded_text(split: Sequence[tuple[sympy.Symbol, int]], feas: Sequence[Sequence[int]],
                  shape: tuple[Any, ...], entries: Sequence[tuple[tuple[int, ...], Sub]]) -> Optional[str]:
    """One condition for split cases of one shape (each symbol free, pinned, or bounded the same
    way) when they are every combination of a set per symbol: pinned values, or residues
    (with the bound); else None."""
    points = set()
    for c, sub in entries:
        points.add(tuple(m * b[1] + r if b is not None and b[0] == "eq" else r
                         for (_, m), r, b in zip(split, c, sub)))
    proj = [sorted({p[i] for p in points}) for i in range(len(split))]
    if len(points) != math.prod(len(x) for x in proj):
        return None
    texts = []
    for i, ((sym, m), how) in enumerate(zip(split, shape)):
        if how is not None and how[0] == "eq":
            vals = proj[i]
            texts.append(f"{sym.name} == {vals[0]}" if len(vals) == 1
                         else f"{sym.name} in {{{', '.join(map(str, vals))}}}")
            continue
        cls = _class_text(sym, m, frozenset(proj[i]), feas[i])
        if cls:
            texts.append(cls)
        if how is not None:
            # the bound itself for one residue r (K >= 65 with K % 64 == 1); for several, the one
            # that is the same for all (K >= 64: no K below it has one of the residues above it)
            r = proj[i][0] if len(proj[i]) == 1 else (0 if how[0] == "ge" else m - 1)
            texts.append(f"{sym.name} {'>=' if how[0] == 'ge' else '<='} {m * how[1] + r}")
    return " and ".join(texts) if texts else "always"


def by_cases(exprs: Sequence[IntLike], period: int, fn: Callable[[Space], R],
             key: Callable[[R], Hashable], swizzle: Optional[Swizzle] = None,
             base: IntLike = 0, merge: Optional[Callable[[list[R]], R]] = None) -> Union[R, Cases[R]]:
    """``fn`` over the element offsets ``exprs``: its result, or one per case of the symbols.

    @pre ``period`` is a power of two, at least the period of the hardware rule and of the swizzle.
    @post no symbol: ``fn(Space)`` itself (an :class:`Invalid` becomes a :class:`LayoutError`) (a static path: no sympy object is made).
    @post symbols: the :class:`Cases` grouped by ``key``; a single group is returned as its result.
          ``key`` covers all a result states, or ``merge`` makes one result of a group's (equal
          keys) that states only what holds in all of them: a case's result holds at every value
          its condition admits (``Cases.at`` gives each case's own).
    """
    syms = _symbols(list(exprs) + [base])
    if not syms:
        try:
            return fn(Space(period, {}, swizzle, base))
        except Invalid as u:
            raise LayoutError(f"no legal access: {u}") from None
    allx = list(exprs) + [base]
    split = [(s, _modulus(s, allx, period)) for s in syms]
    feas = [_feasible(s, m) for s, m in split]
    if math.prod(len(f) for f in feas) > MAX_CASES:
        raise UndecidableError(f"too many cases to split ({' x '.join(f'{s.name} % {m}' for s, m in split)})")
    entries: list[tuple[tuple[int, ...], Sub, Union[R, Undecided, Invalid]]] = []

    syms_only = [sym for sym, _ in split]
    lin = {e: linear_form(e, syms_only) for e in allx}

    def attempt(combo: tuple[int, ...], sub: Sub, depth: int) -> None:
        subst: dict[sympy.Symbol, Any] = {}
        peels: list[list[Bound1]] = []      # the next split of each symbol when this case stays open
        steps: list[Step] = []
        for (sym, m), r, b in zip(split, combo, sub):
            fresh = _fresh_sure(sym, m, r)
            if b is not None and b[0] == "eq":
                subst[sym] = sympy.Integer(m * b[1] + r)
                peels.append([b])
                steps.append((m, r, None, b[1]))
                continue
            _, flo, fhi = symbol_facts(fresh)
            if b is not None and b[0] == "ge":
                flo = b[1]
            elif b is not None:
                fhi = b[1]
            if b is not None:
                fresh = Dyn(fresh.name, min=flo, max=fhi, sign="any" if flo is None or flo < 0 else "nonnegative")
            subst[sym] = m * fresh + r
            steps.append((m, r, fresh, 0))
            if flo is not None and (b is None or b[0] == "ge"):
                peels.append([("eq", flo), ("ge", flo + 1)])        # s' == lo, s' > lo
            elif fhi is not None:
                peels.append([("eq", fhi), ("le", fhi - 1)])        # s' == hi, s' < hi
            else:
                peels.append([("eq", 0), ("ge", 1), ("le", -1)])    # no bound: 0 apart (a stride of 0)
        try:
            entries.append((combo, sub, fn(Space(period, subst, swizzle, base, lin, steps))))
            return
        except (Undecided, Invalid) as u:
            if isinstance(u, Undecided):
                # a split of a symbol the question is not about settles nothing
                peels = [p if st[2] in u.symbols else [b] for p, b, st in zip(peels, sub, steps)]
            if isinstance(u, Invalid) or depth >= PEEL or all(p == [b] for p, b in zip(peels, sub)):
                entries.append((combo, sub, u))
                return
        for c in itertools.product(*peels):
            attempt(combo, tuple(c), depth + 1)

    for combo in itertools.product(*feas):
        attempt(combo, (None,) * len(split), 0)
    results: dict[tuple[int, ...], list[tuple[Sub, Union[R, str]]]] = {}
    groups: dict[Hashable, tuple[list[R], list[tuple[tuple[int, ...], Sub]]]] = {}
    undecided: dict[str, list[tuple[tuple[int, ...], Sub]]] = {}
    invalid: dict[str, list[tuple[tuple[int, ...], Sub]]] = {}
    for combo, sub, res in entries:
        if isinstance(res, Undecided):
            undecided.setdefault(str(res), []).append((combo, sub))
            results.setdefault(combo, []).append((sub, f"undecidable: {res}"))
        elif isinstance(res, Invalid):
            invalid.setdefault(str(res), []).append((combo, sub))
            results.setdefault(combo, []).append((sub, f"invalid: {res}"))
        else:
            results.setdefault(combo, []).append((sub, res))
            k = key(res)
            if k in groups:
                groups[k][0].append(res)
                groups[k][1].append((combo, sub))
            else:
                groups[k] = ([res], [(combo, sub)])

    def one(same: list[R]) -> R:
        return same[0] if merge is None or len(same) == 1 else merge(same)
    if len(groups) == 1 and not undecided and not invalid:
        return one(next(iter(groups.values()))[0])
    if not groups and not undecided:
        raise LayoutError("no legal instruction in any case: " + "; ".join(invalid))
    cases = [(_conditions(split, feas, keys), one(same)) for same, keys in groups.values()]
    und = [(_conditions(split, feas, keys), why) for why, keys in undecided.items()]
    inv = [(_conditions(split, feas, keys), why) for why, keys in invalid.items()]
    return Cases(cases, und, split, results, inv)
