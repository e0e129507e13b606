"""The inverses of a layout with F2 strides: linear algebra over F2 on the bits of the domain.

A layout of power-of-two extents whose strides are F2 vectors (or 0) is a linear map ``L``
from the bits of an index to the bits of an offset (a swizzle is one). Its right inverse maps
the offsets ``0 .. 2**k - 1`` (``k`` the most low bits that are all reached) back to indices;
its left inverse maps every offset of ``L``'s image back to its index (``L`` injective), and
the rest of the offset space to 0. Both are layouts with F2 strides.

>>> from cute_sym.layout import make_layout
>>> from cute_sym.stride.f2 import F2
>>> L = make_layout((4, 4), (F2(1), F2(5)))        # Sw<2,0,2> on 16 elements
>>> R = f2_right_inverse(L)
>>> print(R), all(int(L(int(R(i)))) == i for i in range(16))
(_4,_4):(F1,F5)
(None, True)
"""
from __future__ import annotations

from typing import Any, Optional

from ..core.errors import InjectivityError, LayoutError
from ..core.int_tuple import leaves
from ..layout.layout import Layout, _mk
from ..stride.f2 import F2

__all__ = ["is_f2_layout", "f2_right_inverse", "f2_left_inverse"]


def is_f2_layout(layout: Layout) -> bool:
    """Every stride an F2 vector or a static 0, at least one an F2 vector."""
    ds = leaves(layout.stride)
    return any(isinstance(d, F2) for d in ds) and all(isinstance(d, F2) or (type(d) is int and d == 0) for d in ds)


def _images(layout: Layout) -> list[int]:
    """The image of each bit of the index, lowest first."""
    out: list[int] = []
    for s, d in zip(leaves(layout.shape), leaves(layout.stride)):
        if type(s) is not int or s < 1 or s & (s - 1):
            raise LayoutError(f"inverse of an F2 layout: the extent {s} is not a static power of two")
        v = int(d) if isinstance(d, F2) else 0
        out.extend(v << j for j in range(s.bit_length() - 1))
    return out


def _solve(images: list[int], target: int) -> Optional[int]:
    """An index ``c`` (bit vector over the images) with the XOR of the chosen images ``target``;
    None when ``target`` is not in their span."""
    rows = [(v, 1 << i) for i, v in enumerate(images) if v]
    basis: list[tuple[int, int]] = []          # (vector, combination), distinct leading bits
    for v, c in rows:
        for bv, bc in basis:
            if v ^ bv < v:
                v, c = v ^ bv, c ^ bc
        if v:
            basis.append((v, c))
            basis.sort(reverse=True)
    t, comb = target, 0
    for bv, bc in basis:
        if t ^ bv < t:
            t, comb = t ^ bv, comb ^ bc
    return comb if t == 0 else None


def _layout_of(strides: list[int]) -> Layout:
    from .coalesce import coalesce
    if not strides:
        return _mk(1, 0)
    return coalesce(_mk((2,) * len(strides), tuple(F2(c) if c else 0 for c in strides)))


def f2_right_inverse(layout: Layout) -> Layout:
    """``R`` with ``L(R(i)) == i`` for every ``i < size(R)``, ``size(R) = 2**k`` for the largest
    ``k`` with the offsets ``1, 2, .., 2**(k-1)`` all reached (as CuTe's right inverse: the longest
    prefix of offsets).

    @pre ``layout`` has F2 (or 0) strides and power-of-two extents.
    @post ``int(layout(int(R(i)))) == i`` for ``0 <= i < size(R)``.
    """
    images = _images(layout)
    out: list[int] = []
    while True:
        c = _solve(images, 1 << len(out))
        if c is None:
            break
        out.append(c)
    return _layout_of(out)


def f2_left_inverse(layout: Layout) -> Layout:
    """``R`` with ``R(L(i)) == i`` for every ``i < size(L)``: on the offsets of ``L``'s image the
    inverse map, on a complement of the image 0.

    @pre as :func:`f2_right_inverse`; ``layout`` injective (its bits' images independent).
    @post ``int(R(int(layout(i)))) == i`` for ``0 <= i < size(layout)``.
    """
    images = _images(layout)
    nz = [v for v in images if v]
    if len(nz) != len(images) or _rank(nz) != len(nz):
        raise InjectivityError(f"left_inverse: {layout} is not injective (its bits' images are dependent)")
    m = max(nz).bit_length() if nz else 0
    # complete the images to a basis of the offsets below 2**m with unit vectors
    full = list(images)
    for j in range(m):
        if _solve(full, 1 << j) is None:
            full.append(1 << j)
    n = len(images)
    out: list[int] = []
    for j in range(m):
        c = _solve(full, 1 << j)
        if c is None:  # pragma: no cover - full spans the offsets below 2**m
            raise LayoutError(f"left_inverse: offset {1 << j} is outside the completed basis")
        out.append(c & ((1 << n) - 1))  # the completing vectors map to 0
    return _layout_of(out)


def _rank(vs: list[int]) -> int:
    basis: list[int] = []
    for v in vs:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
            basis.sort(reverse=True)
    return len(basis)
