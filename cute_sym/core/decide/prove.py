"""prove: proved, refuted or unknown, for one relation between two integers."""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..errors import LayoutError
from ..integers import IntLike
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
    return _prove_sym(rel, sa, sb, _facts_in_force())


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


