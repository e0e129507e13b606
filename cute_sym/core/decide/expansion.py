"""Polynomial expansion in plain Python: ``sympy.expand``'s answer without its machinery.

The decision procedure expands every difference it orders and every fact guard mode records,
and nearly all of them are expanded already (93% of the 21,500 distinct ones the conformance
corpora ask, under guards and plainly). sympy's ``expand`` runs each of its hints over the
whole tree to find that out, and multiplies out through sympy objects, building each
intermediate product. Here a formula already in expanded form is returned at once, and a
polynomial is multiplied out as a dict of monomials with ``int``/``Fraction`` coefficients,
built as sympy objects once at the end. Anything else (a call such as ``floor`` with a
polynomial inside, a power of a sum with a negative exponent other than ``-1``, more than
``_MAX_TERMS`` terms) is left to ``sympy.expand``, so the answer is always sympy's own.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from .intervals import _fraction

__all__ = ["expand", "expand_over_calls", "is_expanded"]

# a product with more terms than this goes to sympy (which is then as slow as it always was)
_MAX_TERMS = 512

_Mono = frozenset[tuple[Any, int]]        # (atom, exponent) pairs: equal monomials, equal sets
_Poly = dict[_Mono, Any]                  # monomial -> non-zero int or Fraction
_UNIT: _Mono = frozenset()                # the monomial 1
Call = Callable[[Any], Any]


def is_expanded(e: sympy.Expr, call: Optional[Call] = None) -> bool:
    """``sympy.expand(e)`` is ``e`` itself, by structure: no product has a sum for a factor,
    no sum is raised to a power other than ``-1``, and there is no call (whose arguments
    ``expand`` would rebuild) anywhere. With ``call``, a call ``x`` is an atom where
    ``call(x) == x`` (see :func:`expand_over_calls`).

    @post ``True`` implies ``sympy.expand(e) == e``, with ``call`` ``expand_over_calls(e, call)
          == e`` (a sufficient test: ``False`` says nothing).

    >>> from cute_sym.core.integers import Dyn
    >>> M, N = Dyn("M"), Dyn("N")
    >>> is_expanded(2 * M * N + M - 3), is_expanded(M / (M + N)), is_expanded(M * (N + 1))
    (True, True, False)
    """
    seen: set[Any] = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if x.is_Atom or x in seen:
            continue
        seen.add(x)
        if x.is_Add:
            stack.extend(x.args)
        elif x.is_Mul:
            for t in x.args:
                if t.is_Add:
                    return False
                stack.append(t)
            if _sum_over_product(x.args):
                return False
        elif x.is_Pow and x.exp.is_Integer:
            if x.base.is_Add and x.exp != -1:
                return False
            stack.append(x.base)
        elif call is None or call(x) != x:
            return False
    return True


def expand(e: sympy.Expr) -> sympy.Expr:
    """``sympy.expand(e)``, the same expression, mostly without calling it.

    @post ``expand(e) == sympy.expand(e)`` (the same sympy object up to ``==``) for every ``e``.

    >>> from cute_sym.core.integers import Dyn
    >>> M, N = Dyn("M"), Dyn("N")
    >>> expand((M + 2) * (N - 1) - M * N)
    -M + 2*N - 2
    >>> expand((M + N) ** 2 / M)
    M + 2*N + N**2/M
    """
    if is_expanded(e):
        return e
    p = _poly(e, {})
    if p is None or any(_sum_over_product_mono(m, c) for m, c in p.items()):
        return sympy.expand(e)
    return _build(p)


def expand_over_calls(e: sympy.Expr, call: Call) -> Optional[sympy.Expr]:
    """``e`` expanded over ``+``, ``*`` and integer powers, each call ``x`` in it (``floor``,
    ``Min``, ...) taken as the atom ``call(x)`` (its arguments as the caller wants them);
    ``None`` where that does not settle the form (``call(x)`` is a number or a formula, a sum
    with a call in it is in a denominator, more than ``_MAX_TERMS`` terms), for the caller's
    own way.

    @post a result is what replacing each call ``x`` by a fresh symbol standing for ``call(x)``
          (or, where ``call(x)`` is a sum or product such as ``floor(q) + 1``, by that formula,
          each call in it replaced alike), expanding with sympy and putting the calls back gives.

    >>> import sympy
    >>> from cute_sym.core.integers import Dyn
    >>> M, N = Dyn("M"), Dyn("N")
    >>> expand_over_calls((sympy.floor(M / 4) + N) * (N - 1), lambda x: x)
    N**2 + N*floor(M/4) - N - floor(M/4)
    """
    if is_expanded(e, call):
        return e
    p = _poly(e, {}, call)
    if p is None or any(_sum_over_product_mono(m, c) for m, c in p.items()):
        return None
    return _build(p)


def _sum_over_product(factors: tuple[Any, ...]) -> bool:
    """A product's denominator is a product with a sum in it (``x/(2*(a+b))``, ``1/(a*(a+b))``):
    sympy's expand multiplies the denominator out."""
    sums = others = 0
    for t in factors:
        if t.is_Pow and t.exp.is_Integer and t.exp.p < 0:
            if t.base.is_Add:
                sums += 1
            else:
                others += 1
        elif t.is_Rational and t.q != 1:
            others += 1
    return sums > 0 and sums + others > 1


def _sum_over_product_mono(m: _Mono, c: Any) -> bool:
    """The same for a monomial of :func:`_poly` (a ``1/(a+b)`` is an atom there)."""
    sums = others = 0
    for a, n in m:
        if a.is_Pow:
            sums += n
        elif n < 0:
            others += 1
    return sums > 0 and (sums + others > 1 or type(c) is not int)


def _poly(x: Any, memo: dict[Any, Optional[_Poly]], call: Optional[Call] = None) -> Optional[_Poly]:
    """``x`` as monomial -> coefficient; ``None`` where only sympy's expand knows the form."""
    if x in memo:
        return memo[x]
    r: Optional[_Poly]
    if x.is_Number:
        if x.is_Integer:
            r = {_UNIT: int(x.p)} if x.p else {}
        elif x.is_Rational:
            r = {_UNIT: _fraction()(int(x.p), int(x.q))}
        else:
            r = None
    elif x.is_Symbol:
        r = {frozenset(((x, 1),)): 1}
    elif x.is_Add:
        r = {}
        for t in x.args:
            q = _poly(t, memo, call)
            if q is None:
                r = None
                break
            _add_into(r, q)
    elif x.is_Mul:
        # the symbols and their powers make one monomial at once (a product of n symbols would
        # otherwise be n-1 monomial products); the other factors are multiplied in
        coeff: Any = 1
        mono: dict[Any, int] = {}
        rest: list[Any] = []
        for t in x.args:
            if t.is_Symbol:
                mono[t] = mono.get(t, 0) + 1
            elif t.is_Pow and t.base.is_Symbol and t.exp.is_Integer:
                mono[t.base] = mono.get(t.base, 0) + int(t.exp)
            elif t.is_Integer:
                coeff *= int(t.p)
            else:
                rest.append(t)
        r = {frozenset((k, n) for k, n in mono.items() if n): coeff} if coeff else {}
        for t in rest:
            q = _poly(t, memo, call)
            r = None if q is None else _mul(r, q)
            if r is None:
                break
    elif x.is_Pow and x.exp.is_Integer:
        n = int(x.exp)
        b = x.base
        if b.is_Add:
            r = None
            if n > 0:
                q = _poly(b, memo, call)
                r = {_UNIT: 1} if q is not None else None
                for _ in range(n):
                    if r is None or q is None:
                        break
                    r = _mul(r, q)
            elif n == -1 and is_expanded(b):
                r = {frozenset(((x, 1),)): 1}      # 1/(a+b): an atom of the product (its base expanded)
        elif b.is_Symbol:
            r = {frozenset(((b, n),)): 1}
        else:
            a = None if call is None else _call_atom(b, call(b))
            r = None if a is None else {frozenset(((a, n),)): 1}
    else:
        y = None if call is None else call(x)
        if y is not None and y is not x and (y.is_Number or y.is_Add or y.is_Mul):
            # a rounding with its integer terms taken out (floor(q) + 1): those terms, each call
            # in them an atom in turn (None meanwhile: a y that held x again would end there)
            memo[x] = None
            r = _poly(y, memo, call)
        else:
            a = None if y is None else _call_atom(x, y)
            r = None if a is None else {frozenset(((a, 1),)): 1}
    memo[x] = r
    return r


def _call_atom(x: Any, y: Any) -> Any:
    """The atom standing for the call ``x`` whose ``call(x)`` is ``y``: ``y`` where that is a call
    or a symbol (without ``call``, sympy expands the call's arguments: no atom)."""
    if y is x or y.is_Symbol:
        return y
    if y.is_Atom or y.is_Add or y.is_Mul or y.is_Pow or not y.args:
        return None     # a number or a formula: the caller's way (rare)
    return y


def _add_into(r: _Poly, q: _Poly) -> None:
    for m, c in q.items():
        v = r.get(m, 0) + c
        if v:
            r[m] = v
        else:
            r.pop(m, None)


def _mul(p: _Poly, q: _Poly) -> Optional[_Poly]:
    if len(p) * len(q) > _MAX_TERMS * 4:
        return None
    out: _Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            m = _mono_mul(m1, m2)
            v = out.get(m, 0) + c1 * c2
            if v:
                out[m] = v
            else:
                out.pop(m, None)
    return out if len(out) <= _MAX_TERMS else None


def _mono_mul(a: _Mono, b: _Mono) -> _Mono:
    if not a:
        return b
    if not b:
        return a
    d = dict(a)
    for k, n in b:
        v = d.get(k, 0) + n
        if v:
            d[k] = v
        else:
            del d[k]
    return frozenset(d.items())


def _build(p: _Poly) -> sympy.Expr:
    terms: list[Any] = []
    for m, c in p.items():
        coeff = sympy.Integer(c) if type(c) is int else sympy.Rational(c.numerator, c.denominator)
        factors: list[Any] = [] if coeff == 1 else [coeff]
        for a, n in m:
            factors.append(a if n == 1 else sympy.Pow(a, n))
        terms.append(factors[0] if len(factors) == 1 else sympy.Mul(*factors) if factors else coeff)
    return sympy.Add(*terms) if terms else sympy.S.Zero
