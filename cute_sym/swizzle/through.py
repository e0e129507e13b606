"""A swizzle moved through a layout: ``a o Sw == Sw' o a`` (CuTe's ``composition(Layout, Swizzle)``).

CuTe builds ``Sw' = make_swizzle<a(YYY), a(ZZZ)>`` from the images of the two masks
alone. That is ``a(Sw(i))`` only when ``a`` carries every bit the swizzle reads or
flips to a bit of its own, with nothing else landing there; here the answer is
checked, and a layout that does not carry the bits is refused.

>>> from cute_sym.notation import parse
>>> print(swizzle_through(parse("(_16,_32):(_32,_1)"), Swizzle(2, 4, 3)))
Sw<2,0,3>
>>> swizzle_through(parse("(_4,_16):(_16,_1)"), Swizzle(3, 4, 3))
Traceback (most recent call last):
...
cute_sym.LayoutError: composition(Layout, Sw<3,4,3>): the layout does not carry the swizzle's bits to bits: a(Sw(2)) = 32 but Sw<3,2,3>(a(2)) = 36, so no swizzle after the layout is the same function
"""
from __future__ import annotations

from typing import Any

from ..core import decide
from ..core.errors import LayoutError, UndecidableError
from ..core.int_tuple import leaves, unwrap
from ..layout.layout import Layout
from ..algebra.coalesce import coalesce
from .swizzle import Swizzle, make_swizzle

__all__ = ["swizzle_through"]

_POINTWISE_LIMIT = 1 << 16


def _mask(x: Any, what: str) -> int:
    x = unwrap(x)
    if type(x) is int:
        return x
    if getattr(x, "is_Integer", False):
        return int(x)
    raise UndecidableError(f"{x} is a static integer",
                           f"composition(Layout, Swizzle): the image of the {what} mask is {x}; a swizzle "
                           f"needs it static (needs {x} to be a known integer)")


def _pow2(x: Any) -> bool:
    return type(x) is int and x > 0 and x & (x - 1) == 0


def swizzle_through(a: Layout, sw: Swizzle) -> Swizzle:
    """The swizzle ``Sw'`` with ``a(sw(i)) == Sw'(a(i))`` for every ``i < size(a)``: CuTe's
    ``make_swizzle<a(yyy_msk), a(zzz_msk)>()``, checked.

    @pre the images of the masks are static and form a swizzle (CuTe's
         ``make_swizzle`` conditions); ``a`` carries the swizzle's bits to bits:
         checked exactly (on the bit basis when ``a`` is a bit permutation, else point
         by point), else :class:`LayoutError`; a symbolic last extent must stay clear of
         the other modes' bits (a fact, decided).
    @post ``a(sw(i)) == result(a(i))`` for every ``i < size(a)``.
    """
    y, z = _mask(a(sw.yyy_msk), "YYY"), _mask(a(sw.zzz_msk), "ZZZ")
    try:
        new = make_swizzle(y, z)
    except LayoutError as e:
        raise LayoutError(f"composition(Layout, {sw}): the layout {a} takes the masks YYY={sw.yyy_msk:#b} and "
                          f"ZZZ={sw.zzz_msk:#b} to {y:#b} and {z:#b}, which are no swizzle's ({e})") from None
    if sw.is_identity():
        return new
    flat = coalesce(a)
    fs, fd = leaves(flat._shape), leaves(flat._stride)
    nbits = sw.swizzle_code.bit_length()
    if all(type(x) is int for x in fs) and all(type(x) is int for x in fd):
        n = 1
        for s in fs:
            n *= s
        nbits = max(nbits, (n - 1).bit_length())
        if _bit_linear(fs, fd, nbits) is not None:
            for b in range(nbits):
                _same_at(a, sw, new, 1 << b)
            return new
        if n > _POINTWISE_LIMIT:
            raise LayoutError(f"composition(Layout, {sw}): the layout is not a bit permutation and has "
                              f"over {_POINTWISE_LIMIT} points, so a(Sw(i)) == Sw'(a(i)) cannot be checked")
        for i in range(n):
            _same_at(a, sw, new, i)
        return new
    _symbolic_through(a, sw, new, fs, fd, nbits)
    return new


def _symbolic_through(a: Layout, sw: Swizzle, new: Swizzle, fs: list[Any], fd: list[Any], nbits: int) -> None:
    """A symbolic layout: its modes covering the swizzle's bits are a static bit permutation
    (checked on the bit basis), and the modes above add multiples of ``2^K`` (``K`` past the
    new swizzle's bits: a fact, decided), or a symbolic last extent stays clear of the
    other modes' bits."""
    p, m = 0, 0
    while m < len(fs) - 1 and p < nbits:
        s, d = fs[m], fd[m]
        if not _pow2(s) or type(d) is not int or d < 0 or (d and not _pow2(d)):
            break
        p += s.bit_length() - 1
        m += 1
    if p >= nbits:
        used = _bit_linear(fs[:m], fd[:m], p, last_unbounded=False)
        if used is None:
            raise LayoutError(f"composition(Layout, {sw}): two index bits of the layout reach one offset bit, "
                              "so it does not carry the swizzle's bits to bits")
        for b in range(p):
            _same_at(a, sw, new, 1 << b)
        if m == len(fs) - 1 and _pow2(fd[m]):
            _last_mode_clear(fs, fd, used)    # one mode above: its bits clear of the others'
            return
        k = 1 << new.swizzle_code.bit_length()
        for d in fd[m:]:
            if not decide.require("|", k, d, why="composition(Layout, Swizzle): the modes above the "
                                  "swizzle's bits add multiples of its span"):
                raise LayoutError(f"composition(Layout, {sw}): stride {d} reaches into the bits the swizzle "
                                  f"{new} reads or flips")
        return
    if m == len(fs) - 1:
        linear = _bit_linear(fs, fd, nbits)
        if linear is not None:
            for b in range(nbits):
                _same_at(a, sw, new, 1 << b)
            _last_mode_clear(fs, fd, linear)
            return
    raise UndecidableError(f"the modes of the layout below bit {nbits} have static power-of-two extents and strides",
                           f"composition(Layout, {sw}): cannot show that the layout carries the swizzle's bits "
                           f"to bits: its modes below bit {nbits} need static power-of-two extents and strides")


def _same_at(a: Layout, sw: Swizzle, new: Swizzle, i: int) -> None:
    lhs = unwrap(a(sw(i)))
    rhs = new(unwrap(a(i)))
    if lhs != rhs:
        raise LayoutError(f"composition(Layout, {sw}): the layout does not carry the swizzle's bits to bits: "
                          f"a(Sw({i})) = {lhs} but {new}(a({i})) = {rhs}, so no swizzle after the layout "
                          "is the same function")


def _bit_linear(fs: list[Any], fd: list[Any], nbits: int, last_unbounded: bool = True) -> list[int] | None:
    """The output bits of the modes but the last, when ``a`` is a bit permutation on
    ``[0, 2^nbits)`` (extents but the last and strides static powers of two or stride 0,
    each index bit going to its own output bit); else None."""
    used: list[int] = []
    pos = 0                               # index bit where the mode's digit starts
    for k, (s, d) in enumerate(zip(fs, fd)):
        last = last_unbounded and k == len(fs) - 1
        if type(d) is not int or d < 0 or (d and not _pow2(d)):
            return None
        if not last and not _pow2(s):
            return None
        width = (s.bit_length() - 1) if not last else max(nbits - pos, 0)
        if d:
            base = d.bit_length() - 1
            used.extend(range(base, base + width))
        pos += width
    return used if len(set(used)) == len(used) else None


def _last_mode_clear(fs: list[Any], fd: list[Any], used: list[int]) -> None:
    """A symbolic last extent: its output bits must stay below the next bit another mode uses."""
    s, d = fs[-1], fd[-1]
    if type(d) is not int or d == 0:
        return
    mine_start = d.bit_length() - 1
    n_other = 0
    for k in range(len(fs) - 1):
        if fd[k]:
            n_other += fs[k].bit_length() - 1
    other_bits = used[:n_other]
    if mine_start in other_bits:
        raise LayoutError(f"composition(Layout, Swizzle): the last mode (stride {d}) lands on the bits of "
                          "another mode, so the layout does not carry the swizzle's bits to bits")
    above = [b for b in other_bits if b >= mine_start]
    if not above:
        return
    limit = 1 << (min(above) - mine_start)
    if not decide.require("<=", s, limit, why="composition(Layout, Swizzle): the last mode's bits stay "
                          "clear of the other modes'"):
        raise LayoutError(f"composition(Layout, Swizzle): the last extent {s} (stride {d}) runs into the bits "
                          "of another mode, so the layout does not carry the swizzle's bits to bits")
