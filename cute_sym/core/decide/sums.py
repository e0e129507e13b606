"""Sums: lower bounds of an expanded sum from its terms, each negative term paid for by positive
multiples of it, and the terms of ``e - g`` for a fact ``g >= 0`` without building the
difference (guard mode weighs every recorded fact against every question)."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from .base import Bound
from .intervals import _bounds, _fraction, _whole


Terms = tuple[tuple[Any, "sympy.Expr"], ...]   # (a string: sympy is imported on first use)


@lru_cache(maxsize=8192)
def _terms(e: sympy.Expr) -> Terms:
    """An expanded sum as its terms ``(c, m)``: the coefficient ``c`` an int or Fraction (None for a
    term whose coefficient is no rational, ``m`` then the whole term), the monomial ``m``
    (``S.One`` for the number)."""
    out: list[tuple[Any, sympy.Expr]] = []
    for t in sympy.Add.make_args(e):
        c, m = t.as_coeff_Mul()
        out.append((_frac_of(c), m) if c.is_Rational else (None, t))
    return tuple(out)


def _combined(te: Terms, tg: Terms, sign: int) -> Terms:
    """The terms of ``sign*e - g`` from those of ``e`` and ``g`` (like monomials merged, zeros
    dropped): what sympy's ``sign*e - g`` holds, without building it."""
    acc: dict[Any, Any] = {}
    other: list[tuple[Any, sympy.Expr]] = []
    for terms, k in ((te, sign), (tg, -1)):
        for c, m in terms:
            if c is None:
                other.append((None, m if k == 1 else -m))
            else:
                acc[m] = acc.get(m, 0) + k * c
    return tuple((c, m) for m, c in acc.items() if c != 0) + tuple(other)


def _term_lo(c: Any, m: sympy.Expr) -> Bound:
    """Lower bound of the term ``c*m`` (``c`` None: ``m`` is the whole term)."""
    if c is None:
        return _bounds(m)[0]
    if m is sympy.S.One:
        return _whole(c)  # type: ignore[no-any-return]
    lo, hi = _bounds(m)
    b = lo if c > 0 else hi
    return None if b is None else _whole(c * _frac_of(b))


def _lower(terms: Terms) -> Bound:
    """Lower bound of a sum given by its terms: the terms' own bounds added, or every negative
    term paid for by positive ones (:func:`_dominated_lo`), the larger."""
    lo: Bound = 0
    for c, m in terms:
        t = _term_lo(c, m)
        if t is None or lo is None:
            lo = None
            break
        lo = lo + t
    if len(terms) > 1:
        d = _dominated_lo(terms)
        if d is not None and (lo is None or d > lo):
            lo = d
    return lo


@lru_cache(maxsize=8192)
def _monomial(m: sympy.Expr) -> Optional[dict[Any, int]]:
    """``m`` as ``{generator: exponent}`` when every generator is at least 1, else None
    (memoised: guard mode weighs the same monomials against every fact; read, never changed)."""
    out: dict[Any, int] = {}
    for base, ex in m.as_powers_dict().items():
        if not ex.is_Integer or ex.p <= 0:
            return None
        lo = _bounds(base)[0]
        if lo is None or lo < 1:
            return None
        out[base] = int(ex.p)
    return out


def _frac_of(x: Any) -> Any:
    """An int, Fraction or sympy Rational bound as an int (a whole number: the arithmetic on it
    stays in ints) or a Python Fraction."""
    Fraction = _fraction()
    if type(x) is int or type(x) is Fraction:
        return x
    return int(x.p) if x.q == 1 else Fraction(int(x.p), int(x.q))


def _dominated_lo(terms: Terms) -> Bound:
    """Lower bound of a sum given by its terms (:func:`_terms`), pairing each negative term
    ``-c*m`` with positive terms ``c'*m*r`` (``r`` a product of generators >= 1), which pay for it.

    Sound because ``p*m*r - p*m = p*m*(r-1) >= 0`` when ``m >= 1`` and ``r >= 1``.
    The coefficients are counted in Python ints and fractions (sympy's number comparisons are slow).
    """
    pos: list[list[Any]] = []   # [coefficient left, powers, monomial]
    neg: list[list[Any]] = []
    rest: list[tuple[Any, sympy.Expr]] = []
    const: Any = 0      # ints where the coefficients are (a Fraction costs a microsecond an operation)
    for c, m in terms:
        if c is None:
            rest.append((c, m))
            continue
        if m is sympy.S.One:
            const += c
            continue
        pw = _monomial(m)
        if pw is None:
            rest.append((c, m))
            continue
        (pos if c > 0 else neg).append([c if c > 0 else -c, pw, m])
    if not neg and const >= 0:
        return None     # nothing to pay for: plain interval bounds are as good
    if const < 0:
        neg.append([-const, {}, sympy.S.One])
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
            hi = _bounds(m)[1]      # the lower bound of -need*m is -need * hi(m)
            if hi is None:
                return None
            total -= need * _frac_of(hi)
    for p in pos:
        if p[0] > 0:
            lo = _bounds(p[2])[0]
            if lo is None:
                return None
            total += p[0] * _frac_of(lo)
    for c, m in rest:
        lo = _term_lo(c, m)
        if lo is None:
            return None
        total += _frac_of(lo)
    return total if type(total) is int or total.denominator != 1 else int(total)
