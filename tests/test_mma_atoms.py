"""MMA_Traits: every atom's (thread, value) layouts are what an MMA must be, and CuTe's answers."""
from __future__ import annotations

import json
import os
import re
from functools import lru_cache

import pytest

from cute_sym.core.errors import LayoutError, RankError
from cute_sym.core.int_tuple import leaves
from cute_sym.layout import Layout, size
from cute_sym.tensor.atoms import MMA_Traits, mma_atom_names
from cute_sym.tensor.atoms.gmma_data import FAMILIES
from cute_sym.tensor.atoms.mma_data import MMA_ATOMS
from cute_sym.tensor.mma import MMA_Atom
from corpus import cases

# Where CuTe's declaration is not an MMA's: 16x8x128 b1's ALayout stride is not congruent with its shape
# (Stride<Stride<_16,_8>> for Shape<_32,_2>); 16x8x32 s4/u4's BLayout has thread stride _32 (not a bijection).
INCONGRUENT = {"SM80_16x8x128_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC"}
NOT_BIJECTIVE_B = {f"SM80_16x8x32_S32{a}{b}S32_TN{s}" for a in ("S4", "U4") for b in ("S4", "U4")
                   for s in ("", "_SATURATE")}

# the type codes of CuTe's names
CODES = {"F16": "half_t", "F32": "float", "F64": "double", "BF16": "bfloat16_t", "TF32": "tfloat32_t",
         "C64": "complex<double>", "GC64": "GaussComplex", "S32": "int32_t", "S8": "int8_t", "U8": "uint8_t",
         "S4": "int4b_t", "U4": "uint4b_t", "U1": "uint1b_t", "E4M3": "float_e4m3_t", "E5M2": "float_e5m2_t"}
_CODE = re.compile("|".join(sorted(CODES, key=len, reverse=True)))


def all_names() -> list[str]:
    """Every atom, GMMA ones with every pair of majors."""
    return list(mma_atom_names(every_major=True))


@lru_cache(maxsize=None)
def images(layout: Layout, domain: int) -> tuple[int, ...]:
    """``(layout(0), ..., layout(domain-1))``, mode by mode (colexicographic, as ``layout(i)``)."""
    out = [0]
    for s, d in zip(leaves(layout.shape), leaves(layout.stride)):
        out = [o + d * i for i in range(s) for o in out]
    assert len(out) == domain
    return tuple(out)


def test_images_are_the_layout() -> None:
    for name in ("SM70_8x8x4_F32F16F16F32_NT", "SM80_16x8x64_S32U4S4S32_TN", "SM90_64x24x8_F32TF32TF32_RS_TN"):
        for lay in (MMA_Traits(name).ALayout, MMA_Traits(name).CLayout):
            assert images(lay, size(lay)) == tuple(lay(i) for i in range(size(lay)))


@lru_cache(maxsize=None)
def check_tv(layout: Layout, threads: int, extent: int, broadcast: bool) -> None:
    """(thread, value) -> element: a bijection onto [0, extent), or (broadcast) every thread sees all of it."""
    assert layout.rank() == 2, layout
    assert size(layout[0]) == threads, (layout, threads)
    vals = size(layout[1])
    if broadcast:
        assert set(images(layout[0], threads)) == {0}, layout
        assert sorted(images(layout[1], vals)) == list(range(extent)), layout
        return
    assert sorted(images(layout, threads * vals)) == list(range(extent)), layout


def test_every_atom_is_a_valid_mma() -> None:
    seen = 0
    for name in all_names():
        t = MMA_Traits(name)
        M, N, K = t.Shape_MNK
        threads = size(t.ThrID)
        assert len(set(images(t.ThrID, threads))) == threads, name             # ThrID is injective
        gmma_ss = "_SS" in name and name.startswith("SM90_64x")
        if name not in INCONGRUENT:
            check_tv(t.ALayout, threads, M * K, gmma_ss)
        if name in NOT_BIJECTIVE_B:
            with pytest.raises(AssertionError):
                check_tv(t.BLayout, threads, N * K, False)
            assert str(t.BLayout) == "((_4,_8),(_8)):((_32,_1),(_8))"
        else:
            check_tv(t.BLayout, threads, N * K, name.startswith("SM90_64x"))
        check_tv(t.CLayout, threads, M * N, False)
        seen += 1
    assert seen == len(all_names()) > 1400


def test_names_encode_shapes_and_types() -> None:
    for name in all_names():
        if name.startswith(("UniversalFMA", "SM61_")):
            continue
        t = MMA_Traits(name)
        m = re.match(r"SM\d+_(\d+)x(\d+)x(\d+)_([A-Z0-9]+)(?:_|$)", name)
        assert m, name
        assert tuple(t.Shape_MNK) == tuple(int(x) for x in m.groups()[:3]), name
        codes = [CODES[c] for c in _CODE.findall(m[4])]
        if name.startswith("SM90_64x"):     # D, A, B (C is D)
            codes.append(codes[0])
        assert [t.ValTypeD, t.ValTypeA, t.ValTypeB, t.ValTypeC] == codes, name


def test_table_covers_cute_headers() -> None:
    assert len(MMA_ATOMS) == 2 + 8 + 3 + 65 + 8 + 6 + 2     # SM61, SM70, SM75, SM80, SM89, SM90 DMMA, SM100 FFMA2
    assert sum(n.startswith("SM90_64x") for n in mma_atom_names()) == sum(
        len(f.ns) * len(f.suffixes) * 2 for f in FAMILIES)


def test_traits_print_as_cute() -> None:
    t = MMA_Traits("SM80_16x8x16_F16F16F16F16_TN")
    assert str(t.ALayout) == "((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))"
    assert str(t.Shape_MNK) == "(_16,_8,_16)" and str(t.ThrID) == "_32:_1"
    g = MMA_Traits("SM90_64x64x16_F32F16F16_SS<Major::MN,Major::K>")
    assert str(g.ALayout) == "(_128,(_64,_16)):(_0,(_1,_64))"
    assert str(g.CLayout) == "((_4,_8,_4),(_2,_2,_8)):((_128,_1,_16),(_64,_8,_512))"
    assert g.FrgTypeA == "GMMA::smem_desc<Major::MN>" and g.FrgTypeB == "GMMA::smem_desc<Major::K>"
    r = MMA_Traits("SM90_64x96x8_F32TF32TF32_RS_TN")
    assert str(r.ALayout) == "((_4,_8,_4),(_2,_2)):((_64,_1,_16),(_8,_256))" and r.FrgTypeA == "tfloat32_t"
    f = MMA_Traits("UniversalFMA<float,float,float,float>")
    assert str(f.ALayout) == "(_1,_1):(_0,_0)" and str(f.Shape_MNK) == "(_1,_1,_1)"


@pytest.mark.parametrize("spelling", [
    "SM90_64x64x16_F32F16F16_SS<Major::MN,Major::K>", "SM90_64x64x16_F32F16F16_SS<GMMA::Major::MN, GMMA::Major::K>",
    "cute::SM90_64x64x16_F32F16F16_SS< cute::SM90::GMMA::Major::MN , Major::K , ScaleIn::One, ScaleIn::One >",
])
def test_gmma_spellings(spelling: str) -> None:
    assert MMA_Traits(spelling).name == "SM90_64x64x16_F32F16F16_SS<Major::MN,Major::K>"


def test_extended_shapes_say_where_they_come_from() -> None:
    assert "_ext" in MMA_Traits("SM90_64x24x16_F16F16F16_SS<Major::K,Major::K>").source
    assert "_ext" not in MMA_Traits("SM90_64x256x32_S32U8U8_RS_TN_SATURATE").source


@pytest.mark.parametrize("name, message", [
    ("SM80_16x8x16_F16F16F16F16_NT", "close names: SM80_16x8x16_F16F16F16F16_TN"),
    ("SM90_64x40x32_S32S8S8_SS_TN", "no MMA atom named"),                 # int8 has N=24, 48, not 40
    ("SM90_64x64x16_F16F16F16_SS", "takes <tnspA, tnspB>"),
    ("SM90_64x64x16_F16F16F16_SS<Major::X,Major::K>", "is not a GMMA::Major"),
    ("SM90_64x64x16_F16F16F16_RS<Major::MN,Major::K>", "Register source operand A must have K major layout"),
    ("SM90_64x64x16_F16F16F16_SS<Major::K,Major::K,ScaleIn::Two,ScaleIn::One>", "is not a GMMA::ScaleIn"),
    ("SM90_64x64x32_S32S8S8_SS_TN<ScaleIn::One,ScaleIn::One>", "no further template"),
    ("SM99_1x1x1", "no MMA atom named"),
])
def test_bad_names_raise_layout_errors(name: str, message: str) -> None:
    with pytest.raises(LayoutError, match=re.escape(message)):
        MMA_Traits(name)


def test_not_a_name() -> None:
    with pytest.raises(LayoutError, match="CuTe's name"):
        MMA_Traits(42)  # type: ignore[arg-type]


def test_incongruent_layout_kept_as_cute_prints_it() -> None:
    for name in INCONGRUENT:
        t = MMA_Traits(name)
        assert str(t.ALayout) == "((_4,_8),(_32,_2)):((_512,_1),((_16,_8)))"
        with pytest.raises(RankError, match="not congruent"):
            MMA_Atom(name)


def test_traits_are_immutable_values() -> None:
    t = MMA_Traits("SM80_8x8x4_F64F64F64F64_TN")
    with pytest.raises(AttributeError):
        t.ALayout = t.BLayout
    assert t == MMA_Traits("SM80_8x8x4_F64F64F64F64_TN") and hash(t) == hash(MMA_Traits(t.name))
    assert MMA_Traits(t) == t and repr(t) == "MMA_Traits('SM80_8x8x4_F64F64F64F64_TN')"


def test_static_traits_make_no_sympy() -> None:
    from test_static_path import _count_sympy
    made = _count_sympy(lambda: [MMA_Traits(n).ALayout for n in (
        "SM80_16x8x32_S32S4S4S32_TN", "SM70_8x8x4_F32F16F16F32_NN", "SM90_64x200x16_F16F16F16_RS<Major::K,Major::MN>")])
    assert made == []


ORACLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "mma_oracle.jsonl")
WHATS = ("Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout")


def oracle() -> list[dict]:  # type: ignore[type-arg]
    """CuTe's answers for every atom (scripts/mma_oracle.py: CuTe compiled with g++)."""
    with open(ORACLE) as fh:
        return [json.loads(line) for line in fh]


def test_oracle_covers_every_atom() -> None:
    assert sorted(r["atom"] for r in oracle()) == sorted(n for n in all_names() if not n.startswith("UniversalFMA"))


def test_oracle_traits() -> None:
    wrong = []
    for row in oracle():
        t = MMA_Traits(row["atom"])
        for what in WHATS:
            if str(getattr(t, what)) != row["expect"][what]:
                wrong.append((row["atom"], what, str(getattr(t, what)), row["expect"][what]))
    assert not wrong, wrong[:5]


def test_thread_level_atoms() -> None:
    t = MMA_Traits("SM61_DP4A")
    assert (str(t.Shape_MNK), str(t.ThrID), str(t.ALayout), str(t.CLayout)) == (
        "(_1,_1,_4)", "_1:_0", "(_1,_4):(_0,_1)", "(_1,_1):(_0,_0)")
    assert (t.ValTypeA, t.ValTypeD, t.source) == ("int8_t", "int32_t", "cute/atom/mma_traits_sm61.hpp")
    assert MMA_Traits("SM61_DP2A").ValTypeB == "int16_t"
    f8 = MMA_Traits("SM89_16x8x32_F16E5M2E4M3F16_TN")
    assert (f8.ValTypeA, f8.ValTypeB, f8.ValTypeC) == ("float_e5m2_t", "float_e4m3_t", "half_t")
    assert str(f8.BLayout) == "((_4,_8),(_4,_2)):((_32,_1),(_8,_128))"


@pytest.mark.parametrize("case", cases("views/mma_traits"), ids=lambda c: c["id"])
def test_cute_answers(case: dict) -> None:  # type: ignore[type-arg]
    assert str(getattr(MMA_Traits(case["args"]["atom"]), case["args"]["what"])) == case["expect"]
