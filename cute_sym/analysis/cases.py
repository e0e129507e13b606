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
from typing import Callable, Generic, Hashable, Iterable, Optional, Sequence, TypeVar, Union

import sympy

from ..core import decide
from ..core.errors import LayoutError, UndecidableError
from ..core.integers import Dyn, IntLike, symbol_facts
from ..swizzle import Swizzle

R = TypeVar("R")
MAX_CASES = 4096


class Undecided(Exception):
    """Raised inside one case when the decision procedure answers *unknown*."""


class Invalid(Exception):
    """Raised inside one case when the access is no legal instruction (a misaligned vector)."""


class Space:
    """Element offsets of one case as (high part, residue): ``offset == q * period + c``.

    ``swizzle`` and ``base`` are those of a composed layout ``Sw o base o L``: the
    residue returned is the swizzled one (the swizzle moves no bit at or above the period).
    """
    __slots__ = ("period", "subst", "swizzle", "base", "_memo")

    def __init__(self, period: int, subst: dict[sympy.Symbol, sympy.Expr],
                 swizzle: Optional[Swizzle] = None, base: IntLike = 0) -> None:
        self.period = period
        self.subst = subst
        self.swizzle = swizzle
        self.base = base
        self._memo: dict[IntLike, tuple[IntLike, int]] = {}

    def addr(self, inner: IntLike) -> tuple[IntLike, int]:
        """(q, c) of the element at ``swizzle(base + inner)``."""
        got = self._memo.get(inner)
        if got is None:
            got = self._split(inner if type(self.base) is int and self.base == 0 else inner + self.base)
            if self.swizzle is not None:
                got = (got[0], self.swizzle(got[1]))
            self._memo[inner] = got
        return got

    def _split(self, off: IntLike) -> tuple[IntLike, int]:
        P = self.period
        if type(off) is int:
            return off // P, off % P
        e = sympy.expand(sympy.sympify(off).xreplace(self.subst))
        if e.is_Integer:
            return int(e) // P, int(e) % P
        const, rest = e.as_coeff_Add()
        if not const.is_Integer or decide.prove("|", P, rest) is not True:
            raise Undecided(f"the offset {off} is not fixed modulo {P} elements")
        c = int(const) % P
        q = sympy.expand((e - c) / P)
        return (int(q) if q.is_Integer else q), c

    def same(self, q1: IntLike, q2: IntLike) -> bool:
        """Whether two high parts are equal, decided (else :class:`Undecided`)."""
        if type(q1) is int and type(q2) is int:
            return q1 == q2
        got = decide.prove("==", q1, q2)
        if got is None:
            raise Undecided(f"whether {q1} == {q2}")
        return got


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
    _results: dict[tuple[int, ...], Union[R, str]]

    def __init__(self, cases: Sequence[tuple[str, R]], undecidable: Sequence[tuple[str, str]],
                 split: Sequence[tuple[sympy.Symbol, int]], results: dict[tuple[int, ...], Union[R, str]],
                 invalid: Sequence[tuple[str, str]] = ()) -> None:
        object.__setattr__(self, "cases", tuple(cases))
        object.__setattr__(self, "invalid", tuple(invalid))
        object.__setattr__(self, "undecidable", tuple(undecidable))
        object.__setattr__(self, "_split", tuple(split))
        object.__setattr__(self, "_results", dict(results))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Cases is immutable")

    def at(self, **values: int) -> R:
        """The result when each symbol takes the value given (by its name).

        @pre a value for every symbol split on, in a decided case (else :class:`LayoutError`).
        """
        key = []
        for s, m in self._split:
            if s.name not in values:
                raise LayoutError(f"Cases.at: no value for {s.name}")
            key.append(values[s.name] % m)
        got = self._results.get(tuple(key))
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
    if {r % d for r in feasible} == set(small_sorted):
        return ""
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


def by_cases(exprs: Sequence[IntLike], period: int, fn: Callable[[Space], R],
             key: Callable[[R], Hashable], swizzle: Optional[Swizzle] = None,
             base: IntLike = 0) -> Union[R, Cases[R]]:
    """``fn`` over the element offsets ``exprs``: its result, or one per case of the symbols.

    @pre ``period`` is a power of two, at least the period of the hardware rule and of the swizzle.
    @post no symbol: ``fn(Space)`` itself (an :class:`Invalid` becomes a :class:`LayoutError`) (a static path: no sympy object is made).
    @post symbols: the :class:`Cases` grouped by ``key``; a single group is returned as its result.
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
    groups: dict[Hashable, tuple[R, list[tuple[int, ...]]]] = {}
    undecided: dict[str, list[tuple[int, ...]]] = {}
    invalid: dict[str, list[tuple[int, ...]]] = {}
    results: dict[tuple[int, ...], Union[R, str]] = {}
    for combo in itertools.product(*feas):
        subst = {s: m * _fresh_sure(s, m, r) + r for (s, m), r in zip(split, combo)}
        try:
            res = fn(Space(period, subst, swizzle, base))
        except Undecided as u:
            undecided.setdefault(str(u), []).append(combo)
            results[combo] = f"undecidable: {u}"
            continue
        except Invalid as u:
            invalid.setdefault(str(u), []).append(combo)
            results[combo] = f"invalid: {u}"
            continue
        results[combo] = res
        k = key(res)
        if k in groups:
            groups[k][1].append(combo)
        else:
            groups[k] = (res, [combo])
    if len(groups) == 1 and not undecided and not invalid:
        return next(iter(groups.values()))[0]
    if not groups and not undecided:
        raise LayoutError("no legal instruction in any case: " + "; ".join(invalid))
    cases = [(_condition(split, feas, combos), res) for res, combos in groups.values()]
    und = [(_condition(split, feas, combos), why) for why, combos in undecided.items()]
    inv = [(_condition(split, feas, combos), why) for why, combos in invalid.items()]
    return Cases(cases, und, split, results, inv)
