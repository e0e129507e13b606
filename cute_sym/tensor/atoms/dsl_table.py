"""Which CuTe C++ atom each CuTe DSL op is: data, read both ways by :mod:`cute_sym.dsl.atoms`
(and by the DSL code generator, :mod:`cute_sym.codegen.emit_dsl`).

An MMA entry is (DSL module, op class, CuTe name template, constructor arguments). The
template's fields are ``{M}``, ``{N}``, ``{K}`` (the instruction shape), ``{acc}``, ``{a}``,
``{b}``, ``{ab}`` (element codes of :data:`CODES`), ``{ta}``, ``{tb}``, ``{tacc}`` (C++ element
types), ``{cta}`` (``_2x1SM`` for two CTAs), ``{src}`` (``SS``/``RS``) and ``{am}``,
``{bm}`` (``K``/``MN``); a field that appears twice names one value. The constructor list says
which DSL argument each field (or the shape tuple ``MNK``, or an enum) fills, in order; ``K``
is the K-major operand mode, the only one of CuTe's ``_TN`` atoms (an op of another major has
no CuTe atom: :func:`~cute_sym.dsl.dsl_atom_name` refuses it).

The facts: PTX's ``mma.sync.m16n8k16.row.col.f32.f16.f16.f32`` is the DSL's
``warp.MmaF16BF16Op(Float16, Float32, (16,8,16))`` and CuTe's ``SM80_16x8x16_F32F16F16F32_TN``;
``wgmma.mma_async`` of CuTe's ``SM90_64xNxK_...`` is the DSL's ``warpgroup`` op of that shape,
operand source and majors; ``tcgen05.mma`` is CuTe's ``SM100_MMA_*`` (cute_sym has no SM100
MMA atoms: those ops are named, not converted).
"""
from __future__ import annotations

import re

__all__ = ["CODES", "MMA_OPS", "COPY_OPS", "DSL_TYPES", "template_regex"]

#: DSL numeric type names and CuTe C++ element type names, one to one.
DSL_TYPES: dict[str, str] = {
    "Float16": "half_t", "BFloat16": "bfloat16_t", "Float32": "float", "TFloat32": "tfloat32_t",
    "Float64": "double", "Int8": "int8_t", "Uint8": "uint8_t", "Int16": "int16_t", "Uint16": "uint16_t",
    "Int32": "int32_t", "Uint32": "uint32_t", "Int64": "int64_t", "Uint64": "uint64_t",
    "Float8E4M3FN": "float_e4m3_t", "Float8E5M2": "float_e5m2_t", "Int4": "int4_t", "Uint4": "uint4_t",
}

#: DSL numeric type name -> the element code in CuTe's atom names.
CODES: dict[str, str] = {
    "Float16": "F16", "BFloat16": "BF16", "Float32": "F32", "TFloat32": "TF32", "Float64": "F64",
    "Float8E4M3FN": "E4M3", "Float8E5M2": "E5M2", "Int8": "S8", "Uint8": "U8", "Int32": "S32",
}

#: (module, class) -> (CuTe template, constructor arguments by field)
MMA_OPS: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    ("warp", "MmaF16BF16Op"): ("SM80_{M}x{N}x{K}_{acc}{ab}{ab}{acc}_TN", ("ab", "acc", "MNK")),
    ("warp", "MmaTF32Op"): ("SM80_{M}x{N}x{K}_F32TF32TF32F32_TN", ("MNK",)),
    ("warp", "MmaFP8Op"): ("SM89_{M}x{N}x{K}_{acc}{ab}{ab}{acc}_TN", ("ab", "acc", "MNK")),
    ("warpgroup", "MmaF16BF16Op"): ("SM90_{M}x{N}x{K}_{acc}{ab}{ab}_{src}<Major::{am},Major::{bm}>",
                                    ("ab", "acc", "MNK", "src", "am", "bm")),
    ("warpgroup", "MmaF8Op"): ("SM90_{M}x{N}x{K}_{acc}{a}{b}_{src}_TN", ("a", "b", "acc", "MNK", "src", "K", "K")),
    ("warpgroup", "MmaI8Op"): ("SM90_{M}x{N}x{K}_{acc}{a}{b}_{src}_TN", ("a", "b", "acc", "MNK", "src", "K", "K")),
    ("tcgen05", "MmaF16BF16Op"): ("SM100_MMA_F16BF16{cta}_{src}<{ta},{tb},{tacc},{M},{N},UMMA::Major::{am},UMMA::Major::{bm}>",
                                  ("ab", "acc", "MNK", "cta", "src", "am", "bm")),
    ("tcgen05", "MmaTF32Op"): ("SM100_MMA_TF32{cta}_{src}<{ta},{tb},{tacc},{M},{N},UMMA::Major::{am},UMMA::Major::{bm}>",
                               ("MNK", "cta", "src", "am", "bm")),
    ("tcgen05", "MmaI8Op"): ("SM100_MMA_S8{cta}_{src}<{ta},{tb},{tacc},{M},{N},UMMA::Major::{am},UMMA::Major::{bm}>",
                             ("ab", "MNK", "cta", "src", "am", "bm")),
    ("tcgen05", "MmaFP8Op"): ("SM100_MMA_F8F6F4{cta}_{src}<{ta},{tb},{tacc},{M},{N},UMMA::Major::{am},UMMA::Major::{bm}>",
                              ("ab", "acc", "MNK", "cta", "src", "am", "bm")),
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
}


def _field_pattern(field: str) -> str:
    if field in ("M", "N", "K", "n", "n2", "n4", "bits"):
        return r"\d+"
    if field in ("a", "b", "ab", "acc"):
        return "|".join(sorted(CODES.values(), key=len, reverse=True))
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
