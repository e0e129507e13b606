"""Swizzles and composed layouts (placeholder until the swizzle work lands)."""
from __future__ import annotations

from typing import Any

from .errors import NotationError
from .int_tuple import IntTuple

__all__ = ["Swizzle", "ComposedLayout", "dispatch"]


class Swizzle:
    __slots__ = ("bits", "base", "shift")

    def __init__(self, bits: int, base: int, shift: int) -> None:
        self.bits, self.base, self.shift = bits, base, shift

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"


class ComposedLayout:
    __slots__ = ("swizzle", "offset", "layout")

    def __init__(self, swizzle: Any, offset: IntTuple, layout: Any) -> None:
        self.swizzle, self.offset, self.layout = swizzle, offset, layout

    def __str__(self) -> str:
        return f"{self.swizzle} o {self.offset} o {self.layout}"


def dispatch(op: str, a: Any, b: Any, *rest: Any) -> Any:
    raise NotationError(f"{op}: swizzles and composed layouts are not yet supported")
