"""Which CuTe C++ atom each CuTe DSL op is: data, read both ways by :mod:`cute_sym.dsl.atoms`
(and by the DSL code generator, :mod:`cute_sym.codegen.emit_dsl`).

An MMA entry is (DSL module, op class, CuTe name template, constructor arguments). The
template's fields are ``{M}``, ``{N}``, ``{K}`` (the instruction shape), ``{acc}``, ``{a}``,
``{b}``, ``{ab}`` (element codes of :data:`CODES`), ``{ta}``, ``{tb}``, ``{tacc}`` (C++ element
types), ``{tsf}`` (a block-scaled MMA's scale-factor type, :data:`SF_TYPES`), ``{cta}`` (``_2x1SM`` for two CTAs, else empty), ``{src}`` (``SS``/``RS``/``TS``)
and ``{am}``, ``{bm}`` (``K``/``MN``); a field that appears twice names one value. The constructor list says
which DSL argument each field (or the shape tuple ``MNK``, or an enum) fills, in order; ``K``
is the K-major operand mode, the only one of CuTe's ``_TN`` atoms (an op of another major has
no CuTe atom: :func:`~cute_sym.dsl.dsl_atom_name` refuses it).

The facts: PTX's ``mma.sync.m16n8k16.row.col.f32.f16.f16.f32`` is the DSL's
``warp.MmaF16BF16Op(Float16, Float32, (16,8,16))`` and CuTe's ``SM80_16x8x16_F32F16F16F32_TN``;
``wgmma.mma_async`` of CuTe's ``SM90_64xNxK_...`` is the DSL's ``warpgroup`` op of that shape,
operand source and majors; ``tcgen05.mma`` is CuTe's ``SM100_MMA_*`` of the same types, shape
(M of the CTA pair for ``_2x1SM``), CTA group, A source and majors (the DSL's ``MmaFP8Op`` and
``MmaMXF8Op`` are its older names of ``F8F6F4``/``MXF8F6F4`` with A and B of one type; its
``MmaMXF4Op``/``MmaMXF4NVF4Op`` are CuTe's ``SM100_MMA_MXF4`` with vector size 32 / 16).
``tcgen05.ld``/``st`` are CuTe's ``SM100_TMEM_LOAD_*``/``SM100_TMEM_STORE_*``: the DSL's
``Ld<dp>x<b>bOp(Repetition.x<r>, Pack.PACK_16b_IN_32b)`` is ``SM100_TMEM_LOAD_<dp>dp<b>b<r>x_16b``
(``Ld16x32bx2Op`` is ``16dp32b``; a store's ``Unpack.UNPACK_32b_IN_16b`` is ``_16b`` too).
"""
from __future__ import annotations

import re

__all__ = ["CODES", "MMA_OPS", "COPY_OPS", "DSL_TYPES", "SF_TYPES", "template_regex"]

#: DSL numeric type names and CuTe C++ element type names, one to one.
DSL_TYPES: dict[str, str] = {
    "Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float", "TFloat32": "tfloat32_t",
    "Float64": "double", "Int8": "int8_t", "Uint8": "uint8_t", "Int16": "int16_t", "Uint16": "uint16_t",
    "Int32": "int32_t", "Uint32": "uint32_t", "Int64": "int64_t", "Uint64": "uint64_t",
    "Float8E4M3FN": "float_e4m3_t", "Float8E5M2": "float_e5m2_t", "Int4": "int4_t", "Uint4": "uint4_t",
    "Float6E2M3FN": "float_e2m3_t", "Float6E3M2FN": "float_e3m2_t", "Float4E2M1FN": "float_e2m1_t",
    "Float8E8M0FNU": "float_ue8m0_t",
}

#: DSL numeric type name of a block-scaled MMA's scale factor -> CuTe's (the DSL's ``Float8E4M3FN``
#: scale is unsigned in C++, ``float_ue4m3_t``).
SF_TYPES: dict[str, str] = {"Float8E8M0FNU": "float_ue8m0_t", "Float8E4M3FN": "float_ue4m3_t"}

#: DSL numeric type name -> the element code in CuTe's atom names.
CODES: dict[str, str] = {
    "Float16": "F16", "BFloat16": "BF16", "Float32": "F32", "TFloat32": "TF32", "Float64": "F64",
    "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2", "Int8": "S8", "Uint8": "U8", "Int32": "S32",
}

_UMMA = ("cta", "src", "am", "bm")
# the template arguments of CuTe's SM100_MMA_* (cute/arch/mma_sm100_umma.hpp), in its order; a
# type or vector size the DSL's op fixes is written out, so a CuTe name matches one op only
_MAJ = "{M}, {N}, UMMA::Major::{am}, UMMA::Major::{bm}>"
_F4 = "<float_e2m1_t, float_e2m1_t, float, "

#: (module, class) -> (CuTe template, constructor arguments by field)
MMA_OPS: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    ("warp", "MmaF16BF16Op"): ("SM80_{M}x{N}x{K}_{acc}{ab}{ab}{acc}_TN", ("ab", "acc", "MNK")),
    ("warp", "MmaTF32Op"): ("SM80_{M}x{N}x{K}_F32TF32TF32F32_TN", ("MNK",)),
    ("warp", "MmaFP8Op"): ("SM89_{M}x{N}x{K}_{acc}{ab}{ab}{acc}_TN", ("ab", "acc", "MNK")),
    ("warpgroup", "MmaF16BF16Op"): ("SM90_{M}x{N}x{K}_{acc}{ab}{ab}_{src}<Major::{am},Major::{bm}>",
                                    ("ab", "acc", "MNK", "src", "am", "bm")),
    ("warpgroup", "MmaF8Op"): ("SM90_{M}x{N}x{K}_{acc}{a}{b}_{src}_TN", ("a", "b", "acc", "MNK", "src", "K", "K")),
    ("warpgroup", "MmaI8Op"): ("SM90_{M}x{N}x{K}_{acc}{a}{b}_{src}_TN", ("a", "b", "acc", "MNK", "src", "K", "K")),
    ("tcgen05", "MmaF16BF16Op"): ("SM100_MMA_F16BF16{cta}_{src}<{ta}, {ta}, {tacc}, " + _MAJ,
                                  ("ta", "tacc", "MNK", "cta", "src", "am", "bm")),
    ("tcgen05", "MmaTF32Op"): ("SM100_MMA_TF32{cta}_{src}<tfloat32_t, tfloat32_t, float, " + _MAJ, ("MNK",) + _UMMA),
    ("tcgen05", "MmaI8Op"): ("SM100_MMA_S8{cta}_{src}<{ta}, {ta}, int32_t, " + _MAJ, ("ta", "MNK") + _UMMA),
    ("tcgen05", "MmaF8F6F4Op"): ("SM100_MMA_F8F6F4{cta}_{src}<{ta}, {tb}, {tacc}, " + _MAJ, ("ta", "tb", "tacc", "MNK") + _UMMA),
    ("tcgen05", "MmaFP8Op"): ("SM100_MMA_F8F6F4{cta}_{src}<{ta}, {ta}, {tacc}, " + _MAJ, ("ta", "tacc", "MNK") + _UMMA),
    ("tcgen05", "MmaMXF8F6F4Op"): ("SM100_MMA_MXF8F6F4{cta}_{src}<{ta}, {tb}, float, float_ue8m0_t, " + _MAJ, ("ta", "tb", "MNK") + _UMMA),
    ("tcgen05", "MmaMXF8Op"): ("SM100_MMA_MXF8F6F4{cta}_{src}<{ta}, {ta}, float, float_ue8m0_t, " + _MAJ, ("ta", "MNK") + _UMMA),
    ("tcgen05", "MmaMXF4Op"): ("SM100_MMA_MXF4{cta}_{src}" + _F4 + "float_ue8m0_t, {M}, {N}, 32, UMMA::Major::K, UMMA::Major::K>",
                               ("MNK", "cta", "src")),
    ("tcgen05", "MmaMXF4NVF4Op"): ("SM100_MMA_MXF4{cta}_{src}" + _F4 + "{tsf}, {M}, {N}, 16, UMMA::Major::K, UMMA::Major::K>",
                                   ("tsf", "MNK", "cta", "src")),
}

#: (module, class) -> CuTe template of the copy operation; fields ``{bits}`` (the atom's bits per
#: copy), ``{n}`` (matrices), ``{n2}``, ``{n4}`` (twice, four times that), ``{mode}`` (cp.async's
#: cache mode). The 8-bit ``ldmatrix``/``stmatrix`` of SM100 (``LdMatrix16x8x8bOp`` and
#: ``StMatrix16x8x8bOp``, transposed only) are CuTe's ``SM100_U8x{4n}_LDSM_T``/``_STSM_T``.
COPY_OPS: dict[tuple[str, str, str], str] = {
    ("nvgpu", "CopyUniversalOp", ""): "UniversalCopy<uint{bits}_t>",
    ("cpasync", "CopyG2SOp", ""): "SM80_CP_ASYNC_CACHE{mode}<uint{bits}_t>",
    ("warp", "LdMatrix8x8x16bOp", "N"): "SM75_U32x{n}_LDSM_N",
    ("warp", "LdMatrix8x8x16bOp", "T"): "SM75_U16x{n2}_LDSM_T",
    ("warp", "StMatrix8x8x16bOp", "N"): "SM90_U32x{n}_STSM_N",
    ("warp", "StMatrix8x8x16bOp", "T"): "SM90_U16x{n2}_STSM_T",
    ("warp", "LdMatrix16x8x8bOp", "T"): "SM100_U8x{n4}_LDSM_T",
    ("warp", "StMatrix16x8x8bOp", "T"): "SM100_U8x{n4}_STSM_T",
    ("tcgen05", "Ld32x32bOp", ""): "SM100_TMEM_LOAD_32dp32b{r}x{pk}",
    ("tcgen05", "Ld16x64bOp", ""): "SM100_TMEM_LOAD_16dp64b{r}x{pk}",
    ("tcgen05", "Ld16x128bOp", ""): "SM100_TMEM_LOAD_16dp128b{r}x{pk}",
    ("tcgen05", "Ld16x256bOp", ""): "SM100_TMEM_LOAD_16dp256b{r}x{pk}",
    ("tcgen05", "Ld16x32bx2Op", ""): "SM100_TMEM_LOAD_16dp32b{r}x{pk}",
    ("tcgen05", "St32x32bOp", ""): "SM100_TMEM_STORE_32dp32b{r}x{pk}",
    ("tcgen05", "St16x64bOp", ""): "SM100_TMEM_STORE_16dp64b{r}x{pk}",
    ("tcgen05", "St16x128bOp", ""): "SM100_TMEM_STORE_16dp128b{r}x{pk}",
    ("tcgen05", "St16x256bOp", ""): "SM100_TMEM_STORE_16dp256b{r}x{pk}",
    ("tcgen05", "St16x32bx2Op", ""): "SM100_TMEM_STORE_16dp32b{r}x{pk}",
}


def _field_pattern(field: str) -> str:
    if field in ("M", "N", "K", "n", "n2", "n4", "bits", "r"):
        return r"\d+"
    if field in ("a", "b", "ab", "acc"):
        return "|".join(sorted(CODES.values(), key=len, reverse=True))
    if field == "cta":
        return "_2x1SM|"
    if field == "pk":
        return "_16b|"
    if field == "src":
        return "SS|RS|TS"
    if field in ("am", "bm"):
        return "K|MN"
    return "[A-Za-z0-9_]+"


def template_regex(template: str) -> "re.Pattern[str]":
    """The names a template of :data:`MMA_OPS` / :data:`COPY_OPS` makes, as a pattern whose
    groups are its fields (a field named twice must be the same text twice).

    >>> template_regex(MMA_OPS[("warp", "MmaF16BF16Op")][0]).fullmatch("SM80_16x8x16_F32BF16BF16F32_TN").groupdict()
    {'M': '16', 'N': '8', 'K': '16', 'acc': 'F32', 'ab': 'BF16'}
    """
    out, seen, pos = [], set(), 0
    for m in re.finditer(r"\{(\w+)\}", template):
        out.append(re.escape(template[pos:m.start()]))
        f = m.group(1)
        out.append(f"(?P={f})" if f in seen else f"(?P<{f}>{_field_pattern(f)})")
        seen.add(f)
        pos = m.end()
    out.append(re.escape(template[pos:]))
    return re.compile("".join(out))
