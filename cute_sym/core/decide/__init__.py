"""The one decision procedure: prove or refute facts about integer expressions.

Every comparison of possibly-symbolic integers in cute_sym goes through this
module. :func:`prove` answers ``True`` (proved), ``False`` (refuted) or
``None`` (unknown) for

* ``"=="``, ``"!="``, ``"<"``, ``"<="``, ``">"``, ``">="``
* ``"|"``: ``a | b``, *a divides b* (``b % a == 0``)

from what is known: every symbol is an integer; the sign a symbol was made
with (:func:`~cute_sym.core.integers.Dyn`); the divisibility and bounds it carries;
and the facts stated with :func:`assume` or recorded by :func:`collect_guards`.
Static operands are decided by plain ``int`` arithmetic, without sympy.

How it reasons (sound, not complete):

* divisibility facts are kept as structure: a symbol ``M`` known to be a
  multiple of 16 is rewritten ``16*M'`` before anything else, so sympy's own
  algebra sees it;
* equalities that hold become ``0`` under ``expand``; differences are bounded
  by interval arithmetic over the expression tree (sums, products, powers,
  floor/ceiling, Mod, Min/Max, Abs), on the expanded and on the factored form;
* ``a | b`` holds when ``b/a`` is an integer polynomial; for a constant ``a`` it
  is decided from the coefficients of ``b`` when they settle it.

:func:`require` is what operations call: it returns the decided truth value,
raises :class:`~cute_sym.UndecidableError` naming the missing fact, or
(inside :func:`collect_guards`) assumes the branch the caller names and
records the fact.

>>> from cute_sym.core.integers import Dyn
>>> from cute_sym.core.decide import prove, assume
>>> import sympy
>>> M, N = Dyn("M"), Dyn("N")
>>> prove("|", 4, 16 * N), prove("<", M, M + 1), prove("==", M, N)
(True, True, None)
>>> prove("|", 4, 4 * M + 2)
False
>>> with assume(sympy.Eq(M % 4, 0)):
...     prove("|", 4, M)
True

The procedure is a stack of modules, each importing only those of lower rank (checked by
``tests/test_layering.py``, ``STACKS``): 0 ``base`` (relations, facts, the facts in force,
the static path); 1 ``intervals`` and ``witness`` (exact evaluation at allowed values);
2 ``rounding`` (floor and ceiling built without sympy's assumption queries), ``expansion`` and
``sums`` (lower bounds of a sum from its terms); 3 ``reason`` (facts as structure, intervals,
orderings); 4 ``divisibility``; 5 ``values`` (the few values of a formula); 6 ``quick`` (a
symbol against a number, in plain ints) and ``disjunction``; 7 ``prove``; 8 ``guards``
(``require``, ``require_any``, ``collect_guards``, the facts as text); 9 ``assume``; and this
entry module on top, the only one the rest of the package imports.
"""
from typing import Any, Optional

from .base import _FACTS, _GUARDS, Bound, Fact, Rel, _mentions as mentions
from .reason import bounds, is_big, is_polynomial
from .intervals import _positive as positive_by_shape
from .divisibility import _int_valued as integer_valued
from .prove import prove, prove_checked
from .guards import Guards, collect_guards, fact_text, open_at_values, require, require_any
from .witness import leaf_values
from .quick import by_bounds
from .assume import assume
from .. import monomials

__all__ = [
    "prove", "prove_checked", "require", "require_any", "fact_text", "assume", "collect_guards", "Guards", "bounds",
    "is_big", "is_polynomial", "mentions", "integer_valued", "Bound", "Fact", "Rel", "clear_caches", "open_at_values", "leaf_values",
    "unconditional", "positive_by_shape", "by_bounds", "answers",
]


def unconditional() -> bool:
    """No fact is in force and no guards are collected: a symbol's own facts are all there is."""
    return not _FACTS.get() and _GUARDS.get() is None


# an operation's answer on formulas (a ceil_div), keyed by its name and operands: they depend on
# the symbols' own facts only, so it is kept where nothing else is in force; forgotten with the
# answers (an operation folds over the same extents again for each rhs mode)
_ANSWERS: dict[tuple[Any, ...], Any] = {}
_ANSWERS_MAX = 4096


def answers() -> Optional[dict[tuple[Any, ...], Any]]:
    """The memo of operations' answers on formulas; None where facts are in force or guards are
    collected (an answer there may rest on them, or must record them again)."""
    if _FACTS.get() or _GUARDS.get() is not None:
        return None
    if len(_ANSWERS) >= _ANSWERS_MAX:
        _ANSWERS.clear()
    return _ANSWERS


def clear_caches(symbols: bool = False) -> None:
    """Forget every memoised answer (for cold-start measurements; answers do not change).

    ``symbols``: also forget the interned fresh symbols that stand for symbols with
    facts (with sympy's own cache, for a cold start from nothing).
    """
    from .prove import _MEMO, _pin_walk, _powers, _prove_sym
    from .reason import _bounds, _expand, _fresh
    from .sums import _monomial, _terms
    from .values import value_set
    from .witness import _OP_CANDIDATES
    for fn in (_prove_sym, _bounds, _expand, _terms, _monomial, _powers, _pin_walk, value_set):
        fn.cache_clear()
    _MEMO.clear()
    _ANSWERS.clear()
    if symbols:
        _fresh.cache_clear()
        _OP_CANDIDATES.clear()
        monomials.clear()
