"""The readers of the templated MMA atoms: SM100 UMMA and SM103 (:mod:`.umma_data`), SM120
(:mod:`.sm120_data`) and SM90 sparse GMMA (:mod:`.gmma_data`'s families at twice the K).

A name is the C++ type as a user writes it, template arguments included; blanks and the
``cute::``/``cutlass::``/``UMMA::``/``GMMA::``/``SM90::`` qualifications do not matter, a
defaulted argument may be left out, and the namespaces of a template (``SM103::``,
``SM120::BLOCKSCALED::``) may be. Every constraint CuTe states on the arguments (in the
operation's or the traits' ``static_assert``s, or by having no specialization) is checked, and
a :class:`LayoutError` quotes the one violated.

>>> e = template_entry("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 256, UMMA::Major::K, UMMA::Major::K>")
>>> e.mnk, e.thr, e.a
('(_128,_256,_16)', '_1:_0', '(_1,(_128,_16)):(_0,(_1,_128))')
>>> template_entry("SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128,Major::K,Major::MN>").c
'(_2,(_128,_128)):(_128,(_1,_256))'
>>> template_entry("SM100_MMA_F16BF16_SS<half_t, half_t, float, 96, 256, UMMA::Major::K, UMMA::Major::K>")
Traceback (most recent call last):
...
cute_sym.LayoutError: SM100_MMA_F16BF16_SS<half_t, half_t, float, 96, 256, UMMA::Major::K, UMMA::Major::K>: M-mode size should be 64 or 128 for 1 CTA cluster MMA (M = 96)
"""
from __future__ import annotations

import re
from typing import Optional

from ...core.errors import LayoutError
from . import gmma_data as G
from . import sm120_data as S
from .copy_types import sizeof_bits as element_bits
from .mma_entry import Entry, split_template, strip_ns
from .umma_data import LAYOUTS_1SM, LAYOUTS_2SM, PARAMS, NRule, Param, Template, TEMPLATES

__all__ = ["template_entry", "template_heads", "umma_atom_names", "sm120_atom_names", "sparse_gmma_names"]

_ENUMS = {
    "major": ("Major::K", "Major::MN"),
    "scale": ("ScaleIn::One", "ScaleIn::Neg"),
    "sat": ("Saturate::False", "Saturate::True"),
    "spsel": ("SparseSel::Zero", "SparseSel::One"),
}
_UMMA = {t.name: t for t in TEMPLATES}
_SM120 = {t.name.rpartition("::")[2]: t for t in S.TEMPLATES}
_SPARSE_GMMA = re.compile(r"GMMA_64x(\d+)x(\d+)_([A-Z0-9]+)_(SS|RS)(_TN(?:_SATURATE)?)?")
_FP4 = ("float_e2m1_t", "type_erased_dynamic_float4_t")


def template_heads() -> tuple[str, ...]:
    """The templates this module reads, as CuTe spells them (with their namespaces)."""
    umma = tuple(("SM103::" if t.name.startswith("SM103") else "") + t.name for t in TEMPLATES)
    return umma + tuple(t.name for t in S.TEMPLATES) + ("SM90::GMMA::SPARSE::GMMA_64xNxK_<types>_<SS|RS>",)


def _bind(where: str, params: tuple[Param, ...], args: tuple[str, ...], ns: str) -> tuple[dict[str, str], str]:
    """The arguments by parameter name (defaults filled in, each checked for its kind) and their
    canonical text (CuTe's spelling, trailing defaulted arguments left out)."""
    sig = ", ".join(p.name + (f" = {p.default}" if p.default else "") for p in params)
    if len(args) > len(params):
        raise LayoutError(f"{where}: too many template arguments ({len(args)}); the template is <{sig}>")
    vals: dict[str, str] = {}
    shown: list[tuple[str, bool]] = []
    for i, p in enumerate(params):
        if i < len(args):
            a, default = args[i], False
        elif p.default:
            a, default = strip_ns(p.default), True
        else:
            raise LayoutError(f"{where}: template argument {p.name} is missing; the template is <{sig}>")
        if p.kind == "type":
            element_bits(a)                     # a known element type, else CuTe's name of the problem
            text = a
        elif p.kind == "int":
            if not re.fullmatch(r"\d+", a):
                raise LayoutError(f"{where}: template argument {p.name} is an integer, got {a!r}")
            a = str(int(a))
            text = a
        else:
            if a not in _ENUMS[p.kind]:
                raise LayoutError(f"{where}: template argument {p.name} is one of "
                                  f"{', '.join(ns + e for e in _ENUMS[p.kind])}, got {a!r}")
            text = ns + a
        vals[p.name] = a
        shown.append((text, default or a == strip_ns(p.default)))
    while shown and shown[-1][1]:
        shown.pop()
    return vals, ", ".join(t for t, _ in shown)


def _need(ok: bool, where: str, message: str) -> None:
    if not ok:
        raise LayoutError(f"{where}: {message}")


def _n_ok(rules: tuple[NRule, ...], n: int, m: int, b_major: str) -> bool:
    for r in rules:
        if r.when == "M=64" and m != 64 or r.when == "M=128" and m != 128:
            continue
        if r.when.startswith("b_major=") and b_major != "Major::" + r.when.partition("=")[2]:
            continue
        if n % r.step == 0 and r.lo <= n <= r.hi:
            return True
    return False


def _n_text(rules: tuple[NRule, ...]) -> str:
    parts = []
    for r in rules:
        what = str(r.lo) if r.lo == r.hi else f"a multiple of {r.step} between {r.lo} and {r.hi}"
        parts.append(what + (f" when {r.when.replace('=', ' is ')}" if r.when else ""))
    return "N-mode size should be " + ", or ".join(parts)


def _umma(t: Template, args: tuple[str, ...]) -> Entry:
    prefix = "SM103::" if t.name.startswith("SM103") else ""
    vals, text = _bind(t.name, PARAMS[t.params], args, "UMMA::")
    where = f"{prefix}{t.name}<{text}>"
    if t.params == "interleaved":
        a = b = "complex<tfloat32_t>"
        c = "float"
    else:
        a, b, c = vals["a_type"], vals["b_type"], vals["c_type"]
    ba, bb = element_bits(a), element_bits(b)
    m, n = int(vals["M"]), int(vals["N"])
    cplx = t.params.endswith("scaled") and a.startswith("complex<") and b == a and c == "float"
    if cplx:        # CuTe's specialization for interleaved complex (emulated)
        _need(element_bits(a[len("complex<"):-1]) == 16, where, "Only supports 16bit base types")
    elif t.ab_bits > 0:
        _need(ba == bb == t.ab_bits, where, f"{t.name} supports {t.ab_bits}bit types ({a}, {b})")
    elif t.ab_bits < 0:
        _need(ba <= 8 and bb <= 8, where, f"{t.name} supports types with leq 8bit types ({a}, {b})")
    _need(not t.c_int32 or c == "int32_t", where, f"{t.name} result type can only be int32_t.")
    ms = " or ".join(str(x) for x in t.ms)
    _need(m in t.ms, where, f"M-mode size should be {ms} for {t.cta} CTA cluster MMA (M = {m})")
    _need(_n_ok(t.ns, n, m, vals["b_major"]), where, f"{_n_text(t.ns)} (N = {n})")
    transpose = "This MMA does not support transpose" if prefix else ""
    _need(not t.a_k or vals["a_major"] == "Major::K", where, transpose or "A from TMEM can't be transposed")
    _need(not t.b_k or vals["b_major"] == "Major::K", where, transpose or "B from SMEM requires non-transpose")
    vs = int(vals.get("VS", "0"))
    sf = vals.get("sf_type", "")
    if t.vs:
        _need(vs in t.vs, where, f"Vector size can only be {' or '.join(map(str, t.vs))} (VS = {vs})")
        _need(vs != t.vs_mx or (a in _FP4 and b in _FP4 and sf == "float_ue8m0_t"), where,
              f"VS = {vs} only supports a_type and b_type float_e2m1_t and sf_type float_ue8m0_t")
    k = t.k_bits // (t.k_unit or ba)
    val_a = a if not t.sparse else (f"sparse_elem<2,{a}>" if t.sparse == 2 else "sparse_elem<4,uint8_t>")
    sm = f"{t.cta}sm"
    ts = "_TS" in t.name
    desc = "UMMA::sparse_smem_desc" if t.sparse else "UMMA::smem_desc"
    frg_a = (f"UMMA::tmem_frg_{sm}<{a}, {a}, UMMA::TmemAllocMode::"
             f"{'NonInterleaved' if t.cta == 1 else 'Duplicated'}>") if ts else f"{desc}<UMMA::{vals['a_major']}>"
    frg_c = f"UMMA::tmem_frg_{sm}<{c}" + (", int32_t, UMMA::TmemAllocMode::NonInterleaved>" if ts and t.cta == 1
                                          else ">")
    lay = LAYOUTS_1SM if t.cta == 1 else LAYOUTS_2SM
    f = {"M": m, "N": n, "K": k, "M2": m // 2, "N2": n // 2}
    return Entry(where, (c, val_a, b, c), (frg_a, f"UMMA::smem_desc<UMMA::{vals['b_major']}>", frg_c),
                 f"(_{m},_{n},_{k})", lay[0], lay[1].format(**f), lay[2].format(**f), lay[3].format(**f), t.source,
                 sf_vec=(t.sf if t.sf > 0 else vs) if t.sf else 0, sf_type=sf)


def _sm120(t: S.Sm120Template, args: tuple[str, ...]) -> Entry:
    params: tuple[Param, ...] = (Param("type", "a_type"), Param("type", "b_type"), Param("type", "c_type"))
    if t.vs:
        params += (Param("type", "sf_type"), Param("int", "VS"))
    vals, text = _bind(t.name, params, args, "")
    where = f"{t.name}<{text}>"
    a, b, c = vals["a_type"], vals["b_type"], vals["c_type"]
    match = (a, b) in t.ab and c in t.cs
    sf, vs = vals.get("sf_type", ""), int(vals.get("VS", "0"))
    allowed = dict(t.vs)
    if t.vs:
        match = match and sf in allowed
    _need(match, where, f"No MMA matches {t.name.rpartition('::')[2]} for given data types.")
    if t.vs:
        _need(vs in allowed[sf], where, f"Scaling factor vector size has to be "
                                        f"{' or '.join(map(str, allowed[sf]))} (VS = {vs})")
    va, vb = (v.format(a=a) for v in t.val_ab)
    return Entry(where, (c, va, vb, c), (va if not t.sparse else va.replace(a, "uint8_t"), vb, c),
                 f"(_16,_8,_{t.K})", "_32:_1", t.a, t.b, S.C_LAYOUT, t.source, sf_vec=vs,
                 sfa=S.SFA_LAYOUT.format(K=t.K) if t.vs else "", sfb=S.SFB_LAYOUT.format(K=t.K) if t.vs else "",
                 sf_type=sf)


def _sparse_gmma(m: "re.Match[str]", args: tuple[str, ...]) -> Optional[Entry]:
    N, K, types, ss, suffix = int(m[1]), int(m[2]), m[3], m[4], m[5] or ""
    fam = next((f for f in G.FAMILIES if f.types == types and 2 * f.K == K and suffix in f.suffixes), None)
    if fam is None or N not in fam.ns:
        return None
    base = f"GMMA_64x{N}x{K}_{types}_{ss}{suffix}"
    params: tuple[Param, ...] = ()
    if fam.majors:
        params += (Param("major", "tnspA"), Param("major", "tnspB"))
    if fam.scales:
        params += (Param("scale", "scaleA", "GMMA::ScaleIn::One"), Param("scale", "scaleB", "GMMA::ScaleIn::One"))
    params += (Param("spsel", "spsel", "GMMA::SparseSel::Zero"),)
    vals, text = _bind(base, params, args, "GMMA::")
    where = f"SM90::GMMA::SPARSE::{base}<{text}>"
    ta, tb = vals.get("tnspA", "Major::K"), vals.get("tnspB", "Major::K")
    _need(ss == "SS" or ta == "Major::K", where, "Register source operand A must have K major layout.")
    d, a, b, c = fam.value_types.split()
    sa = f"sparse_elem<2,{a}>"
    frg_a = f"GMMA::smem_desc<GMMA::{ta}>" if ss == "SS" else sa
    return Entry(where, (d, sa, b, c), (frg_a, f"GMMA::smem_desc<GMMA::{tb}>", c), f"(_64,_{N},_{K})", "_128:_1",
                 G.SMEM_LAYOUT.format(MN=64, K=K) if ss == "SS" else G.RS_A_LAYOUTS[K],
                 G.SMEM_LAYOUT.format(MN=N, K=K), G.C_LAYOUT.format(N8=N // 8),
                 G.SPARSE_SOURCE if N in G.N_BASE else G.SPARSE_SOURCE_EXT)


def template_entry(name: str) -> Optional[Entry]:
    """The facts of the templated atom ``name``, or None when its template is none of these.

    @pre the template's arguments meet CuTe's constraints, else :class:`LayoutError` naming the
         violated one (CuTe's message).
    @post ``Entry.name`` is CuTe's spelling: namespaces of the template, ``", "`` between
          arguments, enums qualified (``UMMA::Major::K``), trailing defaulted arguments left out.
    """
    head, args = split_template(name)
    last = head.rpartition("::")[2]
    t = _UMMA.get(last)
    if t is not None:
        return _umma(t, args)
    s = _SM120.get(last)
    if s is not None:
        return _sm120(s, args)
    m = _SPARSE_GMMA.fullmatch(last)
    if m is not None:
        return _sparse_gmma(m, args)
    return None


# ---------------------------------------------------------------- the atoms, spelled out
_TYPES = {32: ("tfloat32_t", "tfloat32_t", "float"), 16: ("half_t", "half_t", "float"),
          8: ("int8_t", "int8_t", "int32_t"), -8: ("float_e4m3_t", "float_e2m1_t", "float"),
          4: ("float_e2m1_t", "float_e2m1_t", "float"), 0: ("float_e2m1_t", "float_e2m1_t", "float")}


def _n_values(t: Template, m: int, b_major: str) -> list[int]:
    return [n for n in range(8, 257, 8) if _n_ok(t.ns, n, m, b_major)]


def umma_atom_names() -> tuple[str, ...]:
    """Every SM100/SM103 UMMA atom at every M and N CuTe allows, for one pair of element types a
    template (tf32, half_t, int8_t, e4m3 x e2m1, e2m1; bf16 and the others alike by the same
    rule), both majors K and, where the template allows, both MN; every vector size.

    >>> names = umma_atom_names()
    >>> len(names), names[0]
    (2666, 'SM100_MMA_TF32_SS<tfloat32_t, tfloat32_t, float, 64, 8, UMMA::Major::K, UMMA::Major::K>')
    """
    out: list[str] = []
    for t in TEMPLATES:
        prefix = "SM103::" if t.name.startswith("SM103") else ""
        a, b, c = _TYPES[t.ab_bits]
        for m in t.ms:
            for ma, mb in (("K", "K"), ("MN", "MN")):
                if (t.a_k and ma != "K") or (t.b_k and mb != "K"):
                    continue
                for n in _n_values(t, m, "Major::" + mb):
                    for vs in (t.vs or (0,)):
                        if vs and vs == t.vs_mx:
                            sf = "float_ue8m0_t"
                        else:
                            sf = "float_ue4m3_t" if t.vs else "float_ue8m0_t"
                        table: dict[str, list[object]] = {"ss": [a, b, c, m, n], "ts": [a, b, c, m, n], "s8_ss": [a, b, c, m, n],
                                "ss_scaled": [a, b, c, m, n], "ts_scaled": [a, b, c, m, n],
                                "interleaved": [m, n], "mx": [a, b, c, sf, m, n],
                                "mx_vs": [a, b, c, sf, m, n, vs]}
                        args = table[t.params]
                        majors: list[object] = [f"UMMA::Major::{ma}", f"UMMA::Major::{mb}"]
                        more: list[object] = ["1"] if t.params.endswith("scaled") else []
                        out.append(f"{prefix}{t.name}<{', '.join(map(str, args + majors + more))}>")
    return tuple(out)


def sm120_atom_names() -> tuple[str, ...]:
    """Every SM120 atom: every type combination and vector size CuTe specializes.

    >>> names = sm120_atom_names()
    >>> len(names), names[-1]
    (157, 'SM120::BLOCKSCALED::SPARSE::SM120_SPARSE_16x8x128_TN_VS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 32>')
    """
    out: list[str] = []
    for t in S.TEMPLATES:
        for a, b in t.ab:
            for c in t.cs:
                for sf, vss in (t.vs or (("", (0,)),)):
                    for vs in vss:
                        tail = f", {sf}, {vs}" if sf else ""
                        out.append(f"{t.name}<{a}, {b}, {c}{tail}>")
    return tuple(out)


def sparse_gmma_names() -> tuple[str, ...]:
    """Every SM90 sparse GMMA atom (SS and RS at every N), K-major operands.

    >>> names = sparse_gmma_names()
    >>> len(names), names[0]
    (1056, 'SM90::GMMA::SPARSE::GMMA_64x8x32_F16F16F16_SS<GMMA::Major::K, GMMA::Major::K>')
    """
    out: list[str] = []
    for f in G.FAMILIES:
        for suffix in f.suffixes:
            for ss in ("SS", "RS"):
                for n in f.ns:
                    args = "GMMA::Major::K, GMMA::Major::K" if f.majors else ""
                    out.append(f"SM90::GMMA::SPARSE::GMMA_64x{n}x{2 * f.K}_{f.types}_{ss}{suffix}<{args}>")
    return tuple(out)
