"""The divides: logical, zipped, tiled and flat."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_expr

from ..core.int_tuple import (
    _, unwrap, zip2_by,
)
from ..layout.layout import Layout, _mk
from ._util import _flat, _composed_dispatch
from .coalesce import _bw_sd, _transform_layout
from .complement import _complement
from .composition import _compose_impl, _composition_cute


def logical_divide(layout: Any, tiler: Any) -> Any:
    """Split ``layout`` into (tile, rest): ``composition(layout, (tiler, complement(tiler, shape(layout))))``.

    A tuple tiler divides mode by mode (extra modes of ``layout`` are kept).

    @pre ``rank(tiler) <= rank(layout)`` for a tuple tiler ("Too many modes in tiler").
    @post ``size(result) == size(layout)`` when the tiler divides the layout.
    @post ``result(i) == layout(tiled(i))`` where ``tiled = (tiler, complement(tiler, shape(layout)))``.

    >>> from cute_sym.notation import parse
    >>> print(logical_divide(parse("(_4,_2,_3):(_2,_1,_8)"), parse("_4:_2")))
    ((_2,_2),(_2,_3)):((_4,_1),(_2,_8))
    """
    if type(layout) is not Layout:
        return _composed_dispatch("logical_divide", layout, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)  # a printed static integer (``_32``) is an int here
    tt = type(tiler)
    if tt is int:
        s, d = layout._shape, layout._stride
        if type(s) is int and type(d) is int and s >= 2 and tiler >= 2 and d != 0:
            # one static mode s:d by n (the usual tile of a tuple tiler): (n, ceil(s/n)):(d, n*d)
            q = -(-s // tiler)
            return _mk((tiler, 1), (d, 0)) if q == 1 else _mk((tiler, q), (d, tiler * d))
        tiler = _mk(tiler, 0 if tiler == 1 else 1)
    elif tt is not Layout:
        if type(tiler) is tuple:
            return _transform_layout(layout, tiler, logical_divide, what="logical_divide")
        if tiler is _:
            return layout
        if is_expr(tiler):
            tiler = _mk(tiler, 1)
        elif not isinstance(tiler, Layout):
            return _composed_dispatch("logical_divide", layout, tiler)
    fl_s, fl_d = _flat(layout)
    n = len(fl_s)
    flat_s, flat_d = _bw_sd(fl_s, fl_d, n - 2, fl_s[n - 1], fl_d[n - 1])
    comp = _complement(tiler, flat_s)
    last = fl_s[n - 1]
    if not (type(last) is int and last == 1):
        # coalesce_x differs from coalesce only when the last extent is a static 1
        return _compose_impl(flat_s, flat_d, (tiler._shape, comp._shape),
                             (tiler._stride, comp._stride))
    full = _mk((tiler._shape, comp._shape), (tiler._stride, comp._stride))
    return _composition_cute(layout, full)


def _tile_unzip(layout: Layout, tiler: Any) -> Layout:
    return _mk(zip2_by(layout._shape, tiler), zip2_by(layout._stride, tiler))


def zipped_divide(layout: Any, tiler: Any) -> Any:
    """``logical_divide`` with the tile modes gathered: ``((TILE...), (REST...))``.

    @pre as :func:`logical_divide`: ``rank(tiler) <= rank(layout)`` for a tuple tiler.
    @post ``rank(result) == 2``; ``result[0]`` gathers the tile part (mode 0) of each
          mode of ``logical_divide(layout, tiler)`` and ``result[1]`` the rest parts
          (mode 1) followed by the modes the tiler does not cover; for a layout
          tiler ``result == logical_divide(layout, tiler)``.

    >>> from cute_sym.notation import parse
    >>> print(zipped_divide(parse("(_8,_6):(_1,_8)"), parse("(_2,_3)")))
    ((_2,_3),(_4,_2)):((_1,_8),(_2,_24))
    >>> print(zipped_divide(parse("(_4096,_4096):(_4096,_1)"), parse("(_128,_32)")))
    ((_128,_32),(_32,_128)):((_4096,_1),(_524288,_32))
    """
    if not isinstance(layout, Layout):
        return _composed_dispatch("zipped_divide", layout, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    return _tile_unzip(logical_divide(layout, tiler), tiler)


def _unpack(layout: Layout, first: bool) -> Layout:
    """``result(_, repeat<R1>(_))`` or ``result(repeat<R0>(_), repeat<R1>(_))``."""
    s, d = layout._shape, layout._stride
    s0, s1 = s[0], s[1]  # type: ignore[index]
    d0, d1 = d[0], d[1]  # type: ignore[index]
    # CuTe's repeat<1>(_) is a plain _: a rank-1 mode is kept whole
    def items(x: Any) -> tuple[Any, ...]:
        return x if type(x) is tuple and len(x) != 1 else (x,)
    if first:
        return _mk(items(s0) + items(s1), items(d0) + items(d1))
    return _mk((s0,) + items(s1), (d0,) + items(d1))


def tiled_divide(layout: Any, tiler: Any) -> Any:
    """``zipped_divide`` with the rest modes unpacked: ``((TILE...), r0, r1, ...)``.

    @pre as :func:`zipped_divide`.
    @post ``result[0] == zipped_divide(layout, tiler)[0]``; the rest modes are those
          of ``zipped_divide``'s mode 1, unpacked (an integral mode 1 stays one mode);
          the same function as ``zipped_divide`` (same flattened shape and stride).

    >>> from cute_sym.notation import parse
    >>> print(tiled_divide(parse("(_8,_6):(_1,_8)"), parse("(_2,_3)")))
    ((_2,_3),_4,_2):((_1,_8),_2,_24)
    >>> print(tiled_divide(parse("_24:_2"), parse("_4:_2")))
    (_4,_2,_3):(_4,_2,_16)
    """
    if not isinstance(layout, Layout):
        return _composed_dispatch("tiled_divide", layout, tiler)
    return _unpack(zipped_divide(layout, tiler), False)


def flat_divide(layout: Any, tiler: Any) -> Any:
    """``zipped_divide`` with both modes unpacked: ``(t0, t1, ..., r0, r1, ...)``.

    @pre as :func:`zipped_divide`.
    @post the modes are those of ``zipped_divide(layout, tiler)[0]`` then those of
          its mode 1, each unpacked (an integral mode stays one mode);
          ``flatten(result) == flatten(zipped_divide(layout, tiler))``.

    >>> from cute_sym.notation import parse
    >>> print(flat_divide(parse("(_8,_6):(_1,_8)"), parse("(_2,_3)")))
    (_2,_3,_4,_2):(_1,_8,_2,_24)
    """
    if not isinstance(layout, Layout):
        return _composed_dispatch("flat_divide", layout, tiler)
    return _unpack(zipped_divide(layout, tiler), True)


# ---------------------------------------------------------------- products
