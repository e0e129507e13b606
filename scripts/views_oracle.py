#!/usr/bin/env python3
"""CuTe's own answers for tensor tiling and partitioning, printed by CuTe compiled here.

Writes ``tests/data/views_oracle.jsonl``: seeded random cases of the views corpus's kinds
(``local_tile``, ``outer_partition``, ``local_partition``, ``make_identity_tensor``) over
rank-2 and rank-3 tensors whose extents and strides are each static or dynamic, column-major,
row-major or padded, with tiles that need not divide the tensor (CuTe's ceil_div extents).
Each row holds the arguments as cute_sym reads them and the layout CuTe prints. With
``--pictures``, ``tests/data/layout_pictures.jsonl`` instead: random static rank-2 layouts
(nested modes, zero strides) with CuTe's ``print_layout`` text and the
sha256 of its ``print_latex`` (leading and trailing blank lines stripped, as the views corpus
compares pictures). Host code only (g++ and the CUDA headers):

    python3 scripts/views_oracle.py [--n 400] [--seed 7] [--pictures] [--include /path/to/cutlass/include]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from cute_host import default_include, run_chunks  # noqa: E402


def _int(v: int, static: bool) -> tuple[str, str]:
    """(cute_sym text, C++) of one integer."""
    return (f"_{v}", f"Int<{v}>{{}}") if static else (str(v), str(v))


def _tuple(parts: list[tuple[str, str]], maker: str) -> tuple[str, str]:
    return "(" + ",".join(p[0] for p in parts) + ")", f"{maker}(" + ", ".join(p[1] for p in parts) + ")"


def tensor(rng: random.Random) -> tuple[str, str, list[int]]:
    """A tensor layout: (text, C++ shape and stride arguments, extents)."""
    rank = rng.choice((2, 2, 2, 3))
    extents = [rng.choice((8, 12, 16, 24, 32, 48, 64, 96, 128, 256)) for _ in range(rank)]
    static = [rng.random() < 0.5 for _ in range(rank)]
    order = list(range(rank))
    kind = rng.choice(("col", "row", "pad", "perm"))
    if kind == "row":
        order.reverse()
    elif kind == "perm":
        rng.shuffle(order)
    strides = [0] * rank
    run = 1
    for k in order:
        strides[k] = run
        run *= extents[k] + (rng.choice((0, 1, 4)) if kind == "pad" and run > 1 else 0)
    sst = [d == 1 or rng.random() < 0.5 for d in strides]      # any mix a user may write
    shape = _tuple([_int(e, s) for e, s in zip(extents, static)], "make_shape")
    stride = _tuple([_int(d, s) for d, s in zip(strides, sst)], "make_stride")
    return f"{shape[0]}:{stride[0]}", f"{shape[1]}, {stride[1]}", extents


def case(rng: random.Random, k: int) -> dict[str, Any]:
    op = ("local_tile", "outer_partition", "local_partition", "identity_tensor")[k % 4]
    text, cpp, extents = tensor(rng)
    rank = len(extents)
    if op == "identity_tensor":
        static = [rng.random() < 0.5 for _ in extents]
        shape = _tuple([_int(e, s) for e, s in zip(extents, static)], "make_shape")
        return {"op": op, "args": {"shape": shape[0]}, "cpp": f"print(make_identity_tensor({shape[1]}).layout());"}
    head = f"auto T = make_tensor(make_gmem_ptr((float*)nullptr), {cpp}); "
    if op == "local_partition":
        thr = [rng.choice((1, 2, 4, 8, 16, 32)) for _ in range(rank)]
        while 1 < (n := _prod(thr)) and n > 256:
            thr[rng.randrange(rank)] = 1
        row_major = rng.random() < 0.5
        strides, run = [0] * rank, 1
        for j in (reversed(range(rank)) if row_major else range(rank)):
            strides[j], run = run, run * thr[j]
        thr_text = "(" + ",".join(f"_{t}" for t in thr) + "):(" + ",".join(f"_{d}" for d in strides) + ")"
        thr_cpp = (f"make_layout(make_shape({', '.join(f'Int<{t}>{{}}' for t in thr)}), "
                   f"make_stride({', '.join(f'Int<{d}>{{}}' for d in strides)}))")
        idx = rng.randrange(_prod(thr))
        return {"op": op, "args": {"tensor_layout": text, "thr_layout": thr_text, "thr_idx": idx},
                "cpp": head + f"print(local_partition(T, {thr_cpp}, {idx}).layout());"}
    tile = [rng.choice((2, 4, 8, 16, 32, 64)) for _ in range(rank)]
    coord = [rng.randrange(-(-e // t)) for e, t in zip(extents, tile)]
    tiler = "(" + ",".join(f"_{t}" for t in tile) + ")"
    tiler_cpp = "make_shape(" + ", ".join(f"Int<{t}>{{}}" for t in tile) + ")"
    return {"op": op, "args": {"tensor_layout": text, "tiler": tiler, "coord": "(" + ",".join(map(str, coord)) + ")"},
            "cpp": head + f"print({op}(T, {tiler_cpp}, make_coord({', '.join(map(str, coord))})).layout());"}


def _prod(xs: list[int]) -> int:
    out = 1
    for x in xs:
        out *= x
    return out


def program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#include <cute/tensor.hpp>", "using namespace cute;", "int main() {"]
    for i, c in group:
        lines.append(f"  {{ printf(\"{i}\\t\"); {c['cpp']} printf(\"\\n\"); }}")
    lines.append("}")
    return "\n".join(lines) + "\n"






def picture_layout(rng: random.Random) -> tuple[str, str]:
    """A static rank-2 layout (a mode may nest): (text, C++)."""
    def shape(depth: int) -> Any:
        if depth and rng.random() < 0.3:
            return tuple(shape(depth - 1) for _ in range(rng.choice((1, 2, 2))))
        return rng.choice((1, 2, 2, 3, 4, 4, 8))

    def ints(t: Any, f: Any) -> Any:
        return tuple(ints(e, f) for e in t) if isinstance(t, tuple) else f(t)

    shp = (shape(1), shape(1))      # CuTe prints rank-2 layouts only
    # no negative strides: CuTe's colour of a negative offset reads outside its table
    strides = ints(shp, lambda _: rng.choice((0, 1, 1, 2, 3, 4, 8, 16)))
    if rng.random() < 0.4:
        run = [1]

        def compact(t: Any) -> Any:
            out = run[0]
            run[0] *= t
            return out
        strides = ints(shp, compact)

    def text(t: Any) -> str:
        return "(" + ",".join(text(e) for e in t) + ")" if isinstance(t, tuple) else f"_{t}"

    def cpp(t: Any, maker: str) -> str:
        return f"{maker}(" + ", ".join(cpp(e, maker) for e in t) + ")" if isinstance(t, tuple) else f"Int<{t}>{{}}"
    return f"{text(shp)}:{text(strides)}", f"make_layout({cpp(shp, 'make_shape')}, {cpp(strides, 'make_stride')})"


def picture_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    # each printout between marker lines: it has newlines of its own
    lines = ["#include <cute/tensor.hpp>", "using namespace cute;", "int main() {"]
    for i, c in group:
        for fn in ("print_layout", "print_latex"):
            lines.append(f"  printf(\"@@begin {i} {fn}\\n\"); {fn}({c['cpp']}); printf(\"\\n@@end\\n\");")
    lines.append("}")
    return "\n".join(lines) + "\n"


def pictures_main(o: Any) -> int:
    rng = random.Random(o.seed)
    cs_ = []
    for _ in range(o.n):
        t, c = picture_layout(rng)
        cs_.append({"layout": t, "cpp": c})
    outs = run_chunks(cs_, picture_program, 40, o.jobs, o.include, o.cuda)
    got: dict[int, dict[str, str]] = {}
    for text in outs:
        for part in text.split("@@begin ")[1:]:
            head, _, body = part.partition("\n")
            body, _, _ = body.rpartition("\n@@end")
            i, fn = head.split()
            if fn == "print_layout":
                got.setdefault(int(i), {})[fn] = body.strip("\n")
            else:
                got.setdefault(int(i), {})["print_latex_sha256"] = hashlib.sha256(body.strip("\n").encode()).hexdigest()
    with open(o.out, "w") as fh:
        for i, c in enumerate(cs_):
            fh.write(json.dumps({**c, **got[i]}) + "\n")
    print(f"{len(cs_)} layouts -> {o.out}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", default=default_include())
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--pictures", action="store_true", help="print_layout and print_latex of random layouts")
    ap.add_argument("--out")
    o = ap.parse_args()
    if o.pictures:
        o.out = o.out or os.path.join(ROOT, "tests", "data", "layout_pictures.jsonl")
        return pictures_main(o)
    o.out = o.out or os.path.join(ROOT, "tests", "data", "views_oracle.jsonl")
    rng = random.Random(o.seed)
    cs_ = [case(rng, k) for k in range(o.n)]
    outs = run_chunks(cs_, program, -(-len(cs_) // (o.jobs * 2)), o.jobs, o.include, o.cuda)
    answers: dict[int, str] = {}
    for text in outs:
        for line in text.splitlines():
            i, val = line.split("\t")
            answers[int(i)] = val
    with open(o.out, "w") as fh:
        for i, c in enumerate(cs_):
            fh.write(json.dumps({**c, "expect": answers[i]}) + "\n")
    print(f"{len(cs_)} cases -> {o.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
