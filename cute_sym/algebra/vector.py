"""Common vectors and recasts: max_common_layout/vector, nullspace, upcast, downcast, recast_layout."""
from __future__ import annotations

from typing import Any


from ..core import decide
from ..core.errors import LayoutError
from ..core.int_tuple import (
    unwrap, cdiv, compact_major, iter_leaves, sabs, shape_div,
)
from ..core.integers import IntLike
from ..layout.layout import Layout, _mk
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
    return _mk(1, 0)


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
    return 1


def nullspace(layout: Layout) -> Layout:
    """The modes of stride 0: ``layout(result(i)) == 0`` for ``i < size(result)``.

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


def upcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times larger: the stride-1 mode shrinks by ``n``,
    other strides are divided by ``n``.

    @pre ``n >= 1``; for each static non-zero stride ``d``, ``d`` and ``n`` divide one
         another, and so do the mode's extent and ``n / |d|`` when ``|d| < n``
         (CuTe's ``shape_div``, else :class:`DivisibilityError`); a symbolic stride
         not below ``n`` is a multiple of ``n``.
    @post congruent with ``layout``; stride-0 modes are unchanged; every other mode
          ``s:d`` becomes ``shape_div(s, shape_div(n, |d|)):shape_div(d, n)``.

    >>> from cute_sym.notation import parse
    >>> print(upcast(parse("(_4,_8):(_8,_1)"), 4), upcast(parse("(_2,_8):(_0,_1)"), 4))
    (_4,_2):(_2,_1) (_2,_2):(_0,_1)
    >>> print(upcast(parse("(_4,_8):(_1,_4)"), 2))
    (_2,_8):(_1,_2)
    """
    _need_layout(layout, "upcast")
    n = _positive_count(n, "upcast")

    def go(s: Any, d: Any) -> tuple[Any, Any]:
        if type(s) is tuple:
            parts = [go(x, y) for x, y in zip(s, d)]
            return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
        if _is0(d):
            return s, d
        if type(d) is int or decide.prove("<", sabs(d), n) is not False:
            return shape_div(s, shape_div(n, sabs(d))), shape_div(d, n)
        if not decide.require("|", n, d, why="upcast"):
            raise LayoutError(f"upcast: stride {d} is not a multiple of {n}")
        return s, cdiv(d, n)
    s, d = go(layout._shape, layout._stride)
    return _mk(s, d)


def downcast(layout: Layout, n: int) -> Layout:
    """View ``layout`` in units ``n`` times smaller: the stride-±1 mode grows by ``n``,
    other strides are multiplied by ``n``.

    @pre some stride is 1 ("Downcast requires adjacent elements").

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
        return s, _mul(d, n)
    s, d = go(layout._shape, layout._stride)
    return _mk(s, d)


def recast_layout(layout: Layout, old_bits: int, new_bits: int) -> Layout:
    """Re-express ``layout`` from elements of ``old_bits`` to elements of ``new_bits``.

    @pre ``old_bits, new_bits > 0`` and one divides the other (else :class:`LayoutError`
         "Recast not supported"); the preconditions of :func:`upcast` / :func:`downcast`.
    @post ``layout`` when the widths are equal; ``upcast(layout, new_bits // old_bits)``
          when wider; ``downcast(layout, old_bits // new_bits)`` when narrower.

    >>> from cute_sym.notation import parse
    >>> print(recast_layout(parse("(_4,_8):(_1,_4)"), 32, 8))
    (_16,_8):(_1,_16)
    >>> try:
    ...     recast_layout(parse("(_4,_8):(_1,_4)"), 16, 24)
    ... except LayoutError as e:
    ...     print(e)
    Recast not supported: 16 bits to 24 bits
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
    raise LayoutError(f"Recast not supported: {old_bits} bits to {new_bits} bits")

