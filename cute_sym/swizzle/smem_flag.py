"""CuTe's ``smem_ptr_flag_bits<B>``: the middle of a canonical shared-memory layout atom.

``GMMA::Layout_K_SW128_Atom<half_t>`` is ``Sw<3,4,3> o smem_ptr[16b](unset) o
(_8,_64):(_64,_1)``: the swizzle acts on *byte* addresses, the inner layout counts
elements of ``B`` bits, and the flag stands for the shared-memory pointer the layout
is waiting for (CuTe's ``pointer_flagged.hpp``). It is a static zero offset that
remembers ``B``. Until a pointer is given, CuTe evaluates such a layout as its
position-independent form (``as_position_independent_swizzle_layout``: the swizzle
recast from bytes to ``B``-bit elements), and so does cute_sym:

>>> from cute_sym.notation import parse
>>> f = SmemPtrFlag(16)
>>> print(f, f.bits)
smem_ptr[16b](unset) 16
>>> print(element_swizzle(parse("Sw<3,4,3>"), 16), element_swizzle(parse("Sw<3,4,3>"), 4))
Sw<3,3,3> Sw<3,5,3>
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from .swizzle import Swizzle

__all__ = ["SmemPtrFlag", "element_swizzle", "is_smem_flag"]


class SmemPtrFlag:
    """``smem_ptr_flag_bits<bits>``: an unset shared-memory pointer to ``bits``-bit elements.

    @pre ``bits`` is a positive power of two.
    @post prints ``smem_ptr[<bits>b](unset)`` as CuTe; its value as an offset is 0.

    >>> SmemPtrFlag(8) == SmemPtrFlag(8), SmemPtrFlag(8) == SmemPtrFlag(16)
    (True, False)
    """
    __slots__ = ("bits",)
    bits: int

    def __init__(self, bits: int) -> None:
        if type(bits) is not int or bits < 1 or bits & (bits - 1):
            raise LayoutError(f"smem_ptr_flag_bits<B>: B must be a positive power of two, got {bits!r}")
        object.__setattr__(self, "bits", bits)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("SmemPtrFlag is immutable")

    def __str__(self) -> str:
        return f"smem_ptr[{self.bits}b](unset)"

    _cute_str = __str__

    def __repr__(self) -> str:
        return f"SmemPtrFlag({self.bits})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SmemPtrFlag) and other.bits == self.bits

    def __hash__(self) -> int:
        return hash(("SmemPtrFlag", self.bits))

    def scaled(self, num: int, den: int) -> "SmemPtrFlag":
        """``smem_ptr_flag_bits<B*num/den>`` (CuTe's upcast and downcast keep the flag)."""
        b = self.bits * num
        if b % den:
            raise LayoutError(f"downcast of {self}: {self.bits}*{num} is not a multiple of {den}")
        return SmemPtrFlag(b // den)


def is_smem_flag(x: object) -> bool:
    return isinstance(x, SmemPtrFlag)


def element_swizzle(sw: Swizzle, bits: int) -> Swizzle:
    """The byte-address swizzle ``sw`` acting on indices of ``bits``-bit elements
    (CuTe's ``recast_layout<uint8_t, uint_bit_t<bits>>(sw)``).

    @pre the swizzle keeps the elements whole: ``2^M`` bytes hold whole elements
         (``bits <= 8 * 2^M``), unless the swizzle is the identity.
    @post ``element_swizzle(sw, b)(i) * b == sw(i * b / 8) * 8`` for every element index ``i``.

    >>> print(element_swizzle(Swizzle(2, 4, 3), 32), element_swizzle(Swizzle(3, 4, 3), 8))
    Sw<2,2,3> Sw<3,4,3>
    """
    if bits >= 8:
        k = (bits // 8).bit_length() - 1
        if sw.is_identity():
            return Swizzle(0, max(sw.base - k, 0), sw.shift)
        if k > sw.base:
            raise LayoutError(f"{sw} moves bytes inside a {bits}-bit element: no element swizzle")
        return Swizzle(sw.bits, sw.base - k, sw.shift)
    k = (8 // bits).bit_length() - 1
    return Swizzle(sw.bits, sw.base + k, sw.shift)
