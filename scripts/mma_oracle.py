#!/usr/bin/env python3
"""CuTe's own answers for every MMA atom cute_sym knows, printed by CuTe compiled here.

Writes ``tests/data/mma_oracle.jsonl``, one row per atom:

* ``traits``: ``Shape_MNK``, ``ThrID``, ``ALayout``, ``BLayout``, ``CLayout`` of
  ``MMA_Traits<Op>``, for every name of ``cute_sym.mma_atom_names(every_major=True)``;
* ``tiled``: for the warp-level atoms (and every 24th GMMA one), ``make_tiled_mma`` over the
  views corpus's atom layouts: ``get_layoutA/B/C_TV`` and ``partition_A/B/C`` of a static and a
  dynamic tensor for two threads.

With ``--pictures``, ``tests/data/mma_pictures.jsonl`` instead: the sha256 of CuTe's
``print_latex`` and ``print_svg`` of ``make_tiled_mma(atom, layout)`` for every warp-level atom
(layouts 1x1 and 2x2), as the views corpus compares them (leading and trailing blank lines
stripped).

With ``--atoms NAME ...``, only those atoms are compiled and their rows replace (or join) the
existing file's, in the order of ``mma_atom_names``: a table row added needs no run over all.

Host code only (g++ and the CUDA headers; the SM90 extended shapes enabled):

    python3 scripts/mma_oracle.py [--pictures] [--atoms NAME ...] [--include /path/to/cutlass/include] [--cuda /usr/local/cuda]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from cute_sym.core.errors import LayoutError  # noqa: E402
from cute_sym.layout import size  # noqa: E402
from cute_sym.tensor.mma import MMA_Atom  # noqa: E402
from cute_sym.tensor.atoms import MMA_Traits, mma_atom_names  # noqa: E402
from cute_sym.tensor.atoms import gmma_data as G  # noqa: E402
from cute_sym.tensor.atoms.mma_traits import _GMMA  # noqa: E402
from cute_host import default_include, run_chunks  # noqa: E402

WHATS = ("Shape_MNK", "ThrID", "ALayout", "BLayout", "CLayout")
ATOM_LAYOUTS = ((2, 2), (2, 1), (1, 4))
# (tensor layout as cute_sym reads it, its C++): a static row-major and a dynamic column-major one
TENSORS = (("(_128,_64):(_64,_1)", "make_shape(Int<128>{}, Int<64>{}), make_stride(Int<64>{}, Int<1>{})"),
           ("(256,128):(_1,256)", "make_shape(256, 128), make_stride(Int<1>{}, 256)"))
_GMMA_SAMPLE = 24       # every n-th GMMA spelling is tiled too (all of them are, in traits)


def thread_ids(n: int) -> list[int]:
    """The threads a tiled MMA of ``n`` threads is partitioned for: the second and the third last
    (those that exist)."""
    return sorted({min(1, n - 1), max(0, n - 3)})


def cpp_name(name: str) -> str:
    """CuTe's C++ spelling: GMMA's enums in their namespace; an alias template whose arguments
    are all defaulted (the ScaleIn pair of the TN atoms) takes ``<>``."""
    m = _GMMA.fullmatch(name)
    if m and not m[6]:
        suffix = m[5] or ""
        fam = next(f for f in G.FAMILIES if f.types == m[3] and f.K == int(m[2]) and suffix in f.suffixes)
        if fam.scales:
            return name + "<>"
    return re.sub(r"\bMajor::", "GMMA::Major::", name)


def cases() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    gmma = 0
    for name in mma_atom_names(every_major=True):
        if name.startswith("UniversalFMA"):
            continue
        tiled = True
        if name.startswith("SM90_"):
            tiled = gmma % _GMMA_SAMPLE == 0
            gmma += 1
        try:
            MMA_Atom(name)
        except LayoutError:
            tiled = False       # CuTe's own declaration does not compose (incongruent): no TiledMMA
        out.append({"atom": name, "tiled": tiled, "threads": int(size(MMA_Traits(name).ThrID))})
    return out


def program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#define CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED", "#include <cute/tensor.hpp>",
             "#include <cute/atom/mma_atom.hpp>", "using namespace cute;",
             "template <class T> void p(int id, char const* what, T const& x) {",
             "  printf(\"%d\\t%s\\t\", id, what); print(x); printf(\"\\n\"); }", "int main() {"]
    for i, c in group:
        op = cpp_name(c["atom"])
        lines.append("{")
        lines.append(f"  using Tr = MMA_Traits<{op}>;")
        for w in WHATS:
            lines.append(f"  p({i}, \"{w}\", typename Tr::{w}{{}});")
        if c["tiled"]:
            for a, b in ATOM_LAYOUTS:
                lay = f"{a}x{b}"
                lines.append(f"  {{ auto mma = make_tiled_mma({op}{{}}, make_layout(make_shape(Int<{a}>{{}}, Int<{b}>{{}})));")
                for w in "ABC":
                    lines.append(f"    p({i}, \"{lay}/get_layout{w}_TV\", mma.get_layout{w}_TV());")
                for t, (_, shape) in enumerate(TENSORS):
                    lines.append(f"    {{ auto T = make_tensor(make_gmem_ptr((float*)nullptr), {shape});")
                    for tid in thread_ids(c["threads"] * a * b):
                        for w in "ABC":
                            lines.append(f"      p({i}, \"{lay}/partition_{w}/{t}/{tid}\", "
                                         f"mma.get_slice({tid}).partition_{w}(T).layout());")
                    lines.append("    }")
                lines.append("  }")
        lines.append("}")
    lines.append("}")
    return "\n".join(lines) + "\n"


PICTURE_LAYOUTS = ((1, 1), (2, 2))


def picture_cases() -> list[dict[str, Any]]:
    return [{"atom": c["atom"], "layout": lay, "fn": fn} for c in cases() if c["tiled"] and not c["atom"].startswith("SM90_")
            for lay in PICTURE_LAYOUTS for fn in ("print_latex", "print_svg")]


def picture_program(group: list[tuple[int, dict[str, Any]]]) -> str:
    # each picture between two marker lines: the text is long and has tabs and newlines of its own
    lines = ["#include <cute/tensor.hpp>", "#include <cute/atom/mma_atom.hpp>", "#include <cute/util/print_svg.hpp>",
             "using namespace cute;", "int main() {"]
    for i, c in group:
        a, b = c["layout"]
        lines.append(f"  printf(\"@@begin {i}\\n\"); {c['fn']}(make_tiled_mma({cpp_name(c['atom'])}{{}}, "
                     f"make_layout(make_shape(Int<{a}>{{}}, Int<{b}>{{}})))); printf(\"\\n@@end {i}\\n\");")
    lines.append("}")
    return "\n".join(lines) + "\n"


def picture_digests(text: str) -> dict[int, str]:
    out: dict[int, str] = {}
    for part in text.split("@@begin ")[1:]:
        head, _, body = part.partition("\n")
        body, _, _ = body.rpartition("\n@@end ")
        out[int(head)] = hashlib.sha256(body.strip("\n").encode()).hexdigest()
    return out






def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--include", default=default_include())
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--chunk", type=int, default=60, help="atoms per compiled program")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--pictures", action="store_true", help="digests of print_latex/print_svg of tiled MMAs")
    ap.add_argument("--out")
    ap.add_argument("--atoms", nargs="+", help="only these atoms, merged into the existing file")
    o = ap.parse_args()
    if o.pictures:
        return pictures_main(o)
    out = o.out or os.path.join(ROOT, "tests", "data", "mma_oracle.jsonl")
    cs_ = cases()
    kept: dict[str, str] = {}
    if o.atoms:
        unknown = set(o.atoms) - {c["atom"] for c in cs_}
        if unknown:
            ap.error(f"not atoms of mma_atom_names: {sorted(unknown)}")
        with open(out) as fh:
            kept = {json.loads(line)["atom"]: line for line in fh}
        order = [c["atom"] for c in cs_]
        cs_ = [c for c in cs_ if c["atom"] in set(o.atoms)]
    outs = run_chunks(cs_, program, o.chunk, o.jobs, o.include, o.cuda)
    answers: dict[int, dict[str, str]] = {}
    for text in outs:
        for line in text.splitlines():
            i, what, val = line.split("\t")
            answers.setdefault(int(i), {})[what] = val
    for i, c in enumerate(cs_):
        kept[c["atom"]] = json.dumps({"atom": c["atom"], "expect": answers[i]}) + "\n"
    with open(out, "w") as fh:
        for name in (order if o.atoms else [c["atom"] for c in cs_]):
            if name in kept:
                fh.write(kept[name])
    print(f"{len(cs_)} atoms, {sum(len(a) for a in answers.values())} answers -> {out}")
    return 0


def pictures_main(o: Any) -> int:
    out = o.out or os.path.join(ROOT, "tests", "data", "mma_pictures.jsonl")
    cs_ = picture_cases()
    outs = run_chunks(cs_, picture_program, o.chunk, o.jobs, o.include, o.cuda)
    digests: dict[int, str] = {}
    for text in outs:
        digests.update(picture_digests(text))
    with open(out, "w") as fh:
        for i, c in enumerate(cs_):
            fh.write(json.dumps({**c, "sha256": digests[i]}) + "\n")
    print(f"{len(cs_)} pictures -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
