"""SVG pictures: CuTe's ``print_svg`` of an MMA, character for character, and
cute_sym's own compact SVG of every picture.

The compact SVG draws each panel as a grid of cells, colored as ``print_latex``
colors them (:mod:`cute_sym.views.colors`), with row and column coordinates,
the offset (or thread and value) in each cell and the object's notation as the
title. It stays small: the styles are CSS classes in one ``<style>``; the
fills are one ``<path>`` per color (a run of equal cells in a row is one
rectangle); a row's labels are ``<tspan>`` of one ``<text>``; no cell carries a
font or color attribute. Each panel is a ``<g class="cs-panel">`` whose
``data-x``, ``data-y``, ``data-w``, ``data-h``, ``data-rows``, ``data-cols``
give its geometry (the HTML page and the tests read them).

>>> from cute_sym.notation import parse
>>> from cute_sym.views.model import layout_picture
>>> s = picture_svg(layout_picture(parse("(_2,_2):(_1,_2)")))
>>> import xml.etree.ElementTree as ET
>>> ET.fromstring(s).tag
'{http://www.w3.org/2000/svg}svg'
>>> '<path class="cs-fb1" d="M28 65h20v20h-20z"/>' in s      # cell (1,0) at (28,65): offset 1
True
"""
from __future__ import annotations

from typing import Callable, Optional, Union
from html import escape as _html_escape


def escape(s: str) -> str:
    """&, < and > as XML entities (what SVG and HTML text need; quotes are left as they are)."""
    return _html_escape(s, quote=False)

from .colors import BW_PERCENT, TV_RGB, css_rgb, rgb_bw, svg_cute_tv
from .model import Panel, Picture

__all__ = ["cute_mma_svg", "picture_svg", "Geometry", "geometry", "STYLE"]

SVG_NS = "http://www.w3.org/2000/svg"


# ---------------------------------------------------------------- CuTe's print_svg
def cute_mma_svg(pic: Picture, color: Callable[[int, int], str] = svg_cute_tv) -> str:
    """CuTe's ``detail::print_svg_mma`` text: A left, B on top, C at the bottom right.

    @pre ``pic.kind == "mma"`` with panels C (m, n), A (m, k), B (k, n).
    @post CuTe's text for the same panels (20-unit cells, ``T``/``V`` labels,
          ``color(tid, vid)`` an ``"r,g,b"`` string, CuTe's ``SVGColor_TV`` by default).

    >>> from cute_sym.tensor.mma import make_tiled_mma
    >>> from cute_sym.views.objects import picture_of
    >>> s = cute_mma_svg(picture_of(make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"), None, None, None))
    >>> s.count("<rect"), s.splitlines()[5]
    (320, '<rect x="200" y="200" width="20" height="20" fill="rgb(175,175,255)" stroke="black"/>')
    """
    C, A, B = pic.panels
    M, N, K = pic.tile
    cs = 20
    out = [f"<!--  Tile: {pic.tile_text}  -->\n", f"<!--     A: {A.header}  -->\n",
           f"<!--     B: {B.header}  -->\n", f"<!--     C: {C.header}  -->\n",
           f'<svg width="100%" height="100%" viewBox="0 0 {(K + N + 2) * cs} {(K + M + 2) * cs}" '
           'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">\n']

    def cell(x: int, y: int, t: int, v: int, close: str) -> None:
        out.append(f'<rect x="{x}" y="{y}" width="{cs}" height="{cs}" fill="rgb({color(t, v)})" stroke="black"{close}>\n')
        out.append(f'<text x="{x + cs // 2}" y="{y + cs // 4}" text-anchor="middle" '
                   f'alignment-baseline="central" font-size="8">T{t}</text>\n')
        out.append(f'<text x="{x + cs // 2}" y="{y + 3 * cs // 4}" text-anchor="middle" '
                   f'alignment-baseline="central" font-size="8">V{v}</text>\n')

    def label(x: int, y: int, v: int) -> None:
        out.append(f'<text x="{x + cs // 2}" y="{y + cs // 2}" text-anchor="middle" '
                   f'alignment-baseline="central" font-size="12">{v}</text>\n')

    for m, n, t, v in C.cells:
        cell((n + K + 2) * cs, (m + K + 2) * cs, t, v, "/")
    for m, k, t, v in A.cells:
        cell((k + 1) * cs, (m + K + 2) * cs, t, v, " /")
    for m in range(A.rows):
        label(0, (m + K + 2) * cs, m)
    for k in range(A.cols):
        label((k + 1) * cs, (K + 1) * cs, k)
    for k, n, t, v in B.cells:
        cell((n + K + 2) * cs, (k + 1) * cs, t, v, " /")
    for n in range(B.cols):
        label((n + K + 2) * cs, 0, n)
    for k in range(B.rows):
        label((K + 1) * cs, (k + 1) * cs, k)
    out.append("</svg>\n")
    return "".join(out)


# ---------------------------------------------------------------- compact SVG
def _style() -> str:
    fills = "".join(f".cute-sym .cs-fb{k}{{fill:{css_rgb(rgb_bw(k))}}}" for k in range(len(BW_PERCENT)))
    fills += "".join(f".cute-sym .cs-ft{k}{{fill:{css_rgb(c)}}}" for k, c in enumerate(TV_RGB))
    return (".cute-sym{font-family:DejaVu Sans Mono,Menlo,Consolas,monospace}"
            ".cute-sym .cs-bg{fill:#fff}"
            ".cute-sym text{text-anchor:middle;dominant-baseline:central;font-size:10px;fill:#000}"
            ".cute-sym .cs-s{font-size:8px}"
            ".cute-sym .cs-l{font-size:12px;fill:#555}"
            ".cute-sym .cs-ttl{font-size:13px;text-anchor:start}"
            ".cute-sym .cs-note{font-size:12px;text-anchor:start;fill:#a00}"
            ".cute-sym .cs-grid{fill:none;stroke:#000;stroke-width:1}"
            ".cute-sym .cs-hi{fill:none;stroke:#e00;stroke-width:3}" + fills)


STYLE = _style()


class Geometry:
    """Where each panel of a compact picture lies: origin, cell size, label bands.

    ``origins[i]`` is the top-left pixel of panel ``i``'s cell ``(0, 0)``;
    every cell is ``w x h``; cell ``(r, c)`` starts at ``(x + c*w, y + r*h)``.
    """

    __slots__ = ("w", "h", "width", "height", "origins", "title_y", "note_y", "labels")

    def __init__(self, pic: Picture) -> None:
        w, h = 20, 20
        longest = 1     # the longest text in a cell: the offset, or T<thread> / V<value>
        for p in pic.panels:
            if p.kind == "tv":
                longest = max([longest] + [len(str(max(c[2], c[3]))) + 1 for c in p.cells])
            elif p.texts is not None:
                longest = max([longest] + [len(t) for t in p.texts])
            else:
                longest = max([longest] + [len(str(c[2])) for c in p.cells])
        char = 5 if any(p.kind == "tv" for p in pic.panels) else 6
        w = max(w, char * longest + 6)
        top = 8 + 17 * len(pic.title)
        lw = 8 + max(w, 7 * len(str(max(max(p.rows for p in pic.panels), 1) - 1)) + 10)
        lh = h
        labels: list[tuple[bool, bool]] = []
        if pic.kind == "mma":
            C, A, B = pic.panels
            M, N, K = pic.tile
            ax, by = lw, top + lh
            cx, cy = ax + A.cols * w + w, by + B.rows * h + lh
            origins = [(cx, cy), (ax, cy), (cx, by)]
            labels = [(False, False), (True, True), (True, True)]
            right, bottom = cx + C.cols * w, cy + C.rows * h
        elif pic.kind == "copy":
            S, D = pic.panels
            sx, y = lw, top + lh
            dx = sx + S.cols * w + w + lw
            origins = [(sx, y), (dx, y)]
            labels = [(True, True), (True, True)]
            right, bottom = dx + D.cols * w, y + max(S.rows, D.rows) * h
        else:
            p = pic.panels[0]
            origins = [(lw, top + lh)]
            labels = [(True, True)]
            right, bottom = lw + p.cols * w, top + lh + p.rows * h
        self.w, self.h = w, h
        self.origins = origins
        self.labels = labels
        self.title_y = 8
        self.note_y = bottom + 14
        self.width = max(right + 8, 8 + 8 * max((len(t) for t in pic.title), default=0))
        self.height = bottom + (28 if pic.note else 8)
        if pic.note:
            self.width = max(self.width, 8 + 7 * len(pic.note))


def geometry(pic: Picture) -> Geometry:
    """The geometry :func:`picture_svg` draws ``pic`` with.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.views.model import layout_picture
    >>> g = geometry(layout_picture(parse("(_2,_2):(_1,_2)")))
    >>> g.origins, g.w, g.h
    ([(28, 45)], 20, 20)
    """
    return Geometry(pic)


def _panel(out: list[str], p: Panel, x0: int, y0: int, g: Geometry, labels: tuple[bool, bool]) -> None:
    w, h = g.w, g.h
    out.append(f'<g class="cs-panel" data-name="{p.name}" data-kind="{p.kind}" data-x="{x0}" data-y="{y0}" '
               f'data-w="{w}" data-h="{h}" data-rows="{p.rows}" data-cols="{p.cols}" '
               f'data-rname="{p.row_name}" data-cname="{p.col_name}">\n')
    # fills: one path per color class; a run of equal cells in a row is one rectangle
    prefix = "cs-fb" if p.kind == "offset" else "cs-ft"
    paths: dict[int, list[str]] = {}
    cells = sorted(p.cells) if p.kind == "tv" else p.cells
    run: Optional[list[int]] = None     # [row, col0, col1, class]

    def flush() -> None:
        if run is not None:
            r, c0, c1, k = run
            paths.setdefault(k, []).append(f"M{x0 + c0 * w} {y0 + r * h}h{(c1 - c0) * w}v{h}h-{(c1 - c0) * w}z")

    for r, c, a, _ in cells:
        k = a % 8
        if run is not None and run[0] == r and run[2] == c and run[3] == k:
            run[2] = c + 1
        else:
            flush()
            run = [r, c, c + 1, k]
    flush()
    for k in sorted(paths):
        out.append(f'<path class="{prefix}{k}" d="{"".join(paths[k])}"/>\n')
    # grid
    d = [f"M{x0} {y0 + r * h}h{p.cols * w}" for r in range(p.rows + 1)]
    d += [f"M{x0 + c * w} {y0}v{p.rows * h}" for c in range(p.cols + 1)]
    out.append(f'<path class="cs-grid" d="{"".join(d)}"/>\n')
    # cell texts, one <text> per row (and line)
    by_row: dict[int, list[tuple[int, Union[int, str], int]]] = {}
    texts = p.texts
    for i, (r, c, a, b) in enumerate(p.cells if texts is not None else cells):
        by_row.setdefault(r, []).append((c, escape(texts[i]) if texts is not None else a, b))
    for r in sorted(by_row):
        row = by_row[r]
        if p.kind == "offset":
            spans = "".join(f'<tspan x="{x0 + c * w + w // 2}">{a}</tspan>' for c, a, _ in row)
            out.append(f'<text y="{y0 + r * h + h // 2}">{spans}</text>\n')
        else:
            ts = "".join(f'<tspan x="{x0 + c * w + w // 2}">T{a}</tspan>' for c, a, _ in row)
            vs = "".join(f'<tspan x="{x0 + c * w + w // 2}">V{b}</tspan>' for c, _, b in row)
            out.append(f'<text class="cs-s" y="{y0 + r * h + h // 4 + 1}">{ts}</text>\n')
            out.append(f'<text class="cs-s" y="{y0 + r * h + 3 * h // 4}">{vs}</text>\n')
    # row and column coordinates
    rows_lab, cols_lab = labels
    if cols_lab:
        spans = "".join(f'<tspan x="{x0 + c * w + w // 2}">{c}</tspan>' for c in range(p.cols))
        out.append(f'<text class="cs-l" y="{y0 - h // 2}">{spans}</text>\n')
    if rows_lab:
        spans = "".join(f'<tspan x="{x0 - w // 2 - 2}" y="{y0 + r * h + h // 2}">{r}</tspan>'
                        for r in range(p.rows))
        out.append(f'<text class="cs-l">{spans}</text>\n')
    out.append("</g>\n")


def picture_svg(pic: Picture) -> str:
    """cute_sym's compact SVG of a picture (any kind).

    @post valid XML; one ``<g class="cs-panel">`` per panel; each drawn cell
          ``(r, c)`` of a panel is covered by the fill class of its offset
          (``cs-fb{idx % 8}``) or thread (``cs-ft{tid % 8}``), and its text is the
          offset (or ``T``/``V`` lines) centered at ``(x + c*w + w/2, ...)``.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.views.model import layout_picture
    >>> picture_svg(layout_picture(parse("_3:_1"))).count("<tspan")      # 3 offsets, 3 + 1 labels
    7
    """
    g = Geometry(pic)
    out = [f'<svg xmlns="{SVG_NS}" class="cute-sym" width="{g.width}" height="{g.height}" '
           f'viewBox="0 0 {g.width} {g.height}">\n',
           f"<title>{escape(pic.title[0])}</title>\n",
           f"<style>{STYLE}</style>\n",
           '<rect class="cs-bg" width="100%" height="100%"/>\n']
    for i, t in enumerate(pic.title):
        out.append(f'<text class="cs-ttl" x="8" y="{g.title_y + 17 * i + 8}">{escape(t)}</text>\n')
    for p, (x0, y0), lab in zip(pic.panels, g.origins, g.labels):
        if p.name:      # the corner above-left of a panel is free of labels
            out.append(f'<text class="cs-l" x="{x0 - g.w // 2 - 2}" y="{y0 - g.h // 2}">{escape(p.name)}</text>\n')
        _panel(out, p, x0, y0, g, lab)
    if pic.note:
        out.append(f'<text class="cs-note" x="8" y="{g.note_y}">{escape(pic.note)}</text>\n')
    out.append("</svg>\n")
    return "".join(out)
