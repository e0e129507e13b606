"""Layouts whose strides are scaled bases (CuTe's identity layouts and what the algebra makes of them).

A basis layout is a :class:`~cute_sym.layout.Layout` whose stride leaves are
:class:`ScaledBasis` values (or a static ``_0``): it maps a coordinate to a
coordinate. Slicing, modes, ``L(c)`` work on it as on any layout; the algebra
(coalesce, composition, the divides) runs here.

How: the lhs strides of a composition are never compared by CuTe's fold, only
multiplied by an integer that the rhs and the lhs *shapes* determine. So the
lhs is first coalesced with basis equality (``s*(k@P) == k'@P'`` exactly when
``P == P'`` and ``s*k == k'``, decided), then the unchanged integer fold runs
twice on the coalesced shapes: with every lhs stride ``1`` (its output strides
are the integer factors ``r`` exactly, static or dynamic as CuTe's are) and with
the distinct strides ``2, 3, ...`` (the output ``r*(j+2)`` names the lhs mode
``j`` it came from, since ``r != 0``). Each output is then ``r * ld[j]``. No
radix encoding, so no accidental equality between modes can occur.

>>> from cute_sym.notation import parse
>>> I = make_identity_layout((16, 8))
>>> print(I)
(_16,_8):(_1@0,_1@1)
>>> print(composition(I, parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")))
((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))
>>> print(zipped_divide(I, (4, 2)))
((_4,_2),(_4,_4)):((_1@0,_1@1),(_4@0,_2@1))
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..algebra._util import _mul
from ..algebra.coalesce import _bw_sd as _alg_bw_sd, _transform_layout
from ..algebra.composition import _compose_sd
from ..swizzle import ops as _alg
from ..core import decide
from ..core.errors import LayoutError, RankError
from ..core.lazy import is_expr
from ..core.int_tuple import _, fmt, iter_leaves, leaves, unwrap, zip2_by
from ..layout.layout import Layout, _mk
from .arith_tuple import ScaledBasis, make_basis_like

__all__ = [
    "is_basis_layout", "make_identity_layout", "coalesce", "composition", "logical_divide", "zipped_divide",
    "tiled_divide", "flat_divide", "filter_zeros",
]


def is_basis_layout(x: object) -> bool:
    """True for a Layout with a scaled-basis stride (an identity layout, or one derived from it)."""
    return isinstance(x, Layout) and any(isinstance(d, ScaledBasis) for d in iter_leaves(x.stride))


def make_identity_layout(shape: Any) -> Layout:
    """CuTe's ``make_identity_layout``: ``shape`` with the strides ``make_basis_like(shape)``.

    @post ``result(c) == c`` (as an ArithmeticTuple) for every natural coordinate ``c`` of ``shape``.

    >>> print(make_identity_layout(((2, 4), 8)))
    ((_2,_4),_8):((_1@0@0,_1@1@0),_1@1)
    >>> make_identity_layout((4, 8))(1, 2)
    ArithmeticTuple((_1,_2))
    """
    shape = Layout(unwrap(shape)).shape      # checked like any shape
    return _mk(shape, make_basis_like(shape))


# ---------------------------------------------------------------- coalesce
def _same_value(a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a == b
    return decide.prove("==", a, b) is True


def _merges(s: Any, d: Any, fd: Any) -> bool:
    """``s * d == fd`` with CuTe's basis equality (a basis never equals an integer)."""
    if isinstance(d, ScaledBasis) and isinstance(fd, ScaledBasis):
        return d.modes == fd.modes and _same_value(_mul(s, d.value), fd.value)
    if isinstance(d, ScaledBasis) or isinstance(fd, ScaledBasis):
        return False
    return _same_value(_mul(s, d), fd)


def _bw_sd(old_s: list[Any], old_d: list[Any], last: int, ns: Any, nd: Any, keep_static: bool) -> tuple[Any, Any]:
    """The algebra's bw_coalesce with basis equality (:func:`_merges`)."""
    return _alg_bw_sd(old_s, old_d, last, ns, nd, keep_static, _merges)


def _flat_coalesce(layout: Layout, keep_static: bool, keep_last: bool) -> tuple[Any, Any]:
    s, d = leaves(layout.shape), leaves(layout.stride)
    n = len(s)
    if n == 0:
        return 1, 0
    first = 2 if keep_last and type(s[n - 1]) is int and s[n - 1] == 1 else s[n - 1]
    return _bw_sd(s, d, n - 2, first, d[n - 1], keep_static)


def coalesce(layout: Layout, profile: Any = None) -> Layout:
    """CuTe's ``coalesce`` of a basis layout: merge neighbours ``s:k@P``, ``t:(s*k)@P``.

    @post the same function on its domain; modes of different basis positions never merge.

    >>> from cute_sym.notation import parse
    >>> print(coalesce(composition(make_identity_layout((4, 8)), parse("(_2,_2,_8):(_1,_2,_4)"))))
    (_4,_8):(_1@0,_1@1)
    """
    if profile is not None:
        profile = unwrap(profile)
        if type(profile) is tuple:
            return _transform_layout(layout, profile, coalesce, keep_rest=True, what="coalesce")
    return _mk(*_flat_coalesce(layout, keep_static=False, keep_last=False))


def filter_zeros(layout: Layout) -> Layout:
    """Every mode of static stride ``_0`` gets extent 1 (a scaled basis is never zero).

    >>> print(filter_zeros(_mk((4, 2), (ScaledBasis(1, (0,)), 0))))
    (_4,_1):(_1@0,_0)
    """
    def go(s: Any, d: Any) -> Any:
        if type(s) is tuple:
            return tuple(go(x, y) for x, y in zip(s, d))
        if isinstance(d, ScaledBasis):
            return s
        if type(d) is int:
            return 1 if d == 0 else s
        return 1 if decide.prove("==", d, 0) else s
    return _mk(go(layout.shape, layout.stride), layout.stride)


# ---------------------------------------------------------------- composition
def _scale(r: Any, d: Any) -> Any:
    """``r * d`` for an integer ``r`` and an lhs stride ``d`` (a basis or an integer); a static 0
    is the rhs's own stride-0 mode, which CuTe keeps as ``_0``."""
    if type(r) is int and r == 0:
        return 0
    if isinstance(d, ScaledBasis):
        return r * d
    return _mul(r, d)


def _compose_flat(ls: Any, ld: Any, rs: Any, rd: Any, strict: bool) -> tuple[Any, Any]:
    """CuTe's composition_impl on a coalesced basis lhs ``ls:ld`` (see the module text)."""
    if type(ls) is not tuple:
        s1, d1 = _compose_sd(ls, 1, rs, rd, strict)
        return s1, _map_leaves(d1, lambda r: _scale(r, ld))
    n = len(ls)
    s1, d1 = _compose_sd(ls, (1,) * n, rs, rd, strict)
    with decide.collect_guards():       # the same decisions as above: already made or recorded
        s2, d2 = _compose_sd(ls, tuple(range(2, n + 2)), rs, rd, False)
    if fmt(s1) != fmt(s2):  # pragma: no cover - the fold never reads lhs strides to choose a shape
        raise LayoutError(f"composition of a basis layout: the fold depends on the lhs strides ({fmt(s1)} vs {fmt(s2)})")
    d2_leaves = leaves(d2)
    out = []
    for k, r in enumerate(leaves(d1)):
        if type(r) is int and r == 0:
            out.append(0)
            continue
        tagged = d2_leaves[k]
        js = [j for j in range(n) if _mul(r, j + 2) == tagged]
        if len(js) != 1:  # pragma: no cover - r != 0, so r*(j+2) names one j
            raise LayoutError(f"composition of a basis layout: cannot tell the lhs mode of stride {fmt(r)}")
        out.append(_scale(r, ld[js[0]]))
    return s1, _unflatten_like(out, d1)


def _map_leaves(t: Any, f: Any) -> Any:
    if type(t) is tuple:
        return tuple(_map_leaves(e, f) for e in t)
    return f(t)


def _unflatten_like(flat: list[Any], profile: Any) -> Any:
    it = iter(flat)

    def go(p: Any) -> Any:
        if type(p) is tuple:
            return tuple(go(e) for e in p)
        return next(it)
    return go(profile)


def _compose_basis_rhs(lhs: Layout, rs: Any, rd: Any, strict: bool) -> tuple[Any, Any]:
    """rhs leaf ``s:k@P`` composes with the lhs mode at position ``P`` (CuTe's basis_get case)."""
    if type(rs) is tuple:
        parts = [_compose_basis_rhs(lhs, s, d, strict) for s, d in zip(rs, rd)]
        return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
    if isinstance(rd, ScaledBasis):
        sub = lhs
        for m in rd.modes:
            try:
                sub = sub[m]
            except RankError:
                raise LayoutError(f"composition: rhs stride {rd} has no mode in the lhs {lhs}") from None
        r = _composition(sub, _mk(rs, rd.value), strict)
        return r.shape, r.stride
    if type(rd) is int and rd == 0:
        return rs, rd
    r = _composition(lhs, _mk(rs, rd), strict)
    return r.shape, r.stride


def _composition(lhs: Any, rhs: Any, strict: bool) -> Any:
    """Composition where the lhs or the rhs may be a basis layout; other cases go to the algebra."""
    if type(rhs) is not Layout:
        rhs = unwrap(rhs)
    if isinstance(rhs, Layout) and is_basis_layout(rhs):
        if not isinstance(lhs, Layout):
            raise LayoutError(f"composition: a basis-strided rhs needs a Layout lhs, got {type(lhs).__name__}")
        return _mk(*_compose_basis_rhs(lhs, rhs.shape, rhs.stride, strict))
    if not is_basis_layout(lhs):
        return _alg.composition(lhs, rhs) if strict else _alg._composition_cute(lhs, rhs)
    if isinstance(rhs, Layout):
        fs, fd = _flat_coalesce(lhs, keep_static=False, keep_last=True)
        return _mk(*_compose_flat(fs, fd, rhs.shape, rhs.stride, strict))
    if type(rhs) is tuple:
        return _transform_layout(lhs, rhs, lambda a, b: _composition(a, b, strict), keep_rest=False, what="composition")
    if rhs is _:
        return lhs
    if type(rhs) is int or is_expr(rhs):
        fs, fd = _flat_coalesce(lhs, keep_static=False, keep_last=True)
        return _mk(*_compose_flat(fs, fd, rhs, 1, strict))
    raise LayoutError(f"composition: unsupported rhs {rhs!r} for a basis layout")


def composition(lhs: Any, rhs: Any) -> Any:
    """``lhs o rhs`` where either side may have scaled-basis strides: ``result(c) == lhs(rhs(c))``.

    @pre as the algebra's composition (the rhs shapes and strides divide the lhs shape).
    @post ``compatible(rhs, result)``; ``result(i) == lhs(rhs(i))`` for every ``i < size(rhs)``.

    >>> from cute_sym.notation import parse
    >>> I = make_identity_layout((8, 4))
    >>> print(composition(I, parse("(_4,_8):(_8,_1)")))
    (_4,_8):(_1@1,_1@0)
    >>> print(composition(parse("(_8,_4):(_4,_1)"), make_identity_layout((8, 4))))
    (_8,_4):(_4,_1)
    """
    return _composition(lhs, rhs, True)


# ---------------------------------------------------------------- divides
def logical_divide(layout: Layout, tiler: Any) -> Layout:
    """CuTe's ``logical_divide`` of a basis layout: ``composition(layout, (tiler, complement(tiler, shape(coalesce(layout)))))``.

    @post ``result(i) == layout(tiled(i))`` where ``tiled = (tiler, complement(...))``; a tuple tiler
          divides mode by mode.

    >>> print(logical_divide(make_identity_layout((8, 6)), (2, 3)))
    ((_2,_4),(_3,_2)):((_1@0,_2@0),(_1@1,_3@1))
    """
    if not is_basis_layout(layout):
        return _alg.logical_divide(layout, tiler)  # type: ignore[no-any-return]
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    if type(tiler) is tuple:
        return _transform_layout(layout, tiler, logical_divide, keep_rest=True, what="logical_divide")
    if tiler is _:
        return layout
    if type(tiler) is int or is_expr(tiler):
        tiler = _mk(tiler, 0 if type(tiler) is int and tiler == 1 else 1)
    if not isinstance(tiler, Layout):
        raise LayoutError(f"logical_divide: unsupported tiler {tiler!r} for a basis layout")
    flat_s, _d = _flat_coalesce(layout, keep_static=True, keep_last=False)
    comp = _alg._complement(tiler, flat_s)
    full = _mk((tiler.shape, comp.shape), (tiler.stride, comp.stride))
    return _composition(layout, full, False)  # type: ignore[no-any-return]


def _unpack(layout: Layout, first: bool) -> Layout:
    s, d = layout.shape, layout.stride

    def items(x: Any) -> tuple[Any, ...]:
        return x if type(x) is tuple and len(x) != 1 else (x,)
    s0, s1, d0, d1 = s[0], s[1], d[0], d[1]  # type: ignore[index]
    if first:
        return _mk(items(s0) + items(s1), items(d0) + items(d1))
    return _mk((s0,) + items(s1), (d0,) + items(d1))


def zipped_divide(layout: Layout, tiler: Any) -> Layout:
    """``logical_divide`` with the tile modes gathered: ``((TILE...), (REST...))``.

    >>> print(zipped_divide(make_identity_layout((8, 6)), (2, 3)))
    ((_2,_3),(_4,_2)):((_1@0,_1@1),(_2@0,_3@1))
    """
    if not is_basis_layout(layout):
        return _alg.zipped_divide(layout, tiler)  # type: ignore[no-any-return]
    if type(tiler) is not Layout:
        tiler = unwrap(tiler)
    r = logical_divide(layout, tiler)
    if type(tiler) is not tuple:
        return r        # a layout tiler: already (TILE, REST)
    return _mk(zip2_by(r.shape, tiler), zip2_by(r.stride, tiler))


def tiled_divide(layout: Layout, tiler: Any) -> Layout:
    """``zipped_divide`` with the rest modes unpacked: ``((TILE...), r0, r1, ...)``.

    >>> print(tiled_divide(make_identity_layout((8, 6)), (2, 3)))
    ((_2,_3),_4,_2):((_1@0,_1@1),_2@0,_3@1)
    """
    if not is_basis_layout(layout):
        return _alg.tiled_divide(layout, tiler)  # type: ignore[no-any-return]
    return _unpack(zipped_divide(layout, tiler), False)


def flat_divide(layout: Layout, tiler: Any) -> Layout:
    """``zipped_divide`` with both modes unpacked: ``(t0, t1, ..., r0, r1, ...)``.

    >>> print(flat_divide(make_identity_layout((8, 6)), (2, 3)))
    (_2,_3,_4,_2):(_1@0,_1@1,_2@0,_3@1)
    """
    if not is_basis_layout(layout):
        return _alg.flat_divide(layout, tiler)  # type: ignore[no-any-return]
    return _unpack(zipped_divide(layout, tiler), True)
