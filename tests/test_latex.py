"""CuTe's ``print_latex`` (issue 13): layouts, composed layouts, TV layouts, MMA, copy.

The text is read back node by node and compared with the object's function
(``L(m, n)``, the first ``(t, v)`` reaching a cell) and CuTe's palettes (copied
from ``cute/util/print_latex.hpp``); CuTe's own printed answers must match
character for character.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import sys
from contextlib import redirect_stdout
from typing import Any, Optional

import pytest
from hypothesis import given, settings, strategies as st

import cute_sym as cs
import corpus
import postconditions as pc

# CuTe's TikzColor_BWx8 and TikzColor_TV, as print_latex.hpp spells them
BW = ["black!00", "black!40", "black!20", "black!60", "black!10", "black!50", "black!30", "black!70"]
TV = ["{rgb,255:red,175;green,175;blue,255}", "{rgb,255:red,175;green,255;blue,175}",
      "{rgb,255:red,255;green,255;blue,175}", "{rgb,255:red,255;green,175;blue,175}",
      "{rgb,255:red,210;green,210;blue,255}", "{rgb,255:red,210;green,255;blue,210}",
      "{rgb,255:red,255;green,255;blue,210}", "{rgb,255:red,255;green,210;blue,210}"]

NODE = re.compile(r"\\node\[fill=(.+)\] at \((-?\d+),(-?\d+)\) \{(.*)\};")
TVTEXT = re.compile(r"\\shortstack\{T(\d+) \\\\ V(\d+)\}")
LABEL = re.compile(r"\\node at \((-?\d+),(-?\d+)\) \{\\Large\{\\texttt\{(\d+)\}\}\};")
GRID = re.compile(r"\\draw\[color=black,thick,shift=\{\(-0.5,-0.5\)\}\] \((-?\d+),(-?\d+)\) grid \((-?\d+),(-?\d+)\);")

VIEWS = os.path.join(corpus.CONFORMANCE, "views")
DIGESTS = os.path.join(corpus.HERE, "data", "picture_digests.json")


def picture_cases(op: str) -> list[dict[str, Any]]:
    """CuTe's pictures for ``op``: the corpus beside the checkout, else the digests copied
    into tests/data (``scripts/make_pictures.py --digests``; ``expect`` is then None)."""
    path = os.path.join(VIEWS, f"{op}.jsonl")
    if os.path.exists(path):
        with open(path) as fh:
            return [json.loads(line) for line in fh]
    with open(DIGESTS) as fh:
        return [c for c in json.load(fh) if c["op"] == op]


def mma_pictures(fn: str) -> list[dict[str, Any]]:
    """CuTe's ``fn`` (print_latex or print_svg) of make_tiled_mma(atom, layout) for every warp-level
    atom, as sha256 digests (scripts/mma_oracle.py --pictures: CuTe compiled with g++)."""
    with open(os.path.join(corpus.HERE, "data", "mma_pictures.jsonl")) as fh:
        rows = [json.loads(line) for line in fh]
    return [{**r, "id": f"{r['atom']}-{r['layout'][0]}x{r['layout'][1]}"} for r in rows if r["fn"] == fn]


def same_as_cute(got: str, case: dict[str, Any]) -> bool:
    got = got.strip("\n")
    if case.get("expect") is not None:
        want = case["expect"].strip("\n")
        if got != want:     # say where
            a, b = got.split("\n"), want.split("\n")
            k = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            print(f"{case['id']}: line {k + 1}: got {a[k] if k < len(a) else '<end>'!r}, "
                  f"want {b[k] if k < len(b) else '<end>'!r}")
        return got == want
    return hashlib.sha256(got.encode()).hexdigest() == case["sha256"]


def tiled_copy(a: dict[str, Any]) -> Any:
    return cs.make_tiled_copy(cs.Copy_Atom(a["copy_op"], a["type"]), cs.parse(a["thr_layout"]),
                              cs.parse(a["val_layout"]))


def body(text: str) -> list[str]:
    """The lines after CuTe's comment lines (the comments print the objects through the tensor layer)."""
    return [ln for ln in text.strip("\n").split("\n") if not ln.startswith("%")]


# ---------------------------------------------------------------- reading the text back
def read_layout(text: str) -> tuple[str, list[tuple[int, int, str, int]], tuple[int, int], list[tuple[int, int, int]]]:
    lines = text.split("\n")
    assert lines[0].startswith("% Layout: ")
    nodes = [(int(m.group(2)), int(m.group(3)), m.group(1), int(m.group(4))) for m in NODE.finditer(text)]
    g = GRID.search(text)
    assert g and (g.group(1), g.group(2)) == ("0", "0")
    labels = [(int(m.group(1)), int(m.group(2)), int(m.group(3))) for m in LABEL.finditer(text)]
    return lines[0][len("% Layout: "):], nodes, (int(g.group(3)), int(g.group(4))), labels


def append2(L: Any) -> Any:
    """CuTe's ``append<2>(L, Layout<_1,_0>{})``; a composed layout appends to its inner layout."""
    if isinstance(L, cs.ComposedLayout):
        return cs.ComposedLayout(L.layout_a, L.offset, append2(L.layout_b))
    return cs.append(L, cs.make_layout(1, 0), 2)


def check_layout_text(L: Any, text: str, shown: Optional[Any] = None) -> None:
    """Every post-condition of print_latex(L): header, nodes in row order with L(m,n) and its color, grid, labels."""
    shown = L if shown is None else shown
    R = shown if shown.rank() == 2 else append2(shown)
    M, N = int(cs.size(R[0])), int(cs.size(R[1]))
    header, nodes, grid, labels = read_layout(text)
    assert header == str(R)
    assert grid == (M, N)
    assert [(m, n) for m, n, _, _ in nodes] == [(m, n) for m in range(M) for n in range(N)]
    for m, n, color, idx in nodes:
        assert idx == int(R(m, n))
        assert color == BW[idx % 8]
    assert labels == [(m, -1, m) for m in range(M)] + [(-1, n, n) for n in range(N)]
    assert text.endswith("\\end{tikzpicture}\n\\end{document}\n")


def first_owner(tv: Any, M: int, N: int, swap: bool = False) -> dict[tuple[int, int], tuple[int, int]]:
    """(row, col) -> the first (t, v), thread-major, that the TV layout sends there (CuTe's ``filled``)."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for t in range(int(cs.size(tv[0]))):
        for v in range(int(cs.size(tv[1]))):
            idx = int(tv(t, v))
            rc = (idx // M, idx % M) if swap else (idx % M, idx // M)
            out.setdefault(rc, (t, v))
    return out


def read_tv_nodes(lines: list[str]) -> list[tuple[int, int, str, int, int]]:
    out = []
    for ln in lines:
        m = NODE.fullmatch(ln)
        if m:
            tvm = TVTEXT.fullmatch(m.group(4))
            assert tvm, ln
            out.append((int(m.group(2)), int(m.group(3)), m.group(1), int(tvm.group(1)), int(tvm.group(2))))
    return out


def check_tv_nodes(nodes: list[tuple[int, int, str, int, int]], owner: dict[tuple[int, int], tuple[int, int]],
                   dx: int = 0, dy: int = 0) -> None:
    got = {(m - dx, n - dy): (t, v) for m, n, _, t, v in nodes}
    assert len(got) == len(nodes)                      # each cell once
    assert got == owner
    assert [(t, v) for *_, t, v in nodes] == sorted((t, v) for *_, t, v in nodes)   # thread-major order
    assert all(color == TV[t % 8] for _, _, color, t, _ in nodes)


# ---------------------------------------------------------------- layouts
@pytest.mark.parametrize("case", picture_cases("print_latex"), ids=lambda c: c["id"])
def test_print_latex_is_cutes_text(case: dict[str, Any]) -> None:
    L = cs.parse(case["args"]["layout"])
    text = cs.latex(L)
    check_layout_text(L, text)
    assert same_as_cute(text, case)


LAYOUTS = ["(_4,_8):(_8,_1)", "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))", "_12:_3", "(_3,(_2,_2)):(_0,(_1,_9))",
           "((_2,_2),(_3,_4)):((_1,_2),(_16,_4))", "(_5,_7):(-1,_5)"]


@pytest.mark.parametrize("text", LAYOUTS)
def test_layout_nodes_follow_the_function(text: str) -> None:
    L = cs.parse(text)
    check_layout_text(L, cs.latex(L))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(0, 9)), min_size=1, max_size=4), st.integers(1, 3))
def test_layout_latex_property(modes: list[tuple[int, int]], split: int) -> None:
    k = min(split, len(modes))
    row, col = modes[:k], modes[k:] or [(1, 0)]
    L = cs.make_layout((tuple(s for s, _ in row), tuple(s for s, _ in col)),
                       (tuple(d for _, d in row), tuple(d for _, d in col)))
    check_layout_text(L, cs.latex(L))


def test_swizzled_layout() -> None:
    C = cs.parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")
    text = cs.latex(C)
    check_layout_text(C, text)
    assert text.startswith("% Layout: Sw<3,4,3> o _0 o (_8,_64):(_64,_1)\n")
    # the swizzle moves offsets: some cell differs from the plain layout
    assert any(int(C(m, n)) != int(C.layout_b(m, n)) for m in range(8) for n in range(64))
    R = cs.parse("Sw<2,0,2> o _0 o _16:_1")            # rank 1: a second mode _1:_0, as CuTe appends it
    check_layout_text(R, cs.latex(R))
    assert cs.latex(R).startswith("% Layout: Sw<2,0,2> o _0 o (_16,_1):(_1,_0)\n")


def test_symbolic_layout_needs_values() -> None:
    L = cs.parse("(M,_4):(_1,M)")
    with pytest.raises(cs.UndecidableError, match="bind"):
        cs.latex(L)
    for M in (1, 3, 8):
        text = cs.latex(L, {"M": M})
        check_layout_text(L, text, shown=cs.subs(L, {"M": M}))
        assert text.startswith(f"% Layout: ({M},_4):(_1,{M})\n")   # a run-time value prints as CuTe prints it


def test_errors() -> None:
    with pytest.raises(cs.RankError, match="rank <= 2"):
        cs.latex(cs.parse("(_2,_2,_2):(_1,_2,_4)"))
    with pytest.raises(cs.LayoutError, match="no picture of a tuple"):
        cs.latex((2, 3))
    with pytest.raises(cs.LayoutError):
        cs.latex_tv(cs.parse("(_4,_2):(_2,_1)"), (2, 2))    # reaches 7 in a 2x2 tile


def test_print_latex_prints_the_text() -> None:
    L = cs.parse("(_2,_3):(_3,_1)")
    buf = io.StringIO()
    with redirect_stdout(buf):
        cs.print_latex(L)
    assert buf.getvalue() == cs.latex(L)


# ---------------------------------------------------------------- TV layouts
@pytest.mark.parametrize("tv,tile", [
    ("((_4,_8),((_2,_2),(_1,_1))):((_32,_1),((_16,_8),(_0,_0)))", (16, 8)),
    ("((_2,_2),_4):((_0,_4),_1)", (4, 4)),                   # threads share cells: the first owns it
    ("(_128,(_8,_1)):(_8,(_1,_0))", (256, 4)),
])
def test_latex_tv(tv: str, tile: tuple[int, int]) -> None:
    L = cs.parse(tv)
    text = cs.latex_tv(L, tile)
    lines = text.split("\n")
    assert lines[0] == f"% Layout TV: {L}"
    check_tv_nodes(read_tv_nodes(lines), first_owner(L, *tile))
    labels = [(int(m.group(1)), int(m.group(2)), int(m.group(3))) for m in LABEL.finditer(text)]
    assert labels == [(m, -1, m) for m in range(tile[0])] + [(-1, n, n) for n in range(tile[1])]
    buf = io.StringIO()
    with redirect_stdout(buf):
        cs.print_latex_tv(L, tile)
    assert buf.getvalue() == text


# ---------------------------------------------------------------- MMA and copy
def _mma_sections(text: str) -> list[list[str]]:
    """The three node blocks (C, A, B), split at CuTe's grid lines."""
    out, cur = [], []
    for ln in body(text):
        if ln.startswith("\\draw"):
            out.append(cur)
            cur = []
        elif ln.startswith("\\node["):
            cur.append(ln)
    return out


@pytest.mark.parametrize("case", picture_cases("print_latex_mma"), ids=lambda c: c["id"])
def test_print_latex_mma_follows_the_tv_layouts(case: dict[str, Any]) -> None:
    mma = cs.make_tiled_mma(case["args"]["atom"], cs.parse(case["args"]["atom_layout"]))
    M, N, K = (int(x) for x in mma.tile_shape())
    text = cs.latex(mma)
    C, A, B = _mma_sections(text)
    check_tv_nodes(read_tv_nodes(C), first_owner(mma.get_layoutC_TV(), M, N))
    check_tv_nodes(read_tv_nodes(A), first_owner(mma.get_layoutA_TV(), M, K), dy=-K - 1)
    check_tv_nodes(read_tv_nodes(B), first_owner(mma.get_layoutB_TV(), N, K, swap=True), dx=-K - 1)


@pytest.mark.parametrize("case", picture_cases("print_latex_mma"), ids=lambda c: c["id"])
def test_print_latex_mma_is_cutes_text(case: dict[str, Any]) -> None:
    mma = cs.make_tiled_mma(case["args"]["atom"], cs.parse(case["args"]["atom_layout"]))
    assert same_as_cute(cs.latex(mma), case)
    assert cs.latex(mma.atom) == cs.latex(cs.make_tiled_mma(mma.atom))     # an atom prints as its TiledMMA


@pytest.mark.parametrize("case", mma_pictures("print_latex"), ids=lambda c: c["id"])
def test_print_latex_of_every_mma_atom_is_cutes_text(case: dict[str, Any]) -> None:
    assert same_as_cute(cs.latex(cs.make_tiled_mma(case["atom"], tuple(case["layout"]))), case)


def layout_pictures() -> list[dict[str, Any]]:
    """CuTe's print_layout text and print_latex digest of 300 random static rank-2 layouts (nested
    modes, zero strides; scripts/views_oracle.py --pictures --n 300 --seed 11)."""
    with open(os.path.join(corpus.HERE, "data", "layout_pictures.jsonl")) as fh:
        return [json.loads(line) for line in fh]


def test_print_latex_of_random_layouts_is_cutes_text() -> None:
    rows = layout_pictures()
    wrong = [r["layout"] for r in rows if hashlib.sha256(cs.latex(cs.parse(r["layout"])).strip("\n").encode()).hexdigest()
             != r["print_latex_sha256"]]
    assert len(rows) == 300 and not wrong, wrong[:5]


def test_print_layout_of_random_layouts_is_cutes_text() -> None:
    rows = layout_pictures()
    wrong = [r["layout"] for r in rows if cs.layout_table(cs.parse(r["layout"])).strip("\n") != r["print_layout"]]
    assert not wrong, wrong[:5]


def test_print_latex_of_tiled_copies_is_cutes_text() -> None:
    """CuTe's print_latex of every 3rd tiled copy of scripts/copy_oracle.py (its --pictures digests)."""
    with open(os.path.join(corpus.HERE, "data", "copy_pictures.jsonl")) as fh:
        rows = [json.loads(line) for line in fh]
    wrong = [r for r in rows if not same_as_cute(cs.latex(tiled_copy({**r, "copy_op": r["op"]})), {**r, "id": r["op"]})]
    assert len(rows) > 100 and not wrong, wrong[:3]


@pytest.mark.parametrize("case", picture_cases("print_latex_copy"), ids=lambda c: c["id"])
def test_print_latex_copy_follows_the_tv_layouts(case: dict[str, Any]) -> None:
    tc = tiled_copy(case["args"])
    M, N = (int(cs.product(m)) for m in tc.Tiler_MN)
    lines = body(cs.latex(tc))
    nodes = read_tv_nodes(lines)
    half = len(nodes) // 2
    check_tv_nodes(nodes[:half], first_owner(tc.get_layoutS_TV(), M, N))
    check_tv_nodes(nodes[half:], first_owner(tc.get_layoutD_TV(), M, N), dy=N + 3)


@pytest.mark.parametrize("case", picture_cases("print_latex_copy"), ids=lambda c: c["id"])
def test_print_latex_copy_is_cutes_text(case: dict[str, Any]) -> None:
    assert same_as_cute(cs.latex(tiled_copy(case["args"])), case)


# ---------------------------------------------------------------- command line
def test_cli_latex(tmp_path: Any, capsys: Any) -> None:
    out = tmp_path / "p.tex"
    p = subprocess.run([sys.executable, "-m", "cute_sym.cli", "--format", "latex", "-o", str(out),
                        "logical_divide(_24:_2, _4:_2)"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout == "", p.stderr
    L = cs.parse("(_4,(_2,_3)):(_4,(_2,_16))")
    check_layout_text(L, out.read_text())
    from cute_sym.cli import main
    assert main(["--format", "latex", "(M,_2):(_1,M)"]) == 2
    assert "--bind" in capsys.readouterr().err
    assert main(["--format", "latex", "--bind", "M=3", "(M,_2):(_1,M)"]) == 0
    check_layout_text(cs.parse("(3,_2):(_1,3)"), capsys.readouterr().out)
