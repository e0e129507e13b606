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
    """Base class of every error cute_sym raises on bad input."""


class RankError(LayoutError):
    """Mismatched ranks, too many tiler modes, a mode index out of range."""


class DivisibilityError(LayoutError):
    """A shape or stride that must divide another does not (CuTe's shape_div)."""


class InjectivityError(LayoutError):
    """An operation that needs an injective layout got a non-injective one."""


class NotationError(LayoutError):
    """Text that is not CuTe notation (or not yet supported by the parser)."""


class UndecidableError(LayoutError):
    """A symbolic fact an operation needs can be neither proved nor refuted.

    ``fact`` is the condition that is missing, as text (e.g. ``"M % 4 == 0"``).
    """

    def __init__(self, fact: str, message: str | None = None) -> None:
        self.fact = fact
        super().__init__(message if message is not None else f"needs {fact}")
