"""The project's error types: one base, :class:`LayoutError` (a ``ValueError``).

Every error cute_sym raises on bad input is a :class:`LayoutError`; the message
names the violated condition in the manner of CuTe's ``static_assert`` texts.

>>> issubclass(UndecidableError, LayoutError) and issubclass(LayoutError, ValueError)
True
"""
from __future__ import annotations

__all__ = [
    "LayoutError",
    "RankError",
    "DivisibilityError",
    "InjectivityError",
    "NotationError",
    "UndecidableError",
]


class LayoutError(ValueError):
    """Base class of every error cute_sym raises on bad input.

    @post every error cute_sym raises on bad input is an instance (and a ``ValueError``).

    >>> from cute_sym import make_layout
    >>> try:
    ...     make_layout((2, 3), (1,))
    ... except LayoutError as e:
    ...     print(type(e).__name__, isinstance(e, ValueError))
    RankError True
    """


class RankError(LayoutError):
    """Mismatched ranks, too many tiler modes, a mode index out of range.

    @post raised when two IntTuples/layouts that must have the same (or a
          bounded) rank do not; a :class:`LayoutError`.

    >>> from cute_sym import inner_product
    >>> try:
    ...     inner_product((1, 2), (3,))
    ... except RankError as e:
    ...     print(e)
    inner_product: Mismatched ranks
    """


class DivisibilityError(LayoutError):
    """A shape or stride that must divide another does not (CuTe's shape_div).

    @post raised when a divisibility condition is refuted; a :class:`LayoutError`.

    >>> from cute_sym import shape_div
    >>> try:
    ...     shape_div(6, 4)
    ... except DivisibilityError as e:
    ...     print(e)
    Static shape_div failure: neither 6 nor 4 divides the other
    """


class InjectivityError(LayoutError):
    """An operation that needs an injective layout got a non-injective one.

    @post raised when two coordinates provably map to one index where the
          operation needs them distinct; a :class:`LayoutError`.

    >>> from cute_sym import complement, parse
    >>> try:
    ...     complement(parse("(_2,_2):(_1,_1)"))
    ... except InjectivityError as e:
    ...     print(e)
    Non-injective Layout detected in complement (stride _1 below the span _2)
    """


class NotationError(LayoutError):
    """Text that is not CuTe notation (or not yet supported by the parser).

    @post raised by :func:`cute_sym.parse` on text it cannot read; a :class:`LayoutError`.

    >>> from cute_sym import parse
    >>> try:
    ...     parse("(_4,_2")
    ... except NotationError as e:
    ...     print(e)
    expected ',' or ')' in '(_4,_2'
    """


class UndecidableError(LayoutError):
    """A symbolic fact an operation needs can be neither proved nor refuted.

    ``fact`` is the condition that is missing, as text (e.g. ``"M % 4 == 0"``).

    @post ``fact`` is a condition on the symbols which, once stated (with
          :func:`cute_sym.assume` or as a fact of :func:`cute_sym.Dyn`), lets
          the operation proceed; the message names it.

    >>> from cute_sym import Dyn, shape_div
    >>> try:
    ...     shape_div(Dyn("M"), 4)
    ... except UndecidableError as e:
    ...     print(e.fact)
    M % 4 == 0 or 4 % M == 0
    >>> str(UndecidableError("M % 4 == 0"))
    'needs M % 4 == 0'
    """

    def __init__(self, fact: str, message: str | None = None) -> None:
        self.fact = fact
        super().__init__(message if message is not None else f"needs {fact}")


# Users meet these as ``cute_sym.LayoutError`` (the public name), whichever layer raised them.
for _cls in (LayoutError, RankError, DivisibilityError, InjectivityError, NotationError, UndecidableError):
    _cls.__module__ = "cute_sym"
del _cls
