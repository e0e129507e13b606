"""CuTe's ``Swizzle<B,M,S>``: the bit function ``x -> x ^ shiftr(x & yyy_msk, S)``.

The ``B`` bits of ``x`` starting at bit ``M + max(0, S)`` (the YYY bits) are xor-ed
into the ``B`` bits starting at ``M - min(0, S)`` (the ZZZ bits). It is an
involution, the identity when ``B == 0``.

>>> sw = Swizzle(2, 0, 3)
>>> [sw(x) for x in (0, 7, 8, 9, 24, 31)]
[0, 7, 9, 8, 27, 28]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_basic
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce

from ..core.errors import LayoutError, NotationError

__all__ = ["Swizzle", "make_swizzle"]


def _static_int(x: Any, what: str) -> int:
    """``x`` as a Python int, or a NotationError when it is symbolic (CuTe needs it static)."""
    if type(x) is int:
        return x
    if is_basic(x) and x.is_Integer:
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
    cute_sym.LayoutError: abs(SShift) must be more than BBits.
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

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

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
        if not (type(offset) is int or isinstance(offset, int) or is_basic(offset) and offset.is_Integer):
            if not is_basic(offset):
                raise LayoutError(f"{self}: an offset is an integer, got {offset!r}")
            # its bits are not known: xor has no formula here (CuTe swizzles a run-time int)
            raise LayoutError(f"{self}: the offset {offset} is symbolic; a swizzle reads its bits, so bind "
                              "its symbols first (subs)")
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
         form a valid ``Sw<B,M,S>`` (else :class:`LayoutError` naming which, with CuTe's
         ``static_assert`` text: "Something went wrong.", ...).
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
    cute_sym.LayoutError: make_swizzle: Y=0b11 has 2 bits and Z=0b100 has 1; a swizzle's masks have as many (CuTe: Number of bits in Y and Z don't match)
    >>> make_swizzle(0b101000, 0b101)
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: make_swizzle: Y=0b101000 and Z=0b101 are not two runs of consecutive bits, as the masks of a swizzle Sw<B,M,S> are (CuTe: Something went wrong.)
    """
    if y < 0 or z < 0 or y >= 1 << 32 or z >= 1 << 32:
        raise LayoutError(f"make_swizzle: masks must be 32-bit unsigned values, got Y={y}, Z={z}")
    bz, by = bin(y).count("1"), bin(z).count("1")
    if bz != by:
        raise LayoutError(f"make_swizzle: Y={y:#b} has {bz} bits and Z={z:#b} has {by}; a swizzle's masks have "
                          "as many (CuTe: Number of bits in Y and Z don't match)")
    ty, tz = _countr_zero32(y), _countr_zero32(z)
    m = min(ty, tz) % 32
    s = ty - tz
    if abs(s) < bz:
        raise LayoutError(f"make_swizzle: Y={y:#b} and Z={z:#b} overlap: their shift {s} is shorter than their "
                          f"{bz} bits (CuTe: abs(SShift) must be more than BBits.)")
    sw = Swizzle(bz, m, s)
    if (y | z) != sw.swizzle_code:
        raise LayoutError(f"make_swizzle: Y={y:#b} and Z={z:#b} are not two runs of consecutive bits, as the "
                          f"masks of a swizzle Sw<B,M,S> are (CuTe: Something went wrong.)")
    return sw
