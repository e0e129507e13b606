"""The hardware facts of CuTe's thread- and warp-level MMA atoms (SM61, SM70, SM75, SM80, SM89):
data only.

Transcribed from CuTe's ``cute/atom/mma_traits_sm61.hpp``, ``mma_traits_sm70.hpp``,
``mma_traits_sm75.hpp``, ``mma_traits_sm80.hpp`` and ``mma_traits_sm89.hpp`` (one entry per
``MMA_Traits`` specialization, i.e. per struct of ``cute/arch/mma_sm61.hpp`` ... ``mma_sm89.hpp``). Layouts
are in CuTe notation, or the name of one of :data:`NAMED_LAYOUTS` (CuTe's own
aliases); :mod:`cute_sym.tensor.atoms.mma_traits` reads them, nothing else does.

A :class:`Row` holds, in order: the value types ``"D A B C"`` (CuTe's ``ValTypeD``,
``ValTypeA``, ``ValTypeB``, ``ValTypeC``), ``Shape_MNK``, ``ThrID``, ``ALayout``
(``(thread, value) -> (m, k)``), ``BLayout`` (``-> (n, k)``), ``CLayout`` (``-> (m, n)``).
A :class:`Like` is a specialization that derives from another one (``: MMA_Traits<base>``),
with its own value types or, when they are omitted, the base's.
"""
from __future__ import annotations

from typing import NamedTuple, Optional, Union

__all__ = ["Row", "Like", "NAMED_LAYOUTS", "MMA_ATOMS", "SOURCES", "VALUE_BITS"]


class Row(NamedTuple):
    types: str
    Shape_MNK: str
    ThrID: str
    ALayout: str
    BLayout: str
    CLayout: str


class Like(NamedTuple):
    base: str
    types: Optional[str] = None


#: The layouts CuTe names once and reuses (the anonymous namespaces of the traits headers).
NAMED_LAYOUTS: dict[str, str] = {
    # logical thread id -> thread index (a quad pair: threads 0-3 and 16-19)
    "SM70_QuadPair": "(_4,_2):(_1,_16)",
    "SM70_8x4_Row": "(_8,_4):(_1,_8)",                                   # (T8,V4) -> (M8,K4)
    "SM70_8x4_Col": "((_4,_2),_4):((_8,_4),_1)",                         # (T8,V4) -> (M8,K4)
    "SM70_8x8_16b": "(_8,_8):(_1,_8)",                                   # (T8,V8) -> (M8,N8)
    "SM70_8x8_32b": "((_2,_2,_2),(_2,_2,_2)):((_1,_16,_4),(_8,_2,_32))",  # (T8,V8) -> (M8,N8)
    "SM80_8x4": "((_4,_8),_1):((_8,_1),_0)",                             # (T32,V1) -> (M8,N8)
    "SM80_8x8_Row": "((_4,_8),_2):((_16,_1),_8)",                        # (T32,V2) -> (M8,N8)
    "SM80_8x16_Row": "((_4,_8),_4):((_32,_1),_8)",                       # (T32,V4) -> (M8,N16)
    "SM80_16x8_Row": "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",            # (T32,V4) -> (M16,N8)
}

#: The header each name prefix comes from.
SOURCES: dict[str, str] = {
    "SM61_": "cute/atom/mma_traits_sm61.hpp",
    "SM70_": "cute/atom/mma_traits_sm70.hpp",
    "SM75_": "cute/atom/mma_traits_sm75.hpp",
    "SM80_": "cute/atom/mma_traits_sm80.hpp",
    "SM89_": "cute/atom/mma_traits_sm89.hpp",
    "SM90_": "cute/atom/mma_traits_sm90.hpp",
    "SM100_": "cute/atom/mma_traits_sm100.hpp",
}

#: Every MMA_Traits specialization of the SM61, SM70, SM75, SM80 and SM89 headers, in the headers'
#: order.
#: Two are kept as CuTe declares (and prints) them though they are not what the instruction does:
#: SM80_16x8x128_S32U1U1S32_TN_XORPOPC's ALayout stride is not congruent with its shape
#: (``Stride<Stride<_16,_8>>`` for ``Shape<_32,_2>``), and SM80_16x8x32_S32S4S4S32_TN's BLayout
#: thread stride is _32 where the 8x32 tile needs _64 (as SM80_8x8x32_S32S4S4S32_TN has it):
#: threads 0 and 4 then hold the same elements.
MMA_ATOMS: dict[str, Union[Row, Like]] = {
    # one thread: a dot product of 4 (2) packed integers into one int32
    "SM61_DP4A": Row("int32_t int8_t int8_t int32_t", "(_1,_1,_4)", "_1:_0",
        "(_1,_4):(_0,_1)",
        "(_1,_4):(_0,_1)",
        "(_1,_1):(_0,_0)"),
    "SM61_DP2A": Row("int32_t int16_t int16_t int32_t", "(_1,_1,_2)", "_1:_0",
        "(_1,_2):(_0,_1)",
        "(_1,_2):(_0,_1)",
        "(_1,_1):(_0,_0)"),
    "SM70_8x8x4_F16F16F16F16_TN": Row("half_t half_t half_t half_t", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Row",
        "SM70_8x4_Row",
        "SM70_8x8_16b"),
    "SM70_8x8x4_F16F16F16F16_NT": Row("half_t half_t half_t half_t", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Col",
        "SM70_8x4_Col",
        "SM70_8x8_16b"),
    "SM70_8x8x4_F16F16F16F16_NN": Row("half_t half_t half_t half_t", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Col",
        "SM70_8x4_Row",
        "SM70_8x8_16b"),
    "SM70_8x8x4_F16F16F16F16_TT": Row("half_t half_t half_t half_t", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Row",
        "SM70_8x4_Col",
        "SM70_8x8_16b"),
    "SM70_8x8x4_F32F16F16F32_TN": Row("float half_t half_t float", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Row",
        "SM70_8x4_Row",
        "SM70_8x8_32b"),
    "SM70_8x8x4_F32F16F16F32_NT": Row("float half_t half_t float", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Col",
        "SM70_8x4_Col",
        "SM70_8x8_32b"),
    "SM70_8x8x4_F32F16F16F32_NN": Row("float half_t half_t float", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Col",
        "SM70_8x4_Row",
        "SM70_8x8_32b"),
    "SM70_8x8x4_F32F16F16F32_TT": Row("float half_t half_t float", "(_8,_8,_4)", "SM70_QuadPair",
        "SM70_8x4_Row",
        "SM70_8x4_Col",
        "SM70_8x8_32b"),
    "SM75_16x8x8_F16F16F16F16_TN": Row("half_t half_t half_t half_t", "(_16,_8,_8)", "_32:_1",
        "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
        "((_4,_8),_2):((_16,_1),_8)",
        "SM80_16x8_Row"),
    "SM75_16x8x8_F32F16F16F32_TN": Row("float half_t half_t float", "(_16,_8,_8)", "_32:_1",
        "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))",
        "((_4,_8),_2):((_16,_1),_8)",
        "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"),
    "SM75_8x8x16_S32S8S8S32_TN": Row("int32_t int8_t int8_t int32_t", "(_8,_8,_16)", "_32:_1",
        "((_4,_8),_4):((_32,_1),_8)",
        "((_4,_8),_4):((_32,_1),_8)",
        "((_4,_8),_2):((_16,_1),_8)"),
    "SM80_16x8x8_F16F16F16F16_TN": Row("half_t half_t half_t half_t", "(_16,_8,_8)", "_32:_1",
        "SM80_16x8_Row",
        "SM80_8x8_Row",
        "SM80_16x8_Row"),
    "SM80_16x8x16_F16F16F16F16_TN": Row("half_t half_t half_t half_t", "(_16,_8,_16)", "_32:_1",
        "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))",
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
        "SM80_16x8_Row"),
    "SM80_16x8x8_F32F16F16F32_TN": Like("SM80_16x8x8_F16F16F16F16_TN", "float half_t half_t float"),
    "SM80_16x8x16_F32F16F16F32_TN": Like("SM80_16x8x16_F16F16F16F16_TN", "float half_t half_t float"),
    "SM80_16x8x8_F32BF16BF16F32_TN": Like("SM80_16x8x8_F16F16F16F16_TN", "float bfloat16_t bfloat16_t float"),
    "SM80_16x8x16_F32BF16BF16F32_TN": Like("SM80_16x8x16_F16F16F16F16_TN", "float bfloat16_t bfloat16_t float"),
    "SM80_16x8x4_F32TF32TF32F32_TN": Row("float tfloat32_t tfloat32_t float", "(_16,_8,_4)", "_32:_1",
        "((_4,_8),_2):((_16,_1),_8)",
        "SM80_8x4",
        "SM80_16x8_Row"),
    "SM80_16x8x8_F32TF32TF32F32_TN": Row("float tfloat32_t tfloat32_t float", "(_16,_8,_8)", "_32:_1",
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
        "((_4,_8),_2):((_8,_1),_32)",
        "SM80_16x8_Row"),
    "SM80_8x8x4_F64F64F64F64_TN": Row("double double double double", "(_8,_8,_4)", "_32:_1",
        "SM80_8x4",
        "SM80_8x4",
        "SM80_8x8_Row"),
    "SM80_8x8x4_C64C64C64C64_TN": Like("SM80_8x8x4_F64F64F64F64_TN",
                                       "complex<double> complex<double> complex<double> complex<double>"),
    "SM80_8x8x4_GC64C64C64GC64_TN": Like("SM80_8x8x4_F64F64F64F64_TN",
                                         "GaussComplex complex<double> complex<double> GaussComplex"),
    "SM80_8x8x16_S32S8S8S32_TN": Row("int32_t int8_t int8_t int32_t", "(_8,_8,_16)", "_32:_1",
        "SM80_8x16_Row",
        "SM80_8x16_Row",
        "SM80_8x8_Row"),
    "SM80_8x8x16_S32S8S8S32_TN_SATURATE": Like("SM80_8x8x16_S32S8S8S32_TN"),
    "SM80_16x8x16_S32S8S8S32_TN": Row("int32_t int8_t int8_t int32_t", "(_16,_8,_16)", "_32:_1",
        "((_4,_8),(_4,_2)):((_64,_1),(_16,_8))",
        "SM80_8x16_Row",
        "SM80_16x8_Row"),
    "SM80_16x8x16_S32S8S8S32_TN_SATURATE": Like("SM80_16x8x16_S32S8S8S32_TN"),
    "SM80_16x8x32_S32S8S8S32_TN": Row("int32_t int8_t int8_t int32_t", "(_16,_8,_32)", "_32:_1",
        "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
        "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))",
        "SM80_16x8_Row"),
    "SM80_16x8x32_S32S8S8S32_TN_SATURATE": Like("SM80_16x8x32_S32S8S8S32_TN"),
    "SM80_8x8x16_S32S8U8S32_TN": Like("SM80_8x8x16_S32S8S8S32_TN", "int32_t int8_t uint8_t int32_t"),
    "SM80_8x8x16_S32S8U8S32_TN_SATURATE": Like("SM80_8x8x16_S32S8U8S32_TN"),
    "SM80_16x8x16_S32S8U8S32_TN": Like("SM80_16x8x16_S32S8S8S32_TN", "int32_t int8_t uint8_t int32_t"),
    "SM80_16x8x16_S32S8U8S32_TN_SATURATE": Like("SM80_16x8x16_S32S8U8S32_TN"),
    "SM80_16x8x32_S32S8U8S32_TN": Like("SM80_16x8x32_S32S8S8S32_TN", "int32_t int8_t uint8_t int32_t"),
    "SM80_16x8x32_S32S8U8S32_TN_SATURATE": Like("SM80_16x8x32_S32S8U8S32_TN"),
    "SM80_8x8x16_S32U8S8S32_TN": Like("SM80_8x8x16_S32S8S8S32_TN", "int32_t uint8_t int8_t int32_t"),
    "SM80_8x8x16_S32U8S8S32_TN_SATURATE": Like("SM80_8x8x16_S32U8S8S32_TN"),
    "SM80_16x8x16_S32U8S8S32_TN": Like("SM80_16x8x16_S32S8S8S32_TN", "int32_t uint8_t int8_t int32_t"),
    "SM80_16x8x16_S32U8S8S32_TN_SATURATE": Like("SM80_16x8x16_S32U8S8S32_TN"),
    "SM80_16x8x32_S32U8S8S32_TN": Like("SM80_16x8x32_S32S8S8S32_TN", "int32_t uint8_t int8_t int32_t"),
    "SM80_16x8x32_S32U8S8S32_TN_SATURATE": Like("SM80_16x8x32_S32U8S8S32_TN"),
    "SM80_8x8x16_S32U8U8S32_TN": Like("SM80_8x8x16_S32S8S8S32_TN", "int32_t uint8_t uint8_t int32_t"),
    "SM80_8x8x16_S32U8U8S32_TN_SATURATE": Like("SM80_8x8x16_S32U8U8S32_TN"),
    "SM80_16x8x16_S32U8U8S32_TN": Like("SM80_16x8x16_S32S8S8S32_TN", "int32_t uint8_t uint8_t int32_t"),
    "SM80_16x8x16_S32U8U8S32_TN_SATURATE": Like("SM80_16x8x16_S32U8U8S32_TN"),
    "SM80_16x8x32_S32U8U8S32_TN": Like("SM80_16x8x32_S32S8S8S32_TN", "int32_t uint8_t uint8_t int32_t"),
    "SM80_16x8x32_S32U8U8S32_TN_SATURATE": Like("SM80_16x8x32_S32U8U8S32_TN"),
    "SM80_8x8x32_S32S4S4S32_TN": Row("int32_t int4b_t int4b_t int32_t", "(_8,_8,_32)", "_32:_1",
        "((_4,_8),(_8)):((_64,_1),(_8))",
        "((_4,_8),(_8)):((_64,_1),(_8))",
        "SM80_8x8_Row"),
    "SM80_8x8x32_S32S4S4S32_TN_SATURATE": Like("SM80_8x8x32_S32S4S4S32_TN"),
    "SM80_16x8x32_S32S4S4S32_TN": Row("int32_t int4b_t int4b_t int32_t", "(_16,_8,_32)", "_32:_1",
        "((_4,_8),(_8,_2)):((_128,_1),(_16,_8))",
        "((_4,_8),(_8)):((_32,_1),(_8))",
        "SM80_16x8_Row"),
    "SM80_16x8x32_S32S4S4S32_TN_SATURATE": Like("SM80_16x8x32_S32S4S4S32_TN"),
    "SM80_16x8x64_S32S4S4S32_TN": Row("int32_t int4b_t int4b_t int32_t", "(_16,_8,_64)", "_32:_1",
        "((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))",
        "((_4,_8),(_8,_2)):((_64,_1),(_8,_256))",
        "SM80_16x8_Row"),
    "SM80_16x8x64_S32S4S4S32_TN_SATURATE": Like("SM80_16x8x64_S32S4S4S32_TN"),
    "SM80_8x8x32_S32S4U4S32_TN": Like("SM80_8x8x32_S32S4S4S32_TN", "int32_t int4b_t uint4b_t int32_t"),
    "SM80_8x8x32_S32S4U4S32_TN_SATURATE": Like("SM80_8x8x32_S32S4U4S32_TN"),
    "SM80_16x8x32_S32S4U4S32_TN": Like("SM80_16x8x32_S32S4S4S32_TN", "int32_t int4b_t uint4b_t int32_t"),
    "SM80_16x8x32_S32S4U4S32_TN_SATURATE": Like("SM80_16x8x32_S32S4U4S32_TN"),
    "SM80_16x8x64_S32S4U4S32_TN": Like("SM80_16x8x64_S32S4S4S32_TN", "int32_t int4b_t uint4b_t int32_t"),
    "SM80_16x8x64_S32S4U4S32_TN_SATURATE": Like("SM80_16x8x64_S32S4U4S32_TN"),
    "SM80_8x8x32_S32U4S4S32_TN": Like("SM80_8x8x32_S32S4S4S32_TN", "int32_t uint4b_t int4b_t int32_t"),
    "SM80_8x8x32_S32U4S4S32_TN_SATURATE": Like("SM80_8x8x32_S32U4S4S32_TN"),
    "SM80_16x8x32_S32U4S4S32_TN": Like("SM80_16x8x32_S32S4S4S32_TN", "int32_t uint4b_t int4b_t int32_t"),
    "SM80_16x8x32_S32U4S4S32_TN_SATURATE": Like("SM80_16x8x32_S32U4S4S32_TN"),
    "SM80_16x8x64_S32U4S4S32_TN": Like("SM80_16x8x64_S32S4S4S32_TN", "int32_t uint4b_t int4b_t int32_t"),
    "SM80_16x8x64_S32U4S4S32_TN_SATURATE": Like("SM80_16x8x64_S32U4S4S32_TN"),
    "SM80_8x8x32_S32U4U4S32_TN": Like("SM80_8x8x32_S32S4S4S32_TN", "int32_t uint4b_t uint4b_t int32_t"),
    "SM80_8x8x32_S32U4U4S32_TN_SATURATE": Like("SM80_8x8x32_S32U4U4S32_TN"),
    "SM80_16x8x32_S32U4U4S32_TN": Like("SM80_16x8x32_S32S4S4S32_TN", "int32_t uint4b_t uint4b_t int32_t"),
    "SM80_16x8x32_S32U4U4S32_TN_SATURATE": Like("SM80_16x8x32_S32U4U4S32_TN"),
    "SM80_16x8x64_S32U4U4S32_TN": Like("SM80_16x8x64_S32S4S4S32_TN", "int32_t uint4b_t uint4b_t int32_t"),
    "SM80_16x8x64_S32U4U4S32_TN_SATURATE": Like("SM80_16x8x64_S32U4U4S32_TN"),
    "SM80_16x8x256_S32U1U1S32_TN_XORPOPC": Row("int32_t uint1b_t uint1b_t int32_t", "(_16,_8,_256)", "_32:_1",
        "((_4,_8),(_32,_2,_2)):((_512,_1),(_16,_8,_2048))",
        "((_4,_8),(_32,_2)):((_256,_1),(_8,_1024))",
        "SM80_16x8_Row"),
    "SM80_16x8x256_S32U1U1S32_TN_ANDPOPC": Like("SM80_16x8x256_S32U1U1S32_TN_XORPOPC"),
    "SM80_8x8x128_S32U1U1S32_TN_XORPOPC": Row("int32_t uint1b_t uint1b_t int32_t", "(_8,_8,_128)", "_32:_1",
        "((_4,_8),_32):((_256,_1),_8)",
        "((_4,_8),_32):((_256,_1),_8)",
        "SM80_8x8_Row"),
    "SM80_8x8x128_S32U1U1S32_TN_ANDPOPC": Like("SM80_8x8x128_S32U1U1S32_TN_XORPOPC"),
    "SM80_16x8x128_S32U1U1S32_TN_XORPOPC": Row("int32_t uint1b_t uint1b_t int32_t", "(_16,_8,_128)", "_32:_1",
        "((_4,_8),(_32,_2)):((_512,_1),((_16,_8)))",
        "((_4,_8),_32):((_256,_1),_8)",
        "SM80_16x8_Row"),
    "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC": Like("SM80_16x8x128_S32U1U1S32_TN_XORPOPC"),
    "SM89_16x8x32_F32E4M3E4M3F32_TN": Row("float float_e4m3_t float_e4m3_t float", "(_16,_8,_32)", "_32:_1",
        "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))",
        "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))",
        "SM80_16x8_Row"),
    "SM89_16x8x32_F32E4M3E5M2F32_TN": Like("SM89_16x8x32_F32E4M3E4M3F32_TN", "float float_e4m3_t float_e5m2_t float"),
    "SM89_16x8x32_F32E5M2E5M2F32_TN": Like("SM89_16x8x32_F32E4M3E4M3F32_TN", "float float_e5m2_t float_e5m2_t float"),
    "SM89_16x8x32_F32E5M2E4M3F32_TN": Like("SM89_16x8x32_F32E4M3E4M3F32_TN", "float float_e5m2_t float_e4m3_t float"),
    "SM89_16x8x32_F16E4M3E4M3F16_TN": Like("SM89_16x8x32_F32E4M3E4M3F32_TN",
                                           "half_t float_e4m3_t float_e4m3_t half_t"),
    "SM89_16x8x32_F16E4M3E5M2F16_TN": Like("SM89_16x8x32_F32E4M3E4M3F32_TN",
                                           "half_t float_e4m3_t float_e5m2_t half_t"),
    "SM89_16x8x32_F16E5M2E5M2F16_TN": Like("SM89_16x8x32_F32E4M3E4M3F32_TN",
                                           "half_t float_e5m2_t float_e5m2_t half_t"),
    "SM89_16x8x32_F16E5M2E4M3F16_TN": Like("SM89_16x8x32_F32E4M3E4M3F32_TN",
                                           "half_t float_e5m2_t float_e4m3_t half_t"),
    # cute/atom/mma_traits_sm90.hpp: double-precision (DMMA) and complex<double>
    "SM90_16x8x4_F64F64F64F64_TN": Row("double double double double", "(_16,_8,_4)", "_32:_1",
        "((_4,_8),_2):((_16,_1),_8)",
        "((_4,_8),_1):((_8,_1),_0)",
        "SM80_16x8_Row"),
    "SM90_16x8x8_F64F64F64F64_TN": Row("double double double double", "(_16,_8,_8)", "_32:_1",
        "((_4,_8),(_2,_2)):((_16,_1),(_8,_64))",
        "((_4,_8),_2):((_8,_1),_32)",
        "SM80_16x8_Row"),
    "SM90_16x8x16_F64F64F64F64_TN": Row("double double double double", "(_16,_8,_16)", "_32:_1",
        "((_4,_8),(_2,_4)):((_16,_1),(_8,_64))",
        "((_4,_8),_4):((_8,_1),_32)",
        "SM80_16x8_Row"),
    "SM90_16x8x4_C64C64C64C64_TN": Like("SM90_16x8x4_F64F64F64F64_TN",
                                        "complex<double> complex<double> complex<double> complex<double>"),
    "SM90_16x8x8_C64C64C64C64_TN": Like("SM90_16x8x8_F64F64F64F64_TN",
                                        "complex<double> complex<double> complex<double> complex<double>"),
    "SM90_16x8x16_C64C64C64C64_TN": Like("SM90_16x8x16_F64F64F64F64_TN",
                                         "complex<double> complex<double> complex<double> complex<double>"),
    # cute/atom/mma_traits_sm100.hpp: FFMA2, two fused multiply-adds of one thread (float2)
    "SM100_2x1x1_F32F32F32F32": Row("float float float float", "(_2,_1,_1)", "_1:_0",
        "(_1,_2):(_0,_1)",
        "(_1,_1):(_0,_0)",
        "(_1,_2):(_0,_1)"),
    "SM100_1x2x1_F32F32F32F32": Row("float float float float", "(_1,_2,_1)", "_1:_0",
        "(_1,_1):(_0,_0)",
        "(_1,_2):(_0,_1)",
        "(_1,_2):(_0,_1)"),
}

#: The width in bits of each value type the atoms name (CuTe's sizeof_bits).
VALUE_BITS: dict[str, int] = {
    "double": 64, "float": 32, "tfloat32_t": 32, "half_t": 16, "bfloat16_t": 16,
    "float_e4m3_t": 8, "float_e5m2_t": 8, "int32_t": 32, "int16_t": 16, "int8_t": 8, "uint8_t": 8,
    "int4b_t": 4, "uint4b_t": 4, "uint1b_t": 1, "complex<double>": 128, "GaussComplex": 192,
}
