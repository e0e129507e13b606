"""A picture of shared-memory banks: each cell of a rank-2 layout colored by the bank
of its element, the words of each conflicting phase outlined in red (with the thread).

>>> from cute_sym.notation import parse
>>> s = bank_svg(parse("(_32,_1):(_1,_0)"), parse("(_8,_32):(_32,_1)"), 32)
>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(s)
>>> len([r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "cell"])
256
>>> s.count('class="hit"')        # 8 threads on bank 0 (the first phase's worst bank)
8
"""
from __future__ import annotations

from typing import Optional, Union
from html import escape as _html_escape


def escape(s: str) -> str:
    """&, < and > as XML entities (what SVG and HTML text need; quotes are left as they are)."""
    return _html_escape(s, quote=False)

from ..analysis import BankConflicts, bank_conflicts, split_layout
from ..analysis.banks import bank_of_offset
from ..core.errors import LayoutError
from ..layout import Layout
from ..swizzle import ComposedLayout
from ..tensor.copy import TiledCopy

__all__ = ["bank_svg", "bank_color"]


def bank_color(bank: int) -> str:
    """A hue a bank (32 around the circle), light enough for black text.

    >>> bank_color(0), bank_color(16)
    ('hsl(0,70%,80%)', 'hsl(180,70%,80%)')
    """
    return f"hsl({bank * 360 // 32},70%,80%)"


def bank_svg(access: Union[TiledCopy, Layout], layout: Union[Layout, ComposedLayout], bits: Optional[int] = None,
             vector_bits: Optional[int] = None, warp: int = 0, cell: int = 24, full: bool = False) -> str:
    """SVG of the static rank-2 shared-memory ``layout``: cell (m, n) colored by the bank of
    ``layout(m, n)`` (elements of ``bits``; a TiledCopy gives its own), numbered by its bank; every
    word of the worst bank of each phase with conflicts (:func:`bank_conflicts`) outlined in red,
    labelled with the thread that reads it (``T5``; all of them in its tooltip). Row indices run
    down the left (``m``), column indices along the top (``n``); the title is never clipped.
    At most ``PICTURE_LIMIT`` rows and columns are drawn (a line says what was left out) unless ``full``.

    @pre ``layout`` is static, of rank 2; the access is static (else :class:`LayoutError`).
    @post one ``rect.cell`` per element drawn; one ``rect.hit`` and one ``text.thr`` per (phase, word)
          in conflict drawn; one ``text.row`` per row, one ``text.col`` per column.
    """
    from .draw import PICTURE_LIMIT
    from .model import clip_note
    res = bank_conflicts(access, layout, bits, vector_bits, warp)
    if not isinstance(res, BankConflicts):
        raise LayoutError("bank_svg draws a static layout: substitute the symbols first (subs)")
    ebits = access.bits if isinstance(access, TiledCopy) else bits
    if ebits is None:
        raise LayoutError("bank_svg: give the element width (bits) of a TV layout's elements")
    if layout.rank() != 2 or not layout.is_static():
        raise LayoutError(f"bank_svg: expected a static rank-2 layout, got {layout}")
    _, _, inner = split_layout(layout)
    rows, cols = (int(layout[0].size()), int(layout[1].size()))
    r, c = (rows, cols) if full else (min(rows, PICTURE_LIMIT), min(cols, PICTURE_LIMIT))
    hits: dict[int, list[int]] = {}
    for p in res.phases:
        if p.wavefronts > p.ideal:
            for t, off in p.words:
                hits.setdefault(int(off), []).append(t)
    title = f"{layout}, {ebits}-bit: {res}"
    legend = "cell = bank of the element; red = a word of a phase's worst bank, with its thread"
    note = clip_note(rows, cols, r, c)
    lines = [title, legend] + ([note] if note else [])
    fs = 12                                 # the title's font size; monospace: about 0.62 em a character
    x0 = 10 + 7 * (len(str(r - 1)) + 1)     # room for the row indices
    y0 = 16 * len(lines) + 22               # room for the title lines and the column indices
    w = max(x0 + c * cell + 10, 10 + int(0.62 * fs * max(len(line) for line in lines)) + 10)
    h = y0 + r * cell + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           f'font-family="monospace" font-size="{cell * 5 // 12}">',
           "<style>.cell{stroke:#888;stroke-width:0.5}.hit{fill:none;stroke:#d00;stroke-width:2}"
           ".thr{fill:#b00000;font-weight:bold}.row,.col{fill:#444}</style>"]
    for k, line in enumerate(lines):
        out.append(f'<text class="title" x="10" y="{16 * (k + 1)}" font-size="{fs}">{escape(line)}</text>')
    out.append(f'<text class="axis" x="2" y="{y0 - 4}" font-size="{fs - 2}">m\\n</text>')
    for n in range(c):
        out.append(f'<text class="col" x="{x0 + n * cell + cell // 2}" y="{y0 - 4}" text-anchor="middle">{n}</text>')
    for m in range(r):
        out.append(f'<text class="row" x="{x0 - 4}" y="{y0 + m * cell + cell * 2 // 3}" text-anchor="end">{m}</text>')
    for m in range(r):
        for n in range(c):
            addr = int(layout(m, n))
            bank = bank_of_offset(addr, ebits)
            x, y = x0 + n * cell, y0 + m * cell
            out.append(f'<rect class="cell" data-m="{m}" data-n="{n}" x="{x}" y="{y}" width="{cell}" height="{cell}" '
                       f'fill="{bank_color(bank)}"/>'
                       f'<text x="{x + 2}" y="{y + cell * 5 // 12}">{bank}</text>')
            threads = hits.get(int(inner(m, n)))
            if threads:
                more = "+" if len(threads) > 1 else ""
                out.append(f'<rect class="hit" x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}">'
                           f'<title>threads {", ".join(map(str, threads))}</title></rect>'
                           f'<text class="thr" x="{x + 2}" y="{y + cell - 3}">T{threads[0]}{more}</text>')
    out.append("</svg>")
    return "\n".join(out)
