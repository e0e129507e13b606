"""Common vectors and recasts: max_common_layout/vector, nullspace, upcast, downcast, recast_layout."""
from __future__ import annotations

from typing import Any


from ..core import decide
from ..core.errors import LayoutError
from ..core.int_tuple import (
    unwrap, cdiv, compact_major, fmt, iter_leaves, sabs, shape_div,
)
from ..core.integers import IntLike
from ..layout.layout import Layout, _mk
from ..stride.kind import StrideKind
from ._util import _flat, _is0, _mul
from .coalesce import coalesce
from .composition import _composition_cute
from .inverse import right_inverse


def max_common_layout(a: Layout, b: Layout) -> Layout:
    """The largest ``R`` with ``a(R(i)) == i`` and ``b(R(i)) == i``: the common
    contiguous (vectorisable) part of two layouts; static extents only, as in CuTe.

    @post ``a(result(i)) == i == b(result(i))`` for ``i < size(result)``.

    >>> from cute_sym.notation import parse
    >>> print(max_common_layout(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_8)")))
    _4:_1
    """
    inv_b = right_inverse(b)
    common = coalesce(_composition_cute(a, inv_b))
    s0 = common._shape[0] if type(common._shape) is tuple else common._shape
    d0 = common._stride[0] if type(common._stride) is tuple else common._stride
    if type(s0) is int and type(d0) is int and d0 == 1:
        return _composition_cute(inv_b, _mk(s0, d0))  # type: ignore[no-any-return]
    n = _static_run(a, inv_b, s0, d0, "max_common_layout")
    return _composition_cute(inv_b, _mk(n, 1)) if n > 1 else _mk(1, 0)


def max_common_vector(a: Layout, b: Layout) -> IntLike:
    """The number ``N`` of leading elements where ``a`` and ``b`` agree contiguously
    (static, as in CuTe: a symbolic run counts as 1).

    @post ``a(b.get_1d_coord(n)) == n`` for ``n < N``; ``N >= 1``.

    >>> from cute_sym.notation import parse
    >>> max_common_vector(parse("(_4,_8):(_1,_4)"), parse("(_4,_8):(_1,_4)"))
    32
    """
    common = coalesce(_composition_cute(a, right_inverse(b)))
    s0 = common._shape[0] if type(common._shape) is tuple else common._shape
    d0 = common._stride[0] if type(common._stride) is tuple else common._stride
    if type(s0) is int and type(d0) is int and d0 == 1:
        return s0
    inv_b = right_inverse(b)
    return _static_run(a, inv_b, s0, d0, "max_common_vector")


def _static_run(a: Layout, inv_b: Layout, s0: Any, d0: Any, what: str) -> int:
    """The static part of a common run of symbolic length ``s0``, as CuTe has it: CuTe's
    coalesce merges a static mode only with static ones, so its run starts with the
    leading static run of ``a`` cut to the leading static run of ``right_inverse(b)``
    (1 when either starts with a symbolic extent: CuTe's run is then dynamic and dropped).

    @post ``result <= s0`` (proved, else :class:`UndecidableError` naming it), so the first
          ``result`` elements are common.
    """
    if not (type(d0) is int and d0 == 1):
        return 1
    n = min(_leading_static(a), _leading_static(inv_b))
    if n > 1 and not decide.require("<=", n, s0, why=f"{what} (the static part of the common run)"):
        raise LayoutError(f"{what}: the common run {fmt(s0)} is shorter than its static part {n}")  # pragma: no cover
    return n


def _leading_static(L: Layout) -> int:
    """Length of the contiguous run from offset 0 made of ``L``'s leading static modes."""
    fs, fd = _flat(L)
    n = 1
    for s, d in zip(fs, fd):
        if type(s) is int and s == 1:
            continue
        if type(s) is not int or type(d) is not int or d != n:
            break
        n *= s
    return n


def nullspace(layout: Layout) -> Layout:
    """The modes of stride 0: ``layout(result(i)) == 0`` for ``i < size(result)``.

    @pre a symbolic stride (of a mode of extent other than 1) is either proved 0 or known not
         to be 0 (else :class:`UndecidableError` naming ``d != 0``; under ``collect_guards`` the
         fact is recorded).
    @post ``layout(result(i)) == 0`` for ``i < size(result)``; ``result`` is injective
          and ``size(result)`` is the product of the extents of the stride-0 modes
          (``_1:_0`` when there is none).

    >>> from cute_sym.notation import parse
    >>> print(nullspace(parse("(_4,_2):(_1,_4)")))
    _1:_0
    >>> print(nullspace(parse("(_2,_3,_4):(_1,_0,_0)")))
    (_3,_4):(_2,_6)
    """
    fs, fd = _flat(layout)
    seq = [i for i, d in enumerate(fd) if _is0(d)]
    for s, d in zip(fs, fd):
        # a symbolic stride that may be 0 decides the answer (an extent-1 mode: only its printing)
        if type(d) is not int and not (type(s) is int and s == 1) and not _is0(d):
            decide.require("!=", d, 0, why="nullspace (a symbolic stride that is 0 would be in the nullspace)")
    if not seq:
        return _mk(1, 0)
    rstride = compact_major(tuple(fs))
    shp = tuple(fs[i] for i in seq)
    std = tuple(rstride[i] for i in seq)  # type: ignore[index]
    return _mk(shp[0], std[0]) if len(seq) == 1 else _mk(shp, std)


# ---------------------------------------------------------------- divides

# ---------------------------------------------------------------- recast
def _positive_count(n: Any, what: str) -> int:
    """A static positive integer argument (a factor or a bit width)."""
    n = unwrap(n)
    if type(n) is not int or n < 1:
        raise LayoutError(f"{what}: expected a static positive integer, got {n!r}")
    return n


def _need_layout(layout: Any, what: str) -> None:
    if not isinstance(layout, Layout):
        raise LayoutError(f"{what}: expected a Layout, got {type(layout).__name__}")
    if not layout._st and any(isinstance(d, StrideKind) for d in iter_leaves(layout._stride)):
        raise LayoutError(f"{what}: {layout} has strides that are not integers (scaled bases, F2 vectors): "
                          "a recast counts elements of memory")


def upcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times larger: the stride-1 mode shrinks by ``n``,
    other strides are divided by ``n``.

    @pre ``n >= 1``; for each static non-zero stride ``d``, ``d`` and ``n`` divide one
         another, and, where one mode alone steps inside a vector (``|d| < n``), so do its
         extent and ``n / |d|`` (CuTe's ``shape_div``, else :class:`DivisibilityError`;
         two or more such modes make whole vectors together and take CuTe's ``ceil_div``);
         a symbolic stride not below ``n`` is a multiple of ``n``.
    @post congruent with ``layout``; stride-0 modes are unchanged; every other mode
          ``s:d`` becomes ``shape_div(s, shape_div(n, |d|)):shape_div(d, n)`` (with two or
          more modes inside a vector, ``ceil_div(s, n / |d|)`` for the extent).

    >>> from cute_sym.notation import parse
    >>> print(upcast(parse("(_4,_8):(_8,_1)"), 4), upcast(parse("(_2,_8):(_0,_1)"), 4))
    (_4,_2):(_2,_1) (_2,_2):(_0,_1)
    >>> print(upcast(parse("(_4,_8):(_1,_4)"), 2))
    (_2,_8):(_1,_2)
    """
    return _upcast(layout, n, False)


def _upcast(layout: Layout, n: int, cover: bool) -> Layout:
    """upcast; ``cover``: a partial last vector counts as a whole one (CuTe's ``ceil_div``),
    as recast_layout does between widths that do not divide each other."""
    _need_layout(layout, "upcast")
    n = _positive_count(n, "upcast")
    # two or more modes inside one vector make whole vectors together: CuTe's ceil_div per mode
    # (upcast<8> of (_3,_4):(_1,_3) is (_1,_1)), not a divisibility failure of one of them
    inside = sum(1 for s, d in zip(iter_leaves(layout._shape), iter_leaves(layout._stride))
                 if type(d) is int and 0 < abs(d) < n and not (type(s) is int and s == 1))
    cover = cover or inside >= 2

    def go(s: Any, d: Any) -> tuple[Any, Any]:
        if type(s) is tuple:
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        if _is0(d):
            return s, d
        if type(d) is int or decide.prove("<", sabs(d), n) is not False:
            q = shape_div(n, sabs(d))
            if cover and type(s) is int and type(q) is int:
                return -(-s // q), shape_div(d, n)
            return shape_div(s, q), shape_div(d, n)
        if not decide.require("|", n, d, why="upcast"):
            raise LayoutError(f"upcast: stride {d} is not a multiple of {n}")
        return s, cdiv(d, n)
    s, d = go(layout._shape, layout._stride)
    return _mk(s, d)


def downcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times smaller: the stride-±1 mode grows by ``n``,
    other strides are multiplied by ``n``.

    @pre some stride is 1 ("Downcast requires adjacent elements"); a symbolic stride is known
         not to be 1 or -1 (else :class:`UndecidableError` naming the fact; under
         ``collect_guards`` it is recorded).

    >>> from cute_sym.notation import parse
    >>> print(downcast(parse("(_4,_8):(_1,_4)"), 2))
    (_8,_8):(_1,_8)
    """
    _need_layout(layout, "downcast")
    n = _positive_count(n, "downcast")
    if not any(type(d) is int and d == 1 for d in iter_leaves(layout._stride)):
        raise LayoutError("Downcast requires adjacent elements (a static stride-1 mode)")

    def go(s: Any, d: Any) -> tuple[Any, Any]:
        if type(s) is tuple:
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        if type(d) is int and d in (1, -1):
            return _mul(s, n), d
        if type(d) is not int:
            # a symbolic stride of 1 would be a unit mode too (CuTe reads only static ones)
            why = "downcast (a symbolic stride that is 1 or -1 would be a unit mode)"
            if not (decide.require("!=", d, 1, why=why) and decide.require("!=", d, -1, why=why)):
                return _mul(s, n), d        # proved to be 1 or -1: the unit mode
        return s, _mul(d, n)
    s, d = go(layout._shape, layout._stride)
    return _mk(s, d)


def recast_layout(layout: Layout, old_bits: int, new_bits: int) -> Layout:
    """Re-express ``layout`` from elements of ``old_bits`` to elements of ``new_bits``.

    @pre ``old_bits, new_bits > 0``; the preconditions of :func:`upcast` / :func:`downcast`.
    @post with ``new_bits / old_bits == num / den`` in lowest terms: ``layout`` when the
          widths are equal; ``upcast(layout, num)`` when wider (``den == 1``);
          ``downcast(layout, den)`` when narrower (``num == 1``); otherwise CuTe's
          ``downcast<den>(upcast<num>(layout))`` where the upcast counts a partial last
          vector as a whole one (``ceil_div``): each new element covers the old ones it
          overlaps, not a bijection of bits.

    >>> from cute_sym.notation import parse
    >>> print(recast_layout(parse("(_4,_8):(_1,_4)"), 32, 8))
    (_16,_8):(_1,_16)
    >>> print(recast_layout(parse("(_64):(_1)"), 24, 64))
    (_24):(_1)
    >>> print(recast_layout(parse("(_4,_8):(_1,_4)"), 16, 32))
    (_2,_8):(_1,_2)
    """
    import math
    _need_layout(layout, "recast_layout")
    old_bits = _positive_count(old_bits, "recast_layout (old_bits)")
    new_bits = _positive_count(new_bits, "recast_layout (new_bits)")
    g = math.gcd(new_bits, old_bits)
    num, den = new_bits // g, old_bits // g
    if num == 1 and den == 1:
        return layout
    if num == 1:
        return downcast(layout, den)
    if den == 1:
        return upcast(layout, num)
    return downcast(_upcast(layout, num, True), den)

