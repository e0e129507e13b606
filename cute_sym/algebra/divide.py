"""The divides: logical, zipped, tiled and flat."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_expr
from ..core import decide
from ..core.errors import LayoutError

from ..core.int_tuple import (
    _, leaves, product, unwrap, zip2_by,
)
from ..layout.layout import Layout, _mk, _mk_static, is_static_layout
from ..core.integers import scaled_symbol, symbol_facts
from ..core.monomials import div
from ._util import _flat, _composed_dispatch, _mul
from .coalesce import _bw_sd, _transform_layout
from .complement import _complement, _complement_ints
from .composition import _compose_impl, _compose_kind_rhs, _composition_cute, _has_kind
from .composition_static import _compose_static


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
    if type(layout) is Layout and (layout._st or layout._st is None and is_static_layout(layout)):
        r = _divide_static(layout._shape, layout._stride, tiler)
        if r is not None:
            return _mk_static(r[0], r[1])
    return _logical_divide(layout, tiler)


def _logical_divide(layout: Any, tiler: Any) -> Any:
    """logical_divide's general path (symbolic values, parsed tilers, composed layouts)."""
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
            return _transform_layout(layout, tiler, _logical_divide, what="logical_divide")
        if tiler is _:
            return layout
        if is_expr(tiler):
            tiler = _mk(tiler, 1)
        elif not isinstance(tiler, Layout):
            return _composed_dispatch("logical_divide", layout, tiler)
    if _has_kind(tiler._stride):
        return _divide_by_coordinates(layout, tiler)
    fl_s, fl_d = _flat(layout)
    n = len(fl_s)
    flat_s, flat_d = _bw_sd(fl_s, fl_d, n - 2, fl_s[n - 1], fl_d[n - 1])
    last = fl_s[n - 1]
    if not (type(last) is int and last == 1):     # (a last static 1 stays: CuTe's coalesce_x)
        quick = _unit_tile_first(flat_s, flat_d, tiler)
        if quick is not None:
            return quick
    return _divide_steps(layout, tiler, flat_s, flat_d, last)


def _divide_by_coordinates(layout: Layout, tiler: Layout) -> Layout:
    """A tiler whose strides are scaled bases (a tile of coordinates): ``(tiler, complement)``
    with the complement taken per basis position in the extents of ``layout``'s modes, each leaf
    ``v@k`` composed with mode ``k`` of ``layout`` (CuTe's basis_get)."""
    s = layout._shape
    modes = s if type(s) is tuple else (s,)
    cot = tuple(product(m) for m in modes)
    comp = _complement(tiler, cot)
    r = _compose_kind_rhs(layout, (tiler._shape, comp._shape), (tiler._stride, comp._stride), False)
    return _mk(r[0], r[1])


def _divide_steps(layout: Layout, tiler: Layout, flat_s: Any, flat_d: Any, last: Any) -> Any:
    """logical_divide's general steps, on ``layout`` flattened and coalesced to ``flat_s:flat_d``
    (``last``: the last extent before coalescing); the reference of :func:`_unit_tile_first`."""
    if not (type(last) is int and last == 1) and _tiler_first(tiler, flat_s):
        # the tiler's modes compose on their own (mode by mode, as CuTe composes): an open or
        # refused tiler fold ends the call before the complement's symbolic rest is built
        head = _compose_impl(flat_s, flat_d, tiler._shape, tiler._stride)
        comp = _complement(tiler, flat_s)
        tail = _compose_impl(flat_s, flat_d, comp._shape, comp._stride)
        return _mk((head._shape, tail._shape), (head._stride, tail._stride))
    comp = _complement(tiler, flat_s)
    if not (type(last) is int and last == 1):
        # coalesce_x differs from coalesce only when the last extent is a static 1
        return _compose_impl(flat_s, flat_d, (tiler._shape, comp._shape), (tiler._stride, comp._stride))
    full = _mk((tiler._shape, comp._shape), (tiler._stride, comp._stride))
    return _composition_cute(layout, full)


def _unit_tile_first(flat_s: Any, flat_d: Any, tiler: Layout) -> Any:
    """The usual symbolic tile, read off at once: a static ``t:1`` over a flat layout
    ``(s0,s1,..):(d0,d1,..)`` whose first extent ``s0 = k*S`` is a multiple of ``t`` at every value
    (``S`` unbounded above) and whose other extents are symbols unbounded above. The general
    steps (tiler fold, complement, rest fold) give ``(t,(s0/t,s1,..)):(d0,(t*d0,d1',..))``: the
    tile ends inside ``s0`` (``t <= s0``), the rest steps over ``s0`` evenly and carries a dynamic
    1, which makes every later stride ``d_i'`` dynamic. None for any other case (the steps).

    @post the very layout :func:`_logical_divide`'s steps build (``tests/test_divide.py`` compares
          them, static and dynamic leaves included).
    """
    if type(flat_s) is not tuple or type(tiler._stride) is not int or tiler._stride != 1:
        return None
    t = tiler._shape
    if type(t) is not int or t < 2 or not decide.unconditional():
        return None
    k, x = scaled_symbol(flat_s[0])
    if x is None:
        return None
    d, lo, hi = symbol_facts(x)
    if hi is not None or lo is None or lo < 1 or (k * d) % t:
        return None
    for e in flat_s[1:]:
        if type(e) is int or not e.is_Symbol or not e.is_integer:
            return None
        _, elo, ehi = symbol_facts(e)
        if ehi is not None or elo is None or elo < 1:
            return None
    one = sympy.S.One       # ceil_div(t, s0): the dynamic 1 the rest carries past s0
    d0 = flat_d[0]
    rest_d = tuple([_mul(one, e) for e in flat_d[1:]])
    return _mk((t, (div(flat_s[0], t),) + flat_s[1:]), (d0, (_mul(t, d0),) + rest_d))


def _tiler_first(tiler: Layout, shape: Any) -> bool:
    """Whether the tiler's modes may be composed before its complement in ``shape`` is built:
    ``shape`` symbolic with every mode positive by its structure, the tiler static, and its
    complement free of errors (they come from the tiler alone then; a positive symbolic rest
    mode raises none), so the first error is the same either way."""
    if not (tiler._st or tiler._st is None and is_static_layout(tiler)):
        return False
    modes = shape if type(shape) is tuple else (shape,)
    symbolic = False
    for x in modes:
        if type(x) is int:
            if x < 1:
                return False
        elif is_expr(x) and decide.positive_by_shape(x):
            symbolic = True
        else:
            return False
    if not symbolic:
        return False
    try:
        _complement(tiler, None)
    except LayoutError:
        return False        # the complement's own error first, as the general order gives it
    return True


# ---------------------------------------------------------------- static kernels
# For a static layout (every leaf a plain int) the divides run on plain IntTuples, calling the
# building blocks' pure-int kernels in the order the general path calls them (same answers, same
# errors); None where an argument is not plain and static (the general path takes it).

def _compose_modes(ls: Any, ld: Any, rs: Any, rd: Any, strict: bool = False) -> tuple[Any, Any]:
    """``_compose_sd`` on a static coalesced lhs ``ls:ld`` and a static rhs ``rs:rd``, mode by mode."""
    if type(rs) is tuple:
        ss: list[Any] = []
        dd: list[Any] = []
        for i in range(len(rs)):
            a = rs[i]
            b = rd[i]
            if type(a) is tuple:
                a, b = _compose_modes(ls, ld, a, b, strict)
            elif b == 0:    # the leaf cases below, inline
                pass
            elif type(ls) is not tuple:
                b = b * ld
            else:
                a, b = _compose_static(ls, ld, a, b, strict)
            ss.append(a)
            dd.append(b)
        return tuple(ss), tuple(dd)
    if rd == 0:
        return rs, rd
    if type(ls) is not tuple:
        return rs, rd * ld
    return _compose_static(ls, ld, rs, rd, strict)


def _static_tiler(t: Any) -> Any:
    """The shape and stride of a static layout tiler (an int ``n`` is ``n:1``, ``1:0``); None otherwise."""
    tt = type(t)
    if tt is int:
        return (t, 0 if t == 1 else 1) if t >= 1 else None
    if tt is Layout and (t._st or t._st is None and is_static_layout(t)):
        return t._shape, t._stride
    return None


def _complement_sd(layout: Layout, fl_s: list[Any], fl_d: list[Any], cotarget: Any) -> tuple[Any, Any]:
    """``_complement(layout, cotarget)`` of a static ``layout`` whose leaves are ``fl_s:fl_d``."""
    if type(cotarget) is int and cotarget >= 1:
        c = _complement_ints(layout, tuple(fl_s), tuple(fl_d), cotarget, False)
        if c is not None:   # positive extents: positive strides, a positive cotarget
            return c._shape, c._stride
    c = _complement(layout, cotarget)
    return c._shape, c._stride


def _by_mode_sd(s: Any, d: Any, tiler: tuple[Any, ...], f: Any) -> Any:
    """``f(s_i, d_i, tiler_i)`` for each mode of the static ``s:d`` the tuple ``tiler`` covers, the
    modes past it kept, as ``(shape, stride)``; None where ``f`` declines a mode or the tiler is
    longer than the rank (the general path then raises "Too many modes in tiler").

    >>> _by_mode_sd((8, 6), (1, 8), (2, 3), _divide_static)
    (((2, 4), (3, 2)), ((1, 2), (8, 24)))
    """
    if type(s) is not tuple:
        s, d = (s,), (d,)
    n = len(tiler)
    if n > len(s):
        return None
    rs: list[Any] = []
    rd: list[Any] = []
    for i in range(n):
        r = f(s[i], d[i], tiler[i])
        if r is None:
            return None
        rs.append(r[0])
        rd.append(r[1])
    return tuple(rs) + s[n:], tuple(rd) + d[n:]


def _divide_static(s: Any, d: Any, tiler: Any) -> Any:
    """logical_divide of the static mode ``s:d`` by ``tiler`` as ``(shape, stride)``; None where the
    tiler is not plain and static.

    @pre every leaf of ``s`` and ``d`` is a plain int (the caller checks ``is_static_layout``).
    @post the general path's answer on the same arguments, or its error (tests/test_divide_static.py).

    >>> _divide_static((4, 2, 3), (2, 1, 8), Layout(4, 2))
    (((2, 2), (2, 3)), ((4, 1), (2, 8)))
    >>> _divide_static((8, 6), (1, 8), (2, 3))
    (((2, 4), (3, 2)), ((1, 2), (8, 24)))
    """
    tt = type(tiler)
    if tt is tuple:
        return _by_mode_sd(s, d, tiler, _divide_static)
    if tiler is _:
        return s, d
    if tt is int and type(s) is int and s >= 2 and tiler >= 2 and d != 0:
        # one static mode s:d by n (the usual tile of a tuple tiler): (n, ceil(s/n)):(d, n*d)
        q = -(-s // tiler)
        return ((tiler, 1), (d, 0)) if q == 1 else ((tiler, q), (d, tiler * d))
    t = _static_tiler(tiler)
    if t is None:
        return None
    ts, td = t
    if type(s) is int:
        fl_s, fl_d = [s], [d]
    else:
        fl_s, fl_d = leaves(s), leaves(d)
    n = len(fl_s)
    last = fl_s[n - 1]
    if n == 1:
        flat_s, flat_d = (1, 0) if last == 1 else (last, fl_d[0])
    else:
        flat_s, flat_d = _bw_sd(fl_s, fl_d, n - 2, last, fl_d[n - 1])
    if type(flat_s) is int and type(ts) is int and td == 1 and last != 1 and flat_s >= 2 and ts >= 2 and flat_d != 0:
        # one coalesced mode S:D by t:1, as an integer tiler above: complement(t:1, S) is ceil(S/t):t
        q = -(-flat_s // ts)
        return ((ts, 1), (flat_d, 0)) if q == 1 else ((ts, q), (flat_d, ts * flat_d))
    tl = tiler if type(tiler) is Layout else _mk_static(ts, td)
    if type(ts) is int:
        cs, cd = _complement_sd(tl, [ts], [td], flat_s)
    else:
        cs, cd = _complement_sd(tl, leaves(ts), leaves(td), flat_s)
    if last == 1:   # coalesce_x: the trailing static 1 keeps its stride
        flat_s, flat_d = _bw_sd(fl_s, fl_d, n - 2, 2, fl_d[n - 1], False)
    return _compose_modes(flat_s, flat_d, (ts, cs), (td, cd))


def _tile_unzip(layout: Layout, tiler: Any) -> Layout:
    return _mk(zip2_by(layout._shape, tiler), zip2_by(layout._stride, tiler))


def _zip2_sd(s: Any, d: Any, guide: Any) -> Any:
    """``(zip2_by(s, guide), zip2_by(d, guide))`` in one pass over plain IntTuples; None where
    ``zip2_by`` raises (the general path reports it).

    >>> _zip2_sd(((2, 4), (3, 2)), ((1, 2), (8, 24)), (2, 3))
    (((2, 3), (4, 2)), ((1, 8), (2, 24)))
    """
    if type(guide) is not tuple:
        return (s, d) if type(s) is tuple and len(s) == 2 else None
    n = len(guide)
    if type(s) is not tuple or len(s) < n:
        return None
    fs: list[Any] = []
    fd: list[Any] = []
    rs: list[Any] = []
    rd: list[Any] = []
    for i in range(n):
        x, y = s[i], d[i]
        if type(guide[i]) is tuple:
            z = _zip2_sd(x, y, guide[i])
            if z is None:
                return None
            x, y = z
        elif type(x) is not tuple or len(x) != 2:
            return None
        fs.append(x[0])
        rs.append(x[1])
        fd.append(y[0])
        rd.append(y[1])
    return (tuple(fs), tuple(rs) + s[n:]), (tuple(fd), tuple(rd) + d[n:])


def _zipped_static(layout: Any, tiler: Any) -> Any:
    """zipped_divide of a static layout by a plain static tiler as ``(shape, stride)``; None otherwise."""
    if type(layout) is Layout and (layout._st or layout._st is None and is_static_layout(layout)):
        r = _divide_static(layout._shape, layout._stride, tiler)
        if r is not None:
            return _zip2_sd(r[0], r[1], tiler)
    return None


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
    z = _zipped_static(layout, tiler)
    if z is not None:
        return _mk_static(z[0], z[1])
    return _zipped_divide(layout, tiler)


def _zipped_divide(layout: Any, tiler: Any) -> Any:
    """zipped_divide's general path."""
    if not isinstance(layout, Layout):
        return _composed_dispatch("zipped_divide", layout, tiler)
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    return _tile_unzip(_logical_divide(layout, tiler), tiler)


def _items(x: Any) -> tuple[Any, ...]:
    # CuTe's repeat<1>(_) is a plain _: a rank-1 mode is kept whole
    return x if type(x) is tuple and len(x) != 1 else (x,)


def _unpack_sd(s: Any, d: Any, first: bool) -> tuple[Any, Any]:
    """``result(_, repeat<R1>(_))`` or ``result(repeat<R0>(_), repeat<R1>(_))`` of a rank-2 ``s:d``."""
    if first:
        return _items(s[0]) + _items(s[1]), _items(d[0]) + _items(d[1])
    return (s[0],) + _items(s[1]), (d[0],) + _items(d[1])


def _unpack(layout: Layout, first: bool) -> Layout:
    s, d = _unpack_sd(layout._shape, layout._stride, first)
    return _mk(s, d)


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
    z = _zipped_static(layout, tiler)
    if z is not None:
        s, d = _unpack_sd(z[0], z[1], False)
        return _mk_static(s, d)
    if not isinstance(layout, Layout):
        return _composed_dispatch("tiled_divide", layout, tiler)
    return _unpack(_zipped_divide(layout, tiler), False)


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
    z = _zipped_static(layout, tiler)
    if z is not None:
        s, d = _unpack_sd(z[0], z[1], True)
        return _mk_static(s, d)
    if not isinstance(layout, Layout):
        return _composed_dispatch("flat_divide", layout, tiler)
    return _unpack(_zipped_divide(layout, tiler), True)


# ---------------------------------------------------------------- products
