#!/usr/bin/env python3
"""CuTe 4.7's make_tma_copy / make_tma_atom / tma_partition, compiled here, against cute_sym's,
over random configurations (beyond the views corpus: more element types, swizzles, orders, 3-D
gmem, dynamic extents, multicast sizes, stores).

Each configuration prints what the views corpus prints (the TMA coordinate tensor, Tiler_MN,
TiledLayout_TV, the gmem basis, the swizzle, SrcLayout, a CTA's partition_S/D and their data,
tma_partition's tensors); cute_sym must print the same text.

    python3 scripts/tma_oracle.py [--n 40] [--seed 3] [--include /work/cutlass47/include] [--cuda /usr/local/cuda-13.0]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import random
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import cute_sym as cs  # noqa: E402
from cute_host import build  # noqa: E402

INCLUDE = os.environ.get("CUTE_INCLUDE", "/work/cutlass47/include")
CUDA = os.environ.get("CUDA_HOME", "/usr/local/cuda-13.0")
TYPES = ("half_t", "bfloat16_t", "float", "tfloat32_t", "float_e4m3_t", "int8_t")
BITS = {"half_t": 16, "bfloat16_t": 16, "float": 32, "tfloat32_t": 32, "float_e4m3_t": 8, "int8_t": 8}
PRELUDE = "#include <cstdio>\n#include <cute/tensor.hpp>\n#include <cute/atom/copy_traits_sm90_tma.hpp>\n" \
          "#include <cute/atom/copy_traits_sm100_tma.hpp>\n#include <cute/atom/mma_traits_sm90_gmma.hpp>\n" \
          "using namespace cute;\nint main() {\n"


def _int(v: int, static: bool) -> tuple[str, str]:
    """(cute_sym text, C++) of an integer."""
    return (f"_{v}", f"Int<{v}>{{}}") if static else (str(v), str(v))


def config(rng: random.Random, i: int) -> dict[str, Any]:
    t = rng.choice(TYPES)
    b = BITS[t]
    major = rng.choice(("K", "MN"))
    sw = rng.choice(("INTER", "SW32", "SW64", "SW128"))
    w = {"INTER": 128, "SW32": 256, "SW64": 512, "SW128": 1024}[sw] // b       # the atom's contiguous extent
    plain = rng.random() < 0.15
    if major == "K":
        tile = (rng.choice((64, 128)), w * rng.choice((1, 2)))
    else:
        tile = (min(w * rng.choice((1, 2, 4)), 256), rng.choice((8, 16, 32)))
    order = rng.choice(((1, 2), (2, 1)))
    op, cl = rng.choice((("SM90_TMA_LOAD", 1), ("SM90_TMA_LOAD_MULTICAST", 2), ("SM90_TMA_LOAD_MULTICAST", 4),
                         ("SM90_TMA_STORE", 1), ("SM100_TMA_2SM_LOAD", 2)))
    three = rng.random() < 0.35
    M, K = tile[0] * rng.choice((2, 3, 4)), tile[1] * rng.choice((2, 3, 5))
    stat = [rng.random() < 0.4 for _ in range(3)]
    shp = [_int(M, stat[0]), _int(K, stat[1])] + ([_int(rng.choice((2, 3, 7)), stat[2])] if three else [])
    if major == "K":
        strides = [_int(K, stat[1]), ("_1", "Int<1>{}")] + ([_int(M * K, stat[1])] if three else [])
    else:
        strides = [("_1", "Int<1>{}"), _int(M, stat[0])] + ([_int(M * K, stat[0])] if three else [])
    gmem = "(" + ",".join(s[0] for s in shp) + "):(" + ",".join(s[0] for s in strides) + ")"
    gcpp = ("make_layout(make_shape(" + ", ".join(s[1] for s in shp) + "), make_stride("
            + ", ".join(s[1] for s in strides) + "))")
    coord = [rng.randrange(M // tile[0]), rng.randrange(K // tile[1])] + ([1] if three else [])
    if plain:
        sl = cs.make_layout(tile) if major == "MN" else cs.make_layout(tile, (tile[1], 1))
        smem: dict[str, Any] = {"layout": str(sl)}
        scpp = (f"make_layout(make_shape(Int<{tile[0]}>{{}}, Int<{tile[1]}>{{}}), "
                + ("LayoutLeft{})" if major == "MN" else "LayoutRight{})"))
    else:
        atom = f"GMMA::Layout_{major}_{sw}_Atom<{t}>"
        smem = {"atom": atom, "shape": f"(_{tile[0]},_{tile[1]})", "order": list(order)}
        scpp = (f"tile_to_shape({atom}{{}}, make_shape(Int<{tile[0]}>{{}}, Int<{tile[1]}>{{}}), "
                f"Step<_{order[0]},_{order[1]}>{{}})")
    return {"id": i, "op": op, "type": t, "gmem": gmem, "gcpp": gcpp, "smem": smem, "scpp": scpp,
            "cta_tile": f"(_{tile[0]},_{tile[1]})", "tile": tile, "cluster_size": cl, "cta": cl - 1,
            "coord": "(" + ",".join(str(c) for c in coord) + ")", "ccpp": ", ".join(str(c) for c in coord)}


WHATS = ("get_tma_tensor", "Tiler_MN", "TiledLayout_TV", "Traits.AuxParams.TmaGmemBasis",
         "Traits.AuxParams.TmaSwizzle", "Traits.SrcLayout", "partition_S", "partition_S.data", "partition_D",
         "tma_partition.G", "tma_partition.G.data", "tma_partition.S")


def cpp(c: dict[str, Any]) -> str:
    i, (tm, tk) = c["id"], c["tile"]
    tile = f"make_shape(Int<{tm}>{{}}, Int<{tk}>{{}})"
    store = c["op"] == "SM90_TMA_STORE"
    src, dst = ("sT", "gTile") if store else ("gTile", "sT")
    p = f'printf("{i} %s ", '
    lines = [
        f"  {{ using T = {c['type']}; auto gT = make_tensor(make_gmem_ptr((T*)nullptr), {c['gcpp']});",
        f"    auto sL = {c['scpp']}; auto sT = make_tensor(make_smem_ptr((T*)nullptr), sL);",
        f"    auto tma = make_tma_copy({c['op']}{{}}, gT, sL, {tile}, Int<{c['cluster_size']}>{{}});",
        f"    auto mT = tma.get_tma_tensor(shape(gT)); auto gTile = local_tile(mT, {tile}, make_coord({c['ccpp']}));",
        f'    {p}"get_tma_tensor"); print(mT.layout()); printf("\\n");',
        f'    {p}"Tiler_MN"); print(typename decltype(tma)::Tiler_MN{{}}); printf("\\n");',
        f'    {p}"TiledLayout_TV"); print(typename decltype(tma)::TiledLayout_TV{{}}); printf("\\n");',
        f'    {p}"Traits.AuxParams.TmaGmemBasis"); print(typename decltype(tma)::Traits::AuxParams::TmaGmemBasis{{}}); printf("\\n");',
        f'    {p}"Traits.AuxParams.TmaSwizzle"); print(typename decltype(tma)::Traits::AuxParams::TmaSwizzle{{}}); printf("\\n");',
        f'    {p}"Traits.SrcLayout"); print(typename decltype(tma)::Traits::SrcLayout{{}}); printf("\\n");',
        f'    {p}"partition_S"); print(tma.get_slice({c["cta"]}).partition_S({src}).layout()); printf("\\n");',
        f'    {p}"partition_D"); print(tma.get_slice({c["cta"]}).partition_D({dst}).layout()); printf("\\n");',
    ]
    if not store:
        lines.append(f'    {p}"partition_S.data"); print(tma.get_slice({c["cta"]}).partition_S(gTile).data()); printf("\\n");')
    rank_g = c["gmem"].count(",") // 2 + 1
    under = ", ".join(["_"] * rank_g)
    lines += [
        f"    auto atom = make_tma_atom({c['op']}{{}}, gT, sL, {tile}, Int<{c['cluster_size']}>{{}});",
        f"    auto aTile = local_tile(atom.get_tma_tensor(shape(gT)), {tile}, make_coord({under}));",
        f"    auto [tAgA, tAsA] = tma_partition(atom, Int<{c['cta']}>{{}}, make_layout(Int<{c['cluster_size']}>{{}}),"
        f" group_modes<0,2>(sT), group_modes<0,2>(aTile));",
        f'    {p}"tma_partition.G"); print(tAgA.layout()); printf("\\n");',
        f'    {p}"tma_partition.G.data"); print(tAgA.data()); printf("\\n");',
        f'    {p}"tma_partition.S"); print(tAsA.layout()); printf("\\n"); }}',
    ]
    return "\n".join(lines) + "\n"


def mine(c: dict[str, Any], what: str) -> str:
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "..", "shared", "conformance", "views"))
    import check  # the views corpus's own calls
    a = {k: c[k] for k in ("op", "type", "gmem", "smem", "cta_tile", "cluster_size", "cta", "coord")}
    a["what"] = what
    if what.startswith("tma_partition"):
        a["coord"] = "(" + ",".join(["_"] * (c["gmem"].count(",") // 2 + 1)) + ")"
    try:
        got = check.tma_copy(a)
    except Exception as e:  # noqa: BLE001
        return f"<{type(e).__name__}: {e}>"
    return got if isinstance(got, str) else str(got)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--chunk", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--include", default=INCLUDE)
    ap.add_argument("--cuda", default=CUDA)
    o = ap.parse_args()
    rng = random.Random(o.seed)
    cfgs = [config(rng, i) for i in range(o.n)]
    groups = [cfgs[k:k + o.chunk] for k in range(0, len(cfgs), o.chunk)]

    def run(kg: tuple[int, list[dict[str, Any]]]) -> str:
        with tempfile.TemporaryDirectory() as work:
            exe = build(PRELUDE + "".join(cpp(c) for c in kg[1]) + "}\n", o.include, o.cuda, work, f"t{kg[0]}")
            if exe is None:
                return f"COMPILE-FAIL {kg[0]}\n"
            return subprocess.run([exe], capture_output=True, text=True).stdout

    with concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        outs = list(ex.map(run, enumerate(groups)))
    total = bad = 0
    for out in outs:
        for line in out.splitlines():
            if line.startswith("COMPILE-FAIL"):
                print(line)
                bad += 1
                continue
            i, what, text = line.split(" ", 2)
            total += 1
            got = mine(cfgs[int(i)], what)
            if got != text.strip():
                bad += 1
                print(f"DIFF {cfgs[int(i)]['op']} {cfgs[int(i)]['type']} {cfgs[int(i)]['gmem']} {cfgs[int(i)]['smem']} "
                      f"{what}: CuTe {text.strip()}  cute_sym {got}")
    print(f"tma oracle: {total - bad}/{total} agree over {len(cfgs)} configurations")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
