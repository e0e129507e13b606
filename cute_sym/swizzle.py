"""Swizzles and composed layouts: CuTe's ``Swizzle<B,M,S>`` and ``ComposedLayout``.

A :class:`Swizzle` ``Sw<B,M,S>`` is the bit function
``x -> x ^ shiftr(x & yyy_msk, S)``: the ``B`` bits of ``x`` starting at bit
``M + max(0, S)`` (the YYY bits) are xor-ed into the ``B`` bits starting at
``M - min(0, S)`` (the ZZZ bits). It is an involution, the identity when ``B == 0``.

A :class:`ComposedLayout` ``A o O o B`` is the function ``c -> A(O + B(c))``: an
outer function ``A`` (a swizzle, or a layout), an integer offset ``O`` and an
inner layout ``B`` that defines the domain (shape, size, modes). CuTe prints it
``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)``; it nests to the right.

The layout algebra (:mod:`cute_sym.algebra`) sends every operation whose
argument is a swizzle or a composed layout to :func:`dispatch`, which follows
CuTe's ``swizzle_layout.hpp`` and ``layout_composed.hpp``: operations that
reshape the domain (divides, products, ``coalesce``, composition on the right)
act on the inner layout; a layout composed with a swizzle on its right moves the
swizzle through the layout; the inverses invert every stage.

>>> from cute_sym.notation import parse
>>> sw = Swizzle(2, 0, 3)
>>> [sw(x) for x in (0, 7, 8, 9, 24, 31)]
[0, 7, 9, 8, 27, 28]
>>> C = parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)")
>>> C(1, 0), C(1, 1), C.size(), C.rank()
(9, 8, 64, 2)
>>> print(dispatch("logical_divide", C, parse("(_4,_8)")))
Sw<3,0,3> o _0 o ((_4,_2),(_8,_1)):((_8,_32),(_1,_0))
"""
from __future__ import annotations

from typing import Any, Iterator, Union

import sympy

from .errors import LayoutError, NotationError
from .int_tuple import IntTuple, Underscore, leaf_str
from .integers import IntLike, is_static
from .layout import Layout, slice_and_offset

__all__ = ["Swizzle", "ComposedLayout", "make_swizzle", "make_composed_layout", "dispatch"]


def _static_int(x: Any, what: str) -> int:
    """``x`` as a Python int, or a LayoutError when it is symbolic (CuTe needs it static)."""
    if type(x) is int:
        return x
    if isinstance(x, sympy.Integer):
        return int(x)
    if isinstance(x, int) and not isinstance(x, bool):
        return int(x)
    raise NotationError(f"{what} must be a static integer, got {x}")


# ---------------------------------------------------------------- Swizzle
class Swizzle:
    """CuTe's ``Swizzle<B,M,S>``: xor the ``B`` YYY bits into the ``B`` ZZZ bits.

    ``bits`` is ``B`` (number of bits in each mask), ``base`` is ``M`` (the low
    bits kept constant), ``shift`` is ``S`` (distance from YYY to ZZZ; positive
    shifts YYY right, negative shifts it left).

    @pre ``B >= 0``, ``M >= 0`` and ``abs(S) >= B`` (CuTe's static_asserts).
    @post ``sw(sw(x)) == x`` for every ``x >= 0`` (an involution).
    @post ``Sw<0,M,S>`` is the identity.

    >>> sw = Swizzle(3, 4, 3)
    >>> print(sw), sw.yyy_msk, sw.zzz_msk
    Sw<3,4,3>
    (None, 896, 112)
    >>> sw(0b1010000000), sw(sw(0b1010000000))
    (720, 640)
    >>> s = Swizzle(2, 0, -2)          # negative shift: YYY below ZZZ
    >>> s.yyy_msk, s.zzz_msk, s(1), s(4)
    (3, 12, 5, 4)
    >>> Swizzle(3, 0, 2)
    Traceback (most recent call last):
    ...
    cute_sym.errors.LayoutError: abs(SShift) must be more than BBits.
    """

    __slots__ = ("bits", "base", "shift")

    bits: int
    base: int
    shift: int

    def __init__(self, bits: int, base: int, shift: int) -> None:
        b = _static_int(bits, "Swizzle BBits")
        m = _static_int(base, "Swizzle MBase")
        s = _static_int(shift, "Swizzle SShift")
        if m < 0:
            raise LayoutError("MBase must be positive.")
        if b < 0:
            raise LayoutError("BBits must be positive.")
        if abs(s) < b:
            raise LayoutError("abs(SShift) must be more than BBits.")
        object.__setattr__(self, "bits", b)
        object.__setattr__(self, "base", m)
        object.__setattr__(self, "shift", s)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Swizzle is immutable")

    @property
    def bit_msk(self) -> int:
        return (1 << self.bits) - 1

    @property
    def yyy_msk(self) -> int:
        """The bits that are read (left unchanged): ``bit_msk << (M + max(0, S))``."""
        return self.bit_msk << (self.base + max(0, self.shift))

    @property
    def zzz_msk(self) -> int:
        """The bits that are flipped: ``bit_msk << (M - min(0, S))``."""
        return self.bit_msk << (self.base - min(0, self.shift))

    @property
    def swizzle_code(self) -> int:
        return self.yyy_msk | self.zzz_msk

    def is_identity(self) -> bool:
        """True for ``Sw<0,M,S>`` (no bits move).

        >>> Swizzle(0, 4, 3).is_identity(), Swizzle(1, 0, 1).is_identity()
        (True, False)
        """
        return self.bits == 0

    def __call__(self, offset: Any) -> int:
        """``offset ^ shiftr(offset & yyy_msk, S)`` for a static integer offset.

        >>> Swizzle(1, 0, 1)(2), Swizzle(1, 0, -1)(1)
        (3, 3)
        """
        x = _static_int(offset, "a swizzled offset")
        y = x & self.yyy_msk
        s = self.shift
        return x ^ (y >> s if s >= 0 else y << -s)

    def is_static(self) -> bool:
        return True

    def inverse(self) -> "Swizzle":
        """A swizzle is its own inverse (left and right)."""
        return self

    def __str__(self) -> str:
        return f"Sw<{self.bits},{self.base},{self.shift}>"

    def _cute_str(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"Swizzle({self.bits}, {self.base}, {self.shift})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Swizzle) and self.bits == other.bits and self.base == other.base
                and self.shift == other.shift)

    def __hash__(self) -> int:
        return hash(("Swizzle", self.bits, self.base, self.shift))


def _countr_zero32(x: int) -> int:
    return 32 if x == 0 else (x & -x).bit_length() - 1


def make_swizzle(y: int, z: int) -> Swizzle:
    """CuTe's ``make_swizzle<Y,Z>()``: the swizzle whose YYY mask is ``y`` and ZZZ mask ``z``.

    @pre ``popcount(y) == popcount(z)`` and the masks are contiguous runs that
         form a valid ``Sw<B,M,S>`` ("Something went wrong.").
    @post ``result.yyy_msk | result.zzz_msk == y | z``.

    >>> print(make_swizzle(0b1000, 0b0100)), print(make_swizzle(0b11000000, 0b00000110))
    Sw<1,2,1>
    Sw<2,1,5>
    (None, None)
    >>> print(make_swizzle(0, 0))
    Sw<0,0,0>
    >>> make_swizzle(0b11, 0b100)
    Traceback (most recent call last):
    ...
    cute_sym.errors.LayoutError: Number of bits in Y and Z don't match
    """
    if y < 0 or z < 0 or y >= 1 << 32 or z >= 1 << 32:
        raise LayoutError(f"make_swizzle: masks must be 32-bit unsigned values, got Y={y}, Z={z}")
    bz, by = bin(y).count("1"), bin(z).count("1")
    if bz != by:
        raise LayoutError("Number of bits in Y and Z don't match")
    ty, tz = _countr_zero32(y), _countr_zero32(z)
    m = min(ty, tz) % 32
    s = ty - tz
    if abs(s) < bz:
        raise LayoutError("abs(SShift) must be more than BBits.")
    sw = Swizzle(bz, m, s)
    if (y | z) != sw.swizzle_code:
        raise LayoutError("Something went wrong.")
    return sw


# ---------------------------------------------------------------- ComposedLayout
Outer = Union[Swizzle, Layout, "ComposedLayout"]
Inner = Union[Layout, "ComposedLayout", Swizzle]


def _is_zero(x: Any) -> bool:
    return type(x) is int and x == 0


def _apply(f: Any, x: Any) -> Any:
    """``f(x)`` for a swizzle, a layout (1-D index) or a composed layout."""
    return f(x)


class ComposedLayout:
    """CuTe's ``ComposedLayout``: ``A o O o B``, the function ``c -> A(O + B(c))``.

    ``layout_a`` is the outer function (a :class:`Swizzle` as a rule, or a Layout),
    ``offset`` an integer, ``layout_b`` the inner layout, which gives the domain:
    shape, size, rank, depth, modes (``C[k]`` is ``A o O o B[k]``).
    ``swizzle`` and ``layout`` are read-only aliases of ``layout_a`` and ``layout_b``.

    @post ``C(c) == A(O + B(c))`` for every coordinate ``c`` of ``B``.
    @post ``size(C) == size(B)``, ``shape(C) == shape(B)``, ``cosize(C) == cosize(B)`` (as in CuTe).

    >>> from cute_sym.notation import parse
    >>> C = ComposedLayout(Swizzle(2, 0, 3), 0, parse("(_8,_8):(_8,_1)"))
    >>> print(C), C.shape, C.size(), C.cosize()
    Sw<2,0,3> o _0 o (_8,_8):(_8,_1)
    (None, (8, 8), 64, 64)
    >>> [C(i) for i in range(4)], C(0, 1), C((1, 1))
    ([0, 9, 18, 27], 1, 8)
    >>> print(C[1])
    Sw<2,0,3> o _0 o _8:_1
    >>> print(parse("Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)"))
    Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)
    """

    __slots__ = ("layout_a", "offset", "layout_b")

    layout_a: Outer
    offset: IntLike
    layout_b: Inner

    def __init__(self, layout_a: Any, offset: Any, layout_b: Any) -> None:
        if not isinstance(layout_a, (Swizzle, Layout, ComposedLayout)):
            raise LayoutError(f"ComposedLayout: the outer function must be a Swizzle or a layout, "
                              f"got {type(layout_a).__name__}")
        if not isinstance(layout_b, (Layout, ComposedLayout, Swizzle)):
            raise LayoutError(f"ComposedLayout: the inner layout must be a layout, got {type(layout_b).__name__}")
        if not (type(offset) is int or isinstance(offset, sympy.Expr)):
            raise LayoutError(f"ComposedLayout: the offset must be an integer, got {offset!r}")
        object.__setattr__(self, "layout_a", layout_a)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "layout_b", layout_b)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ComposedLayout is immutable")

    # aliases (the names of the first placeholder)
    @property
    def swizzle(self) -> Outer:
        return self.layout_a

    @property
    def layout(self) -> Inner:
        return self.layout_b

    def _domain(self) -> Union[Layout, "ComposedLayout"]:
        b = self.layout_b
        if isinstance(b, Swizzle):
            raise LayoutError(f"{self}: the inner function is a swizzle, which has no shape")
        return b

    @property
    def shape(self) -> IntTuple:
        return self._domain().shape

    def size(self) -> IntLike:
        return self._domain().size()

    def cosize(self) -> IntLike:
        return self._domain().cosize()

    def rank(self) -> int:
        return self._domain().rank()

    def depth(self) -> int:
        return self._domain().depth()

    def is_static(self) -> bool:
        return is_static(self.offset) and self.layout_a.is_static() and self.layout_b.is_static()

    def __call__(self, *coord: Any) -> Any:
        """``A(O + B(c))``; a coordinate holding ``_`` slices the inner layout
        (the fixed part of the coordinate moves into the offset)."""
        c: Any = coord[0] if len(coord) == 1 else coord
        if _has_underscore(c):
            dom = self._domain()
            if isinstance(dom, ComposedLayout):
                return ComposedLayout(self.layout_a, self.offset, dom(c))
            sliced, off = slice_and_offset(c, dom)
            return ComposedLayout(self.layout_a, _add(self.offset, off), sliced)
        inner = _apply(self.layout_b, c)
        return _apply(self.layout_a, _add(self.offset, inner))

    def __getitem__(self, k: Union[int, tuple[int, ...]]) -> "ComposedLayout":
        return ComposedLayout(self.layout_a, self.offset, self._domain()[k])

    def __iter__(self) -> Iterator["ComposedLayout"]:
        for k in range(self.rank()):
            yield self[k]

    def _cute_subs(self, go: Any) -> "ComposedLayout":
        a = self.layout_a if isinstance(self.layout_a, Swizzle) else go(self.layout_a)
        b = self.layout_b if isinstance(self.layout_b, Swizzle) else go(self.layout_b)
        return ComposedLayout(a, go(self.offset), b)

    def __str__(self) -> str:
        return f"{self.layout_a} o {leaf_str(self.offset)} o {self.layout_b}"

    def _cute_str(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"ComposedLayout({self})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ComposedLayout) and self.layout_a == other.layout_a
                and self.layout_b == other.layout_b and bool(self.offset == other.offset))

    def __hash__(self) -> int:
        return hash(("ComposedLayout", self.layout_a, self.offset, self.layout_b))


def _has_underscore(c: Any) -> bool:
    if isinstance(c, Underscore):
        return True
    if type(c) is tuple:
        return any(_has_underscore(e) for e in c)
    return False


def _add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:
        return a + b
    r = a + b
    return int(r) if isinstance(r, sympy.Integer) else r


def _neg(a: Any) -> Any:
    if type(a) is int:
        return -a
    r = -a
    return int(r) if isinstance(r, sympy.Integer) else r


def make_composed_layout(layout_a: Any, offset: Any, layout_b: Any) -> Any:
    """CuTe's three-argument ``composition(A, O, B)``: ``A o O o B``, except that an
    identity swizzle ``Sw<0,M,S>`` with a static zero offset over a plain layout is
    just that layout.

    >>> from cute_sym.notation import parse
    >>> print(make_composed_layout(Swizzle(0, 4, 3), 0, parse("(_8,_16):(_16,_1)")))
    (_8,_16):(_16,_1)
    >>> print(make_composed_layout(Swizzle(1, 4, 3), 0, parse("(_8,_16):(_16,_1)")))
    Sw<1,4,3> o _0 o (_8,_16):(_16,_1)
    """
    if (isinstance(layout_a, Swizzle) and layout_a.is_identity() and _is_zero(offset)
            and isinstance(layout_b, Layout)):
        return layout_b
    return ComposedLayout(layout_a, offset, layout_b)


# ---------------------------------------------------------------- operations
def _alg() -> Any:
    from . import algebra
    return algebra


def compose_layout_swizzle(a: Layout, sw: Swizzle) -> Any:
    """CuTe's ``composition(Layout a, Swizzle sw)``: the swizzle moved through ``a``,
    ``composition(make_swizzle<a(yyy_msk), a(zzz_msk)>(), a)``.

    @pre ``a`` has static strides and maps the YYY and ZZZ masks to masks of a valid swizzle.
    @post ``result(i) == a(sw(i))`` for ``i < size(a)`` when ``a`` carries each YYY and
          ZZZ bit to a single bit, in increasing order (e.g. a compact layout with
          power-of-two extents that keeps the order of the bits inside each mask).
          Like CuTe, only the images of the whole masks are checked: a layout that
          permutes the bits inside a mask gets CuTe's (not pointwise) answer.

    >>> from cute_sym.notation import parse
    >>> print(compose_layout_swizzle(parse("(_4,_4):(_4,_1)"), Swizzle(2, 0, 2)))
    Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)
    >>> print(compose_layout_swizzle(parse("(_8,_32):(_32,_1)"), Swizzle(2, 4, 3)))
    Sw<2,1,3> o _0 o (_8,_32):(_32,_1)
    """
    y = _static_int(a(sw.yyy_msk), "composition(Layout, Swizzle): the image of the YYY mask")
    z = _static_int(a(sw.zzz_msk), "composition(Layout, Swizzle): the image of the ZZZ mask")
    return make_composed_layout(make_swizzle(y, z), 0, a)


def compose_swizzles(s0: Swizzle, s1: Swizzle) -> Swizzle:
    """CuTe's ``composition(Swizzle, Swizzle)``: merge two swizzles of the same shift.

    @pre ``s0.shift == s1.shift`` ("Can only merge swizzles of the same shift.").

    >>> print(compose_swizzles(Swizzle(1, 0, 3), Swizzle(1, 1, 3)))
    Sw<2,0,3>
    """
    if s0.shift != s1.shift:
        raise LayoutError("Can only merge swizzles of the same shift.")
    return make_swizzle(s0.yyy_msk ^ s1.yyy_msk, s0.zzz_msk ^ s1.zzz_msk)


def _composition(lhs: Any, rhs: Any) -> Any:
    alg = _alg()
    if isinstance(lhs, ComposedLayout):
        return make_composed_layout(lhs.layout_a, lhs.offset, alg._composition_cute(lhs.layout_b, rhs))
    if isinstance(lhs, Swizzle):
        if isinstance(rhs, Swizzle):
            return compose_swizzles(lhs, rhs)
        if isinstance(rhs, (Layout, ComposedLayout)):
            return make_composed_layout(lhs, 0, rhs)
        raise LayoutError(f"composition({lhs}, {rhs!r}): a swizzle composes with a layout or a swizzle only")
    if isinstance(lhs, Layout):
        if isinstance(rhs, Swizzle):
            return compose_layout_swizzle(lhs, rhs)
        if isinstance(rhs, ComposedLayout):
            if not _is_zero(rhs.offset):
                raise LayoutError("Require offset == 0.")
            return alg._composition_cute(alg._composition_cute(lhs, rhs.layout_a), rhs.layout_b)
    raise LayoutError(f"composition: unsupported arguments {lhs!r}, {rhs!r}")


def _inverse(layout: Any, left: bool) -> Any:
    alg = _alg()
    inv = alg.left_inverse if left else alg.right_inverse
    if isinstance(layout, Swizzle):
        return layout
    if not isinstance(layout, ComposedLayout):
        raise LayoutError(f"{'left' if left else 'right'}_inverse: not a layout: {layout!r}")
    a, o, b = layout.layout_a, layout.offset, layout.layout_b
    if isinstance(a, Swizzle) and _is_zero(o):
        return alg._composition_cute(inv(b), a)
    return make_composed_layout(inv(b), _neg(o), inv(a))


_DOMAIN_OPS = frozenset({
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product",
})


def dispatch(op: str, a: Any, b: Any, *rest: Any) -> Any:
    """Run ``op`` (a CuTe function name) where an argument is a Swizzle or a ComposedLayout.

    * ``composition``: ``(A o O o B) o R == A o O o (B o R)``;
      ``Sw o L == Sw o _0 o L`` (just ``L`` for ``Sw<0,..>``);
      ``L o Sw`` moves the swizzle through ``L`` (see :func:`compose_layout_swizzle`);
      ``L o (A o _0 o B) == (L o A) o B``; two swizzles of one shift merge.
    * divides, products, ``coalesce``: applied to the inner layout.
    * ``complement``: of the inner layout.
    * ``left_inverse``/``right_inverse``: ``inv(B) o Sw`` for a zero offset, else
      ``inv(B) o -O o inv(A)``; a swizzle is its own inverse.

    @post every other op or argument raises a LayoutError.

    >>> from cute_sym.notation import parse
    >>> print(dispatch("composition", parse("Sw<3,3,3> o _0 o (_8,_8):(_8,_1)"), parse("_8:_2")))
    Sw<3,3,3> o _0 o (_4,_2):(_16,_1)
    >>> print(dispatch("left_inverse", parse("Sw<1,0,1> o _0 o (_4,_4):(_8,_1)"), None))
    Sw<1,2,1> o _0 o (_8,_4):(_4,_1)
    >>> print(dispatch("logical_product", parse("Sw<0,4,3> o _0 o (_8,_16):(_16,_1)"), parse("_4:_1")))
    ((_8,_16),_4):((_16,_1),_128)
    >>> dispatch("max_common_vector", Swizzle(1, 0, 1), None)
    Traceback (most recent call last):
    ...
    cute_sym.errors.LayoutError: max_common_vector: not supported for swizzles and composed layouts
    """
    alg = _alg()
    if op == "composition":
        return _composition(a, b)
    if op in ("left_inverse", "right_inverse"):
        return _inverse(a, op == "left_inverse")
    if isinstance(a, ComposedLayout):
        if op in _DOMAIN_OPS:
            if isinstance(b, (Swizzle, ComposedLayout)):
                raise LayoutError(f"{op}: the tiler must be a layout, a tiler or a shape, not {b}")
            return make_composed_layout(a.layout_a, a.offset, getattr(alg, op)(a.layout_b, b, *rest))
        if op == "coalesce":
            return make_composed_layout(a.layout_a, a.offset, alg.coalesce(a.layout_b, b))
        if op == "complement":
            inner = a._domain()
            return alg._complement(inner, inner.cosize() if b is None else b)
    if op in _DOMAIN_OPS or op in ("coalesce", "complement"):
        raise LayoutError(f"{op}: unsupported arguments {a!r}, {b!r}")
    raise LayoutError(f"{op}: not supported for swizzles and composed layouts")

