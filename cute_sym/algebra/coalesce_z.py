"""``coalesce_z``: coalesce on the extended domain (NVIDIA PyCuTe's), over any stride kind.

A layout evaluated past its size sends the excess to its last mode (``L(i)`` for ``i >= size``
takes ``i // size(rest)`` there). ``coalesce`` may drop a trailing extent-1 mode and so change
those values; ``coalesce_z`` keeps the last mode, merges neighbours exactly as the stride kind
says (``s*d`` continues into the next stride; an F2 stride only across a power of two), and
never merges a static extent with a symbolic one.

>>> from cute_sym.layout import make_layout
>>> print(coalesce_z(make_layout((2, 1, 6, 1), (4, 7, 8, 0))))
(_12,_1):(_4,_0)
>>> print(coalesce_z(make_layout((2, 1, 6, 1), (1, 7, 8, 48))))
(_2,_6):(_1,_8)
"""
from __future__ import annotations

from typing import Any

from ..core import decide
from ..core.errors import LayoutError
from ..core.int_tuple import leaves
from ..layout.layout import Layout, _mk
from ..stride.kind import stride_continues
from ._util import _mul

__all__ = ["coalesce_z"]


def _one(x: Any) -> bool:
    return type(x) is int and x == 1


def coalesce_z(layout: Layout) -> Layout:
    """The layout with fewer modes that is the same function on every ``i >= 0`` (not only below
    its size).

    @pre ``layout`` is a plain layout (strides of any kind).
    @post ``depth(result) <= 1``; ``size(result) == size(layout)``; ``result(i) == layout(i)`` for
          every ``i >= 0``; ``coalesce_z(result) == result``; a static extent never merges with a
          symbolic one.

    >>> from cute_sym.layout import make_layout
    >>> print(coalesce_z(make_layout((1, 1), (5, 7)))), print(coalesce_z(make_layout((2, 4), (4, 1))))
    _1:_7
    (_2,_4):(_4,_1)
    (None, None)
    """
    if not isinstance(layout, Layout):
        raise LayoutError(f"coalesce_z: a layout is needed, got {layout!r}")
    s, d = leaves(layout.shape), leaves(layout.stride)
    n = len(s)
    modes = [(x, y) for k, (x, y) in enumerate(zip(s, d)) if k == n - 1 or not _one(x)]
    rs: list[Any] = []
    rd: list[Any] = []
    for x, y in modes:
        if rs:
            ls, ld = rs[-1], rd[-1]
            if (type(ls) is int) == (type(x) is int) or _one(x):
                f = stride_continues(ls, ld, y)
                if f if type(f) is bool else decide.prove(*f) is True:
                    rs[-1] = _mul(ls, x)
                    continue
        rs.append(x)
        rd.append(y)
    if len(rs) == 1:
        return _mk(rs[0], rd[0])
    return _mk(tuple(rs), tuple(rd))
