"""Hierarchical-tuple helpers under CuTe's and NVIDIA PyCuTe's names: ``wrap``/``unwrap`` (one-tuples),
``lift`` (the inverse of ``get`` on a path), ``zip_leaves``, ``fold_leaf``, ``transform_leaf``,
``transform_apply_leaf``, and the natural coordinates of a shape (``coordinates``, ``in_bounds``).

Leaves are anything that is not a tuple (integers, symbols, strides of any kind); lists count
as tuples where a user passes them.

>>> wrap_tuple(7), unwrap_tuple(((42,),)), lift(42, (0, 2, 3))
((7,), 42, ((0, 0, (0, 0, 0, 42)),))
>>> list(zip_leaves((1, (2, 3)), (4, (5, 6))))
[(1, 4), (2, 5), (3, 6)]
>>> transform_apply_leaf(sum, lambda a: a, ((1, 2), (3, 4)))
10
"""
from __future__ import annotations

from itertools import zip_longest
from typing import Any, Callable, Iterator

from ..errors import LayoutError

__all__ = [
    "wrap_tuple", "unwrap_tuple", "lift", "zip_leaves", "fold_leaf", "transform_apply_leaf", "transform_leaf",
    "coordinates", "in_bounds",
]


def _is_tuple(x: Any) -> bool:
    return type(x) is tuple or isinstance(x, (tuple, list))


def wrap_tuple(x: Any) -> tuple[Any, ...]:
    """CuTe's ``wrap``: ``x`` as a tuple (a non-tuple becomes a one-tuple).

    @post ``_is_tuple(result)``; a tuple is returned as it is.
    """
    return tuple(x) if _is_tuple(x) else (x,)


def unwrap_tuple(x: Any) -> Any:
    """CuTe's ``unwrap``: one-tuples stripped, level by level, until a leaf or a longer tuple.

    @post ``result`` is a leaf or a tuple of rank other than 1.
    """
    while _is_tuple(x) and len(x) == 1:
        x = x[0]
    return tuple(x) if _is_tuple(x) else x


def lift(obj: Any, mode: Any = (), pad: Any = 0) -> Any:
    """``obj`` placed at the path ``mode`` of a structure filled with ``pad`` (PyCuTe's ``lift``).

    @pre ``mode`` is a path of non-negative ints (an int is a path of one).
    @post ``get(result, mode) == obj``; ``result[k] == pad`` off the path.

    >>> lift(42, (1, 0), pad=None)
    (None, (42,))
    """
    path = wrap_tuple(mode)
    for i in reversed(path):
        if type(i) is not int or i < 0:
            raise LayoutError(f"lift: a path holds non-negative ints, got {path!r}")
        obj = (pad,) * i + (obj,)
    return obj


def zip_leaves(t: Any, *ts: Any) -> Iterator[tuple[Any, ...]]:
    """The leaves of ``t`` with the corresponding parts of ``ts`` (a missing part is None), in order.

    @post one tuple per leaf of ``t``, the walk following ``t`` (a leaf of another tuple opposite a
          tuple of ``t`` meets its first leaf, None the others).
    """
    if _is_tuple(t):
        for parts in zip_longest(t, *[p if _is_tuple(p) else (p,) for p in ts]):
            yield from zip_leaves(*parts)
    else:
        yield (t, *ts)


def fold_leaf(fn: Callable[..., Any], v: Any, *ts: Any) -> Any:
    """``v`` folded with ``fn(v, *leaves)`` over :func:`zip_leaves` of ``ts``, leaf by leaf in order.

    >>> fold_leaf(lambda acc, a, b: acc + a * b, 0, ((2, 3), 4), ((2, 1), 2))
    15
    """
    for parts in zip_leaves(*ts):
        v = fn(v, *parts)
    return v


def transform_apply_leaf(g: Callable[..., Any], f: Callable[..., Any], t: Any, *ts: Any) -> Any:
    """``f`` on corresponding leaves, each level rebuilt with ``g`` (``g`` takes an iterable).

    @post ``transform_apply_leaf(tuple, f, t) `` is congruent with ``t``.
    """
    if _is_tuple(t):
        return g(transform_apply_leaf(g, f, *parts) for parts in zip_longest(t, *ts))
    return f(t, *ts)


def transform_leaf(f: Callable[..., Any], *ts: Any) -> Any:
    """``f`` on corresponding leaves of ``ts``, rebuilt as tuples congruent with ``ts[0]``.

    >>> transform_leaf(lambda a, b: a + b, ((1, (2, 3)), 4), ((10, (20, 30)), 40))
    ((11, (22, 33)), 44)
    """
    if not ts:
        raise LayoutError("transform_leaf: needs at least one tuple")
    return transform_apply_leaf(tuple, f, *ts)


def coordinates(shape: Any) -> Iterator[Any]:
    """The natural coordinates of a static ``shape`` in colexicographic order (the first mode
    fastest): ``idx2crd(i, shape)`` for ``i`` in ``range(size(shape))``.

    @pre every leaf of ``shape`` a non-negative ``int``.
    @post ``size(shape)`` coordinates, each congruent with ``shape``, all distinct.

    >>> list(coordinates((2, (1, 2))))
    [(0, (0, 0)), (1, (0, 0)), (0, (0, 1)), (1, (0, 1))]
    """
    if not _is_tuple(shape):
        if not isinstance(shape, int):
            raise LayoutError(f"coordinates: a static shape is needed, got {shape!r}")
        yield from range(shape)
        return
    modes = [list(coordinates(s)) for s in shape]
    if any(not m for m in modes):
        return
    idx = [0] * len(modes)
    while True:
        yield tuple(m[i] for m, i in zip(modes, idx))
        k = 0
        while k < len(modes):
            idx[k] += 1
            if idx[k] < len(modes[k]):
                break
            idx[k] = 0
            k += 1
        if k == len(modes):
            return


def in_bounds(coord: Any, shape: Any) -> bool:
    """Whether ``coord`` lies inside ``shape``: a natural coordinate leaf by leaf (``0 <= c < s``),
    an integer coordinate of a tuple shape as an index (``0 <= c < size(shape)``).

    @pre ``coord`` is weakly congruent with ``shape``, static.

    >>> in_bounds((1, (0, 1)), (2, (1, 2))), in_bounds((2, (0, 0)), (2, (1, 2))), in_bounds(3, (2, 2))
    (True, False, True)
    """
    if _is_tuple(coord):
        if not _is_tuple(shape) or len(coord) != len(shape):
            raise LayoutError(f"in_bounds: the coordinate {coord!r} is not weakly congruent with {shape!r}")
        return all(in_bounds(c, s) for c, s in zip(coord, shape))
    n = 1
    for s in zip_leaves(shape):
        n *= s[0]
    return bool(0 <= coord < n)
