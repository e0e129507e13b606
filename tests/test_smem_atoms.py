"""The canonical smem layout atoms (GMMA::/UMMA::Layout_*_Atom<T>) and tile_to_shape over them."""
from __future__ import annotations

import itertools

import pytest

import cute_sym as cs
from cute_sym.swizzle import ComposedLayout, Swizzle
from cute_sym.swizzle.smem_flag import SmemPtrFlag, element_swizzle
from cute_sym.tensor.atoms.smem_atoms import SMEM_ATOMS, smem_atom_names

TYPES = ["float_e2m1_t", "int8_t", "float_e4m3_t", "half_t", "bfloat16_t", "float", "tfloat32_t", "double"]
BITS = {"float_e2m1_t": 4, "int8_t": 8, "float_e4m3_t": 8, "half_t": 16, "bfloat16_t": 16, "float": 32,
        "tfloat32_t": 32, "double": 64}


def _names() -> list[tuple[str, str]]:
    return [(n, t) for n in smem_atom_names() for t in TYPES]


@pytest.mark.parametrize("name,t", _names())
def test_atom_is_the_upcast_bit_atom(name: str, t: str) -> None:
    atom = cs.smem_layout_atom(f"{name}<{t}>")
    bits_atom = cs.smem_layout_atom(f"{name}_Bits")
    b = BITS[t]
    assert isinstance(atom, ComposedLayout) and atom.offset == SmemPtrFlag(b)
    assert atom.layout_a == bits_atom.layout_a                     # the byte swizzle stays
    inner, binner = atom.layout_b, bits_atom.layout_b
    # every element is b bits of the bit atom: inner(c) * b == binner(c with the contiguous mode scaled)
    assert cs.size(inner) * b == cs.size(binner)
    e = SMEM_ATOMS[name.split("::")[1][: -len("_Atom")]]
    contiguous = 0 if e.major == "MN" else 1
    for c in itertools.product(*(range(s) for s in inner.shape)):
        bc = list(c)
        bc[contiguous] *= b
        assert inner(*c) * b == binner(*bc)
    # a bijection onto [0, size)
    assert sorted(inner(i) for i in range(cs.size(inner))) == list(range(cs.size(inner)))


@pytest.mark.parametrize("name,t", _names())
def test_atom_rows_are_the_swizzle_width(name: str, t: str) -> None:
    """Each of the 8 (4) rows of the atom spans 16 bytes times 2^B (the swizzle's bits), the
    swizzle's period: Sw<B,4,3> repeats every 2^(4+3+B)... so a row is 2^(4+B) bytes."""
    atom = cs.smem_layout_atom(f"{name}<{t}>")
    sw = atom.layout_a
    assert isinstance(sw, Swizzle)
    e = SMEM_ATOMS[name.split("::")[1][: -len("_Atom")]]
    row_bytes = atom.layout_b.shape[0 if e.major == "MN" else 1] * BITS[t] // 8
    assert row_bytes == (1 << (sw.base + sw.bits)) or (sw.bits == 0 and row_bytes == 16)


@pytest.mark.parametrize("name,t", _names())
def test_evaluation_is_position_independent(name: str, t: str) -> None:
    """atom(c) is the element the swizzled byte address holds: bytes(atom(c)) == Sw(bytes(inner(c)))."""
    atom = cs.smem_layout_atom(f"{name}<{t}>")
    b = BITS[t]
    sw = atom.layout_a
    for i in range(cs.size(atom)):
        e = atom.layout_b(i)
        if b >= 8:
            assert atom(i) * (b // 8) == sw(e * (b // 8))
        else:   # two elements a byte: the swizzle moves whole bytes
            assert atom(i) // (8 // b) == sw(e // (8 // b)) and atom(i) % (8 // b) == e % (8 // b)


@pytest.mark.parametrize("sw,bits", [(Swizzle(b, 4, 3), w) for b in range(4) for w in (4, 8, 16, 32, 64)])
def test_element_swizzle_postcondition(sw: Swizzle, bits: int) -> None:
    es = element_swizzle(sw, bits)
    for i in range(4096):
        if bits >= 8:
            assert es(i) * (bits // 8) == sw(i * (bits // 8))
        else:
            k = 8 // bits
            assert es(i) // k == sw(i // k) and es(i) % k == i % k


@pytest.mark.parametrize("name,t,shape,order", [
    (n, t, s, o) for n in ("GMMA::Layout_K_SW128_Atom", "GMMA::Layout_MN_SW64_Atom", "UMMA::Layout_MN_SW128_32B_Atom",
                           "GMMA::Layout_K_INTER_Atom")
    for t in ("half_t", "float") for s, o in (((256, 64), (1, 2)), ((256, 64), (2, 1)), ((128, 128, 3), (1, 2, 3)),
                                              ((128, 256, 2), (2, 1, 3)))])
def test_tile_to_shape_tiles_the_atom(name: str, t: str, shape: tuple[int, ...], order: tuple[int, ...]) -> None:
    atom = cs.smem_layout_atom(f"{name}<{t}>")
    sL = cs.tile_to_shape(atom, shape, order)
    assert isinstance(sL, ComposedLayout)
    assert sL.layout_a == atom.layout_a and sL.offset == atom.offset
    inner = sL.layout_b
    n = cs.size(inner)
    assert n == cs.size(cs.make_layout(shape))
    assert sorted(inner(i) for i in range(n)) == list(range(n))       # a bijection
    am, an = atom.layout_b.shape
    # the first atom block is the atom itself
    for i in range(am):
        for j in range(an):
            c = (i, j) + (0,) * (len(shape) - 2)
            assert inner(*c) == atom.layout_b(i, j)
    # every atom block is the atom, moved by a multiple of the atom's size
    blocks = [(bi, bj) for bi in range(shape[0] // am) for bj in range(shape[1] // an)]
    starts = set()
    for bi, bj in blocks:
        o = inner(bi * am, bj * an, *((0,) * (len(shape) - 2)))
        assert o % cs.size(atom) == 0
        starts.add(o)
        for i, j in ((1, 0), (am - 1, an - 1)):
            assert inner(bi * am + i, bj * an + j, *((0,) * (len(shape) - 2))) == o + atom.layout_b(i, j)
    assert len(starts) == len(blocks)
    # the order: the first mode of `order` (the least) varies fastest among the blocks
    if len(blocks) > 1 and shape[0] // am > 1 and shape[1] // an > 1:
        first = order.index(min(order))
        step = inner(am, 0, *((0,) * (len(shape) - 2))) if first == 0 else inner(0, an, *((0,) * (len(shape) - 2)))
        assert step == cs.size(atom)


def test_major_form_and_bits_form() -> None:
    a = cs.smem_layout_atom("GMMA::Layout_SW128_Atom<half_t, GMMA::Major::K>")
    assert a == cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>")
    assert str(cs.smem_layout_atom("GMMA::Layout_K_SW32_Atom_Bits")) == \
        "Sw<1,4,3> o smem_ptr[1b](unset) o (_8,_256):(_256,_1)"


@pytest.mark.parametrize("bad", ["GMMA::Layout_MN_SW128_32B_Atom<half_t>", "GMMA::Layout_K_SW256_Atom<half_t>",
                                 "XMMA::Layout_K_SW128_Atom<half_t>", "GMMA::Layout_K_SW128_Atom<quad_t>",
                                 "GMMA::Layout_K_SW128", "GMMA::Layout_SW128_Atom<half_t, GMMA::Major::X>"])
def test_refusals(bad: str) -> None:
    with pytest.raises(cs.LayoutError):
        cs.smem_layout_atom(bad)


def test_flagged_tensor() -> None:
    sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW64_Atom<half_t>"), (64, 64))
    t = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), sL)
    assert t.layout == sL.layout_b and t.engine.swizzle == Swizzle(2, 4, 3)
    assert str(t.engine) == "Sw<2,4,3>_smem_ptr[half_t](S)"
    with pytest.raises(cs.LayoutError, match="B-bit pointer"):
        cs.make_tensor(cs.make_smem_ptr("S", "float"), sL)
    with pytest.raises(cs.LayoutError, match="Expected smem"):
        cs.make_tensor(cs.make_gmem_ptr("G", "half_t"), sL)


def test_upcast_downcast_keep_the_flag() -> None:
    a = cs.smem_layout_atom("GMMA::Layout_MN_SW128_Atom<half_t>")
    assert str(cs.downcast(a, 2)) == "Sw<3,4,3> o smem_ptr[8b](unset) o (_128,_8):(_1,_128)"
    assert cs.upcast(cs.downcast(a, 2), 2) == a
