"""prove: proved, refuted or unknown, for one relation between two integers."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..errors import LayoutError
from ..integers import IntLike, symbol_facts
from .base import Fact, Rel, _RELS, _facts_in_force, _prove_int, _sym
from .divisibility import _divides
from .reason import _EXPAND_MAX_NODES, _bounds, _context, _decide_diff, _scan, _subst, _verdict


def prove(rel: Rel, a: IntLike, b: IntLike) -> Optional[bool]:
    """Decide ``a rel b``: ``True`` proved, ``False`` refuted, ``None`` unknown.

    @pre ``rel`` is one of ``== != < <= > >= |``; ``a``, ``b`` integers.
    @post a ``True``/``False`` answer holds for every value of the symbols that
          satisfies their facts (and the facts in force).

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import prove
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
    facts = _facts_in_force()
    if rel != "|" and not facts:
        quick = _quick_vs_int(rel, sa, int(sb)) if sb.is_Integer else _quick_ratio(rel, sa, sb)
        if quick is not None:
            return quick
    return _prove_sym(rel, sa, sb, facts)


def _quick_ratio(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> Optional[bool]:
    """Two positive monomials whose ratio is a number, or a monomial ``c * x**k * ...``
    (``c >= 1``, positive symbols, positive powers: at least 1): their order, read off
    the ratio. None when the shapes do not settle it."""
    if rel not in ("<", "<=", ">", ">=") or not (_monomial_pos(a) and _monomial_pos(b)):
        return None
    q = a / b
    if q.is_Number:
        return _prove_int_frac(rel, q)
    if _at_least_one(q):        # a >= b
        return {"<": False, ">=": True}.get(rel)
    if _at_least_one(1 / q):    # a <= b
        return {"<=": True, ">": False}.get(rel)
    return None


def _prove_int_frac(rel: Rel, q: Any) -> bool:
    """``a rel b`` for ``a = q*b``, ``b > 0``: ``q rel 1``."""
    if rel == "<":
        return bool(q < 1)
    if rel == "<=":
        return bool(q <= 1)
    if rel == ">":
        return bool(q > 1)
    return bool(q >= 1)


def _monomial_pos(e: sympy.Expr) -> bool:
    """A positive number, a positive symbol, or a product/power of them."""
    if e.is_Symbol:
        return e.is_positive is True
    if e.is_Number:
        return bool(e > 0)
    if e.is_Mul:
        return all(_monomial_pos(f) for f in e.args)
    if e.is_Pow:
        return bool(e.exp.is_Integer) and _monomial_pos(e.base)
    return False


def _at_least_one(q: sympy.Expr) -> bool:
    """``c * s1**k1 * ...`` with ``c >= 1``, positive integer symbols, positive powers: ``q >= 1``."""
    c, m = q.as_coeff_Mul()
    if not (c.is_Number and c >= 1):
        return False
    for base, ex in m.as_powers_dict().items():
        if base is sympy.S.One:
            continue
        if not (base.is_Symbol and base.is_positive is True and base.is_integer is True
                and ex.is_Integer and ex > 0):
            return False
    return True


def _quick_vs_int(rel: Rel, a: sympy.Expr, c: int) -> Optional[bool]:
    """``a rel c`` read off the structure, the cheap checks before any reasoning (no facts in force):
    a symbol against its own bounds and divisor; a product of positive factors against 0.
    None: not settled here (the full procedure decides)."""
    if a.is_Symbol:
        d, lo, hi = symbol_facts(a)
        if lo is not None and lo == hi:
            return _prove_int(rel, lo, c)
        if rel == "==" or rel == "!=":
            differ = (lo is not None and c < lo) or (hi is not None and c > hi) or (d > 1 and c % d != 0)
            return (rel == "!=") if differ else None
        if lo is not None and _prove_int(rel, lo, c) and (hi is None or _prove_int(rel, hi, c)):
            return True if rel in (">", ">=") else None
        return None
    if c == 0 and _positive(a):
        return rel in ("!=", ">", ">=")
    return None


def _positive(e: sympy.Expr) -> bool:
    """A product (or sum) of positive numbers and positive symbols: positive by its shape alone."""
    if e.is_Symbol:
        return e.is_positive is True
    if e.is_Number:
        return bool(e > 0)
    if e.is_Mul:
        return all(_positive(f) for f in e.args)
    if e.is_Pow:
        return bool(e.exp.is_Integer) and _positive(e.base)
    if e.is_Add:
        return all(_positive(t) for t in e.args)
    return False


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


