"""GMMA/UMMA smem descriptors: CuTe 4.7's own words for 115 tiles (tests/data/desc_oracle.jsonl,
scripts/desc_oracle.py), and the fields rebuild the layout the tensor cores read."""
from __future__ import annotations

import itertools
import json
import os
import sys
from typing import Any

import pytest

import cute_sym as cs
from cute_sym.tensor.atoms.smem_atoms import SMEM_ATOMS
from cute_sym.tensor.smem_desc import check_mma_smem_layout, make_gmma_desc, make_umma_desc

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "scripts"))
import desc_oracle  # noqa: E402

ROWS = [json.loads(line) for line in open(os.path.join(HERE, "data", "desc_oracle.jsonl"))]
BITS = {"half_t": 16, "tfloat32_t": 32, "float_e4m3_t": 8, "float": 32, "bfloat16_t": 16}
W = {"INTERLEAVE": 1, "B32": 2, "B64": 4, "B128": 8, "SWIZZLE_NONE": 1, "SWIZZLE_32B": 2, "SWIZZLE_64B": 4,
     "SWIZZLE_128B": 8, "SWIZZLE_128B_BASE32B": 8}


def test_oracle_is_big_enough() -> None:
    assert len(ROWS) >= 100
    assert sum(r["cute"] == "refused" for r in ROWS) >= 5
    kinds = {(r["case"]["kind"], r["case"]["major"]) for r in ROWS}
    assert kinds == {("GMMA", "K"), ("GMMA", "MN"), ("UMMA", "K"), ("UMMA", "MN")}
    atoms = {r["case"]["atom"].split("<")[0] for r in ROWS if "atom" in r["case"]}
    assert len(atoms) == 17                 # every atom, of both kinds


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r['case']['kind']}-{r['case']['major']}-"
                                                    f"{r['case'].get('atom', r['case'].get('layout'))}")
def test_agrees_with_cute(row: dict[str, Any]) -> None:
    assert desc_oracle.cute_sym_answer(row["case"]) == row["cute"]


def _rebuilt(d: Any, n_mn: int, n_k: int) -> Any:
    """The canonical layout (in 16-byte chunks, (MN chunks or rows, K chunks or rows)) the
    descriptor's fields describe, as CuTe's comments in mma_sm90_desc.hpp/mma_sm100_desc.hpp write it."""
    w, lbo, sbo = W[d.layout_type], d.leading_byte_offset, d.stride_byte_offset
    inter = w == 1
    if d.major == "K":      # ((8,m),2) : rows, K chunks
        m = n_mn // 8
        if inter:
            return cs.make_layout(((8, m), n_k), ((1, sbo), lbo))
        return cs.make_layout(((8, m), n_k), ((w, sbo), 1))
    ksz = 4 if d.layout_type == "SWIZZLE_128B_BASE32B" else 8
    n = n_mn // w
    k = n_k // ksz
    if inter:   # ((1,n),(8,k)) : ((X,SBO),(1,LBO))
        return cs.make_layout(((1, n), (8, k)), ((0, sbo), (1, lbo)))
    return cs.make_layout(((w, n), (ksz, k)), ((1, lbo), (w, sbo)))


@pytest.mark.parametrize("row", [r for r in ROWS if r["cute"] != "refused"][::2],
                         ids=lambda r: f"{r['case']['kind']}-{r['case']['major']}-{r['case'].get('atom', '')}")
def test_fields_rebuild_the_layout(row: dict[str, Any]) -> None:
    """Every 16-byte chunk the tensor holds is where LBO, SBO and the swizzle's width put it."""
    c = row["case"]
    t = c["type"]
    sL: Any = (cs.tile_to_shape(cs.smem_layout_atom(c["atom"]), tuple(c["shape"]), tuple(c["order"]))
               if "atom" in c else cs.parse(c["layout"]))
    tile = cs.local_tile(cs.make_tensor(cs.make_smem_ptr("S", t), sL), tuple(c["tile"]), tuple(c["coord"]))
    make = make_gmma_desc if c["kind"] == "GMMA" else make_umma_desc
    d = make(tile, c["major"])
    u = cs.recast_layout(tile.layout, BITS[t], 128)
    n_mn, n_k = cs.size(u, 0), cs.size(u, 1)
    r = _rebuilt(d, n_mn, n_k)
    for i, j in itertools.product(range(n_mn), range(n_k)):
        assert u(i, j) == r(i, j), (i, j, str(u), str(r))
    # the start address is the slice's offset into the buffer, in 16-byte units
    assert d.start_address == tile.engine.offset * BITS[t] // 8 // 16


@pytest.mark.parametrize("kind,base,t", [(k, b, t) for k in ("GMMA", "UMMA") for b, e in SMEM_ATOMS.items()
                                         if k in e.namespaces for t in ("half_t", "float", "float_e4m3_t")])
def test_every_atom_is_readable_in_its_major_only(kind: str, base: str, t: str) -> None:
    e = SMEM_ATOMS[base]
    atom = cs.smem_layout_atom(f"{kind}::{base}_Atom<{t}>")
    a = atom.layout_b.shape
    shape = (max(a[0], 64), max(a[1], 2 * 256 // BITS[t]))
    sL = cs.tile_to_shape(atom, shape)
    descs = check_mma_smem_layout(sL, e.major, t, kind)
    assert len(descs) == shape[1] // (256 // BITS[t])
    # consecutive K-blocks: the same offsets, start addresses advancing
    assert len({(d.leading_byte_offset, d.stride_byte_offset, d.layout_type) for d in descs}) == 1
    assert [d.start_address for d in descs] == sorted(d.start_address for d in descs)
    other = "K" if e.major == "MN" else "MN"
    with pytest.raises(cs.LayoutError, match=f"Layout_{other}_"):
        check_mma_smem_layout(sL, other, t, kind)


def test_refusal_names_the_canonical_atom() -> None:
    sL = cs.make_layout((64, 64), (64, 1))         # a plain row-major tile of half_t
    with pytest.raises(cs.LayoutError, match=r"use tile_to_shape\(GMMA::Layout_K_SW128_Atom<half_t>, \(_64,_64\)\)"):
        check_mma_smem_layout(sL, "K", "half_t")


def test_symbolic_start_address() -> None:
    sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"), (64, 64))
    k = cs.Dyn("k", max=3)
    t = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), sL)
    tile = cs.local_tile(t, (64, 16), (0, k))
    d = make_gmma_desc(tile, "K")
    assert str(d.start_address) == "2*k"
    assert (d.leading_byte_offset, d.stride_byte_offset, d.layout_type) == (1, 64, "B128")


def test_misaligned_start_is_refused() -> None:
    sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW32_Atom<half_t>"), (64, 16))
    t = cs.make_tensor(cs.make_smem_ptr("S", "half_t", 4), sL)
    with pytest.raises(cs.LayoutError, match="16-byte boundary"):
        make_gmma_desc(t, "K")


def test_descriptor_word_prints_as_cute() -> None:
    sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"), (64, 64))
    tile = cs.local_tile(cs.make_tensor(cs.make_smem_ptr("S", "half_t"), sL), (64, 16), (0, 1))
    d = make_gmma_desc(tile, "K", base_address=1024)
    assert d.desc == 0x4000004000010042         # CuTe 4.7 compiled here (scripts/desc_oracle.py)
    assert str(d).splitlines()[0] == "GmmaDescriptor: 0x4000004000010042"
    assert make_umma_desc(tile, "K", base_address=1024).desc == 0x4000404000010042


def test_symbolic_extents_where_cute_allows_them() -> None:
    """MN-major: the MN extent may be dynamic when the canonical strides stay static (order (2,1));
    with the K-blocks after M (order (1,2)) the SBO is M-dependent, which CuTe cannot read at compile
    time; K-major needs a static MN-size (CuTe's static assert)."""
    M = cs.Dyn("M", divisible_by=64)
    a = cs.smem_layout_atom("GMMA::Layout_MN_SW128_Atom<half_t>")
    t = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), cs.tile_to_shape(a, (M, 16), (2, 1)))
    d = make_gmma_desc(t, "MN")
    assert (d.leading_byte_offset, d.stride_byte_offset, d.layout_type) == (128, 64, "B128")
    # the same fields as a static MN extent of any value with two atoms or more along MN (one atom:
    # its extent-1 mode's stride is 0, CuTe's LBO 0, unused)
    for m in (128, 256, 512):
        ts = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), cs.tile_to_shape(a, (m, 16), (2, 1)))
        assert make_gmma_desc(ts, "MN") == d
    t2 = cs.make_tensor(cs.make_smem_ptr("S", "half_t"), cs.tile_to_shape(a, (M, 16)))
    with pytest.raises(cs.LayoutError, match="must be static"):
        make_gmma_desc(t2, "MN")
    b = cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>")
    tk = cs.local_tile(cs.make_tensor(cs.make_smem_ptr("S", "half_t"), cs.tile_to_shape(b, (M, 64))), (M, 16), (0, 1))
    with pytest.raises(cs.LayoutError, match="MN-size must be static"):
        make_umma_desc(tk, "K")
