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
from .space import Invalid, Space, Step, Undecided, settle
from .tables import Lin, linear_form

__all__ = ["Cases", "by_cases", "Space", "Invalid", "Undecided", "Step", "settle", "linear_form", "Lin",
           "MAX_CASES", "PEEL"]

R = TypeVar("R")
MAX_CASES = 4096
PEEL = 2        # values of s' tried one by one when s' >= lo leaves a question open
# per symbol: None (s' as its bounds allow), ("eq", v): s' == v, ("ge", v): s' >= v, ("le", v): s' <= v
Bound1 = Optional[tuple[str, int]]
Sub = tuple[Bound1, ...]


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


_fresh_cache: dict[tuple[Any, ...], Optional[sympy.Symbol]] = {}


def _fresh(s: sympy.Symbol, m: int, r: int) -> Optional[sympy.Symbol]:
    """``s'`` with ``s == m * s' + r``, carrying the bounds of ``s`` (``None``: no such ``s'``).
    Cached by all it reads of ``s`` (its name, facts and sign), so a case made again gets the
    same symbol without building it again."""
    key = (s.name, symbol_facts(s), s.is_positive, s.is_nonnegative, m, r)
    if key in _fresh_cache:
        return _fresh_cache[key]
    got = _make_fresh(s, m, r)
    if len(_fresh_cache) >= 4096:
        _fresh_cache.clear()
    _fresh_cache[key] = got
    return got


def _make_fresh(s: sympy.Symbol, m: int, r: int) -> Optional[sympy.Symbol]:
    """:func:`_fresh` built."""
    _, lo, hi = symbol_facts(s)
    if lo is None and (s.is_positive or s.is_nonnegative):
        lo = 1 if s.is_positive else 0
    lo2 = None if lo is None else -((r - lo) // m)         # ceil((lo - r) / m)
    hi2 = None if hi is None else (hi - r) // m
    if lo2 is not None and hi2 is not None and lo2 > hi2:
        return None
    sign = "any" if lo2 is None or lo2 < 0 else "nonnegative"
    return Dyn(f"{s.name}'", min=lo2, max=hi2, sign=sign)


_step_cache: dict[tuple[Any, int, int], Any] = {}


def _step_expr(fresh: sympy.Symbol, m: int, r: int) -> Any:
    """``m * fresh + r`` (cached: a case made again substitutes the same formula; a symbol's
    equality covers its facts, so the key names it exactly).

    >>> _step_expr(Dyn("K'", sign="nonnegative"), 64, 8)
    64*K' + 8
    """
    key = (fresh, m, r)
    got = _step_cache.get(key)
    if got is None:
        got = m * fresh + r
        if len(_step_cache) >= 4096:
            _step_cache.clear()
        _step_cache[key] = got
    return got


def _fresh_sure(s: sympy.Symbol, m: int, r: int) -> sympy.Symbol:
    got = _fresh(s, m, r)
    if got is None:   # excluded by _feasible
        raise LayoutError(f"{s} % {m} == {r} is infeasible")
    return got


_counts_cache: dict[tuple[tuple[int, ...], int], dict[int, int]] = {}


def _class_counts(feasible: tuple[int, ...], d: int) -> dict[int, int]:
    """How many of ``feasible`` lie in each class modulo ``d`` (cached).

    >>> _class_counts((0, 1, 2, 5), 2)
    {0: 2, 1: 2}
    """
    key = (feasible, d)
    got = _counts_cache.get(key)
    if got is None:
        got = {}
        for r in feasible:
            got[r % d] = got.get(r % d, 0) + 1
        if len(_counts_cache) >= 1024:
            _counts_cache.clear()
        _counts_cache[key] = got
    return got


def _class_text(s: sympy.Symbol, m: int, residues: frozenset[int], feasible: Sequence[int]) -> str:
    """The residues ``residues`` of ``s`` modulo ``m`` (among ``feasible``) as few words say."""
    d = 1
    feas = tuple(feasible)
    while d <= m:
        if m % d == 0:
            small = {r % d for r in residues}
            # the feasible residues in those classes are at least ``residues`` (a subset): as
            # many of them is all of them; the sets are compared when the counts agree
            counts = _class_counts(feas, d)
            if sum(counts.get(x, 0) for x in small) == len(residues) and \
                    {r for r in feasible if r % d in small} == set(residues):
                break
        d *= 2
    small_sorted = sorted({r % d for r in residues})
    others = sorted(set(_class_counts(feas, d)) - set(small_sorted))
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
             base: IntLike = 0, merge: Optional[Callable[[list[R]], R]] = None,
             keyed: Optional[Sequence[sympy.Symbol]] = None) -> Union[R, Cases[R]]:
    """``fn`` over the element offsets ``exprs``: its result, or one per case of the symbols.

    ``keyed``: the ``exprs`` are integer linear forms ``(const, coeffs)`` over these symbols
    (each with a nonzero coefficient somewhere), and ``fn`` reads them so (the hot path);
    ``base`` stays an offset (it must then be linear in its symbols).

    @pre ``period`` is a power of two, at least the period of the hardware rule and of the swizzle.
    @post no symbol: ``fn(Space)`` itself (an :class:`Invalid` becomes a :class:`LayoutError`) (a static path: no sympy object is made).
    @post symbols: the :class:`Cases` grouped by ``key``; a single group is returned as its result.
          ``key`` covers all a result states, or ``merge`` makes one result of a group's (equal
          keys) that states only what holds in all of them: a case's result holds at every value
          its condition admits (``Cases.at`` gives each case's own).
    @post ``keyed``: the same answer as for the offsets the linear forms stand for.
    """
    kproj: Optional[tuple[Optional[int], ...]] = None
    blin: Lin = (0, ())
    lin: dict[IntLike, Optional[Lin]] = {}
    if keyed is None:
        syms = _symbols(list(exprs) + [base])
    else:
        syms = sorted(set(keyed) | set(_symbols([base])), key=lambda s: s.name)
    if not syms:
        try:
            return fn(Space(period, {}, swizzle, base))
        except Invalid as u:
            raise LayoutError(f"no legal access: {u}") from None
    if keyed is None:
        allx = list(exprs) + [base]
        split = [(s, _modulus(s, allx, period)) for s in syms]
        lin = {e: linear_form(e, syms) for e in allx}
    else:
        got_b = linear_form(base, syms)
        if got_b is None:
            raise LayoutError(f"the base offset {base} is not linear in its symbols")
        blin = got_b
        where = {s: i for i, s in enumerate(keyed)}
        kproj = tuple(where.get(s) for s in syms)
        gs = [math.gcd(0, abs(blin[1][i])) for i in range(len(syms))]
        cols: list[tuple[int, ...]] = list(zip(*(k[1] for k in exprs))) if exprs else []  # type: ignore[index]
        for i, j in enumerate(kproj):
            if j is not None:
                gs[i] = math.gcd(gs[i], *cols[j])
        split = [(s, period // math.gcd(period, g) if g else 1) for s, g in zip(syms, gs)]
    feas = [_feasible(s, m) for s, m in split]
    if math.prod(len(f) for f in feas) > MAX_CASES:
        raise UndecidableError(f"too many cases to split ({' x '.join(f'{s.name} % {m}' for s, m in split)})")
    entries: list[tuple[tuple[int, ...], Sub, Union[R, Undecided, Invalid]]] = []

    keyed_space = None if kproj is None else (kproj, blin)

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
            subst[sym] = _step_expr(fresh, m, r)
            steps.append((m, r, fresh, 0))
            if flo is not None and (b is None or b[0] == "ge"):
                peels.append([("eq", flo), ("ge", flo + 1)])        # s' == lo, s' > lo
            elif fhi is not None:
                peels.append([("eq", fhi), ("le", fhi - 1)])        # s' == hi, s' < hi
            else:
                peels.append([("eq", 0), ("ge", 1), ("le", -1)])    # no bound: 0 apart (a stride of 0)
        try:
            entries.append((combo, sub, fn(Space(period, subst, swizzle, base, lin, steps, keyed_space))))
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
