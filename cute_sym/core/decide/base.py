"""The vocabulary of the decision procedure: relations, facts, bounds, the facts in force, and the static path."""
from __future__ import annotations

import contextvars
from typing import TYPE_CHECKING, Any, Optional, Union

if TYPE_CHECKING:
    from fractions import Fraction

    import sympy
else:
    from ..lazy import sympy

from ..errors import LayoutError


Rel = str
_RELS = ("==", "!=", "<", "<=", ">", ">=", "|")
# the relation with its sides swapped: a rel b is b _FLIP[rel] a
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}

# A fact is a normalised tuple: ("ge0", e) e >= 0; ("eq0", e) e == 0; ("dvd", d, e) d | e.
Fact = tuple[Any, ...]
Bound = Optional[Union[int, "Fraction"]]   # Python Fractions: fast to compare

_FACTS: contextvars.ContextVar[tuple[Fact, ...]] = contextvars.ContextVar("cute_sym_facts", default=())


class GuardFacts:
    """What the layers below ``guards`` read of the guards being collected: the facts recorded
    so far (``guards.Guards`` is the full record; this root keeps the stack free of an upward
    reference)."""

    __slots__ = ("_facts",)

    def __init__(self) -> None:
        self._facts: tuple[Fact, ...] = ()


_GUARDS: contextvars.ContextVar[Optional[GuardFacts]] = contextvars.ContextVar("cute_sym_guards", default=None)

# ---------------------------------------------------------------- static path
def _prove_int(rel: Rel, a: int, b: int) -> bool:
    if rel == "==":
        return a == b
    if rel == "!=":
        return a != b
    if rel == "<":
        return a < b
    if rel == "<=":
        return a <= b
    if rel == ">":
        return a > b
    if rel == ">=":
        return a >= b
    if rel == "|":
        return b == 0 if a == 0 else b % a == 0
    raise LayoutError(f"unknown relation {rel!r}")




def _sym(x: Any) -> sympy.Expr:
    """``x`` as a sympy expression, without the cost of ``sympify`` for the usual cases."""
    if isinstance(x, sympy.Basic):
        return x
    if type(x) is int:
        return sympy.Integer(x)
    return sympy.sympify(x)


def _same(x: Any, y: Any) -> bool:
    """``x == y`` for two sympy formulas, the (cached) hashes compared first: sympy's ``==`` walks
    two large formulas of one shape to their leaves before it finds they differ."""
    return x is y or hash(x) == hash(y) and bool(x == y)


def _facts_in_force() -> tuple[Fact, ...]:
    facts = _FACTS.get()
    guards = _GUARDS.get()
    if guards is not None and guards._facts:
        facts = facts + guards._facts
    return facts


def _mentions(e: sympy.Expr, sym: Any) -> bool:
    """``sym in e.free_symbols``, by a walk that stops at the first occurrence and visits a
    shared subexpression once (sympy's free_symbols builds a set at every node)."""
    seen: set[Any] = set()
    stack = [e]
    while stack:
        x = stack.pop()
        if x.is_Symbol:
            if x == sym:
                return True
            continue
        args = x.args
        if args and x not in seen:
            seen.add(x)
            stack.extend(args)
    return False
