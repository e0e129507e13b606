"""The hardware facts of CuTe's SM90 warpgroup MMA atoms (GMMA ``_SS`` / ``_RS``): data only.

Transcribed from CuTe's ``cute/atom/mma_traits_sm90_gmma.hpp`` (and ``_gmma_ext.hpp``,
the extra N sizes that CuTe compiles with ``CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED``).
Every GMMA atom there is ``SM90_64xNxK_<types>_<SS|RS><suffix>`` with

* ``Shape_MNK = (_64,_N,_K)`` and ``ThrID = _128:_1`` (a warpgroup);
* ``CLayout = GMMA::CLayout_64xN`` (:data:`C_LAYOUT`);
* ``BLayout = GMMA::ABLayout<N,K>`` and, for ``_SS``, ``ALayout = GMMA::ABLayout<64,K>``
  (:data:`SMEM_LAYOUT`: the operand is a shared-memory descriptor that every thread of the
  warpgroup holds, hence stride 0 across the 128 threads);
* for ``_RS`` (A in registers), ``ALayout = GMMA::ALayout_64xK`` (:data:`RS_A_LAYOUTS`).

The sparse atoms (``SM90::GMMA::SPARSE::GMMA_64xNxK_<types>_<SS|RS><suffix>``, from
``mma_traits_sm90_gmma_sparse.hpp`` and its ``_ext``) are the same families with twice the K
(A is 2:1 structured sparse, ``sparse_elem<2,A>``) and one more template argument, the
``GMMA::SparseSel`` (defaulted ``SparseSel::Zero``); the same N sizes, the same layouts of
the doubled K.

so one row per family (:data:`FAMILIES`) and the N sizes it exists for generate them all;
:mod:`cute_sym.tensor.atoms.mma_traits` reads this, nothing else does. Layout texts are
CuTe notation with ``{N8}`` (N/8), ``{MN}`` and ``{K}`` filled in by the reader.
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Family", "FAMILIES", "C_LAYOUT", "SMEM_LAYOUT", "RS_A_LAYOUTS", "N_BASE", "N_DENSE", "N_INT8",
           "SOURCE", "SOURCE_EXT", "SPARSE_SOURCE", "SPARSE_SOURCE_EXT"]

SOURCE = "cute/atom/mma_traits_sm90_gmma.hpp"
SOURCE_EXT = "cute/atom/mma_traits_sm90_gmma_ext.hpp (CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED)"
SPARSE_SOURCE = "cute/atom/mma_traits_sm90_gmma_sparse.hpp"
SPARSE_SOURCE_EXT = "cute/atom/mma_traits_sm90_gmma_sparse_ext.hpp (CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED)"

#: GMMA::CLayout_64xN: (T128,V) -> (M64,N)
C_LAYOUT = "((_4,_8,_4),(_2,_2,_{N8})):((_128,_1,_16),(_64,_8,_512))"

#: GMMA::ABLayout<MN,K>: every one of the 128 threads sees the whole MNxK tile (a descriptor)
SMEM_LAYOUT = "(_128,(_{MN},_{K})):(_0,(_1,_{MN}))"

#: GMMA::ALayout_64xK, the register-sourced A operand, by K (the element width sets K)
RS_A_LAYOUTS: dict[int, str] = {
    8: "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))",                # 32-bit types
    16: "((_4,_8,_4),(_2,_2,_2)):((_128,_1,_16),(_64,_8,_512))",       # 16-bit types
    32: "((_4,_8,_4),(_4,_2,_2)):((_256,_1,_16),(_64,_8,_1024))",      # 8-bit types
    64: "((_4,_8,_4),(_8,_2,_2)):((_512,_1,_16),(_64,_8,_2048))",      # sparse 8-bit types
}

#: The N sizes of mma_traits_sm90_gmma.hpp; the others come from the _ext header.
N_BASE: tuple[int, ...] = (8, 16, 32, 64, 96, 128, 192, 256)
#: 16-bit, tf32 and fp8 families: every multiple of 8.
N_DENSE: tuple[int, ...] = tuple(range(8, 257, 8))
#: 8-bit integer families: 8, 16, 24, then every multiple of 16.
N_INT8: tuple[int, ...] = (8, 16, 24) + tuple(range(32, 257, 16))


class Family(NamedTuple):
    """One GMMA family: ``SM90_64xNx{K}_{types}_{SS|RS}{suffix}`` for N in ``ns``.

    ``majors``: the family takes ``<tnspA, tnspB, ...>`` (GMMA::Major::K or MN);
    otherwise both operands are K-major (the ``_TN`` families).
    ``scales``: it takes ``<..., scaleA, scaleB>`` (GMMA::ScaleIn::One or Neg, defaulted).
    """

    types: str          # as in the name, e.g. "F32BF16BF16"
    K: int
    value_types: str    # "D A B C"
    suffixes: tuple[str, ...]
    majors: bool
    scales: bool
    ns: tuple[int, ...]


FAMILIES: tuple[Family, ...] = (
    Family("F16F16F16", 16, "half_t half_t half_t half_t", ("",), True, True, N_DENSE),
    Family("F32F16F16", 16, "float half_t half_t float", ("",), True, True, N_DENSE),
    Family("F32BF16BF16", 16, "float bfloat16_t bfloat16_t float", ("",), True, True, N_DENSE),
    Family("F32TF32TF32", 8, "float tfloat32_t tfloat32_t float", ("_TN",), False, True, N_DENSE),
    Family("S32S8S8", 32, "int32_t int8_t int8_t int32_t", ("_TN", "_TN_SATURATE"), False, False, N_INT8),
    Family("S32S8U8", 32, "int32_t int8_t uint8_t int32_t", ("_TN", "_TN_SATURATE"), False, False, N_INT8),
    Family("S32U8S8", 32, "int32_t uint8_t int8_t int32_t", ("_TN", "_TN_SATURATE"), False, False, N_INT8),
    Family("S32U8U8", 32, "int32_t uint8_t uint8_t int32_t", ("_TN", "_TN_SATURATE"), False, False, N_INT8),
    Family("F16E4M3E4M3", 32, "half_t float_e4m3_t float_e4m3_t half_t", ("_TN",), False, True, N_DENSE),
    Family("F32E4M3E4M3", 32, "float float_e4m3_t float_e4m3_t float", ("_TN",), False, True, N_DENSE),
    Family("F16E4M3E5M2", 32, "half_t float_e4m3_t float_e5m2_t half_t", ("_TN",), False, True, N_DENSE),
    Family("F32E4M3E5M2", 32, "float float_e4m3_t float_e5m2_t float", ("_TN",), False, True, N_DENSE),
    Family("F16E5M2E4M3", 32, "half_t float_e5m2_t float_e4m3_t half_t", ("_TN",), False, True, N_DENSE),
    Family("F32E5M2E4M3", 32, "float float_e5m2_t float_e4m3_t float", ("_TN",), False, True, N_DENSE),
    Family("F16E5M2E5M2", 32, "half_t float_e5m2_t float_e5m2_t half_t", ("_TN",), False, True, N_DENSE),
    Family("F32E5M2E5M2", 32, "float float_e5m2_t float_e5m2_t float", ("_TN",), False, True, N_DENSE),
)
