"""Copying and pickling of the immutable values (their ``__setattr__`` refuses every write).

Python's default pickle protocol restores an object's state through ``setattr``, which
an immutable class refuses; these give such a class a ``__reduce__`` that rebuilds it
through ``object.__setattr__`` (as its own constructor does), and copies that are the
object itself (an immutable value needs no copy).

>>> class Point:
...     __slots__ = ("x", "y")
...     def __init__(self, x: int, y: int) -> None:
...         object.__setattr__(self, "x", x)
...         object.__setattr__(self, "y", y)
...     def __setattr__(self, name: str, value: object) -> None:
...         raise AttributeError("Point is immutable")
...     __reduce__ = frozen_reduce
>>> rebuild, args = Point(1, 2).__reduce__()        # what pickle stores and calls back
>>> p = rebuild(*args)
>>> type(p).__name__, p.x, p.y
('Point', 1, 2)
"""
from __future__ import annotations

from typing import Any, TypeVar

__all__ = ["frozen_reduce", "frozen_copy", "frozen_deepcopy"]

_T = TypeVar("_T")


def _state(obj: object) -> tuple[tuple[str, Any], ...]:
    """Every attribute set on ``obj``: its slots (along the class hierarchy) and its ``__dict__``."""
    out: list[tuple[str, Any]] = []
    for cls in type(obj).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and hasattr(obj, name):
                out.append((name, getattr(obj, name)))
    out.extend(getattr(obj, "__dict__", {}).items())
    return tuple(out)


def _rebuild(cls: type, state: tuple[tuple[str, Any], ...]) -> Any:
    obj: Any = object.__new__(cls)
    for name, value in state:
        object.__setattr__(obj, name, value)
    return obj


def frozen_reduce(self: object) -> tuple[Any, ...]:
    """``__reduce__`` of an immutable value: rebuilt with the same attributes.

    @post ``pickle.loads(pickle.dumps(x))`` has every attribute of ``x`` (so compares equal to it).
    """
    return (_rebuild, (type(self), _state(self)))


def frozen_copy(self: _T) -> _T:
    """``__copy__`` of an immutable value: the value itself."""
    return self


def frozen_deepcopy(self: _T, memo: Any) -> _T:
    """``__deepcopy__`` of an immutable value: the value itself."""
    return self
