#!/usr/bin/env python3
"""Write docs/pictures.md and its SVG images: the pictures of the seeds' examples.

    python3 scripts/make_pictures.py            # regenerate docs/pictures.md and docs/pictures/*.svg
    python3 scripts/make_pictures.py --check    # exit 1 if they differ from what this script writes
    python3 scripts/make_pictures.py --digests  # CuTe's picture answers as digests, for tests/data

Every picture is computed by cute_sym from the expression shown beside it (the
tutorial's examples: logical_divide, the products, a swizzled shared-memory
layout, an SM80 MMA); nothing is drawn by hand. tests/test_svg.py checks that
the committed files are what this script writes.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from typing import Any, Callable, NamedTuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)  # this checkout's cute_sym

import cute_sym as cs  # noqa: E402

DOCS = os.path.join(ROOT, "docs")


class Example(NamedTuple):
    name: str             # the image file's stem
    title: str
    cpp: str              # CuTe's C++ for the same object
    python: str           # the cute_sym expression (evaluated here; `cs` is cute_sym)
    cli: str              # the command line that draws it
    prose: str
    draw: Callable[[Any], str]


def _svg(x: Any) -> str:
    return cs.svg(x)


def _compact(x: Any) -> str:
    return cs.svg(x, cute=False)


EXAMPLES: list[Example] = [
    Example("logical_divide_24_2", "logical_divide(24:2, 4:2)",
            "logical_divide(make_layout(24, 2), make_layout(4, 2))",
            'cs.logical_divide(cs.parse("_24:_2"), cs.parse("_4:_2"))',
            "cute-sym --format svg 'logical_divide(_24:_2, _4:_2)'",
            "Mode 0 is the divisor `4:2` (every other element); mode 1, `(2,3):(2,16)`, what is left over: "
            "the complement of `4:2` in 24, through `24:2`.", _svg),
    Example("logical_divide_raked", "Collecting the tile: logical_divide(raked_prod, subtile)",
            "logical_divide(raked_prod, make_tile(Layout<_2,_3>{}, Layout<_2,_4>{}))",
            'cs.logical_divide(cs.parse("((_3,_2),(_4,_2)):((_16,_1),(_4,_2))"), cs.parse("(_2:_3,_2:_4)"))',
            "cute-sym --format svg 'logical_divide(((_3,_2),(_4,_2)):((_16,_1),(_4,_2)), (_2:_3,_2:_4))'",
            "Gathering `2:3` of the rows and `2:4` of the columns of the raked product gives the blocked "
            "product back.", _svg),
    Example("zipped_divide_8x8", "zipped_divide((8,8):(8,1), (4,2))",
            "zipped_divide(make_layout(Shape<_8,_8>{}, Stride<_8,_1>{}), make_tile(Layout<_4>{}, Layout<_2>{}))",
            'cs.zipped_divide(cs.parse("(_8,_8):(_8,_1)"), cs.parse("(_4:_1,_2:_1)"))',
            "cute-sym --format svg 'zipped_divide((_8,_8):(_8,_1), (_4:_1,_2:_1))'",
            "Each column is one 4x2 tile (mode 0); the columns walk over the tiles (mode 1).", _svg),
    Example("blocked_product", "blocked_product(tile, matrix_of_tiles)",
            "blocked_product(Layout<Shape<_2,_2>,Stride<_1,_2>>{}, Layout<Shape<_3,_4>,Stride<_4,_1>>{})",
            'cs.blocked_product(cs.parse("(_2,_2):(_1,_2)"), cs.parse("(_3,_4):(_4,_1)"))',
            "cute-sym --format svg 'blocked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))'",
            "The 2x2 column-major tile, repeated over a 3x4 row-major matrix of tiles: blocks.", _svg),
    Example("logical_product", "logical_product(tile, matrix_of_tiles)",
            "logical_product(Layout<Shape<_2,_2>,Stride<_1,_2>>{}, Layout<Shape<_3,_4>,Stride<_4,_1>>{})",
            'cs.logical_product(cs.parse("(_2,_2):(_1,_2)"), cs.parse("(_3,_4):(_4,_1)"))',
            "cute-sym --format svg 'logical_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))'",
            "Mode 0 is the tile, mode 1 the matrix of tiles: each column holds one copy of the tile.", _svg),
    Example("raked_product", "raked_product(tile, matrix_of_tiles)",
            "raked_product(Layout<Shape<_2,_2>,Stride<_1,_2>>{}, Layout<Shape<_3,_4>,Stride<_4,_1>>{})",
            'cs.raked_product(cs.parse("(_2,_2):(_1,_2)"), cs.parse("(_3,_4):(_4,_1)"))',
            "cute-sym --format svg 'raked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))'",
            "The tile's elements interleaved with the matrix of tiles (a cyclic distribution).", _svg),
    Example("swizzled_smem", "A swizzled shared-memory layout: Sw<3,3,3> o (8,64):(64,1)",
            "composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})",
            'cs.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")',
            "cute-sym --format svg 'Sw<3,3,3> o _0 o (_8,_64):(_64,_1)'",
            "An 8x64 row-major tile of 16-bit elements with the 128-byte swizzle: bits 6..8 of the offset (the "
            "row) are xor-ed into bits 3..5, so chunk k (8 elements, 16 bytes) of row r moves to chunk k xor r: "
            "the 8 rows' chunks k fall in 8 different 16-byte slots of a 128-byte line.", _svg),
    Example("sm80_mma_cute", "SM80_16x8x16_F16F16F16F16_TN: CuTe's print_svg",
            "print_svg(make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}))",
            'cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", cs.parse("(_1,_1)"))',
            "cute-sym --format svg 'make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN)'",
            "CuTe's own SVG, character for character: A (16x16, m down, k across) on the left, B (k down, "
            "n across) on top, C (16x8) at the bottom right; each cell names the thread and value that hold it.",
            _svg),
    Example("sm80_mma_2x2", "The same MMA over 2x2 atoms (128 threads): cute_sym's compact SVG",
            "make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{})",
            'cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", cs.parse("(_2,_2)"))',
            "python3 -c 'import cute_sym as cs; print(cs.svg(cs.make_tiled_mma(\"SM80_16x8x16_F16F16F16F16_TN\", "
            "cs.parse(\"(_2,_2)\")), cute=False))'",
            "The compact SVG: one CSS class per color, the same panels; threads 32..127 repeat the atom over "
            "the 32x16x16 tile.", _compact),
    Example("symbolic_bind", "A symbolic layout drawn at a value: (M,8):(1,M) at M=6",
            "make_layout(make_shape(M, Int<8>{}), make_stride(Int<1>{}, M))",
            'cs.parse("(M,_8):(_1,M)")',
            "cute-sym --format svg --bind M=6 '(M,_8):(_1,M)'",
            "The title keeps the symbolic layout and its offset formula; the cells are drawn at `M=6`.",
            lambda x: cs.svg(x, bind={"M": 6})),
]


def render() -> dict[str, str]:
    """Every file this script writes: path relative to the repository -> content."""
    out: dict[str, str] = {}
    md = ["# Pictures",
          "",
          "<!-- Generated by scripts/make_pictures.py; do not edit by hand. -->",
          "",
          "The tutorial's examples, drawn by cute_sym. CuTe's `print_latex` text comes from "
          "`cs.latex(x)` (`cs.print_latex(x)` prints it), CuTe's `print_svg` of an MMA from `cs.svg(x)`; "
          "every other picture is cute_sym's compact SVG: cells colored as `print_latex` colors them "
          "(offset modulo 8 in gray levels, thread modulo 8 in colors), row and column coordinates, the offset "
          "(or thread `T` and value `V`) in each cell, and the layout in the title. "
          "`cs.html(x)` (or `cute-sym --format html`) writes one offline page with the same SVG, "
          "where hovering a cell shows its coordinate (1-D and hierarchical), offset, thread and value. "
          "In Jupyter, a cell that ends in a layout, a composed layout, a swizzle, a tensor, a TiledMMA or a "
          "TiledCopy shows its picture with the same hover view (`_repr_html_`; the first 64x64 cells, and a "
          "line saying what was left out). Every picture and table is capped: `cs.svg`, `cs.html` and the "
          "command line draw the first 128 rows and columns (`full=True`, `--full` draw all) and say what "
          "they left out; CuTe's exact `print_latex` text is kept under the cap.",
          ""]
    for ex in EXAMPLES:
        x = eval(ex.python, {"cs": cs})  # noqa: S307 - our own expressions, listed above
        svg = ex.draw(x)
        out[f"docs/pictures/{ex.name}.svg"] = svg
        md += [f"## {ex.title}", "", ex.prose, "",
               f"* CuTe: `{ex.cpp}`",
               f"* cute_sym: `{ex.python}`" + (f" = `{x}`" if isinstance(x, cs.Layout) else ""),
               f"* command line: `{ex.cli}`", "",
               f"![{ex.title}](pictures/{ex.name}.svg)", ""]
    out["docs/pictures.md"] = "\n".join(md)
    return out


def digests() -> list[dict[str, Any]]:
    """CuTe's pictures in the shared corpus, as SHA-256 digests (tests/data/picture_digests.json)."""
    views = os.path.join(ROOT, "..", "shared", "conformance", "views")
    out = []
    for op in ("print_latex", "print_latex_mma", "print_latex_copy", "print_svg_mma"):
        with open(os.path.join(views, f"{op}.jsonl")) as fh:
            for line in fh:
                c = json.loads(line)
                out.append({"id": c["id"], "op": c["op"], "args": c["args"],
                            "sha256": hashlib.sha256(c["expect"].strip("\n").encode()).hexdigest()})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="compare with the files instead of writing them")
    ap.add_argument("--digests", action="store_true", help="write tests/data/picture_digests.json")
    o = ap.parse_args()
    if o.digests:
        with open(os.path.join(ROOT, "tests", "data", "picture_digests.json"), "w") as fh:
            json.dump(digests(), fh, indent=0)
            fh.write("\n")
        return 0
    files = render()
    stale = []
    for rel, text in files.items():
        path = os.path.join(ROOT, rel)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            stale.append(rel)
            if not o.check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
    if o.check:
        print("\n".join(f"stale: {p}" for p in stale) or "up to date")
        return 1 if stale else 0
    print(f"wrote {len(stale)} of {len(files)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
