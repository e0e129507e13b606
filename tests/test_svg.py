"""SVG pictures (issue 13): CuTe's ``print_svg`` of an MMA exactly, and cute_sym's compact SVG.

The compact SVG is parsed as XML and read back cell by cell (fill color from the
CSS classes, text from the ``<tspan>``); every cell must hold the object's value
(``L(m, n)``, or the first ``(t, v)`` reaching it) and the color ``print_latex``
gives it (read from the TikZ text of the same object).
"""
from __future__ import annotations

import io
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from contextlib import redirect_stdout
from typing import Any, Optional

import pytest

import cute_sym as cs
from test_latex import NODE, append2, first_owner, mma_pictures, picture_cases, same_as_cute, tiled_copy

NS = {"s": "http://www.w3.org/2000/svg"}
CUTE_SVG_TV = ["175,175,255", "175,255,175", "255,255,175", "255,175,175",
               "210,210,255", "210,255,210", "255,255,210", "255,210,210"]   # CuTe's SVGColor_TV

Cell = dict[str, Any]


def tikz_rgb(color: str) -> tuple[int, int, int]:
    """The RGB of a TikZ color print_latex writes: ``black!p`` or ``{rgb,255:red,r;green,g;blue,b}``."""
    m = re.fullmatch(r"black!(\d+)", color)
    if m:
        v = (255 * (100 - int(m.group(1))) + 50) // 100     # p% black on white, rounded half up
        return (v, v, v)
    m = re.fullmatch(r"\{rgb,255:red,(\d+);green,(\d+);blue,(\d+)\}", color)
    assert m, color
    return (int(m.group(1)), int(m.group(2)), int(m.group(3)))


def css_fills(root: ET.Element) -> dict[str, tuple[int, int, int]]:
    style = "".join(e.text or "" for e in root.iter("{http://www.w3.org/2000/svg}style"))
    out = {}
    for cls, hexa in re.findall(r"\.(cs-f[a-z]\d+)\{fill:#([0-9a-f]{6})\}", style):
        out[cls] = (int(hexa[0:2], 16), int(hexa[2:4], 16), int(hexa[4:6], 16))
    return out


def read_panels(svg: str) -> list[dict[str, Any]]:
    """Each panel of a compact SVG: its geometry and ``cells[(r, c)] = {"fill": rgb, "text": [...]}``."""
    root = ET.fromstring(svg)
    fills = css_fills(root)
    panels = []
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("class") != "cs-panel":
            continue
        geo = {k: int(g.get(f"data-{k}", "0")) for k in ("x", "y", "w", "h", "rows", "cols")}
        x0, y0, w, h = geo["x"], geo["y"], geo["w"], geo["h"]
        cells: dict[tuple[int, int], Cell] = {}
        for p in g.findall("s:path", NS):
            cls = p.get("class", "")
            if not cls.startswith("cs-f"):
                continue
            for x, y, dw, dh, back in re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-(\d+)z", p.get("d", "")):
                assert dw == back and int(dh) == h and int(dw) % w == 0
                r, c0 = (int(y) - y0) // h, (int(x) - x0) // w
                assert (int(y) - y0) % h == 0 and (int(x) - x0) % w == 0
                for c in range(c0, c0 + int(dw) // w):
                    assert (r, c) not in cells, "a cell filled twice"
                    cells[(r, c)] = {"fill": fills[cls], "text": []}
        for t in g.findall("s:text", NS):
            if t.get("class") == "cs-l":
                continue
            y = float(t.get("y", "0"))
            for sp in t.findall("s:tspan", NS):
                x = float(sp.get("x", "0"))
                r, c = int((y - y0) // h), int((x - x0) // w)
                assert x == x0 + c * w + w // 2, "text centered in its cell"
                cells.setdefault((r, c), {"fill": None, "text": []})["text"].append(sp.text)
        panels.append({"name": g.get("data-name"), **geo, "cells": cells})
    return panels


def latex_colors(text: str, dx: int = 0, dy: int = 0) -> dict[tuple[int, int], tuple[int, int, int]]:
    return {(int(m.group(2)) - dx, int(m.group(3)) - dy): tikz_rgb(m.group(1)) for m in NODE.finditer(text)}


def check_layout_svg(L: Any, svg: str, shown: Optional[Any] = None,
                     rows: Optional[int] = None, cols: Optional[int] = None) -> None:
    """Every cell of the (clipped) grid holds L(m, n), colored as print_latex colors it."""
    shown = L if shown is None else shown
    R = shown if shown.rank() == 2 else append2(shown)
    M, N = int(cs.size(R[0])), int(cs.size(R[1]))
    M, N = min(M, rows or M), min(N, cols or N)
    (p,) = read_panels(svg)
    assert (p["rows"], p["cols"]) == (M, N)
    colors = latex_colors(cs.latex(shown))
    assert set(p["cells"]) == {(m, n) for m in range(M) for n in range(N)}
    for (m, n), cell in p["cells"].items():
        assert cell["text"] == [str(int(R(m, n)))]
        assert cell["fill"] == colors[(m, n)]


def check_tv_panel(p: dict[str, Any], owner: dict[tuple[int, int], tuple[int, int]]) -> None:
    got = {rc: (int(c["text"][0][1:]), int(c["text"][1][1:])) for rc, c in p["cells"].items()}
    assert got == {rc: tv for rc, tv in owner.items() if rc[0] < p["rows"] and rc[1] < p["cols"]}
    for rc, c in p["cells"].items():
        assert [c["text"][0][0], c["text"][1][0]] == ["T", "V"]
        assert c["fill"] == tuple(int(x) for x in CUTE_SVG_TV[got[rc][0] % 8].split(","))


# ---------------------------------------------------------------- layouts
LAYOUTS = ["(_4,_8):(_8,_1)", "((_2,_3),(_2,_4)):((_1,_16),(_2,_4))", "_12:_3", "(_3,(_2,_2)):(_0,(_1,_9))",
           "(_16,_16):(_16,_1)", "Sw<3,0,3> o _0 o (_8,_8):(_8,_1)", "Sw<2,1,2> o _0 o ((_4,_2),_8):((_1,_32),_4)"]


@pytest.mark.parametrize("text", LAYOUTS)
def test_layout_cells_read_back(text: str) -> None:
    L = cs.parse(text)
    svg = cs.svg(L)
    check_layout_svg(L, svg)
    root = ET.fromstring(svg)
    assert root.findtext("s:title", namespaces=NS) == str(L)
    assert str(L) in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]


def test_symbolic_layout_at_values() -> None:
    L = cs.parse("(M,(_2,N)):(_1,(M,2*M))")
    with pytest.raises(cs.UndecidableError, match="bind"):
        cs.svg(L)
    for M, N in ((1, 1), (3, 2), (4, 5)):
        svg = cs.svg(L, bind={"M": M, "N": N})
        check_layout_svg(L, svg, shown=cs.subs(L, {"M": M, "N": N}))
        titles = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text")
                  if t.get("class") == "cs-ttl"]
        assert titles[0] == str(L)
        assert titles[1].startswith("offset(m,n) = ") and "M" in titles[1]
        assert titles[2] == f"drawn at M={M}, N={N}: {cs.subs(L, {'M': M, 'N': N})}"


def test_clipped_layout_says_what_is_left_out() -> None:
    L = cs.parse("(_100,_70):(_70,_1)")
    svg = cs.svg(L, max_rows=8, max_cols=16)
    check_layout_svg(L, svg, rows=8, cols=16)
    note = [t.text for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "cs-note"]
    assert note == ["showing the first 8x16 cells of 100x70: rows 8..99 and columns 16..69 left out"]


# ---------------------------------------------------------------- TV, MMA, copy
def test_tv_cells_read_back() -> None:
    L = cs.parse("((_4,_8),((_2,_2),(_1,_1))):((_32,_1),((_16,_8),(_0,_0)))")
    (p,) = read_panels(cs.svg_tv(L, (16, 8)))
    check_tv_panel(p, first_owner(L, 16, 8))
    assert len(p["cells"]) == 128


@pytest.mark.parametrize("atom,atoms", [("SM80_16x8x16_F16F16F16F16_TN", "(_2,_2)"),
                                        ("SM70_8x8x4_F32F16F16F32_TT", "(_1,_1)")])
def test_mma_compact_svg(atom: str, atoms: str) -> None:
    mma = cs.make_tiled_mma(atom, cs.parse(atoms))
    M, N, K = (int(x) for x in mma.tile_shape())
    C, A, B = read_panels(cs.svg(mma, cute=False))
    assert [C["name"], A["name"], B["name"]] == ["C", "A", "B"]
    check_tv_panel(C, first_owner(mma.get_layoutC_TV(), M, N))
    check_tv_panel(A, first_owner(mma.get_layoutA_TV(), M, K))
    check_tv_panel(B, first_owner(mma.get_layoutB_TV(), N, K, swap=True))
    assert A["y"] == C["y"] and B["x"] == C["x"] and A["x"] < C["x"] and B["y"] < C["y"]   # CuTe's arrangement


def test_copy_compact_svg() -> None:
    tc = tiled_copy({"copy_op": "UniversalCopy<uint64_t>", "type": "half_t",
                     "thr_layout": "(_16,_16):(_16,_1)", "val_layout": "(_1,_4)"})
    M, N = (int(cs.product(m)) for m in tc.Tiler_MN)
    S, D = read_panels(cs.svg(tc))
    check_tv_panel(S, first_owner(tc.get_layoutS_TV(), M, N))
    check_tv_panel(D, first_owner(tc.get_layoutD_TV(), M, N))


# ---------------------------------------------------------------- CuTe's print_svg
def read_cute_svg(text: str) -> dict[tuple[int, int], tuple[str, int, int]]:
    """(x, y) of each rect -> (fill, thread, value), from CuTe's rect/text/text triples."""
    out = {}
    lines = [ln for ln in text.split("\n") if ln.startswith("<rect")]
    texts = re.findall(r'<text x="(\d+)" y="(\d+)"[^>]*font-size="8">([TV])(\d+)</text>', text)
    for k, ln in enumerate(lines):
        m = re.match(r'<rect x="(\d+)" y="(\d+)" width="20" height="20" fill="rgb\(([\d,]+)\)" stroke="black" ?/>', ln)
        assert m, ln
        (_, _, _, t), (_, _, _, v) = texts[2 * k], texts[2 * k + 1]
        out[(int(m.group(1)), int(m.group(2)))] = (m.group(3), int(t), int(v))
    return out


@pytest.mark.parametrize("case", picture_cases("print_svg_mma"), ids=lambda c: c["id"])
def test_print_svg_mma_follows_the_tv_layouts(case: dict[str, Any]) -> None:
    mma = cs.make_tiled_mma(case["args"]["atom"], cs.parse(case["args"]["atom_layout"]))
    M, N, K = (int(x) for x in mma.tile_shape())
    text = cs.svg(mma)
    ET.fromstring("\n".join(ln for ln in text.split("\n") if not ln.startswith("<!--")))   # XML
    cells = read_cute_svg(text)
    want = {}
    for (m, n), (t, v) in first_owner(mma.get_layoutC_TV(), M, N).items():
        want[((n + K + 2) * 20, (m + K + 2) * 20)] = (CUTE_SVG_TV[t % 8], t, v)
    for (m, k), (t, v) in first_owner(mma.get_layoutA_TV(), M, K).items():
        want[((k + 1) * 20, (m + K + 2) * 20)] = (CUTE_SVG_TV[t % 8], t, v)
    for (k, n), (t, v) in first_owner(mma.get_layoutB_TV(), N, K, swap=True).items():
        want[((n + K + 2) * 20, (k + 1) * 20)] = (CUTE_SVG_TV[t % 8], t, v)
    assert cells == want
    assert f'viewBox="0 0 {(K + N + 2) * 20} {(K + M + 2) * 20}"' in text


@pytest.mark.parametrize("case", picture_cases("print_svg_mma"), ids=lambda c: c["id"])
def test_print_svg_mma_is_cutes_text(case: dict[str, Any]) -> None:
    mma = cs.make_tiled_mma(case["args"]["atom"], cs.parse(case["args"]["atom_layout"]))
    buf = io.StringIO()
    with redirect_stdout(buf):
        cs.print_svg(mma)
    assert buf.getvalue() == cs.svg(mma)
    assert same_as_cute(buf.getvalue(), case)
    assert cs.svg(mma.atom) == cs.svg(cs.make_tiled_mma(mma.atom))          # an atom draws as its TiledMMA


@pytest.mark.parametrize("case", mma_pictures("print_svg"), ids=lambda c: c["id"])
def test_print_svg_of_every_mma_atom_is_cutes_text(case: dict[str, Any]) -> None:
    assert same_as_cute(cs.svg(cs.make_tiled_mma(case["atom"], tuple(case["layout"]))), case)


def test_print_svg_needs_an_mma_for_cutes_format() -> None:
    with pytest.raises(cs.LayoutError, match="MMA only"):
        cs.svg(cs.parse("_4:_1"), cute=True)


# ---------------------------------------------------------------- size, speed, notebooks
def tv_128x128() -> Any:
    mn = cs.raked_product(cs.parse("(_32,_4):(_4,_1)"), cs.parse("(_4,_32):(_1,_4)"))
    return cs.composition(cs.right_inverse(mn), cs.make_layout((128, 128)))


def test_128x128_tv_is_small() -> None:
    """(Its speed is measured in benchmarks/bench_pictures.py, not asserted here.)"""
    tv = tv_128x128()
    svg = cs.svg_tv(tv, (128, 128))
    assert len(svg) < 64 * 128 * 128                    # bytes per cell, T/V text included
    assert len(svg) < len(cs.latex_tv(tv, (128, 128)))  # smaller than CuTe's TikZ
    root = ET.fromstring(svg)
    styled = [e for e in root.iter() if {"font-size", "font-family", "fill", "stroke"} & set(e.attrib)]
    assert styled == []                                 # every style is a CSS class
    (p,) = read_panels(svg)
    assert len(p["cells"]) == 128 * 128


def test_notebook_reprs() -> None:
    L = cs.parse("(_4,_8):(_8,_1)")
    assert L._repr_svg_() == cs.svg(L, max_rows=64, max_cols=64)     # type: ignore[attr-defined]
    check_layout_svg(L, L._repr_svg_())                                # type: ignore[attr-defined]
    big = cs.parse("(_256,_128):(_128,_1)")
    svg = big._repr_svg_()                                             # type: ignore[attr-defined]
    check_layout_svg(big, svg, rows=64, cols=64)
    assert "rows 64..255 and columns 64..127 left out" in svg
    assert cs.parse("(M,_4):(_1,M)")._repr_svg_() is None              # type: ignore[attr-defined]
    assert cs.parse("(_2,_2,_2):(_1,_2,_4)")._repr_svg_() is None      # type: ignore[attr-defined]
    C = cs.parse("Sw<1,0,1> o _0 o (_2,_2):(_2,_1)")
    check_layout_svg(C, C._repr_svg_())                                # type: ignore[attr-defined]
    mma = cs.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", cs.parse("(_2,_2)"))
    assert [p["name"] for p in read_panels(mma._repr_svg_())] == ["C", "A", "B"]   # type: ignore[attr-defined]
    tc = tiled_copy({"copy_op": "UniversalCopy<uint128_t>", "type": "half_t",
                     "thr_layout": "(_32,_4):(_1,_32)", "val_layout": "(_8,_1)"})
    S, D = read_panels(tc._repr_svg_())                                # type: ignore[attr-defined]
    assert (S["rows"], S["cols"]) == (64, 4)                           # 256 rows, first 64 shown
    assert "rows 64..255 left out" in tc._repr_svg_()                  # type: ignore[attr-defined]


def test_cli_svg(tmp_path: Any, capsys: Any) -> None:
    from cute_sym.cli import main
    out = tmp_path / "p.svg"
    assert main(["--format", "svg", "--bind", "M=6", "-o", str(out), "logical_divide((M,_8):(_1,M), (_2,_4))"]) == 0
    L = cs.logical_divide(cs.parse("(M,_8):(_1,M)"), cs.parse("(_2,_4)"))
    check_layout_svg(L, out.read_text(), shown=cs.subs(L, {"M": 6}))
    assert main(["--format", "svg", "(_4,_8):(_8,_1)"]) == 0
    check_layout_svg(cs.parse("(_4,_8):(_8,_1)"), capsys.readouterr().out)
    with pytest.raises(SystemExit) as e:            # argparse's usage error
        main(["--format", "png", "_4:_1"])
    assert e.value.code == 2 and "invalid choice: 'png'" in capsys.readouterr().err
    for bad, why in ((["--format", "svg", "size(_4:_1)"], "no picture of a"), (["--format", "svg", "(_4,_2"], "never closed"),
                     (["--format", "svg", "Dyn(_1,_2,_3)"], "cannot evaluate")):
        assert main(bad) == 2, bad
        assert why in capsys.readouterr().err
    p = subprocess.run([sys.executable, "-m", "cute_sym.cli", "--format", "svg", "(_4,_2"], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and "Traceback" not in p.stderr and p.stderr.startswith("cute-sym: error:")


def test_docs_pictures_are_generated() -> None:
    """docs/pictures.md and its images are exactly what scripts/make_pictures.py writes."""
    import importlib.util
    import os
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location("make_pictures", os.path.join(root, "scripts", "make_pictures.py"))
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    files = mod.render()
    assert "docs/pictures.md" in files and len(files) >= 8
    for rel, text in files.items():
        with open(os.path.join(root, rel), encoding="utf-8") as fh:
            assert fh.read() == text, f"{rel} is stale: python3 scripts/make_pictures.py"
        if rel.endswith(".svg"):
            ET.fromstring("\n".join(ln for ln in text.split("\n") if not ln.startswith("<!--")))


# ---------------------------------------------------------------- tensors
def test_tensor_pictures() -> None:
    import numpy as np
    T = cs.make_tensor(cs.make_gmem_ptr("A"), cs.parse("(_4,(_2,_3)):(_1,(_4,_8))"))
    S = T(cs._, (1, cs._))                                   # gmem_ptr(A+4) o (_4,_3):(_1,_8)
    (p,) = read_panels(cs.svg(S))
    assert {rc: c["text"] for rc, c in p["cells"].items()} == \
        {(m, n): [str(int(S(m, n).offset))] for m in range(4) for n in range(3)}     # offset from A
    assert ET.fromstring(cs.svg(S)).findtext("s:title", namespaces=NS) == str(S)

    arr = np.arange(48) * 10
    V = cs.make_tensor(arr, cs.parse("(_2,(_2,_8)):(_8,(_16,_1))"))(cs._, (1, cs._))
    (p,) = read_panels(cs.svg(V))
    assert {rc: c["text"] for rc, c in p["cells"].items()} == \
        {(m, n): [str(int(V(m, n)))] for m in range(2) for n in range(8)}           # the array's values

    Id = cs.make_identity_tensor((4, 3))
    (p,) = read_panels(cs.svg(Id))
    assert {rc: c["text"] for rc, c in p["cells"].items()} == {(m, n): [f"({m},{n})"] for m in range(4) for n in range(3)}
    assert Id._repr_svg_() == cs.svg(Id, max_rows=64, max_cols=64)                   # type: ignore[attr-defined]

    M = cs.parse("(M,_4):(_1,M)")
    P = cs.make_tensor(cs.make_gmem_ptr("B"), M)
    assert P._repr_svg_() is None                                                     # type: ignore[attr-defined]
    (p,) = read_panels(cs.svg(P, bind={"M": 3}))
    assert {rc: c["text"] for rc, c in p["cells"].items()} == {(m, n): [str(m + 3 * n)] for m in range(3) for n in range(4)}


# ---------------------------------------------------------------- issue 33: pictures are capped, full=True lifts it
def test_svg_and_html_cap_rows_and_columns() -> None:
    from cute_sym.views.draw import PICTURE_LIMIT
    big = cs.parse("(_4096,_4096):(_4096,_1)")
    for draw in (cs.svg, cs.html):
        s = draw(big)
        assert len(s) < 3_000_000 and f"rows {PICTURE_LIMIT}..4095 and columns {PICTURE_LIMIT}..4095 left out" in s
    wide = cs.parse(f"(_2,_{PICTURE_LIMIT + 5}):(_{PICTURE_LIMIT + 5},_1)")
    assert f"columns {PICTURE_LIMIT}..{PICTURE_LIMIT + 4} left out" in cs.svg(wide)
    full = cs.svg(wide, full=True)
    assert "left out" not in full and full.count(f">{2 * (PICTURE_LIMIT + 5) - 1}<") == 1
    from cute_sym.views.draw import latex_capped
    lat = latex_capped(big)
    assert lat.startswith("% showing the first") and lat.count("\\node") < (PICTURE_LIMIT + 2) ** 2 + 300
    small = cs.parse("(_4,_8):(_8,_1)")
    assert latex_capped(small) == cs.latex(small)        # CuTe's exact text under the cap
