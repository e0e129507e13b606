"""F2 strides: elements of F2^n (bit vectors) as strides, so a swizzle is a layout.

An :class:`F2` stride adds by XOR and is scaled by an integer coordinate with the carry-less
product (``c * F2(d)`` is the XOR of ``d << j`` over the set bits ``j`` of ``c``): a layout with
F2 strides maps a coordinate to the XOR of its modes' contributions, a linear map over F2 on the
bits of a power-of-two domain. NVIDIA's PyCuTe uses these strides for swizzles and Triton's
linear layouts are such maps (:mod:`cute_sym.swizzle.linear`).

>>> F2(0b1010) + F2(0b1100), F2(5) * 3, 3 * F2(5)
(F6, F15, F15)
>>> from cute_sym.layout import make_layout
>>> L = make_layout((4, 8), (F2(1), F2(8)))
>>> [int(L(c0, c1)) for c0, c1 in [(3, 0), (1, 1), (3, 7)]]
[3, 9, 59]
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError
from .kind import Fact, StrideKind

__all__ = ["F2", "clmul", "is_f2"]


def clmul(a: int, b: int) -> int:
    """The carry-less product of two non-negative integers (polynomials over F2).

    @pre ``a >= 0`` and ``b >= 0``.
    @post ``clmul(a, 1 << k) == a << k``; distributes over XOR.

    >>> clmul(5, 3), clmul(7, 0), clmul(3, 3)
    (15, 0, 5)
    """
    if a < 0 or b < 0:
        raise LayoutError(f"F2: a carry-less product needs non-negative integers, got {a} and {b}")
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
    return r


class F2(StrideKind):
    """An element of F2^n written as a non-negative integer: ``F2(a) + F2(b)`` is ``F2(a ^ b)``,
    ``c * F2(a)`` the carry-less product.

    @pre ``value`` is a non-negative ``int``.
    @post immutable; equal to an ``F2`` or an ``int`` of the same value (PyCuTe's equality);
          printed ``F<value>``.
    """

    __slots__ = ("_v",)
    ORDERED = False         # complement and the inverses sort strides: F2 vectors have no order there

    _v: int

    def __init__(self, value: Any) -> None:
        if isinstance(value, F2):
            value = value._v
        if type(value) is not int and not (isinstance(value, int) and not isinstance(value, bool)):
            raise LayoutError(f"F2: the value must be a non-negative integer, got {value!r}")
        if value < 0:
            raise LayoutError(f"F2: the value must be a non-negative integer, got {value}")
        object.__setattr__(self, "_v", int(value))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("F2 is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (F2, (self._v,))

    @property
    def value(self) -> int:
        return self._v

    def __int__(self) -> int:
        return self._v

    __index__ = __int__

    def __str__(self) -> str:
        return f"F{self._v}"

    __repr__ = __str__

    def _cute_str(self) -> str:
        return str(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, F2):
            return self._v == other._v
        if type(other) is int:
            return self._v == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._v)

    def __lt__(self, other: Any) -> bool:
        return self._v < int(other)

    def __add__(self, other: Any) -> "F2":
        if isinstance(other, F2):
            return F2(self._v ^ other._v)
        if type(other) is int and other == 0:
            return self                     # 0 is every algebra's additive identity
        raise LayoutError(f"F2 + {other!r}: only an F2 or a 0 adds to an F2")

    __radd__ = __add__

    def __neg__(self) -> "F2":
        return self                         # XOR is its own inverse

    def __sub__(self, other: Any) -> "F2":
        return self.__add__(other)

    __rsub__ = __sub__

    def __mul__(self, k: Any) -> "F2":
        if isinstance(k, F2):
            return F2(clmul(self._v, k._v))
        if type(k) is int or isinstance(k, int) and not isinstance(k, bool):
            return F2(clmul(self._v, int(k)))
        return NotImplemented

    __rmul__ = __mul__

    # the stride kind (cute_sym.stride.kind)
    def scale(self, k: Any) -> "F2":
        """``k * self`` where the algebra needs ``(c*k) * d == c * (k * d)`` for every coordinate
        ``c``: a power of two (a shift) or 0; any other factor carries and is refused."""
        if type(k) is not int or k < 0 or k & (k - 1):
            raise LayoutError(f"an F2 stride {self} scaled by {k}: only a power of two keeps the layout linear "
                              "over F2 (c*k and c clmul k differ where c*k carries)")
        return F2(self._v * k)

    def continues(self, s: Any, nxt: Any) -> Fact:
        """A mode ``s:self`` followed by a mode of stride ``nxt`` is one mode of extent ``s*t``:
        ``s`` a power of two and ``nxt == self << log2(s)`` (PyCuTe's two merge conditions)."""
        if type(s) is not int or s < 1 or s & (s - 1):
            return False
        return isinstance(nxt, F2) and nxt._v == self._v * s or (self._v == 0 and nxt == 0)

    def eq_fact(self, other: Any) -> Fact:
        return isinstance(other, F2) and other._v == self._v

    def is_zero(self) -> bool:
        return self._v == 0

    def is_static(self) -> bool:
        return True

    def int_leaves(self) -> tuple[Any, ...]:
        return ()

    def coordinate(self) -> int:
        """An F2 value read as a coordinate: the index it is (an inverse's value is one)."""
        return self._v


def is_f2(x: object) -> bool:
    """True for an :class:`F2` stride."""
    return isinstance(x, F2)
