"""The HTML page of a picture, in a real browser (issue 13).

Headless Chromium renders the page to a PNG, decoded here (zlib, no new
dependency); the color at the center of every cell must be the color
``print_latex`` gives that cell. A second run moves the mouse over a cell
(a synthetic event, added to a copy of the page) and reads the tooltip from
the DOM. The tests skip only when Chromium is absent and ``CI`` is unset.
"""
from __future__ import annotations

import collections
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from typing import Any, Optional

import pytest

import cute_sym as cs
from test_latex import first_owner, tiled_copy
from test_svg import CUTE_SVG_TV, latex_colors, read_panels

CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
needs_chromium = pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"),
                                    reason="chromium is not installed (CI installs it: .ci/run)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--force-device-scale-factor=1"]


# ---------------------------------------------------------------- PNG
def decode_png(data: bytes) -> tuple[int, int, list[bytes], int]:
    """(width, height, rows of raw pixel bytes, bytes per pixel) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    height = bpp = 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, rows, bpp


def color_at(png: tuple[int, int, list[bytes], int], x: int, y: int, r: int = 3) -> tuple[int, int, int]:
    """The most frequent color in the (2r+1)^2 window around (x, y): the fill, not a glyph stroke over it."""
    _, _, rows, bpp = png
    seen: collections.Counter[tuple[int, int, int]] = collections.Counter()
    for yy in range(y - r, y + r + 1):
        for xx in range(x - r, x + r + 1):
            p = rows[yy][xx * bpp:xx * bpp + 3]
            seen[(p[0], p[1], p[2])] += 1
    return seen.most_common(1)[0][0]


def close(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return all(abs(x - y) <= 2 for x, y in zip(a, b))


# ---------------------------------------------------------------- the browser
def chromium(page: str, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None, "chromium is not installed (apt-get install -y chromium)"
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, f"file://{page}"],
                              capture_output=True, text=True, timeout=90)


def screenshot(html: str, tmp: str, size: tuple[int, int]) -> tuple[int, int, list[bytes], int]:
    page, png = os.path.join(tmp, "page.html"), os.path.join(tmp, "shot.png")
    with open(page, "w") as fh:
        fh.write(html)
    p = chromium(page, f"--screenshot={png}", f"--window-size={size[0]},{size[1]}")
    assert os.path.exists(png), p.stderr[-2000:]
    with open(png, "rb") as fh:
        return decode_png(fh.read())


def svg_of(html: str) -> str:
    m = re.search(r"<svg .*?</svg>", html, re.S)
    assert m
    return m.group(0)


def check_centers(png: tuple[int, int, list[bytes], int], panel: dict[str, Any],
                  want: dict[tuple[int, int], tuple[int, int, int]]) -> int:
    """The color at the center of every cell of ``want``; returns how many were checked."""
    for (r, c), rgb in want.items():
        x = panel["x"] + c * panel["w"] + panel["w"] // 2
        y = panel["y"] + r * panel["h"] + panel["h"] // 2
        got = color_at(png, x, y)
        assert close(got, rgb), f"cell ({r},{c}) at ({x},{y}): {got} != {rgb}"
    return len(want)


# ---------------------------------------------------------------- tests
def test_page_is_self_contained() -> None:
    page = cs.html(cs.parse("(_4,_8):(_8,_1)"))
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"<link|<img|src=|@import|url\(", page)
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")
    data = json.loads(re.search(r"var CS_DATA = (\[.*?\]);", page).group(1))  # type: ignore[union-attr]
    assert data[0]["a"] == [int(cs.parse("(_4,_8):(_8,_1)")(r, c)) for r in range(4) for c in range(8)]


@needs_chromium
def test_layout_page_in_chromium(tmp_path: Any) -> None:
    # a swizzled layout with a hierarchical mode: offsets far from row order
    L = cs.parse("Sw<2,0,2> o _0 o (_8,(_2,_4)):(_8,(_1,_2))")
    page = cs.html(L)
    (panel,) = read_panels(svg_of(page))
    png = screenshot(page, str(tmp_path), (panel["x"] + panel["cols"] * panel["w"] + 40,
                                           panel["y"] + panel["rows"] * panel["h"] + 40))
    want = latex_colors(cs.latex(L))                        # print_latex's color of every cell
    M, N = int(cs.size(L[0])), int(cs.size(L[1]))
    assert set(want) == {(m, n) for m in range(M) for n in range(N)}
    assert check_centers(png, panel, want) == M * N
    assert len(set(want.values())) == 8                     # the check tells every color apart
    assert close(color_at(png, 4, 4), (255, 255, 255))      # the page's corner: background


@needs_chromium
def test_mma_page_in_chromium(tmp_path: Any) -> None:
    mma = cs.make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN", cs.parse("(_1,_1)"))
    M, N, K = (int(x) for x in mma.tile_shape())
    page = cs.html(mma)
    C, A, B = read_panels(svg_of(page))
    width = max(p["x"] + p["cols"] * p["w"] for p in (C, A, B)) + 40
    height = max(p["y"] + p["rows"] * p["h"] for p in (C, A, B)) + 40
    png = screenshot(page, str(tmp_path), (width, height))

    def tv_colors(owner: dict[tuple[int, int], tuple[int, int]]) -> dict[tuple[int, int], tuple[int, int, int]]:
        return {rc: tuple(int(x) for x in CUTE_SVG_TV[t % 8].split(",")) for rc, (t, _) in owner.items()}  # type: ignore[misc]

    n = check_centers(png, C, tv_colors(first_owner(mma.get_layoutC_TV(), M, N)))
    n += check_centers(png, A, tv_colors(first_owner(mma.get_layoutA_TV(), M, K)))
    n += check_centers(png, B, tv_colors(first_owner(mma.get_layoutB_TV(), N, K, swap=True)))
    assert n == M * N + M * K + N * K


HOVER = """<script>
(function () {   /* test only: move the mouse to each point, keep what the tooltip says */
  var svg = document.querySelector("svg.cute-sym"), r = svg.getBoundingClientRect(), out = [];
  var tip = document.getElementById("cs-tip");
  POINTS.forEach(function (p) {
    svg.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + p[0], clientY: r.top + p[1], bubbles: true}));
    out.push(tip.style.display === "block" ? tip.textContent : "");
  });
  var pre = document.createElement("pre"); pre.id = "hover-log"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script></body>"""


def hover(html: str, tmp: str, points: list[tuple[int, int]]) -> list[str]:
    """The tooltip text at each point (svg pixels), read from the DOM after synthetic mouse moves."""
    page = os.path.join(tmp, "hover.html")
    with open(page, "w") as fh:
        fh.write(html.replace("</body>", HOVER.replace("POINTS", json.dumps(points))))
    p = chromium(page, "--dump-dom", "--window-size=1200,900")
    m = re.search(r'<pre id="hover-log">(.*?)</pre>', p.stdout, re.S)
    assert m, p.stdout[-2000:] + p.stderr[-2000:]
    return json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


@needs_chromium
def test_hover_shows_coordinate_offset_thread_value(tmp_path: Any) -> None:
    L = cs.parse("((_2,_3),(_2,_4)):((_1,_16),(_2,_4))")
    page = cs.html(L)
    (p,) = read_panels(svg_of(page))
    cells = [(5, 3), (0, 0), (2, 7)]
    tips = hover(page, str(tmp_path), [(p["x"] + c * p["w"] + 5, p["y"] + r * p["h"] + 5) for r, c in cells]
                 + [(p["x"] - 30, p["y"] - 30)])            # outside the grid: no tooltip
    hier = {(5, 3): "((1,2),(1,1))", (0, 0): "((0,0),(0,0))", (2, 7): "((0,1),(1,3))"}
    assert [t.splitlines() for t in tips[:3]] == [
        [f"(m,n) = ({r},{c}) = {hier[(r, c)]}", f"offset {int(L(r, c))}"] for r, c in cells]
    assert tips[3] == ""

    tc = tiled_copy({"copy_op": "UniversalCopy<uint32_t>", "type": "half_t",
                     "thr_layout": "(_32,_8):(_1,_32)", "val_layout": "(_2,_1)"})
    page = cs.html(tc)
    S, D = read_panels(svg_of(page))
    owner = first_owner(tc.get_layoutD_TV(), 64, 8)
    cells = [(9, 6), (63, 0)]
    tips = hover(page, str(tmp_path), [(D["x"] + c * D["w"] + 3, D["y"] + r * D["h"] + 3) for r, c in cells])
    for (r, c), tip in zip(cells, tips):
        t, v = owner[(r, c)]
        assert tip.splitlines() == ["D", f"(m,n) = ({r},{c})", f"thread {t}, value {v}  (T{t} V{v})"]


def test_cli_html(tmp_path: Any, capsys: Any) -> None:
    from cute_sym.cli import main
    out = tmp_path / "p.html"
    assert main(["--format", "html", "-o", str(out), "raked_product((_2,_2):(_1,_2), (_3,_4):(_4,_1))"]) == 0
    assert capsys.readouterr().out == ""
    L = cs.raked_product(cs.parse("(_2,_2):(_1,_2)"), cs.parse("(_3,_4):(_4,_1)"))
    (panel,) = read_panels(svg_of(out.read_text()))
    assert {rc: c["text"] for rc, c in panel["cells"].items()} == \
        {(m, n): [str(int(L(m, n)))] for m in range(6) for n in range(8)}
    with pytest.raises(SystemExit) as e:
        main(["--format", "html", "--bind", "M=x", "(M,_2):(_1,M)"])
    assert e.value.code == 2 and "NAME=INTEGER" in capsys.readouterr().err
    assert main(["--format", "html", "(M,_2):(_1,M)"]) == 2
    assert "pass bind" in capsys.readouterr().err


# ---------------------------------------------------------------- issue 33: notebook fragments, swizzles, bank pictures
def test_every_object_has_a_capped_html_repr() -> None:
    objs = [cs.parse("(_4,_8):(_8,_1)"), cs.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"), cs.Swizzle(3, 3, 3),
            cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), cs.parse("(_4,_8):(_8,_1)")),
            cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN"),
            cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint64_t>", "float"), cs.parse("(_4,_8):(_8,_1)"),
                               cs.parse("(_1,_2)"))]
    for x in objs:
        h = x._repr_html_()
        assert h is not None and h.startswith('<div class="cute-sym-view"') and "<svg" in h
        assert not re.search(r"<link|<img|src=|@import|url\(", h)
    big = cs.parse("(_4096,_4096):(_4096,_1)")._repr_html_()
    assert big is not None and len(big) < 1_000_000 and "left out" in big
    assert cs.parse("(M,_2):(_1,M)")._repr_html_() is None      # no values: Jupyter shows the text


def test_swizzle_picture_is_the_swizzle_over_its_bits() -> None:
    from cute_sym.views.draw import picture, swizzle_layout
    for b, m, s in [(3, 3, 3), (2, 0, 3), (1, 2, 2), (2, 1, -3)]:
        sw = cs.Swizzle(b, m, s)
        pic = picture(sw)
        (panel,) = pic.panels
        cols = 1 << (m + abs(s))
        assert (panel.rows, panel.cols) == (1 << b, cols)
        assert [c[2] for c in panel.cells] == [int(sw(r * cols + c)) for r in range(1 << b) for c in range(cols)]
        assert str(swizzle_layout(sw)).startswith(str(sw))


FRAGMENT_HOVER = """<script>
(function () {   /* test only: hover a point of each view, keep what each view's own tooltip says */
  var out = [];
  document.querySelectorAll("div.cute-sym-view").forEach(function (v, k) {
    var svg = v.querySelector("svg.cute-sym"), r = svg.getBoundingClientRect(), tip = v.querySelector(".cs-tip");
    var p = POINTS[k];
    svg.dispatchEvent(new MouseEvent("mousemove", {clientX: r.left + p[0], clientY: r.top + p[1], bubbles: true}));
    out.push(tip.style.display === "block" ? tip.textContent : "");
  });
  var pre = document.createElement("pre"); pre.id = "hover-log"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script></body>"""


@needs_chromium
def test_two_notebook_views_on_one_page_hover_each_their_own(tmp_path: Any) -> None:
    A, B = cs.parse("(_4,_8):(_8,_1)"), cs.parse("(_4,_8):(_1,_4)")
    fa, fb = A._repr_html_(), B._repr_html_()
    assert fa and fb
    (pa,) = read_panels(svg_of(fa))
    (pb,) = read_panels(svg_of(fb))
    page = "<!DOCTYPE html><html><body>" + fa + fb + "</body></html>"
    pts = [(pa["x"] + 5 * 0 + 3 * pa["w"] + 3, pa["y"] + 2 * pa["h"] + 3), (pb["x"] + 3 * pb["w"] + 3, pb["y"] + 2 * pb["h"] + 3)]
    path = os.path.join(str(tmp_path), "frag.html")
    with open(path, "w") as fh:
        fh.write(page.replace("</body>", FRAGMENT_HOVER.replace("POINTS", json.dumps(pts))))
    p = chromium(path, "--dump-dom", "--window-size=1200,1200")
    m = re.search(r'<pre id="hover-log">(.*?)</pre>', p.stdout, re.S)
    assert m, p.stdout[-2000:] + p.stderr[-2000:]
    tips = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    assert tips[0].splitlines()[-1] == f"offset {int(A(2, 3))}" and tips[1].splitlines()[-1] == f"offset {int(B(2, 3))}"


@needs_chromium
def test_swizzle_page_in_chromium(tmp_path: Any) -> None:
    from cute_sym.views.draw import swizzle_layout
    sw = cs.Swizzle(2, 0, 2)
    page = cs.html(sw)
    (panel,) = read_panels(svg_of(page))
    png = screenshot(page, str(tmp_path), (panel["x"] + panel["cols"] * panel["w"] + 40,
                                           panel["y"] + panel["rows"] * panel["h"] + 40))
    want = latex_colors(cs.latex(swizzle_layout(sw)))       # print_latex's color of each cell of the swizzle
    assert check_centers(png, panel, want) == 4 * 4


BBOX = """<script>
(function () {   /* test only: the boxes the browser drew */
  var svg = document.querySelector("svg"), W = svg.getBBox ? +svg.getAttribute("width") : 0, out = {w: W, title: [], thr: [], row: [], col: []};
  document.querySelectorAll("text.title").forEach(function (t) { var b = t.getBBox(); out.title.push([b.x, b.width]); });
  document.querySelectorAll("text.thr").forEach(function (t) {
    var b = t.getBBox(), r = t.previousElementSibling.getBBox();
    out.thr.push([b.x, b.y, b.width, b.height, r.x, r.y, r.width, r.height]); });
  out.row = document.querySelectorAll("text.row").length; out.col = document.querySelectorAll("text.col").length;
  var pre = document.createElement("pre"); pre.id = "bbox-log"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script></body>"""


@needs_chromium
def test_bank_picture_title_threads_and_axes_in_chromium(tmp_path: Any) -> None:
    from cute_sym.views.banks import bank_svg
    mma = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    tc = cs.make_tiled_copy_A(cs.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    svg = bank_svg(tc, cs.parse("(_32,_16):(_16,_1)"))       # row-major: conflicts, thread labels
    path = os.path.join(str(tmp_path), "banks.html")
    with open(path, "w") as fh:
        fh.write("<!DOCTYPE html><html><body style='margin:0'>" + svg + "</body></html>".replace("</body>", BBOX))
    p = chromium(path, "--dump-dom", "--window-size=1400,1200")
    m = re.search(r'<pre id="bbox-log">(.*?)</pre>', p.stdout, re.S)
    assert m, p.stdout[-2000:] + p.stderr[-2000:]
    box = json.loads(m.group(1).replace("&quot;", '"'))
    assert box["title"] and all(x + w <= box["w"] for x, w in box["title"])          # the title is not clipped
    assert box["thr"]                                                                  # threads are written
    for x, y, w, h, rx, ry, rw, rh in box["thr"]:                                      # inside their cell
        assert rx - 1 <= x and x + w <= rx + rw + 1 and ry - 1 <= y and y + h <= ry + rh + 2
    assert (box["row"], box["col"]) == (32, 16)
