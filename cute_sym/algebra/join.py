"""The lattice of shapes and two operations built on it (NVIDIA PyCuTe's): ``common_refinement``
(the join of two shapes under compatibility), ``common_coarsening`` (the meet),
``greatest_common_domain`` (the largest layout into the domains of two shapes that both can be
divided by) and ``layout_add`` (the pointwise sum of two layouts of one size, over any stride kind).

>>> common_refinement(((2, 3), 20), (6, (4, 5))), common_coarsening((2, (3, 5)), ((3, 2), 5))
(((2, 3), (4, 5)), 30)
>>> print(greatest_common_domain((5, 3, 4), (10, 6)))
(_5,_2):(_1,_30)
>>> from cute_sym.layout import make_layout
>>> print(layout_add(make_layout((4, 3), (1, 4)), make_layout((4, 3), (3, 1))))
(_4,_3):(_4,_5)
"""
from __future__ import annotations

import math
from typing import Any

from ..core.errors import LayoutError
from ..core.int_tuple import leaves
from ..layout.layout import Layout, _mk
from ..stride.kind import stride_add, stride_mul
from .coalesce import coalesce

__all__ = ["common_refinement", "common_coarsening", "greatest_common_domain", "layout_add"]


def _shape(x: Any) -> Any:
    if isinstance(x, Layout):
        return x.shape
    if isinstance(x, list):
        return tuple(_shape(e) for e in x)
    return x


def _size(s: Any) -> Any:
    n = 1
    for x in leaves(s):
        n *= x
    return n


def _static(s: Any, op: str) -> None:
    for x in leaves(s):
        if type(x) is not int:
            raise LayoutError(f"{op}: static shapes are needed, got {s!r}")


def common_refinement(a: Any, b: Any) -> Any:
    """The join of two shapes: the coarsest shape that both are compatible with.

    An integer joins a shape of its size (the shape); two tuples join mode by mode.

    @pre ``a`` and ``b`` are shapes (or layouts, their shapes) with a common refinement.
    @post ``compatible(a, result)`` and ``compatible(b, result)``; symmetric in ``a`` and ``b``.

    >>> common_refinement(30, (2, 15)), common_refinement((4, (3, 5)), ((2, 2), 15))
    ((2, 15), ((2, 2), (3, 5)))
    """
    a, b = _shape(a), _shape(b)
    _static((a, b), "common_refinement")
    if type(a) is not tuple:
        if a != _size(b):
            raise LayoutError(f"common_refinement: {a} and {b} have different sizes")
        return b
    if type(b) is not tuple:
        return common_refinement(b, a)
    if len(a) != len(b):
        raise LayoutError(f"common_refinement: {a} and {b} have different ranks and no common refinement")
    return tuple(common_refinement(x, y) for x, y in zip(a, b))


def common_coarsening(a: Any, b: Any) -> Any:
    """The meet of two shapes of one size: the finest shape compatible with both.

    Two tuples of one rank meet mode by mode where every mode has one size; otherwise (an
    integer, other ranks, a mode of other sizes) the meet is the size.

    @pre ``size(a) == size(b)``.
    @post ``compatible(result, a)`` and ``compatible(result, b)``; symmetric in ``a`` and ``b``.

    >>> common_coarsening((4, (3, 5)), ((2, 2), 15)), common_coarsening((6, 5), (2, 15))
    ((4, 15), 30)
    """
    a, b = _shape(a), _shape(b)
    _static((a, b), "common_coarsening")
    n = _size(a)
    if n != _size(b):
        raise LayoutError(f"common_coarsening: {a} and {b} have different sizes")
    if type(a) is not tuple or type(b) is not tuple or len(a) != len(b):
        return n
    if any(_size(x) != _size(y) for x, y in zip(a, b)):
        return n
    return tuple(common_coarsening(x, y) for x, y in zip(a, b))


def _digits(shape: Any) -> list[tuple[int, int]]:
    """``(position, extent)`` of every leaf of extent > 1: the mixed-radix digits of the domain."""
    out, p = [], 1
    for s in leaves(shape):
        if s > 1:
            out.append((p, s))
        p *= s
    return out


def _digit_at(digits: list[tuple[int, int]], p: int) -> int:
    """The largest extent ``e`` with ``(p, e)`` a sub-digit of a digit ``(P, s)`` (``p = P*q``,
    ``q*e | s``); 1 where no digit holds one at ``p``."""
    for P, s in digits:
        if P <= p < P * s and p % P == 0 and s % (p // P) == 0:
            return s // (p // P)
    return 1


def greatest_common_domain(a: Any, b: Any) -> Layout:
    """The largest common sub-domain of two shapes: a depth-1 layout ``R`` into the domain (its
    strides are positions in the column-major index) whose every mode is a sub-mode of a mode of
    ``a`` and of a mode of ``b`` at the same position, taken from the lowest position up.

    @pre ``a`` and ``b`` are static shapes (or layouts: their shapes alone count).
    @post ``depth(result) == 1``; ``size(result)`` divides ``gcd(size(a), size(b))``;
          ``composition(make_layout(a), result)`` and ``composition(make_layout(b), result)`` are
          layouts (R divides both); symmetric in ``a`` and ``b``; no mode of size 1 but ``(1,):(0,)``.

    >>> print(greatest_common_domain((16, 64), (4, 16, 16)))
    (_4,_4,_4,_16):(_1,_4,_16,_64)
    >>> print(greatest_common_domain((2, 21), (3, 14)))
    (_7):(_6)
    """
    a, b = _shape(a), _shape(b)
    _static((a, b), "greatest_common_domain")
    da, db = _digits(a), _digits(b)
    candidates = {1}
    for P, s in da:
        candidates.update(P * q for q in range(1, s) if s % q == 0)
    cb = {1}
    for P, s in db:
        cb.update(P * q for q in range(1, s) if s % q == 0)
    shape, stride = [], []
    cur = 1
    for p in sorted(candidates & cb):
        if p < cur:
            continue
        e = math.gcd(_digit_at(da, p), _digit_at(db, p))
        if e > 1:
            shape.append(e)
            stride.append(p)
            cur = p * e
    if not shape:
        return _mk((1,), (0,))
    return _mk(tuple(shape), tuple(stride))


def _split(s: list[Any], d: list[Any], bounds: list[int]) -> list[Any]:
    """The strides of the flat modes ``s:d`` split at the positions ``bounds`` (a chain)."""
    out, p = [], 1
    for x, y in zip(s, d):
        end = p * x
        q = p
        for nb in bounds:
            if q < nb <= end:
                out.append(stride_mul(q // p, y))
                q = nb
        p = end
    return out


def layout_add(a: Layout, b: Layout) -> Layout:
    """The pointwise sum of two layouts of one size: ``result(i) == a(i) + b(i)`` (PyCuTe's
    ``layout_add``), for strides of any kind (integers add, scaled bases add position by
    position, F2 vectors by XOR).

    Both are coalesced; the union of their mode boundaries must be a chain of divisors (a common
    refinement of the two domains), at which both are split; the strides add leaf by leaf and
    the sum is coalesced.

    @pre ``size(a) == size(b)``, static shapes; the coalesced domains have a common refinement.
    @post ``result(i) == a(i) + b(i)`` for every ``i < size(a)``; ``layout_add(a, b) == layout_add(b, a)``.

    >>> from cute_sym.layout import make_layout
    >>> print(layout_add(make_layout((2, (3, 4)), (12, (4, 1))), make_layout((6, 4), (4, 1))))
    (_2,_3,_4):(_16,_12,_2)
    """
    if not (isinstance(a, Layout) and isinstance(b, Layout)):
        raise LayoutError(f"layout_add: two layouts are needed, got {a!r} and {b!r}")
    _static((a.shape, b.shape), "layout_add")
    n = _size(a.shape)
    if n != _size(b.shape):
        raise LayoutError(f"layout_add: sizes differ ({n} and {_size(b.shape)})")
    ca, cb = coalesce(a), coalesce(b)
    sa, sb = leaves(ca.shape), leaves(cb.shape)
    da, db = leaves(ca.stride), leaves(cb.stride)
    bounds: set[int] = set()
    for s in (sa, sb):
        p = 1
        for x in s:
            p *= x
            bounds.add(p)
    chain = sorted(bounds)
    prev = 1
    shape = []
    for q in chain:
        if q % prev:
            raise LayoutError(f"layout_add: {a} and {b} have no common refinement of their domains "
                              f"({prev} does not divide {q})")
        if q > prev:
            shape.append(q // prev)
        prev = q
    if not shape:
        return _mk(1, 0)
    xa, xb = _split(sa, da, chain), _split(sb, db, chain)
    strides = tuple(stride_add(x, y) for x, y in zip(xa, xb))
    return coalesce(_mk(tuple(shape), strides))
