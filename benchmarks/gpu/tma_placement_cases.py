#!/usr/bin/env python3
"""The TMA loads benchmarks/gpu/tma_placement.cu runs, and where cute_sym says each element lands.

For each case (an element width, a canonical smem atom of each swizzle mode, K- and MN-major,
tiled to a CTA tile, or a plain smem layout; a gmem tensor; a tile coordinate), cute_sym's
``make_tma_copy`` gives the descriptor's fields (``cuTensorMapEncodeTiled``'s arguments), the
TMA coordinate tensor and the smem tensor partitioned by it: each TMA instruction's
coordinates and smem address. The expected smem content is cute_sym's placement: tile element
``c`` at the physical smem index ``sL(c)`` (the swizzled layout, evaluated position-independently
on a 1024-byte-aligned buffer), holding gmem element ``gL(origin + c)``. The GPU program issues
those instructions and compares the smem it reads back, element by element.

    python3 benchmarks/gpu/tma_placement_cases.py > benchmarks/gpu/tma_placement_cases.txt
"""
from __future__ import annotations

import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import cute_sym as cs  # noqa: E402
from cute_sym.tensor.arith_tuple import ArithmeticTuple, ScaledBasis, as_arithmetic_tuple  # noqa: E402

TYPES = {"half_t": 2, "float": 4, "int8_t": 1}
SWIZZLE_CODE = {"NONE": 0, "32B": 1, "64B": 2, "128B": 3}


def _coords(x: Any, rank: int) -> list[int]:
    if isinstance(x, ScaledBasis):
        x = as_arithmetic_tuple(x)
    if isinstance(x, ArithmeticTuple):
        v = [int(e) for e in x.values]
    else:
        v = [int(x)] if x != 0 else []
    return v + [0] * (rank - len(v))


def case(name: str, t: str, gmem: str, sL: Any, tile: tuple[int, ...], origin: tuple[int, ...]) -> str:
    gT = cs.make_tensor(cs.make_gmem_ptr("G", t), cs.parse(gmem))
    tma = cs.make_tma_copy("SM90_TMA_LOAD", gT, sL, tile)
    d = tma.get_tma_descriptor()
    rank = d.rank
    mT = tma.get_tma_tensor(cs.shape(gT))
    gTile = cs.local_tile(mT, tile, origin)
    sT = cs.make_tensor(cs.make_smem_ptr("S", t), sL)
    pS, pD = tma.get_slice(0).partition_S(gTile), tma.get_slice(0).partition_D(sT)
    box = cs.size(tma.Traits.AuxParams.TmaGmemBasis)
    nb = TYPES[t]
    ops = []
    for v in range(0, cs.size(pS), box):
        c = [a + b for a, b in zip(_coords(pS.data.coord, rank), _coords(pS.layout(v), rank))]
        off = (int(pD.data.offset) + int(pD.layout(v))) * nb
        ops.append(f"{off} " + " ".join(str(x) for x in c))
    # the placement: tile element c lands at smem element sL(c), holding gmem element gL(origin*tile + c)
    gl = gT.layout
    n = cs.size(cs.make_layout(tile))
    cos = int(cs.cosize(sL.layout_b if isinstance(sL, cs.ComposedLayout) else sL))
    expect = [-1] * cos
    for i in range(n):
        c, r = [], i
        for e in tile:              # column-major coordinate of i
            c.append(r % e)
            r //= e
        p = sL(*c)
        g = gl(*[o * s + x for o, s, x in zip(origin, tile, c)])
        expect[int(p)] = int(g)
    gsize = int(cs.cosize(gl))
    lines = [f"case {name} {nb} {rank} {gsize} {d.swizzle}",
             "gdim " + " ".join(str(int(x)) for x in d.global_dim),
             "gstride " + " ".join(str(int(x)) for x in d.global_strides[1:]),
             "box " + " ".join(str(x) for x in d.box_dim),
             f"swz {SWIZZLE_CODE[d.swizzle]}",
             f"ntma {len(ops)}", *ops,
             f"nsmem {cos}", " ".join(str(x) for x in expect),
             "end"]
    return "\n".join(lines)


def cases() -> list[str]:
    out = []
    for t in TYPES:
        for major in ("K", "MN"):
            for sw in ("INTER", "SW32", "SW64", "SW128"):
                atom = cs.smem_layout_atom(f"GMMA::Layout_{major}_{sw}_Atom<{t}>")
                am, ak = atom.layout_b.shape
                tile = (max(am, 64), max(ak, 32)) if major == "K" else (max(2 * am, 64), max(ak, 16))
                sL = cs.tile_to_shape(atom, tile)
                gmem = "(512,512):(512,_1)" if major == "K" else "(512,512):(_1,512)"
                out.append(case(f"{t}-{major}-{sw}-{tile[0]}x{tile[1]}", t, gmem, sL, tile, (1, 2)))
    # plain smem layouts: CuTe's 3-D example and a padded-free column-major tile
    out.append(case("float-3D-plain", "float", "(1024,32,64):(64,_1,65536)",
                    cs.parse("(_16,_8,_2):(_16,_1,_8)"), (16, 8, 2), (3, 1, 5)))
    out.append(case("half_t-MN-plain-64x32", "half_t", "(512,256):(_1,512)",
                    cs.make_layout((64, 32)), (64, 32), (2, 3)))
    # a K-major SW128 tile split into several boxes along M and K
    atom = cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>")
    out.append(case("half_t-K-SW128-128x128-4box", "half_t", "(512,512):(512,_1)",
                    cs.tile_to_shape(atom, (128, 128), (2, 1)), (128, 128), (1, 1)))
    return out


if __name__ == "__main__":
    cs_ = cases()
    print(len(cs_))
    print("\n".join(cs_))
