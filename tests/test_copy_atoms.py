"""Copy atoms: the Copy_Traits table, its reader, and Copy_Atom's recast value layouts.

Every entry of the table is checked as a function: the reference layout is a bijection
onto its bits, the source and destination layouts reach exactly those bits, and the
element layouts of Copy_Atom are the bit layouts read in units of the element.
"""
from __future__ import annotations

import pytest

import cute_sym as cs
from cute_sym.layout import Layout, size
from cute_sym.tensor.atoms.copy_atom import Copy_Atom
from cute_sym.tensor.atoms.copy_traits import COPY_ALIASES, COPY_TRAITS, Copy_Traits, split_op_name
from cute_sym.tensor.atoms.copy_types import ELEMENT_BITS, sizeof_bits

TYPED_ARGS = ("uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t")
ELEMENTS = ("int4_t", "int8_t", "half_t", "bfloat16_t", "float",
            "double", "complex<double>", "uint128_t")


def op_names() -> list[str]:
    out: list[str] = []
    for name, e in COPY_TRAITS.items():
        if e.val_id is not None:  # the TMEM copies: every thread names the whole footprint (tests/test_tmem.py)
            continue
        if e.params == "":
            out.append(name)
        elif e.params == "bits":
            out.extend(f"{name}<{w}>" for w in e.widths)
        else:
            for t in TYPED_ARGS:
                if sizeof_bits(t) >= e.min_width and (not e.widths or sizeof_bits(t) in e.widths):
                    out.append(f"{name}<{t}>")
    return out + list(COPY_ALIASES)


OPS = op_names()


def values(layout: Layout) -> list[int]:
    """layout(t, v) for every (t, v), thread-major."""
    nt, nv = size(layout[0]), size(layout[1])
    return [layout(t, v) for t in range(nt) for v in range(nv)]


def image(layout: Layout) -> set[int]:
    return set(values(layout))


# ------------------------------------------------------------------ the table
def test_every_op_of_the_brief_is_there() -> None:
    brief = ["UniversalCopy<uint8_t>", "UniversalCopy<uint16_t>", "UniversalCopy<uint32_t>",
             "UniversalCopy<uint64_t>", "UniversalCopy<uint128_t>",
             "SM75_U32x1_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x4_LDSM_N",
             "SM75_U16x2_LDSM_T", "SM75_U16x4_LDSM_T", "SM75_U16x8_LDSM_T",
             "SM90_U32x1_STSM_N", "SM90_U32x2_STSM_N", "SM90_U32x4_STSM_N",
             "SM90_U16x2_STSM_T", "SM90_U16x4_STSM_T", "SM90_U16x8_STSM_T"]
    for kind in ("CACHEALWAYS", "CACHEGLOBAL"):
        for z in ("", "_ZFILL"):
            brief.append(f"SM80_CP_ASYNC_{kind}{z}<uint128_t>")
    for op in brief:
        assert op in OPS
        Copy_Traits(op)


@pytest.mark.parametrize("op", OPS)
def test_traits_are_functions_onto_the_reference_bits(op: str) -> None:
    t = Copy_Traits(op)
    nthr = size(t.ThrID)
    for lay in (t.SrcLayout, t.DstLayout, t.RefLayout):
        assert lay.rank() == 2 and lay.is_static()
        assert size(lay[0]) == nthr
    assert t.RefLayout is t.SrcLayout or t.RefLayout is t.DstLayout
    ref = values(t.RefLayout)
    if cs.cosize(t.RefLayout) == 1:  # AutoVectorizing's placeholder (1,1):(0,0)
        return
    # the reference is a bijection (thr, val) -> [0, size)
    assert sorted(ref) == list(range(size(t.RefLayout)))
    # source and destination move exactly those bits (a source thread may repeat a row: ldmatrix)
    assert image(t.SrcLayout) == set(ref) and image(t.DstLayout) == set(ref)
    # bits per thread: the register side has no repeats
    reg = t.DstLayout if "LDSM" in op else t.SrcLayout if "STSM" in op else t.RefLayout
    assert len(set(values(reg))) == size(reg)


@pytest.mark.parametrize("name,args,width", [
    ("UniversalCopy", ("uint8_t",), 8), ("UniversalCopy", ("uint128_t",), 128),
    ("SM80_CP_ASYNC_CACHEALWAYS", ("uint32_t",), 32), ("SM80_CP_ASYNC_CACHEGLOBAL_ZFILL", ("uint128_t",), 128),
])
def test_one_thread_ops_move_the_width_of_their_type(name: str, args: tuple[str, ...], width: int) -> None:
    t = Copy_Traits(f"{name}<{','.join(args)}>")
    assert size(t.ThrID) == 1
    assert size(t.SrcLayout) == size(t.DstLayout) == width
    assert [t.SrcLayout(0, i) for i in range(width)] == list(range(width))


def test_ldmatrix_and_stmatrix_are_mirrors() -> None:
    # cute/atom/copy_traits_sm90.hpp: STSM's Src is LDSM's Dst and the reverse; Ref = Src
    pairs = [("SM75_U32x1_LDSM_N", "SM90_U32x1_STSM_N"), ("SM75_U32x2_LDSM_N", "SM90_U32x2_STSM_N"),
             ("SM75_U32x4_LDSM_N", "SM90_U32x4_STSM_N"), ("SM75_U16x2_LDSM_T", "SM90_U16x2_STSM_T"),
             ("SM75_U16x4_LDSM_T", "SM90_U16x4_STSM_T"), ("SM75_U16x8_LDSM_T", "SM90_U16x8_STSM_T")]
    for ld, st in pairs:
        a, b = Copy_Traits(ld), Copy_Traits(st)
        assert a.SrcLayout == b.DstLayout and a.DstLayout == b.SrcLayout
        assert a.RefLayout is a.DstLayout and b.RefLayout is b.SrcLayout
        assert a.ThrID == b.ThrID and size(a.ThrID) == 32


def test_ldmatrix_bits_per_thread_and_rows() -> None:
    # x1/x2/x4: 1/2/4 registers of 32 bits per thread; 8/16/32 threads give a 128-bit row address
    for n, rows in ((1, 8), (2, 16), (4, 32)):
        for op in (f"SM75_U32x{n}_LDSM_N", f"SM75_U16x{2 * n}_LDSM_T"):
            t = Copy_Traits(op)
            assert size(t.DstLayout[1]) == 32 * n
            assert size(t.SrcLayout[1]) == 128
            starts = {t.SrcLayout(tid, 0) for tid in range(32)}
            assert len(starts) == rows and all(s % 128 == 0 for s in starts)


def test_printed_as_in_the_headers() -> None:
    # a reading of copy_traits_sm75.hpp, in CuTe's printing
    t = Copy_Traits("SM75_U16x4_LDSM_T")
    assert str(t.SrcLayout) == "((_16,_2),_128):((_128,_0),_1)"
    assert str(t.DstLayout) == "((_4,_8),(_16,_2,_2)):((_256,_16),(_1,_128,_1024))"
    assert str(Copy_Traits("UniversalCopy<uint32_t>").SrcLayout) == "(_1,_32):(_0,_1)"
    assert str(Copy_Traits("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>").ThrID) == "_1:_0"


@pytest.mark.parametrize("bad", [
    "SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>",      # cache-global: 16 bytes only
    "SM80_CP_ASYNC_CACHEALWAYS<uint16_t>",      # 4, 8 or 16 bytes
    "SM80_CP_ASYNC_CACHEALWAYS<uint32_t,uint64_t>",  # sizeof(S) == sizeof(D)
    "UniversalCopy<uint4_t>",                   # sizeof_bits >= 8
    "UniversalCopy<quad_t>", "UniversalCopy", "UniversalCopy<>", "UniversalCopy<a,b,c>",
    "SM75_U32x4_LDSM_N<half_t>", "SM75_U32x3_LDSM_N", "UniversalCopy<uint8_t", "X<a>>",
    "AutoVectorizingCopyWithAssumedAlignment<24>", "AutoVectorizingCopyWithAssumedAlignment<half_t>",
])
def test_bad_operations_are_layout_errors(bad: str) -> None:
    with pytest.raises(cs.LayoutError):
        Copy_Traits(bad)


def test_names_as_a_cpp_user_writes_them() -> None:
    assert Copy_Traits("cute::UniversalCopy< cute::uint128_t >").name == "UniversalCopy<uint128_t>"
    assert Copy_Traits("UniversalCopy<uint32_t, uint32_t>").SrcLayout == Copy_Traits("UniversalCopy<uint32_t>").SrcLayout
    assert split_op_name("A<B<C,D>,E>") == ("A", ("B<C,D>", "E"))
    assert Copy_Traits("DefaultCopy").name == "AutoVectorizingCopyWithAssumedAlignment<8>"
    assert Copy_Traits("UniversalCopy<half_t>").SrcLayout == Copy_Traits("UniversalCopy<uint16_t>").SrcLayout


def test_element_widths() -> None:
    assert all(type(b) is int and b > 0 for b in ELEMENT_BITS.values())
    expect = {"half_t": 16, "bfloat16_t": 16, "float": 32, "double": 64, "int8_t": 8, "uint8_t": 8,
              "tfloat32_t": 32, "int32_t": 32, "uint128_t": 128, "float_e5m2_t": 8, "int4_t": 4}
    for k, v in expect.items():
        assert sizeof_bits(k) == v and sizeof_bits("cutlass::" + k) == v
    with pytest.raises(cs.LayoutError):
        sizeof_bits(3)  # type: ignore[arg-type]


# ------------------------------------------------------------------ Copy_Atom
@pytest.mark.parametrize("op", OPS)
def test_atom_value_layouts_are_the_bit_layouts_in_elements(op: str) -> None:
    for elem in ELEMENTS:
        check_atom(op, elem)


def check_atom(op: str, elem: str) -> None:
    t = Copy_Traits(op)
    bits = sizeof_bits(elem)
    try:
        a = Copy_Atom(op, elem)
    except cs.LayoutError:
        # only when the recast is impossible or splits a thread's mode (CuTe's static_asserts)
        for lay in (t.SrcLayout, t.DstLayout, t.RefLayout):
            try:
                v = cs.recast_layout(lay, 1, bits)
            except cs.LayoutError:
                return
            if size(v[0]) != size(t.ThrID):
                return
        raise
    assert a.ValType == elem and a.ThrID == t.ThrID
    for which in ("Src", "Dst", "Ref"):
        bit_l: Layout = getattr(t, which + "Layout")
        val_l: Layout = getattr(a, "ValLayout" + which)
        assert val_l == cs.recast_layout(bit_l, 1, bits)
        assert size(val_l[0]) == size(t.ThrID)
        nv = size(val_l[1])
        if cs.cosize(bit_l) == 1 or size(bit_l[1]) < bits:
            assert nv == 1  # a placeholder, or an element wider than the op's value (CuTe allows it)
            continue
        # each thread's values are whole elements: v-th element starts at the v*bits-th bit
        assert nv * bits == size(bit_l[1])
        for tid in range(size(t.ThrID)):
            for v in range(nv):
                assert val_l(tid, v) * bits == bit_l(tid, v * bits)
    assert a.NumValSrc == size(a.ValLayoutSrc[1]) and a.NumValDst == size(a.ValLayoutDst[1])


def test_atom_layouts_of_the_brief() -> None:
    a = Copy_Atom("SM75_U32x4_LDSM_N", "half_t")
    assert str(a.ValLayoutSrc) == "(_32,_8):(_8,_1)"
    assert str(a.ValLayoutDst) == "(_32,(_2,_4)):(_2,(_1,_64))"
    b = Copy_Atom("SM90_U16x8_STSM_T", "bfloat16_t")
    assert b.ValLayoutRef == b.ValLayoutSrc and b.NumValSrc == 8 and b.NumValDst == 8
    c = Copy_Atom("UniversalCopy<uint128_t>", "int8_t")
    assert str(c.ValLayoutSrc) == "(_1,_16):(_0,_1)" and c.NumValSrc == 16
    d = Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint64_t>", "float")
    assert str(d.ValLayoutDst) == "(_1,_2):(_0,_1)"
    assert "ValLayoutSrc: (_1,_2):(_0,_1)" in str(d) and "ValueType:    32b" in str(d)


def test_transposing_ldmatrix_wants_16_bit_elements() -> None:
    # CuTe: "CopyOperation is not valid for Dst of ValType" for a 32-bit element
    with pytest.raises(cs.LayoutError, match="not valid for Dst"):
        Copy_Atom("SM75_U16x2_LDSM_T", "float")
    with pytest.raises(cs.LayoutError, match="not valid for Src"):
        Copy_Atom("SM90_U16x8_STSM_T", "float")
    with pytest.raises(cs.LayoutError):  # a 6-bit element does not divide 128 bits
        Copy_Atom("UniversalCopy<uint128_t>", "float_e3m2_t")


def test_atom_is_immutable_and_compares_by_value() -> None:
    a = Copy_Atom("UniversalCopy<uint64_t>", "half_t")
    assert a == Copy_Atom("cute::UniversalCopy<cute::uint64_t>", "cutlass::half_t")
    assert hash(a) == hash(Copy_Atom("UniversalCopy<uint64_t>", "half_t"))
    assert a != Copy_Atom("UniversalCopy<uint64_t>", "float")
    with pytest.raises(AttributeError):
        a.ValType = "float"  # type: ignore[misc]
    assert Copy_Atom(a, "float").ValType == "float"


# ------------------------------------------------------------------ the SM100 tensor-memory copies
def test_the_tmem_rows_are_read_by_the_same_reader_with_their_valid() -> None:
    tmem = [n for n, e in COPY_TRAITS.items() if e.val_id is not None]
    assert len(tmem) == 162 and all(n.startswith(("SM100_TMEM_", "SM100_UTCCP_")) for n in tmem)
    for name in tmem[::9]:
        t = Copy_Traits(name)
        assert t.is_tmem and size(t.SrcLayout[0]) == size(t.DstLayout[0]) == size(t.ThrID)
        # a copy atom of any 32-bit element recasts the bit layouts as for every other operation
        a = Copy_Atom(name, "float")
        assert size(a.ValLayoutSrc) * 32 == size(t.SrcLayout) and size(a.ValLayoutDst) * 32 == size(t.DstLayout)
    for name in OPS:
        assert not Copy_Traits(name).is_tmem


@pytest.mark.parametrize("text", ["cute::SM75_U32x4_LDSM_N", "SM75_U32x4_LDSM_N{}", "  SM75_U32x4_LDSM_N"])
def test_qualified_and_value_initialised_names_are_the_operation(text: str) -> None:
    assert Copy_Traits(text) == Copy_Traits("SM75_U32x4_LDSM_N")


def test_a_misspelt_operation_is_told_the_closest_names() -> None:
    with pytest.raises(cs.LayoutError, match="did you mean SM75_U32x4_LDSM_N"):
        Copy_Traits("SM75_U32X4_LDSM_N")
    with pytest.raises(cs.LayoutError, match=r"CopyOperation: 'NoSuchCopy'$"):
        Copy_Traits("NoSuchCopy")
