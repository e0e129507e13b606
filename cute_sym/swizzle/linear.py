"""Swizzles and Triton's linear layouts as layouts with F2 strides.

A swizzle ``Sw<B,M,S>`` is linear over F2 on the bits of an offset, so it *is* the layout of
shape ``(2,2,...)`` whose stride for bit ``j`` is ``F2(sw(1 << j))`` (:func:`f2_layout`); the
algebra coalesces and composes it like any layout (``cute_sym.stride.f2``). A layout of
power-of-two extents whose function is linear over F2 (an F2-strided layout, a swizzled
layout ``Sw o L``, an integer layout whose bits do not carry) converts to Triton's linear-layout
form -- for each input dimension (a top-level mode) one basis vector per input bit, each a
coordinate of the output tensor -- and back (:func:`to_linear_layout`, :func:`from_linear_layout`).

The output of a layout is an integer (an offset); Triton's is a coordinate of a tensor of
``out_shape``. The two are related by ``order`` (Triton's: the most minor dimension first):
``offset = c[order[0]] + out_shape[order[0]] * (c[order[1]] + ...)``.

>>> from cute_sym.swizzle.swizzle import Swizzle
>>> L = f2_layout(Swizzle(3, 3, 3), 512)
>>> print(L)
(_64,_8):(F1,F72)
>>> to_linear_layout(L, (8, 64), order=(1, 0), in_dims=("offset",))["offset"][6:]
[(1, 8), (2, 16), (4, 32)]
"""
from __future__ import annotations

from typing import Any, Mapping, Optional, Sequence

from ..core.errors import LayoutError
from ..core.int_tuple import leaves
from ..layout.layout import Layout, _mk
from ..layout.queries import size
from ..stride.f2 import F2
from .composed import ComposedLayout
from .swizzle import Swizzle
from . import ops

__all__ = ["f2_layout", "as_f2_layout", "to_linear_layout", "from_linear_layout"]

#: Domains up to this size are checked point by point for linearity over F2.
CHECK_MAX = 1 << 16


def _log2(n: Any, what: str) -> int:
    if not isinstance(n, int) or isinstance(n, bool) or n < 1 or n & (n - 1):
        raise LayoutError(f"{what}: {n} is not a power of two (a linear layout has a basis per input bit)")
    return int(n).bit_length() - 1


def f2_layout(sw: Swizzle, size_: Optional[int] = None) -> Layout:
    """The swizzle ``sw`` as a layout with F2 strides over ``[0, size_)``.

    @pre ``size_`` a power of two (default ``2**(B + M + |S|)``, every bit the swizzle reads or writes).
    @post ``int(result(i)) == sw(i)`` for every ``i < size_``; coalesced.

    >>> L = f2_layout(Swizzle(2, 0, 2))
    >>> print(L), [int(L(i)) for i in range(8)]
    (_4,_4):(F1,F5)
    (None, [0, 1, 2, 3, 5, 4, 7, 6])
    """
    if not isinstance(sw, Swizzle):
        raise LayoutError(f"f2_layout: expected a Swizzle, got {sw!r}")
    n = sw.bits + sw.base + abs(sw.shift) if size_ is None else _log2(size_, "f2_layout")
    if n == 0:
        return _mk(1, 0)
    strides = tuple(F2(sw(1 << j)) for j in range(n))
    return ops.coalesce(_mk((2,) * n, strides))  # type: ignore[no-any-return]


def _value(x: Any, c: Any) -> int:
    v = x(c)
    return int(v)


def _check_linear(x: Any, images: list[list[int]], sizes: list[int]) -> None:
    """``x(c)`` is the XOR of the images of ``c``'s bits, point by point (small domains)."""
    total = 1
    for s in sizes:
        total *= s
    if total > CHECK_MAX:
        raise LayoutError(f"as_f2_layout: a domain of {total} points is too large to check for linearity over F2")
    for i in range(total):
        c, rest, acc = [], i, 0
        for k, s in enumerate(sizes):
            ck = rest % s
            rest //= s
            c.append(ck)
            for j in range(s.bit_length() - 1):
                if ck >> j & 1:
                    acc ^= images[k][j]
        got = _value(x, tuple(c) if len(sizes) > 1 else c[0])
        if got != acc:
            raise LayoutError(f"as_f2_layout: not linear over F2: at {tuple(c)} the value is {got}, the XOR of "
                              f"its bits' images is {acc}")


def as_f2_layout(x: Any) -> Layout:
    """A function of power-of-two extents, linear over F2, as a layout with F2 strides: one mode per
    top-level mode of ``x``, each coalesced.

    ``x`` is a layout (F2 or integer strides), a swizzled layout (``ComposedLayout``) or a
    :class:`Swizzle` (then :func:`f2_layout`).

    @pre every top-level extent of ``x`` is a static power of two; ``x(c)`` is the XOR of the images
         of ``c``'s bits (checked point by point up to ``CHECK_MAX`` points; an F2-strided layout
         is linear by construction).
    @post ``int(result(c)) == int(x(c))`` for every coordinate ``c``; ``rank(result) == rank(x)``.

    >>> from cute_sym.notation import parse
    >>> C = ComposedLayout(Swizzle(1, 0, 1), 0, parse("(_2,_2):(_1,_2)"))
    >>> print(as_f2_layout(C))
    (_2,_2):(F1,F3)
    """
    if isinstance(x, Swizzle):
        return f2_layout(x)
    if not isinstance(x, (Layout, ComposedLayout)):
        raise LayoutError(f"as_f2_layout: expected a layout or a swizzle, got {x!r}")
    shape = x.shape
    modes = shape if type(shape) is tuple else (shape,)
    sizes = [size(m) for m in modes]
    for s in sizes:
        _log2(s, "as_f2_layout")
    images: list[list[int]] = []
    for k, s in enumerate(sizes):
        row = []
        for j in range(s.bit_length() - 1):
            c = tuple((1 << j) if i == k else 0 for i in range(len(sizes)))
            row.append(_value(x, c if len(sizes) > 1 else c[0]))
        images.append(row)
    f2_strided = isinstance(x, Layout) and all(isinstance(d, F2) or d == 0 for d in leaves(x.stride))
    if not f2_strided:
        _check_linear(x, images, sizes)
    out_s, out_d = [], []
    for s, row in zip(sizes, images):
        if not row:
            out_s.append(1)
            out_d.append(0)
            continue
        m = ops.coalesce(_mk((2,) * len(row), tuple(F2(v) for v in row)))
        out_s.append(m.shape)
        out_d.append(m.stride)
    if len(out_s) == 1:
        return _mk(out_s[0], out_d[0])
    return _mk(tuple(out_s), tuple(out_d))


def _order(out_shape: Sequence[int], order: Optional[Sequence[int]]) -> list[int]:
    n = len(out_shape)
    o = list(range(n - 1, -1, -1)) if order is None else list(order)
    if sorted(o) != list(range(n)):
        raise LayoutError(f"linear layout: order {o} is not a permutation of the {n} output dimensions")
    for s in out_shape:
        _log2(s, "linear layout: an output extent")
    return o


def _decode(v: int, out_shape: Sequence[int], order: list[int]) -> tuple[int, ...]:
    c = [0] * len(out_shape)
    for d in order:
        c[d] = v % out_shape[d]
        v //= out_shape[d]
    if v:
        raise LayoutError(f"linear layout: an output value past the tensor {tuple(out_shape)}")
    return tuple(c)


def _encode(c: Sequence[int], out_shape: Sequence[int], order: list[int]) -> int:
    if len(c) != len(out_shape):
        raise LayoutError(f"linear layout: basis {tuple(c)} is not a coordinate of {tuple(out_shape)}")
    v = 0
    for d in reversed(order):
        if not 0 <= c[d] < out_shape[d]:
            raise LayoutError(f"linear layout: basis {tuple(c)} is outside the tensor {tuple(out_shape)}")
        v = v * out_shape[d] + c[d]
    return v


def to_linear_layout(x: Any, out_shape: Sequence[int], order: Optional[Sequence[int]] = None,
                     in_dims: Optional[Sequence[str]] = None,
                     in_sizes: Optional[Sequence[int]] = None) -> dict[str, list[tuple[int, ...]]]:
    """Triton's linear-layout form of ``x``: for each input dimension, the output coordinate of
    each of its bits, lowest bit first.

    The input dimensions split ``x``'s 1-D domain (colexicographically) by ``in_sizes``; by
    default they are ``x``'s top-level modes, or the whole domain for one name in ``in_dims``.

    @pre as :func:`as_f2_layout`; ``out_shape`` and ``in_sizes`` of power-of-two extents, the
         product of ``in_sizes`` the size of ``x``; ``order`` a permutation, the most minor output
         dimension first (default: the last dimension most minor).
    @post ``x(i)``, read as a coordinate of ``out_shape``, is the XOR of the bases of ``i``'s set bits.

    >>> from cute_sym.notation import parse
    >>> to_linear_layout(parse("(_4,_4):(_1,_4)"), (16,), in_dims=("lane", "warp"))
    {'lane': [(1,), (2,)], 'warp': [(4,), (8,)]}
    """
    o = _order(out_shape, order)
    f = as_f2_layout(x)
    total = size(f)
    if in_sizes is None:
        modes = f.shape if type(f.shape) is tuple else (f.shape,)
        in_sizes = [total] if in_dims is not None and len(in_dims) == 1 else [size(m) for m in modes]
    names = [f"in{k}" for k in range(len(in_sizes))] if in_dims is None else list(in_dims)
    if len(names) != len(in_sizes):
        raise LayoutError(f"to_linear_layout: {len(names)} input dimension names for {len(in_sizes)} input sizes")
    prod = 1
    out: dict[str, list[tuple[int, ...]]] = {}
    for name, s in zip(names, in_sizes):
        n = _log2(s, "to_linear_layout: an input extent")
        out[name] = [_decode(int(f((1 << j) * prod)), out_shape, o) for j in range(n)]
        prod *= s
    if prod != total:
        raise LayoutError(f"to_linear_layout: the input sizes {tuple(in_sizes)} do not cover the domain of {total}")
    return out


def from_linear_layout(bases: Mapping[str, Sequence[Sequence[int]]], out_shape: Sequence[int],
                       order: Optional[Sequence[int]] = None) -> Layout:
    """The layout with F2 strides of a Triton linear layout: one mode per input dimension (in the
    mapping's order), ``2**len(bases[dim])`` wide, its bits' strides the encoded bases.

    @pre every basis is a coordinate of ``out_shape`` (power-of-two extents); ``order`` as in
         :func:`to_linear_layout`.
    @post ``to_linear_layout(result, out_shape, order, list(bases)) == bases`` (as lists of tuples).

    >>> L = from_linear_layout({"lane": [(1,), (2,)], "warp": [(4,), (8,)]}, (16,))
    >>> print(L)
    (_4,_4):(F1,F4)
    """
    o = _order(out_shape, order)
    out_s, out_d = [], []
    for name, bs in bases.items():
        if not bs:
            out_s.append(1)
            out_d.append(0)
            continue
        m = ops.coalesce(_mk((2,) * len(bs), tuple(F2(_encode(tuple(b), out_shape, o)) for b in bs)))
        out_s.append(m.shape)
        out_d.append(m.stride)
    if len(out_s) == 1:
        return _mk(out_s[0], out_d[0])
    return _mk(tuple(out_s), tuple(out_d))
