"""Modes of a layout: get, select, take, group, append, prepend, flatten, dice, slice_and_offset, filter_zeros."""
from __future__ import annotations

from typing import Any, Optional, overload


from ..core import decide
from ..core.errors import RankError
from ..core.int_tuple import (
    _, crd2idx, flatten as tuple_flatten,
    fmt, unflatten as tuple_unflatten,
)
from ..core.integers import IntLike
from ..core.int_tuple import IntTuple
from .layout import Layout, get_path, make_layout, slice_
from .queries import rank

__all__ = [
    "get",
    "select",
    "take",
    "group",
    "append",
    "prepend",
    "flatten",
    "unflatten",
    "slice_and_offset",
    "dice",
    "filter_zeros",
]


@overload
def get(x: Layout, *idx: int) -> Layout: ...
@overload
def get(x: IntTuple, *idx: int) -> IntTuple: ...


def get(x: Any, *idx: int) -> Any:
    """Hierarchical mode access (CuTe's ``get<I...>``): ``get(L, i, j)`` is ``L[i][j]``; also on IntTuples.

    @pre each index is an int in range for the mode it indexes (:class:`RankError`).
    @post ``get(L) is L``; ``get(L, i, *rest) == get(L[i], *rest)``.

    >>> L = make_layout((2, (3, 5)))
    >>> print(get(L, 1), get(L, 1, 0))
    (_3,_5):(_2,_6) _3:_2
    >>> get((2, (3, 5)), 1, 0)
    3
    """
    return get_path(x, idx)


def select(layout: Layout, *modes: int) -> Layout:
    """The layout made of the given top-level modes, in that order.

    @pre each mode index is in range.
    @post ``rank(result) == len(modes)`` and ``result[k] == layout[modes[k]]``.

    >>> print(select(make_layout((2, 3, 5)), 2, 0), select(make_layout((2, 3, 5)), 1))
    (_5,_2):(_6,_1) (_3):(_2)
    """
    return make_layout(*[layout[m] for m in modes]) if len(modes) != 1 else Layout._make(
        (layout[modes[0]]._shape,), (layout[modes[0]]._stride,))


def take(layout: Layout, begin: int, end: int) -> Layout:
    """Modes ``[begin, end)`` (CuTe's ``take<B,E>``).

    @pre ``0 <= begin < end <= rank(layout)`` (else :class:`RankError`).
    @post ``rank(result) == end - begin`` and ``result[k] == layout[begin + k]``.

    >>> print(take(make_layout((2, 3, 5)), 1, 3))
    (_3,_5):(_2,_6)
    """
    r = rank(layout)
    if not (0 <= begin < end <= r):
        raise RankError(f"take: range [{begin},{end}) out of bounds for rank {r}")
    s, d = _as_tuple(layout)
    return Layout._make(s[begin:end], d[begin:end])


def _as_tuple(layout: Layout) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    if type(layout._shape) is tuple:
        return layout._shape, layout._stride  # type: ignore[return-value]
    return (layout._shape,), (layout._stride,)


def group(layout: Layout, begin: int, end: int) -> Layout:
    """Group modes ``[begin, end)`` into one mode (CuTe's ``group<B,E>``).

    @pre ``0 <= begin <= end <= rank(layout)`` (else :class:`RankError`).
    @post ``rank(result) == rank(layout) - (end - begin) + 1`` for ``begin < end``; an empty
          range inserts nothing (CuTe's ``make_seq<(B < E)>``): the layout itself;
          ``flatten(result) == flatten(layout)`` and the function is unchanged.

    >>> print(group(make_layout((2, 3, 5)), 1, 3), group(make_layout((2, 3)), 2, 2))
    (_2,(_3,_5)):(_1,(_2,_6)) (_2,_3):(_1,_2)
    """
    s, d = _as_tuple(layout)
    if not (0 <= begin <= end <= len(s)):
        raise RankError(f"group: range [{begin},{end}) out of bounds for rank {len(s)}")
    if begin == end:
        return layout
    return Layout._make(s[:begin] + (s[begin:end],) + s[end:], d[:begin] + (d[begin:end],) + d[end:])


def append(layout: Layout, x: Optional[Layout] = None, n: Optional[int] = None) -> Layout:
    """Append mode ``x`` (default ``_1:_0``); with ``n``, pad with ``x`` up to rank ``n``.

    @post without ``n``: ``rank(result) == rank(layout) + 1`` and the last mode is ``x``;
          with ``n``: ``rank(result) == max(rank(layout), n)``. The first modes are ``layout``'s.

    >>> print(append(make_layout(4), n=3))
    (_4,_1,_1):(_1,_0,_0)
    >>> print(append(make_layout((2, 3)), make_layout(4, 6)))
    (_2,_3,_4):(_1,_2,_6)
    """
    xs, xd = (1, 0) if x is None else (x._shape, x._stride)
    s, d = _as_tuple(layout)
    if n is None:
        return Layout._make(s + (xs,), d + (xd,))
    if len(s) > n:
        return layout
    return Layout._make(s + (xs,) * (n - len(s)), d + (xd,) * (n - len(s)))


def prepend(layout: Layout, x: Optional[Layout] = None, n: Optional[int] = None) -> Layout:
    """Prepend mode ``x`` (default ``_1:_0``); with ``n``, pad in front up to rank ``n``.

    @post without ``n``: ``rank(result) == rank(layout) + 1`` and the first mode is ``x``;
          with ``n``: ``rank(result) == max(rank(layout), n)``. The last modes are ``layout``'s.

    >>> print(prepend(make_layout(4), n=3))
    (_1,_1,_4):(_0,_0,_1)
    >>> print(prepend(make_layout(4), make_layout(2, 4)))
    (_2,_4):(_4,_1)
    """
    xs, xd = (1, 0) if x is None else (x._shape, x._stride)
    s, d = _as_tuple(layout)
    k = 1 if n is None else max(0, n - len(s))
    return Layout._make((xs,) * k + s, (xd,) * k + d)


def flatten(x: Any) -> Any:
    """Flatten a layout (depth at most 1) or an IntTuple.

    @post ``depth(result) <= 1``; the leaves, in order, are those of ``x``; a
          flattened layout is the same function.

    >>> flatten((2, ((3,), 5)))
    (2, 3, 5)
    >>> print(flatten(make_layout(((2, 3), 5), ((1, 2), 6))))
    (_2,_3,_5):(_1,_2,_6)
    """
    if isinstance(x, Layout):
        return Layout._make(tuple_flatten(x._shape), tuple_flatten(x._stride))
    f = getattr(x, "flatten", None)
    if callable(f):
        return f()
    return tuple_flatten(x)


def unflatten(x: Any, profile: Any) -> Any:
    """Fold a flat layout or IntTuple into the nesting of ``profile``.

    @pre the number of leaves of ``x`` equals that of ``profile`` ("Mismatched ranks").
    @post ``flatten(result) == flatten(x)`` and ``result`` (its shape) is congruent to ``profile``.

    >>> print(unflatten(make_layout((2, 3, 5)), ((0, 0), 0)))
    ((_2,_3),_5):((_1,_2),_6)
    >>> unflatten((2, 3, 5), ((0, 0), 0))
    ((2, 3), 5)
    """
    if isinstance(x, Layout):
        return Layout._make(tuple_unflatten(x._shape, profile), tuple_unflatten(x._stride, profile))
    return tuple_unflatten(x, profile)



def _dice_t(c: Any, t: Any) -> Any:
    if type(c) is tuple:
        if type(t) is not tuple or len(c) != len(t):
            raise RankError(f"dice: Mismatched Ranks ({fmt(c)} for {fmt(t)})")
        out: list[Any] = []
        for ci, ti in zip(c, t):
            if type(ci) is tuple:
                out.extend(_dice_t(ci, ti))
            elif ci is not _:
                out.append(ti)
        return tuple(out)
    if c is _:
        return ()
    return (t,)



def dice(coord: Any, layout: Layout) -> Layout:
    """The sub-layout of the modes where ``coord`` does *not* hold ``_``.

    @pre ``coord`` is weakly congruent with ``layout.shape`` ("Mismatched Ranks").
    @post the modes of ``layout`` not kept by ``slice_(coord, layout)``, in order.

    >>> print(dice((_, (1, _)), make_layout((4, (2, 3)))))
    (_2):(_4)
    """
    return Layout._make(_dice_t(coord, layout._shape), _dice_t(coord, layout._stride))


def _zero_underscores(c: Any) -> Any:
    if type(c) is tuple:
        return tuple(_zero_underscores(e) for e in c)
    return 0 if c is _ else c


def slice_and_offset(coord: Any, layout: Layout) -> tuple[Layout, IntLike]:
    """``(slice(coord, layout), offset)`` where ``offset`` is ``layout`` at ``coord`` with ``_`` as 0.

    @pre ``coord`` is weakly congruent with ``layout.shape``.
    @post ``result[0] == slice_(coord, layout)``; ``result[1] == crd2idx(coord with _ as 0, layout)``.

    >>> s, off = slice_and_offset((_, (1, _)), make_layout((4, (2, 3))))
    >>> print(s, off)
    (_4,_3):(_1,_8) 4
    >>> s, off = slice_and_offset((_, 2), make_layout((4, 8)))
    >>> print(s), off
    (_4):(_1)
    (None, 8)
    """
    c = _zero_underscores(coord)
    return slice_(coord, layout), crd2idx(c, layout._shape, layout._stride)


def filter_zeros(layout: Layout) -> Layout:
    """Replace every mode of stride 0 with size 1 (a possibly-zero symbolic stride stays).

    @post ``result.stride == layout.stride``; congruent with ``layout``; the
          image (set of indices) is unchanged.

    >>> print(filter_zeros(make_layout((4, 2, 3), (1, 0, 4))))
    (_4,_1,_3):(_1,_0,_4)
    >>> from cute_sym.core.integers import Dyn
    >>> print(filter_zeros(make_layout((4, 2), (1, Dyn("d", sign="any")))))
    (_4,_2):(_1,d)
    """
    def go(s: Any, d: Any) -> Any:
        if type(s) is tuple:
            return tuple(go(x, y) for x, y in zip(s, d))
        if type(d) is int:
            return 1 if d == 0 else s
        return 1 if decide.prove("==", d, 0) else s
    return Layout._make(go(layout._shape, layout._stride), layout._stride)
