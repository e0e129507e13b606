"""The hardware facts of CuTe's SM100 UMMA (``tcgen05.mma``) and SM103 ULTRA atoms: data only.

Transcribed from CuTe's ``cute/atom/mma_traits_sm100.hpp`` (the ``MMA_Traits`` of every
operation) and ``cute/arch/mma_sm100_umma.hpp`` (the operations' template parameters, their
defaults and the ``static_assert``s on M, N, majors and vector sizes). Every UMMA atom is one
thread (a 1-SM atom, ``ThrID = _1:_0``) or a CTA pair (``_2x1SM``, ``ThrID = _2:_1``) with

* ``Shape_MNK = (M, N, K)``;
* 1-SM: ``ALayout = (_1,(M,K)):(_0,(_1,M))``, ``BLayout = (_1,(N,K)):(_0,(_1,N))``,
  ``CLayout = (_1,(M,N)):(_0,(_1,M))`` (:data:`LAYOUTS_1SM`);
* 2-SM: peer ``p`` of the pair holds rows ``p*M/2 ...`` of A and C and columns ``p*N/2 ...`` of B:
  ``ALayout = (_2,(M/2,K)):(M/2,(_1,M))`` and alike (:data:`LAYOUTS_2SM`);

so one row per template (:data:`TEMPLATES`) generates them all; :mod:`.umma_names` reads
this, nothing else does. ``K`` is ``k_bits`` over the width of A's element (``k_unit``
fixes that width for the families whose K does not depend on the type: F8F6F4 counts 8-bit
containers, MXF4 4-bit ones).
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["Param", "NRule", "Template", "TEMPLATES", "LAYOUTS_1SM", "LAYOUTS_2SM", "SOURCE", "PARAMS"]

SOURCE = "cute/atom/mma_traits_sm100.hpp"

#: (ThrID, ALayout, BLayout, CLayout) of a 1-SM atom; {M}, {N}, {K} filled in by the reader
LAYOUTS_1SM = ("_1:_0", "(_1,(_{M},_{K})):(_0,(_1,_{M}))", "(_1,(_{N},_{K})):(_0,(_1,_{N}))",
               "(_1,(_{M},_{N})):(_0,(_1,_{M}))")
#: ... of a 2-SM (CTA pair) atom; {M2} = M/2, {N2} = N/2
LAYOUTS_2SM = ("_2:_1", "(_2,(_{M2},_{K})):(_{M2},(_1,_{M}))", "(_2,(_{N2},_{K})):(_{N2},(_1,_{N}))",
               "(_2,(_{M2},_{N})):(_{M2},(_1,_{M}))")


class Param(NamedTuple):
    """One template parameter: its kind (``type``, ``int``, ``major``, ``scale``, ``sat``), its name
    in CuTe's declaration, and its default (``""``: none)."""

    kind: str
    name: str
    default: str = ""


class NRule(NamedTuple):
    """N is a multiple of ``step`` in ``[lo, hi]`` ``when`` a condition holds (``""``: always;
    ``"M=64"``; ``"b_major=K"``)."""

    step: int
    lo: int
    hi: int = 256
    when: str = ""


class Template(NamedTuple):
    """One UMMA operation template and the constraints CuTe states on its arguments.

    ``params``: a key of :data:`PARAMS`; ``cta``: 1 or 2 SMs; ``k_bits``/``k_unit``: K =
    ``k_bits // (k_unit or sizeof_bits(a_type))``; ``ab_bits``: the width A and B must have
    (``-8``: at most 8); ``ms``: the allowed M; ``ns``: the N rules (one must hold); ``a_k``,
    ``b_k``: the operand must be K-major; ``c_int32``: the result type must be ``int32_t``;
    ``vs``: the allowed vector sizes, ``vs_mx`` the one that requires e2m1 operands and ue8m0
    scales; ``sf``: SFVecSize is the fixed number (or ``-1``: the VS argument);
    ``sparse``: A is 2:1 structured sparse (``sparse_elem<2,...>``; 4:1 for MXF4NVF4).
    """

    name: str
    params: str
    cta: int
    k_bits: int
    k_unit: int
    ab_bits: int
    ms: tuple[int, ...]
    ns: tuple[NRule, ...]
    a_k: bool = False
    b_k: bool = False
    c_int32: bool = False
    vs: tuple[int, ...] = ()
    vs_mx: int = 0
    sf: int = 0
    sparse: int = 0
    source: str = SOURCE


_T = (Param("type", "a_type"), Param("type", "b_type"), Param("type", "c_type"))
_SF = (Param("type", "sf_type"),)
_MN = (Param("int", "M"), Param("int", "N"))
_MAJ = (Param("major", "a_major"), Param("major", "b_major"))
_NEG = (Param("scale", "a_neg", "UMMA::ScaleIn::One"), Param("scale", "b_neg", "UMMA::ScaleIn::One"))
_SAT = (Param("sat", "c_sat", "UMMA::Saturate::False"),)

#: The template parameter lists of cute/arch/mma_sm100_umma.hpp, by shape.
PARAMS: dict[str, tuple[Param, ...]] = {
    "ss": _T + _MN + _MAJ + _NEG,
    "ts": _T + _MN + _MAJ + _NEG + _SAT,
    "ss_scaled": _T + _MN + _MAJ + (Param("int", "ScaleC"),) + _NEG,
    "ts_scaled": _T + _MN + _MAJ + (Param("int", "ScaleC"),) + _NEG + _SAT,
    "s8_ss": _T + _MN + _MAJ + _SAT,
    "interleaved": _MN + _MAJ + _NEG + _SAT,
    "mx": _T + _SF + _MN + _MAJ + _NEG,
    "mx_vs": _T + _SF + _MN + (Param("int", "VS"),) + _MAJ + _NEG,
}

_M1 = (64, 128)
_M2 = (128, 256)
_N8 = (NRule(8, 8),)                                  # a multiple of 8 in [8, 256]
_N16 = (NRule(16, 16),)
_N32 = (NRule(32, 32),)
_N_TS1 = (NRule(8, 8, when="M=64"), NRule(16, 16, when="M=128"))
_N_S8_1 = (NRule(8, 8, 8), NRule(16, 16))             # 8, or a multiple of 16 in [16, 256]
_N_F8_SS1 = (NRule(8, 8, when="b_major=K"), NRule(16, 16, when="b_major=MN"))
_N_F8_SS2 = (NRule(16, 16, when="b_major=K"), NRule(32, 32, when="b_major=MN"))

_1, _2 = 1, 2

#: Every MMA_Traits template of cute/atom/mma_traits_sm100.hpp, in the header's order.
TEMPLATES: tuple[Template, ...] = (
    # dense 32-, 16-bit
    Template("SM100_MMA_TF32_SS", "ss", _1, 256, 0, 32, _M1, _N8),
    Template("SM100_MMA_F16BF16_SS", "ss", _1, 256, 0, 16, _M1, _N8),
    Template("SM100_MMA_TF32_TS", "ts", _1, 256, 0, 32, _M1, _N_TS1, a_k=True),
    Template("SM100_MMA_F16BF16_TS", "ts", _1, 256, 0, 16, _M1, _N_TS1, a_k=True),
    Template("SM100_MMA_F16BF16_SS_SCALED", "ss_scaled", _1, 256, 0, 16, _M1, _N8),
    Template("SM100_MMA_TF32_TS_SCALED", "ts_scaled", _1, 256, 0, 32, _M1, _N_TS1, a_k=True),
    Template("SM100_MMA_F16BF16_TS_SCALED", "ts_scaled", _1, 256, 0, 16, _M1, _N_TS1, a_k=True),
    Template("SM100_MMA_TF32_SS_SPARSE", "ss", _1, 512, 0, 32, _M1, _N8, sparse=2),
    Template("SM100_MMA_F16BF16_SS_SPARSE", "ss", _1, 512, 0, 16, _M1, _N8, sparse=2),
    Template("SM100_MMA_TF32_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN", "interleaved", _1, 256, 64, 0, _M1, _N_TS1,
             a_k=True, b_k=True),
    Template("SM100_MMA_TF32_2x1SM_SS", "ss", _2, 256, 0, 32, _M2, _N16),
    Template("SM100_MMA_F16BF16_2x1SM_SS", "ss", _2, 256, 0, 16, _M2, _N16),
    Template("SM100_MMA_TF32_2x1SM_TS", "ts", _2, 256, 0, 32, _M2, _N32, a_k=True),
    Template("SM100_MMA_F16BF16_2x1SM_TS", "ts", _2, 256, 0, 16, _M2, _N32, a_k=True),
    Template("SM100_MMA_F16BF16_2x1SM_SS_SCALED", "ss_scaled", _2, 256, 0, 16, _M2, _N16),
    Template("SM100_MMA_TF32_2x1SM_TS_SCALED", "ts_scaled", _2, 256, 0, 32, _M2, _N32, a_k=True),
    Template("SM100_MMA_F16BF16_2x1SM_TS_SCALED", "ts_scaled", _2, 256, 0, 16, _M2, _N32, a_k=True),
    Template("SM100_MMA_TF32_2x1SM_SS_SPARSE", "ss", _2, 512, 0, 32, _M2, _N16, sparse=2),
    Template("SM100_MMA_F16BF16_2x1SM_SS_SPARSE", "ss", _2, 512, 0, 16, _M2, _N16, sparse=2),
    Template("SM100_MMA_TF32_2x1SM_TS_INTERLEAVED_CF32CTF32CTF32CF32_TN", "interleaved", _2, 256, 64, 0, _M2, _N32,
             a_k=True, b_k=True),
    # 8-bit integers
    Template("SM100_MMA_S8_SS", "s8_ss", _1, 256, 0, 8, _M1, _N_S8_1, c_int32=True),
    Template("SM100_MMA_S8_TS", "ts", _1, 256, 0, 8, _M1, _N_S8_1, a_k=True),
    Template("SM100_MMA_S8_SS_SPARSE", "s8_ss", _1, 512, 0, 8, _M1, _N_S8_1, c_int32=True, sparse=2),
    Template("SM100_MMA_S8_2x1SM_SS", "s8_ss", _2, 256, 0, 8, _M2, _N32),
    Template("SM100_MMA_S8_2x1SM_TS", "ts", _2, 256, 0, 8, _M2, _N32, a_k=True),
    Template("SM100_MMA_S8_2x1SM_SS_SPARSE", "s8_ss", _2, 512, 0, 8, _M2, _N32, sparse=2),
    # 8-, 6-, 4-bit floats in 8-bit containers; MX: block-scaled, 32 values a scale
    Template("SM100_MMA_F8F6F4_SS", "ss", _1, 256, 8, -8, _M1, _N_F8_SS1),
    Template("SM100_MMA_MXF8F6F4_SS", "mx", _1, 256, 8, -8, (128,), _N8, sf=32),
    Template("SM100_MMA_MXF8F6F4_SS_SPARSE", "mx", _1, 512, 8, -8, (128,), _N8, sf=64, sparse=2),
    Template("SM100_MMA_F8F6F4_TS", "ts", _1, 256, 8, -8, _M1, _N_TS1, a_k=True),
    Template("SM100_MMA_F8F6F4_SS_SPARSE", "ss", _1, 512, 8, -8, _M1, _N_TS1, sparse=2),
    Template("SM100_MMA_F8F6F4_2x1SM_SS", "ss", _2, 256, 8, -8, _M2, _N_F8_SS2),
    Template("SM100_MMA_F8F6F4_2x1SM_TS", "ts", _2, 256, 8, -8, _M2, _N32, a_k=True),
    Template("SM100_MMA_F8F6F4_2x1SM_SS_SPARSE", "ss", _2, 512, 8, -8, _M2, _N32, sparse=2),
    Template("SM100_MMA_MXF8F6F4_2x1SM_SS", "mx", _2, 256, 8, -8, (256,), _N16, sf=32),
    Template("SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE", "mx", _2, 512, 8, -8, (256,), _N16, sf=64, sparse=2),
    # 4-bit floats, block-scaled by VS values (MXF4: ue8m0 scales, NVF4: ue4m3)
    Template("SM100_MMA_MXF4_SS", "mx_vs", _1, 256, 4, 4, (128,), _N8, vs=(16, 32), vs_mx=32, sf=-1),
    Template("SM100_MMA_MXF4NVF4_SS_SPARSE", "mx_vs", _1, 512, 4, 4, (128,), _N8, vs=(32, 64), vs_mx=64, sf=-1,
             sparse=4),
    Template("SM100_MMA_MXF4_2x1SM_SS", "mx_vs", _2, 256, 4, 4, _M2, _N16, vs=(16, 32), sf=-1),
    # CuTe states no M for this one; the 2-SM instruction's M is 128 or 256
    Template("SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE", "mx_vs", _2, 512, 4, 4, _M2, _N16, vs=(32, 64), vs_mx=64, sf=-1,
             sparse=4),
    # SM103: 96 4-bit values of K at a time (CuTe's SM103 namespace)
    Template("SM103_MXF4_ULTRA_SS_VS", "mx_vs", _1, 384, 4, 0, (128,), _N16, a_k=True, b_k=True, vs=(16, 32),
             vs_mx=32, sf=-1),
    Template("SM103_MXF4_ULTRA_2x1SM_SS_VS", "mx_vs", _2, 384, 4, 0, _M2, _N16, a_k=True, b_k=True, vs=(16, 32),
             vs_mx=32, sf=-1),
)
