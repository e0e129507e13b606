"""Exhaustive small static layouts in several nestings, and the general path forced on them.

The static kernels (coalesce, right_inverse, left_inverse) are compared with the general
path on the *same* layout: :func:`general` marks a copy of the layout as not static, so the
operation takes the path that symbolic layouts take (with plain-int leaves it computes the
same answer without the kernel).
"""
from __future__ import annotations

import itertools
from typing import Any, Iterable, Sequence

from cute_sym import Layout
from cute_sym.layout.layout import _mk, _set_st

#: How a flat list of leaves is nested: each pattern is a tuple of group lengths (an int
#: group is a plain leaf) and nested tuples for deeper modes.
_NESTINGS: dict[int, list[Any]] = {
    1: [0, (1,), ((1,),)],
    2: [(1, 1), ((2,),), (((2,),),), ((1,), 1), (1, ((1,),))],
    3: [(1, 1, 1), ((2,), 1), (1, (2,)), ((3,),), (((2,), 1),), ((1, (2,)),)],
    4: [(1, 1, 1, 1), ((2,), (2,)), ((3,), 1), (((2,), (2,)),), (1, ((2,), 1))],
}


def _nest(pattern: Any, it: Iterable[int]) -> Any:
    """Nest the leaves of ``it`` by ``pattern``: 0 is one bare leaf, ``1`` in a tuple one leaf,
    ``(k,)`` a flat mode of ``k`` leaves, a tuple of patterns a mode of those."""
    if pattern == 0 or pattern == 1:
        return next(it)  # type: ignore[call-overload]
    if len(pattern) == 1 and type(pattern[0]) is int and pattern[0] > 1:
        return tuple(next(it) for _ in range(pattern[0]))  # type: ignore[call-overload]
    return tuple(_nest(p, it) for p in pattern)


def nestings(shape: Sequence[int], stride: Sequence[int], few: bool = False) -> Iterable[Layout]:
    """The layout with these flat leaves in every nesting of :data:`_NESTINGS` (``few``: the
    flat one, one of depth 2 and the deepest)."""
    patterns = _NESTINGS[len(shape)]
    if few:
        patterns = [patterns[0], patterns[1], patterns[-1]] if len(patterns) > 2 else patterns
    for pattern in patterns:
        yield Layout(_nest(pattern, iter(shape)), _nest(pattern, iter(stride)))


def sweep(extents: Sequence[int], strides: Sequence[int], max_leaves: int, few: bool = False
          ) -> Iterable[Layout]:
    """Every layout of 1..max_leaves leaves with these extents and strides, in every nesting."""
    for n in range(1, max_leaves + 1):
        yield from layouts(n, extents, strides, few)


def layouts(n: int, extents: Sequence[int], strides: Sequence[int], few: bool = False) -> Iterable[Layout]:
    """Every layout of ``n`` leaves with these extents and strides, in every nesting."""
    for shape in itertools.product(extents, repeat=n):
        for stride in itertools.product(strides, repeat=n):
            yield from nestings(shape, stride, few)


def general(L: Layout) -> Layout:
    """A copy of ``L`` that the operations treat as not static (their general path)."""
    G = _mk(L.shape, L.stride)
    _set_st(G, False)
    return G


def outcome(fn: Any, L: Layout) -> tuple[str, str]:
    """``fn(L)`` printed, or the error it raised (type and message)."""
    try:
        return "ok", str(fn(L))
    except ValueError as e:
        return type(e).__name__, str(e)
