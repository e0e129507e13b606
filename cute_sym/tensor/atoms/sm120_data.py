"""The hardware facts of CuTe's SM120 warp-level MMA atoms (``mma.sync`` F8F6F4, block-scaled
``_VS`` and sparse): data only.

Transcribed from CuTe's ``cute/atom/mma_traits_sm120.hpp`` and ``mma_traits_sm120_sparse.hpp``;
the type combinations are the specializations of ``cute/arch/mma_sm120.hpp`` and
``mma_sm120_sparse.hpp`` (any other combination is CuTe's "No MMA matches ... for given data
types"), the vector sizes the ``CUTE_STATIC_ASSERT``s of their ``fma``. Each template is
one row (:data:`TEMPLATES`); :mod:`.umma_names` reads it.
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Sm120Template", "TEMPLATES", "F8F6F4", "SOURCE", "SOURCE_SPARSE"]

SOURCE = "cute/atom/mma_traits_sm120.hpp"
SOURCE_SPARSE = "cute/atom/mma_traits_sm120_sparse.hpp"

#: The element types of the F8F6F4 instructions (A and B alike)
F8F6F4 = ("float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t")

_ROW_16x8 = "((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"      # SM80_16x8_Row (SM120_16x8_Row)
_A_16x8x32 = "((_4,_8),(_4,_2,_2)):((_64,_1),(_16,_8,_256))"
_B_16x8x32 = "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))"
_A_16x8x64 = "((_4,_8),(_8,_2,_2)):((_128,_1),(_16,_8,_512))"
_B_16x8x64 = "((_4,_8),(_8,_2)):((_64,_1),(_8,_256))"
_B_SP_16x8x64 = "((_4,_8),(_4,_4)):((_32,_1),(_8,_128))"
_A_16x8x128 = "((_4,_8),(_16,_2,_2)):((_256,_1),(_16,_8,_1024))"
_B_16x8x128 = "((_4,_8),(_8,_4)):((_64,_1),(_8,_256))"
#: the scale factors: 16 threads of A (the 2:0 mode), 8 of B (the 4:0 mode), K values each
_SFA = "((_2,_2,_8),_{K}):((_8,_0,_1),_16)"
_SFB = "((_4,_8),_{K}):((_0,_1),_8)"


class Sm120Template(NamedTuple):
    """One SM120 template: ``name`` as CuTe spells it (with its namespace), its K, the allowed
    (a, b, c[, sf]) type combinations, the allowed vector sizes per scale type (``()``: not
    block-scaled), CuTe's ValTypeA/B (the instruction's register types) and the layouts."""

    name: str
    K: int
    ab: tuple[tuple[str, str], ...]
    cs: tuple[str, ...]
    vs: tuple[tuple[str, tuple[int, ...]], ...]
    val_ab: tuple[str, str]
    a: str
    b: str
    sparse: bool
    source: str


_ALL_AB = tuple((a, b) for a in F8F6F4 for b in F8F6F4)
_E2M1 = (("float_e2m1_t", "float_e2m1_t"),)

TEMPLATES: tuple[Sm120Template, ...] = (
    Sm120Template("SM120_16x8x32_TN", 32, _ALL_AB, ("float", "half_t"), (), ("uint8_t", "uint8_t"),
                  _A_16x8x32, _B_16x8x32, False, SOURCE),
    Sm120Template("SM120::BLOCKSCALED::SM120_16x8x32_TN_VS", 32, _ALL_AB, ("float",),
                  (("float_ue8m0_t", (32,)),), ("uint8_t", "uint8_t"), _A_16x8x32, _B_16x8x32, False, SOURCE),
    Sm120Template("SM120::BLOCKSCALED::SM120_16x8x64_TN_VS", 64, _E2M1, ("float",),
                  (("float_ue8m0_t", (16, 32)), ("float_ue4m3_t", (16, 32))), ("uint4_t", "uint4_t"),
                  _A_16x8x64, _B_16x8x64, False, SOURCE),
    Sm120Template("SM120::SPARSE::SM120_SPARSE_16x8x64_TN", 64, _ALL_AB, ("float", "half_t"), (),
                  ("sparse_elem<2,{a}>", "uint8_t"), _A_16x8x64, _B_SP_16x8x64, True, SOURCE_SPARSE),
    Sm120Template("SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x64_TN_VS", 64, _ALL_AB, ("float",),
                  (("float_ue8m0_t", (64,)),), ("sparse_elem<2,{a}>", "uint8_t"), _A_16x8x64, _B_SP_16x8x64,
                  True, SOURCE_SPARSE),
    Sm120Template("SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS", 128, _E2M1, ("float",),
                  (("float_ue8m0_t", (32, 64)), ("float_ue4m3_t", (32,))), ("sparse_elem<4,uint8_t>", "uint4_t"),
                  _A_16x8x128, _B_16x8x128, True, SOURCE_SPARSE),
)

#: CLayout of every SM120 atom, and the scale-factor layouts (``{K}`` filled in)
C_LAYOUT = _ROW_16x8
SFA_LAYOUT = _SFA
SFB_LAYOUT = _SFB
__all__ += ["C_LAYOUT", "SFA_LAYOUT", "SFB_LAYOUT"]
