"""Divisibility: whether one integer divides another."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import symbol_facts
from .base import Bound, Fact, _prove_int, _same
from .reason import _bounds, _decide_diff, _expand, _subst
from .expansion import expand
from .rounding import integral


# ---------------------------------------------------------------- divisibility
def _is_int_poly_term(q: sympy.Expr) -> bool:
    """``q`` is an integer times a product of integer-valued generators (non-negative powers)."""
    c, m = q.as_coeff_Mul()
    if not c.is_Integer:
        return False
    return m is sympy.S.One or _int_product(m)


def _int_product(m: sympy.Expr) -> bool:
    """``m`` is a product of non-negative powers of integer-valued generators, read from its
    structure (:func:`_int_valued`): no query of sympy's assumption system on the product
    (deducing the facts of each new product costs far more than the question)."""
    if m.is_Symbol:
        return m.is_integer is True
    for base, ex in m.as_powers_dict().items():
        if not ex.is_Integer or ex.p < 0 or not _int_valued(base):
            return False
    return True


def _int_valued(e: sympy.Expr) -> bool:
    """``e`` takes an integer value wherever it is defined, read from its structure
    (:func:`~cute_sym.core.decide.rounding.integral`); a part of no known structure by sympy's
    own assumption (a query: deducing the facts of a new ``ceiling(8/S)`` walks its
    argument's, 1-3 ms with sympy's cache cold).

    >>> from cute_sym.core.integers import Dyn
    >>> S = sympy.sympify(Dyn("S"))
    >>> _int_valued(sympy.ceiling(8 / S) * S), _int_valued(S / 2), _int_valued(sympy.Min(4, S / 2))
    (True, False, False)
    """
    return integral(e, ask=True)


def _int_gcd_divides(n: int, b: sympy.Expr) -> Optional[bool]:
    """``n | b`` for an integer ``n > 0`` from the coefficients of the expanded ``b``."""
    const, terms = b.as_coeff_Add()
    if not const.is_Integer:
        return None
    g = 0
    for t in sympy.Add.make_args(terms):
        if t is sympy.S.Zero:
            continue
        c, m = t.as_coeff_Mul()
        if not c.is_Integer or not _int_product(m):
            return None
        g = math.gcd(g, int(c))
    if g % n == 0:
        return int(const) % n == 0
    return None


def _nonzero(e: sympy.Expr) -> bool:
    lo, hi = _bounds(e)
    return (lo is not None and lo > 0) or (hi is not None and hi < 0)


def _zero(e: sympy.Expr) -> bool:
    """``e`` is 0 at every value, by its bounds (sympy's ``is_zero`` asks its assumption system:
    milliseconds on the nested formulas guard mode builds)."""
    if e.is_Number:
        return bool(e == 0)
    lo, hi = _bounds(e)
    return lo == 0 and hi == 0


def _divides(a: sympy.Expr, b: sympy.Expr, facts: tuple[Fact, ...], sub: dict[Any, Any]) -> Optional[bool]:
    if _zero(b):
        return True
    if _zero(a):
        return _decide_diff("==", b, ())
    if a.is_Number and b.is_Number:
        if a.is_Integer and b.is_Integer:
            return _prove_int("|", int(a), int(b))
        return None
    if a == 1 or a == -1 or _same(a, b) or _same(a, -b):
        return True
    memo: dict[Any, Any] = {}      # the facts share their parts: each substituted once
    for f in facts:
        if f[0] == "dvd" and _same(_subst(f[2], sub, memo), b) and (
                _same(f[1], a) or _same(_subst(f[1], sub, memo), a)
                or (a.is_Integer and f[1].is_Integer and int(f[1]) % int(a) == 0)):
            return True
    eb = _expand(b)
    if _zero(eb):
        return True
    ca, ma = a.as_coeff_Mul()
    if ma is sympy.S.One:      # a is a number
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
    # (a min/max is rebuilt unevaluated by the expansion: never a sum, nothing to divide by)
    ea = a if a.func is sympy.Min or a.func is sympy.Max else _expand(a)
    if ea.is_Add and len(ea.args) + len(sympy.Add.make_args(eb)) <= 8:
        try:
            qp, rp = sympy.div(eb, ea)
        except (sympy.PolynomialError, sympy.polys.polyerrors.PolificationFailed, NotImplementedError):  # pragma: no cover
            qp, rp = None, None
        if rp is not None and rp == 0 and all(_is_int_poly_term(t) for t in sympy.Add.make_args(expand(qp))):
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


