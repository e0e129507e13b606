"""Casts and common vectors of swizzled layouts (CuTe's ``swizzle_layout.hpp`` and
``layout_composed.hpp``): upcast, downcast, recast_layout, max_common_layout,
max_common_vector, and logical_product with a swizzled tiler.

A swizzle ``Sw<B,M,S>`` keeps the low ``M`` bits of an offset, so in units of
``N = 2^k`` elements it is ``Sw<B,M-k,S>`` (an upcast) and in units ``N`` times
smaller ``Sw<B,M+k,S>`` (a downcast); the inner layout is cast as a plain layout.

>>> from cute_sym.notation import parse
>>> print(upcast(parse("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"), 8))
Sw<3,0,3> o _0 o (_16,_8):(_8,_1)
>>> print(downcast(parse("Sw<3,4,3> o _0 o (_8,_32):(_32,_1)"), 2))
Sw<3,5,3> o _0 o (_8,_64):(_64,_1)
"""
from __future__ import annotations

import math
from typing import Any

from ..core import decide
from ..core.errors import DivisibilityError, LayoutError, UndecidableError
from ..core.int_tuple import unwrap
from ..layout.layout import Layout, _mk
from .. import algebra as _plain
from ..algebra.composition import _composition_cute
from .swizzle import Swizzle, make_swizzle
from .composed import ComposedLayout, make_composed_layout, _is_zero
from .smem_flag import SmemPtrFlag

__all__ = ["upcast", "downcast", "recast_layout", "max_common_layout", "max_common_vector",
           "logical_product_swizzled"]


def _count(n: Any, what: str) -> int:
    n = unwrap(n)
    if type(n) is not int or n < 1:
        raise LayoutError(f"{what}: expected a static positive integer, got {n!r}")
    return n


def _log2(n: int) -> int:
    if n & (n - 1):
        raise LayoutError("N must be a power of two")
    return n.bit_length() - 1


def _swizzle_parts(x: Any, what: str) -> tuple[Swizzle, Any, Any]:
    """``(Sw, offset, inner)`` of a layout whose outer function is a swizzle."""
    if isinstance(x, Swizzle):
        raise LayoutError(f"{what}: expected a layout, got the swizzle {x}")
    if not isinstance(x.layout_a, Swizzle):
        raise LayoutError(f"{what}: the outer function of {x} is not a swizzle")
    return x.layout_a, x.offset, x.layout_b


def _upcast_swizzle(sw: Swizzle, n: int) -> Swizzle:
    """``Sw<B,M,S>`` in units of ``n``: ``Sw<B,M-log2(n),S>``.

    @pre ``n`` is a power of two; ``log2(n) <= M`` or the swizzle is the identity:
         a swizzle moving bits below ``log2(n)`` mixes the elements of a vector, and
         no swizzle in units of ``n`` is the same function (CuTe then answers
         ``Sw<max(B+M-log2 n,0),0,S>``, which is not the same function).
    """
    k = _log2(n)
    if sw.is_identity():
        return Swizzle(0, max(sw.base - k, 0), sw.shift)
    if k > sw.base:
        raise DivisibilityError(
            f"upcast: the swizzle {sw} moves bit {sw.base}, below log2({n}) = {k}: it permutes the "
            f"elements inside a vector of {n}, so no swizzle in units of {n} is the same function")
    return Swizzle(sw.bits, sw.base - k, sw.shift)


def _cast_offset(o: Any, n: int, up: bool) -> Any:
    if _is_zero(o):
        return o
    if not up:
        return o * n
    if type(o) is int:
        if o % n:
            raise DivisibilityError(f"upcast: the offset {o} is not a multiple of {n}")
        return o // n
    if not decide.require("|", n, o, why="upcast (the offset is a multiple of N)"):
        raise DivisibilityError(f"upcast: the offset {o} is not a multiple of {n}")
    return o / n


def upcast(layout: Any, n: Any) -> Any:
    """CuTe's ``upcast<N>``: ``layout`` in units ``N`` times larger. A composed layout
    ``Sw o O o L`` becomes ``upcast(Sw) o O/N o upcast(L)``; a plain one is
    :func:`cute_sym.algebra.upcast`.

    @pre as the plain upcast for the inner layout; for a swizzled one ``N`` is a
         power of two ("N must be a power of two") and at most ``2^M`` (see above),
         and ``N`` divides the offset.
    @post for a swizzled layout, ``result(c) * N == layout(c')`` where ``c'`` is ``c``
          with the vectorised coordinate scaled by ``N`` (as for plain layouts).

    >>> from cute_sym.notation import parse
    >>> print(upcast(parse("Sw<2,4,3> o _0 o (_8,_32):(_32,_1)"), 8))
    Sw<2,1,3> o _0 o (_8,_4):(_4,_1)
    """
    if isinstance(layout, Layout):
        return _plain.upcast(layout, n)
    if isinstance(layout, Swizzle):
        return _upcast_swizzle(layout, _count(n, "upcast"))
    if not isinstance(layout, ComposedLayout):
        raise LayoutError(f"upcast: expected a layout, got {type(layout).__name__}")
    n = _count(n, "upcast")
    sw, o, b = _swizzle_parts(layout, "upcast")
    if isinstance(o, SmemPtrFlag):  # the byte swizzle stays; the flag counts wider elements
        return ComposedLayout(sw, o.scaled(n, 1), _plain.upcast(b, n))
    return make_composed_layout(_upcast_swizzle(sw, n), _cast_offset(o, n, True), _plain.upcast(b, n))


def downcast(layout: Any, n: Any) -> Any:
    """CuTe's ``downcast<N>``: ``layout`` in units ``N`` times smaller. A composed layout
    ``Sw<B,M,S> o O o L`` becomes ``Sw<B,M+log2 N,S> o O*N o downcast(L)``.

    @pre as the plain downcast for the inner layout; for a swizzled one ``N`` is a
         power of two ("N must be a power of two").
    @post ``result(c) == N * layout(c / N) + c % N`` on the stride-1 mode, as for plain
          layouts (the swizzle moves only bits above ``log2 N``).

    >>> from cute_sym.notation import parse
    >>> print(downcast(parse("Sw<3,3,3> o _0 o (_64,_8):(_1,_64)"), 8))
    Sw<3,6,3> o _0 o (_512,_8):(_1,_512)
    """
    if isinstance(layout, Layout):
        return _plain.downcast(layout, n)
    n = _count(n, "downcast")
    if isinstance(layout, Swizzle):
        return Swizzle(layout.bits, layout.base + _log2(n), layout.shift)
    if not isinstance(layout, ComposedLayout):
        raise LayoutError(f"downcast: expected a layout, got {type(layout).__name__}")
    sw, o, b = _swizzle_parts(layout, "downcast")
    if isinstance(o, SmemPtrFlag):
        return ComposedLayout(sw, o.scaled(1, n), _plain.downcast(b, n))
    k = _log2(n)
    return make_composed_layout(Swizzle(sw.bits, sw.base + k, sw.shift), _cast_offset(o, n, False),
                                _plain.downcast(b, n))


def recast_layout(layout: Any, old_bits: Any, new_bits: Any) -> Any:
    """CuTe's ``recast_layout<Old,New>``: with ``new/old = num/den`` in lowest terms,
    ``downcast<den>(upcast<num>(layout))`` (just one of them when the other is 1).

    @pre the bit widths are static and positive; the preconditions of :func:`upcast`
         and :func:`downcast` (a swizzled layout needs powers of two).
    @post ``layout`` itself when the widths are equal.

    >>> from cute_sym.notation import parse
    >>> print(recast_layout(parse("Sw<2,4,3> o _0 o (_8,_32):(_32,_1)"), 16, 8))
    Sw<2,5,3> o _0 o (_8,_64):(_64,_1)
    >>> print(recast_layout(parse("(_64):(_1)"), 24, 64))
    (_24):(_1)
    """
    ob = _count(old_bits, "recast_layout (old_bits)")
    nb = _count(new_bits, "recast_layout (new_bits)")
    g = math.gcd(ob, nb)
    num, den = nb // g, ob // g
    if isinstance(layout, Layout):
        return _plain.recast_layout(layout, ob, nb)
    out = layout
    if num != 1:
        out = upcast(out, num)
    if den != 1:
        out = downcast(out, den)
    return out


def _static_size(x: Any) -> Any:
    return unwrap(x.size())


def max_common_layout(a: Any, b: Any) -> Any:
    """CuTe's ``max_common_layout`` with a swizzled side: that of the inner layout
    with the plain one, truncated to the ``2^M`` elements the swizzle keeps in place.

    @pre at most one side is swizzled; its offset is 0.
    @post ``a(result(i)) == i == b(result(i))`` for ``i < size(result)``.

    >>> from cute_sym.notation import parse
    >>> print(max_common_layout(parse("(_8,_32):(_32,_1)"), parse("Sw<2,3,3> o _0 o (_8,_32):(_32,_1)")))
    _8:_8
    """
    if isinstance(a, Layout) and isinstance(b, Layout):
        return _plain.max_common_layout(a, b)
    if isinstance(a, Layout):
        a, b = b, a
    if not isinstance(b, Layout):
        raise LayoutError("max_common_layout: one of the two layouts must be plain (CuTe has no "
                          "overload for two swizzled layouts)")
    sw, o, inner = _swizzle_parts(a, "max_common_layout")
    _zero_offset(o, "max_common_layout")
    common = _plain.max_common_layout(inner, b)
    base = 1 << sw.base
    size = _static_size(common)
    if type(size) is int and base < size:
        return _composition_cute(common, base)
    return common


def _zero_offset(o: Any, what: str) -> None:
    if not _is_zero(o):
        raise LayoutError(f"{what}: the swizzled layout's offset must be 0 (got {o}); "
                          "the common vector is only known for a zero offset")


def max_common_vector(a: Any, b: Any) -> Any:
    """CuTe's ``max_common_vector`` with swizzled sides: that of the inner layouts, at
    most ``2^M`` for each swizzle (unless both sides have the same swizzle).

    @pre the swizzled layouts have offset 0.
    @post ``a(b^-1(n)) == n`` for ``n < result``.

    >>> from cute_sym.notation import parse
    >>> max_common_vector(parse("(_16,_64):(_64,_1)"), parse("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"))
    8
    >>> max_common_vector(parse("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"), parse("Sw<3,3,3> o _0 o (_16,_64):(_64,_1)"))
    1024
    """
    if isinstance(a, Layout) and isinstance(b, Layout):
        return _plain.max_common_vector(a, b)
    if isinstance(a, Layout):
        a, b = b, a
    sa, oa, ia = _swizzle_parts(a, "max_common_vector")
    _zero_offset(oa, "max_common_vector")
    if isinstance(b, Layout):
        return min(_plain.max_common_vector(ia, b), 1 << sa.base)
    sb, ob, ib = _swizzle_parts(b, "max_common_vector")
    _zero_offset(ob, "max_common_vector")
    vec = _plain.max_common_vector(ia, ib)
    if sa == sb:
        return vec
    return min(vec, 1 << sa.base, 1 << sb.base)


def logical_product_swizzled(layout: Layout, tiler: Any) -> Any:
    """CuTe's ``logical_product(Layout, Sw o _0 o T)``: ``logical_product(layout, T)``
    under the swizzle that acts on it as ``Sw`` acts on ``T`` (CuTe's construction:
    the swizzle's active bits, carried through ``T`` and the new layout).

    @pre the tiler's offset is 0 ("Require Swizzle offset == 0."); the carried masks
         form a swizzle ("Number of bits in Y and Z don't match", ...).

    >>> from cute_sym.notation import parse
    >>> print(logical_product_swizzled(parse("(_2,_2):(_1,_2)"), parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)")))
    Sw<3,2,3> o _0 o ((_2,_2),(_8,_8)):((_1,_2),(_32,_4))
    """
    sw, o, t = _swizzle_parts(tiler, "logical_product")
    if not _is_zero(o):
        raise LayoutError("Require Swizzle offset == 0.")
    new_layout = _plain.logical_product(layout, t)
    B, M, S = sw.bits, sw.base, abs(sw.shift)
    proj = _mk((1 << M, 1 << B, 1 << (S - B), 1 << B, 1), (0, 1 << M, 0, 1 << (M + S), 0))
    only_zy = _composition_cute(proj, t)
    active = _as_int(only_zy(_static_size(only_zy) - 1), "logical_product (the active swizzle bits)")
    rest = new_layout[1]
    new_z = _as_int(rest(t(active & sw.zzz_msk)), "logical_product (the new Z mask)")
    new_y = _as_int(rest(t(active & sw.yyy_msk)), "logical_product (the new Y mask)")
    return make_composed_layout(make_swizzle(new_y, new_z), 0, new_layout)


def _as_int(x: Any, what: str) -> int:
    x = unwrap(x)
    if type(x) is int:
        return x
    if getattr(x, "is_Integer", False):
        return int(x)
    raise UndecidableError(f"{x} is a static integer",
                           f"{what} is {x}: a swizzle needs it static (needs {x} to be a known integer)")
