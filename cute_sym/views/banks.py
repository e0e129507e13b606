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
             vector_bits: Optional[int] = None, warp: int = 0, cell: int = 18) -> str:
    """SVG of the static rank-2 shared-memory ``layout``: cell (m, n) colored by the bank of
    ``layout(m, n)`` (elements of ``bits``; a TiledCopy gives its own), numbered by its bank; every
    word of the worst bank of each phase with conflicts (:func:`bank_conflicts`) outlined in red,
    labelled with the thread that reads it.

    @pre ``layout`` is static, of rank 2; the access is static (else :class:`LayoutError`).
    @post one ``rect.cell`` per element; one ``rect.hit`` per (phase, word) in conflict.
    """
    res = bank_conflicts(access, layout, bits, vector_bits, warp)
    if not isinstance(res, BankConflicts):
        raise LayoutError("bank_svg draws a static layout: substitute the symbols first (subs)")
    ebits = access.bits if isinstance(access, TiledCopy) else bits
    assert ebits is not None      # bank_conflicts checked it
    if layout.rank() != 2 or not layout.is_static():
        raise LayoutError(f"bank_svg: expected a static rank-2 layout, got {layout}")
    _, _, inner = split_layout(layout)
    rows, cols = (int(layout[0].size()), int(layout[1].size()))
    hits: dict[int, list[int]] = {}
    for p in res.phases:
        if p.wavefronts > p.ideal:
            for t, off in p.words:
                hits.setdefault(int(off), []).append(t)
    x0, y0 = 30, 40
    w, h = x0 + cols * cell + 10, y0 + rows * cell + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           f'font-family="monospace" font-size="{cell // 2}">',
           "<style>.cell{stroke:#888;stroke-width:0.5}.hit{fill:none;stroke:#d00;stroke-width:2}</style>",
           f'<text x="2" y="14">{escape(str(layout))}, {ebits}-bit: {escape(str(res))}</text>',
           '<text x="2" y="30">cell = bank of the element; red = a word of a phase\'s worst bank, with its thread</text>']
    for m in range(rows):
        for n in range(cols):
            addr = int(layout(m, n))
            bank = bank_of_offset(addr, ebits)
            x, y = x0 + n * cell, y0 + m * cell
            out.append(f'<rect class="cell" x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{bank_color(bank)}"/>'
                       f'<text x="{x + 2}" y="{y + cell * 2 // 3}">{bank}</text>')
            threads = hits.get(int(inner(m, n)))
            if threads:
                out.append(f'<rect class="hit" x="{x + 1}" y="{y + 1}" width="{cell - 2}" height="{cell - 2}">'
                           f'<title>threads {", ".join(map(str, threads))}</title></rect>')
    out.append("</svg>")
    return "\n".join(out)
