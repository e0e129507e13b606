"""The drawing entry points: CuTe's TikZ and SVG text exactly, and cute_sym's own SVG and HTML.

* :func:`latex` / :func:`print_latex`: CuTe's ``print_latex`` (layouts,
  composed layouts, TiledMMA and MMA atoms, TiledCopy);
  :func:`latex_tv` / :func:`print_latex_tv`: CuTe's ``print_latex_tv``.
* :func:`svg` / :func:`print_svg`: CuTe's ``print_svg`` for an MMA; for every
  other object cute_sym's compact SVG (:mod:`cute_sym.views.svg`).
* :func:`html`: one offline page with the SVG; hovering a cell tells its
  coordinate, offset, thread and value.

>>> from cute_sym.notation import parse
>>> print(latex(parse("_2:_1")).splitlines()[0])
% Layout: (_2,_1):(_1,_0)
>>> svg(parse("(M,_2):(_1,M)"), bind={"M": 2}).count("<tspan")
8
"""
from __future__ import annotations

import sys
from typing import Any, Optional, TextIO

from ..core.errors import LayoutError
from ..layout.layout import Layout
from ..layout.layout import make_layout
from ..swizzle import ComposedLayout, Swizzle
from .table import layout_table, print_layout
from .model import Bind, Picture, layout_picture, tv_picture
from .latex import layout_latex, picture_latex, tv_latex
from .svg import cute_mma_svg, picture_svg
from .html import picture_html
from . import objects as _objects

__all__ = ["layout_table", "print_layout", "picture", "latex", "latex_tv", "svg", "svg_tv", "html", "html_tv",
           "print_latex", "print_latex_tv", "print_svg", "latex_capped", "PICTURE_LIMIT", "swizzle_layout"]

#: Past this many rows (or columns) a picture shows its first ones and says what it left out;
#: ``full=True`` (``--full`` on the command line) draws them all.
PICTURE_LIMIT = 128


def _caps(max_rows: Optional[int], max_cols: Optional[int], full: bool) -> tuple[Optional[int], Optional[int]]:
    """The rows and columns to draw: as given, else PICTURE_LIMIT (nothing with ``full``)."""
    if full:
        return max_rows, max_cols
    return (PICTURE_LIMIT if max_rows is None else max_rows), (PICTURE_LIMIT if max_cols is None else max_cols)


def picture(x: Any, bind: Bind = None, max_rows: Optional[int] = None,
            max_cols: Optional[int] = None) -> Picture:
    """The picture model of any drawable object (layout, composed layout, swizzle, tensor, TiledMMA, TiledCopy).

    @raise LayoutError for anything else (naming its type).

    >>> from cute_sym.notation import parse
    >>> p = picture(parse("(_2,_3):(_3,_1)"))
    >>> p.kind, p.tile, [c[2] for c in p.panels[0].cells]
    ('layout', (2, 3), [0, 1, 2, 3, 4, 5])
    """
    if isinstance(x, Swizzle):
        x = swizzle_layout(x)
    if isinstance(x, (Layout, ComposedLayout)):
        return layout_picture(x, bind, max_rows, max_cols, what="picture")
    return _objects.picture_of(x, bind, max_rows, max_cols)


def swizzle_layout(sw: Swizzle) -> ComposedLayout:
    """What a picture of ``Sw<B,M,S>`` draws: ``Sw<B,M,S> o _0 o (2^B, 2^(M+|S|)):(2^(M+|S|), _1)``,
    one row for each value of the bits the swizzle reads (or writes), each row the permutation of
    the offsets below them (an 8x64 grid for ``Sw<3,3,3>``, the usual half_t smem tile).

    >>> print(swizzle_layout(Swizzle(3, 3, 3)))
    Sw<3,3,3> o _0 o (_8,_64):(_64,_1)
    >>> [c[2] for c in picture(Swizzle(1, 0, 1)).panels[0].cells]      # row 1: offsets 1 and 0 swapped
    [0, 1, 3, 2]
    """
    cols = 1 << (sw.base + abs(sw.shift))
    return ComposedLayout(sw, 0, make_layout((1 << sw.bits, cols), (cols, 1)))


def latex(x: Any, bind: Bind = None) -> str:
    """The text CuTe's ``print_latex(x)`` prints (ending with a newline).

    ``x`` is a Layout or ComposedLayout of rank <= 2, a TiledMMA (or MMA atom)
    or a TiledCopy; symbols of a layout take their values from ``bind``.

    @post for a layout: one node per cell, row by row, filled with CuTe's
          ``TikzColor_BWx8`` of the offset; for MMA/copy: CuTe's
          ``print_latex_mma``/``print_latex_copy`` panels, colored by thread.

    >>> from cute_sym.notation import parse
    >>> print(latex(parse("(_2,_2):(_2,_1)")).splitlines()[7])
    \\node[fill=black!00] at (0,0) {0};
    """
    if isinstance(x, (Layout, ComposedLayout)):
        return layout_latex(x, bind=bind)
    pic = _objects.picture_of(x, bind, None, None)
    if pic.kind not in ("mma", "copy"):
        raise LayoutError(f"print_latex draws a layout, a TiledMMA or a TiledCopy, got {type(x).__name__}")
    return picture_latex(pic)


def latex_tv(layout_tv: Any, tile_mn: Any) -> str:
    """The text CuTe's ``print_latex_tv(layout_tv, tile_mn)`` prints.

    ``layout_tv`` maps ``(thread, value)`` to an index of the ``(M, N)`` tile (``m + n*M``).

    >>> from cute_sym.notation import parse
    >>> latex_tv(parse("(_2,_2):(_2,_1)"), (2, 2)).count("shortstack")
    4
    """
    return tv_latex(layout_tv, tile_mn)


def svg(x: Any, bind: Bind = None, max_rows: Optional[int] = None, max_cols: Optional[int] = None,
        cute: Optional[bool] = None, full: bool = False) -> str:
    """An SVG picture of ``x``.

    For a TiledMMA (or MMA atom) the default is CuTe's ``print_svg`` text,
    character for character; ``cute=False`` gives cute_sym's compact SVG,
    which every other object gets (CuTe has no SVG for them): cells colored
    as ``print_latex`` colors them, row and column coordinates, the offset (or
    thread and value) in each cell, the notation as the title. A symbolic
    layout is drawn at ``bind``, its formula in the title. ``max_rows`` and
    ``max_cols`` clip the grid (a note says what was left out); by default both are
    :data:`PICTURE_LIMIT`, and ``full=True`` draws every cell.

    >>> from cute_sym.notation import parse
    >>> s = svg(parse("(_8,_8):(_8,_1)"), max_rows=2)
    >>> s.startswith("<svg") and "rows 2..7 left out" in s
    True
    """
    if _objects.is_mma(x) and cute is not False and max_rows is None and max_cols is None:
        return cute_mma_svg(picture(x, bind))
    if cute:
        raise LayoutError(f"CuTe's print_svg draws an MMA only, got {type(x).__name__}")
    return picture_svg(picture(x, bind, *_caps(max_rows, max_cols, full)))


def svg_tv(layout_tv: Any, tile_mn: Any, max_rows: Optional[int] = None, max_cols: Optional[int] = None,
           full: bool = False) -> str:
    """The compact SVG of a TV layout over an ``(M, N)`` tile (what :func:`latex_tv` draws).

    >>> from cute_sym.notation import parse
    >>> svg_tv(parse("(_2,_2):(_2,_1)"), (2, 2)).count(">T1<")
    2
    """
    return picture_svg(tv_picture(layout_tv, tile_mn, *_caps(max_rows, max_cols, full)))


def html(x: Any, bind: Bind = None, max_rows: Optional[int] = None, max_cols: Optional[int] = None,
         full: bool = False) -> str:
    """One self-contained HTML page with the compact SVG of ``x``; hovering a
    cell shows its coordinate, offset, thread and value. At most :data:`PICTURE_LIMIT`
    rows and columns unless ``max_rows``/``max_cols`` say otherwise or ``full`` (a note
    says what was left out).

    >>> from cute_sym.notation import parse
    >>> page = html(parse("(_2,_2):(_1,_2)"))
    >>> page.startswith("<!DOCTYPE html>") and "<svg" in page and "<script>" in page
    True
    """
    return picture_html(picture(x, bind, *_caps(max_rows, max_cols, full)))


def html_tv(layout_tv: Any, tile_mn: Any, full: bool = False) -> str:
    """The HTML page of a TV layout over an ``(M, N)`` tile.

    >>> from cute_sym.notation import parse
    >>> '"a":[0,1,0,1],"b":[0,0,1,1]' in html_tv(parse("(_2,_2):(_2,_1)"), (2, 2))   # threads, values by cell
    True
    """
    return picture_html(tv_picture(layout_tv, tile_mn, *_caps(None, None, full)))


def latex_capped(x: Any, bind: Bind = None, full: bool = False) -> str:
    """:func:`latex` for a reader (the command line, a notebook): CuTe's exact text when the
    picture is at most :data:`PICTURE_LIMIT` rows and columns (or ``full``); past that the TikZ of
    the first ``PICTURE_LIMIT x PICTURE_LIMIT`` cells, with a first comment line saying what it left out.

    >>> from cute_sym.notation import parse
    >>> latex_capped(parse("(_4,_2):(_2,_1)")) == latex(parse("(_4,_2):(_2,_1)"))
    True
    >>> latex_capped(parse("(_4096,_4096):(_4096,_1)")).splitlines()[0]
    '% showing the first 128x128 cells of 4096x4096: rows 128..4095 and columns 128..4095 left out (full=True / --full draws all)'
    """
    if full:
        return latex(x, bind)
    pic = picture(x, bind, PICTURE_LIMIT, PICTURE_LIMIT)
    if not pic.note:
        return latex(x, bind)
    if pic.kind not in ("layout", "mma", "copy", "tv"):
        raise LayoutError(f"print_latex draws a layout, a TiledMMA or a TiledCopy, got {type(x).__name__}")
    return f"% {pic.note} (full=True / --full draws all)\n" + picture_latex(pic)


def print_latex(x: Any, bind: Bind = None, file: Optional[TextIO] = None) -> None:
    """Print :func:`latex` ``(x)``, as CuTe's ``print_latex`` does.

    >>> from cute_sym.notation import parse
    >>> print_latex(parse("_1:_0"))      # doctest: +ELLIPSIS
    % Layout: (_1,_1):(_0,_0)
    ...
    \\end{document}
    """
    (file or sys.stdout).write(latex(x, bind))


def print_latex_tv(layout_tv: Any, tile_mn: Any, file: Optional[TextIO] = None) -> None:
    """Print :func:`latex_tv`, as CuTe's ``print_latex_tv`` does.

    >>> from cute_sym.notation import parse
    >>> print_latex_tv(parse("(_1,_1):(_0,_0)"), (1, 1))      # doctest: +ELLIPSIS
    % Layout TV: (_1,_1):(_0,_0)
    ...
    """
    (file or sys.stdout).write(latex_tv(layout_tv, tile_mn))


def print_svg(x: Any, bind: Bind = None, file: Optional[TextIO] = None) -> None:
    """Print :func:`svg` ``(x)``, as CuTe's ``print_svg`` does for an MMA.

    >>> from cute_sym.tensor.mma import make_tiled_mma
    >>> print_svg(make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"))      # doctest: +ELLIPSIS
    <!--  Tile: (_16,_8,_8)  -->
    ...
    </svg>
    """
    (file or sys.stdout).write(svg(x, bind))
