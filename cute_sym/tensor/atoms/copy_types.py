"""Element types by CuTe's names and their widths in bits (``sizeof_bits<T>``).

A table of facts from ``cute/numeric/*.hpp`` and ``cutlass/numeric_types.h``,
read by :func:`sizeof_bits`. Names may carry a ``cute::`` or ``cutlass::``
prefix, as a C++ user writes them.

>>> sizeof_bits("half_t"), sizeof_bits("cute::uint128_t"), sizeof_bits("float_e4m3_t")
(16, 128, 8)
"""
from __future__ import annotations

from typing import Mapping

from ...core.errors import LayoutError

__all__ = ["ELEMENT_BITS", "sizeof_bits", "type_name", "template_args"]

# name -> width in bits
ELEMENT_BITS: Mapping[str, int] = {
    # unsigned integers (cute/numeric/int.hpp: uint_bit<N>)
    "uint1_t": 1, "uint1b_t": 1, "bin1_t": 1,
    "uint2_t": 2, "uint2b_t": 2,
    "uint4_t": 4, "uint4b_t": 4,
    "uint6_t": 6, "uint6b_t": 6,
    "uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "uint64_t": 64,
    "uint128_t": 128, "uint256_t": 256,
    # signed integers
    "int2_t": 2, "int2b_t": 2,
    "int4_t": 4, "int4b_t": 4,
    "int6_t": 6, "int6b_t": 6,
    "int8_t": 8, "int16_t": 16, "int32_t": 32, "int64_t": 64,
    "char": 8, "bool": 8, "short": 16, "int": 32, "unsigned": 32,
    # floating point
    "half_t": 16, "half": 16, "__half": 16,
    "bfloat16_t": 16, "__nv_bfloat16": 16,
    "tfloat32_t": 32,
    "float": 32, "double": 64,
    "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue4m3_t": 8, "float_ue8m0_t": 8,
    "type_erased_dynamic_float8_t": 8,
    "float_e2m3_t": 6, "float_e3m2_t": 6, "type_erased_dynamic_float6_t": 6,
    "float_e2m1_t": 4, "type_erased_dynamic_float4_t": 4,
    # complex (cute/numeric/complex.hpp: two reals)
    "complex<half_t>": 32, "complex<bfloat16_t>": 32, "complex<tfloat32_t>": 64,
    "complex<float>": 64, "complex<double>": 128,
}

_PREFIXES = ("cute::", "cutlass::", "std::")


def type_name(name: str) -> str:
    """The table's spelling of a C++ type name: prefixes and blanks dropped.

    >>> type_name(" cutlass::complex<cute::half_t> ")
    'complex<half_t>'
    """
    if not isinstance(name, str):
        raise LayoutError(f"an element type is named by a string, got {type(name).__name__}")
    text = "".join(name.split())
    for p in _PREFIXES:
        text = text.replace(p, "")
    return text


def sizeof_bits(name: str) -> int:
    """``sizeof_bits<T>::value`` for the element type named ``name``.

    @pre ``name`` is a type of the table (CuTe's names), else :class:`LayoutError`.
    @post the width in bits, a positive ``int``.

    >>> sizeof_bits("bfloat16_t"), sizeof_bits("int4_t"), sizeof_bits("complex<double>")
    (16, 4, 128)
    >>> sizeof_bits("quad_t")
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: unknown element type 'quad_t' (CuTe names such as half_t, float, int8_t, uint128_t)
    """
    key = type_name(name)
    bits = ELEMENT_BITS.get(key)
    if bits is None:
        raise LayoutError(f"unknown element type {name!r} (CuTe names such as half_t, float, int8_t, uint128_t)")
    return bits


def template_args(body: str, malformed: str) -> list[str]:
    """The top-level template arguments of ``body`` (the text between an operation's outer ``<``
    and ``>``), split at the commas outside nested ``<...>``: the one reader of MMA and copy
    operation names. An unbalanced bracket is a :class:`LayoutError` (``malformed``, then why).

    >>> template_args("complex<float>, complex<float>", "x")
    ['complex<float>', ' complex<float>']
    """
    args: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(body):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
            if depth < 0:
                raise LayoutError(f"{malformed}: unbalanced '>'")
        elif ch == "," and depth == 0:
            args.append(body[start:i])
            start = i + 1
    if depth:
        raise LayoutError(f"{malformed}: unbalanced '<'")
    if body:
        args.append(body[start:])
    return args
