"""CuTe's ``print_latex``: TikZ text, character for character.

One writer per CuTe function (``print_latex`` of a layout, ``print_latex_tv``,
``detail::print_latex_mma``, ``detail::print_latex_copy``), each over a
:class:`~cute_sym.views.model.Picture`: node order, coordinates, colors and
labels as CuTe prints them. TikZ's axes are CuTe's: ``x`` goes down the rows,
``y`` across the columns.

>>> from cute_sym.notation import parse
>>> print(layout_latex(parse("(_2,_1):(_1,_1)")), end="")
% Layout: (_2,_1):(_1,_1)
\\documentclass[convert]{standalone}
\\usepackage{tikz}
<BLANKLINE>
\\begin{document}
\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]
<BLANKLINE>
\\node[fill=black!00] at (0,0) {0};
\\node[fill=black!40] at (1,0) {1};
\\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,0) grid (2,1);
<BLANKLINE>
\\node at (0,-1) {\\Large{\\texttt{0}}};
\\node at (1,-1) {\\Large{\\texttt{1}}};
\\node at (-1,0) {\\Large{\\texttt{0}}};
\\end{tikzpicture}
\\end{document}
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from .colors import tikz_bw, tikz_tv
from .model import Bind, Panel, Picture, layout_picture, tv_picture

__all__ = ["layout_latex", "tv_latex", "picture_latex", "mma_latex", "copy_latex"]

ColorIdx = Callable[[int], str]
ColorTV = Callable[[int, int], str]

_HEADER = ("\\documentclass[convert]{standalone}\n"
           "\\usepackage{tikz}\n\n"
           "\\begin{document}\n"
           "\\begin{tikzpicture}[x={(0cm,-1cm)},y={(1cm,0cm)},every node/.style={minimum size=1cm, outer sep=0pt}]\n\n")
_FOOTER = "\\end{tikzpicture}\n\\end{document}\n"


def _label(x: int, y: int, v: int) -> str:
    return f"\\node at ({x},{y}) {{\\Large{{\\texttt{{{v}}}}}}};\n"


def _grid(x0: int, y0: int, x1: int, y1: int) -> str:
    return f"\\draw[color=black,thick,shift={{(-0.5,-0.5)}}] ({x0},{y0}) grid ({x1},{y1});\n\n"


def _tv_nodes(out: list[str], p: Panel, color: ColorTV, dx: int = 0, dy: int = 0) -> None:
    for m, n, t, v in p.cells:
        out.append(f"\\node[fill={color(t, v)}] at ({m + dx},{n + dy}) {{\\shortstack{{T{t} \\\\ V{v}}}}};\n")


def _layout_text(pic: Picture, color: ColorIdx) -> str:
    p = pic.panels[0]
    out = [f"% Layout: {p.header}\n", _HEADER]
    out.extend(f"\\node[fill={color(idx)}] at ({m},{n}) {{{idx}}};\n" for m, n, idx, _ in p.cells)
    out.append(_grid(0, 0, p.rows, p.cols))
    out.extend(_label(m, -1, m) for m in range(p.rows))
    out.extend(_label(-1, n, n) for n in range(p.cols))
    out.append(_FOOTER)
    return "".join(out)


def _tv_text(pic: Picture, color: ColorTV) -> str:
    p = pic.panels[0]
    out = [f"% Layout TV: {p.header}\n", _HEADER]
    _tv_nodes(out, p, color)
    out.append(_grid(0, 0, p.rows, p.cols))
    out.extend(_label(m, -1, m) for m in range(p.rows))
    out.extend(_label(-1, n, n) for n in range(p.cols))
    out.append(_FOOTER)
    return "".join(out)


def mma_latex(pic: Picture, color: ColorTV = tikz_tv) -> str:
    """CuTe's ``detail::print_latex_mma``: C at the origin, A to its left, B above.

    @pre ``pic.kind == "mma"``, panels C (m, n), A (m, k), B (k, n) and ``pic.tile == (M, N, K)``.

    >>> from cute_sym.tensor.mma import make_tiled_mma
    >>> from cute_sym.views.objects import picture_of
    >>> text = mma_latex(picture_of(make_tiled_mma("SM80_16x8x8_F16F16F16F16_TN"), None, None, None))
    >>> text.count("grid"), text.count("shortstack")       # C, A, B; 16x8 + 16x8 + 8x8 cells
    (3, 320)
    """
    C, A, B = pic.panels
    M, N, K = pic.tile
    out = [f"% LayoutC: {C.header}\n", f"% LayoutA: {A.header}\n", f"% LayoutB: {B.header}\n", _HEADER]
    _tv_nodes(out, C, color)
    out.append(_grid(0, 0, M, N))
    _tv_nodes(out, A, color, dy=-K - 1)
    out.append(_grid(0, -K - 1, M, -1))
    out.extend(_label(m, -1 - K - 1, m) for m in range(A.rows))
    out.extend(_label(-1, k - K - 1, k) for k in range(A.cols))
    _tv_nodes(out, B, color, dx=-K - 1)
    out.append(_grid(-K - 1, 0, -1, N))
    out.extend(_label(-1 - K - 1, n, n) for n in range(B.cols))
    out.extend(_label(k - K - 1, -1, k) for k in range(B.rows))
    out.append(_FOOTER)
    return "".join(out)


def copy_latex(pic: Picture, color: ColorTV = tikz_tv) -> str:
    """CuTe's ``detail::print_latex_copy``: S at the origin, D to its right (``N + 3`` columns on).

    @pre ``pic.kind == "copy"``, panels S and D over the ``(M, N)`` tile ``pic.tile``.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.views.objects import copy_picture
    >>> text = copy_latex(copy_picture(parse("(_2,_1):(_1,_0)"), parse("(_2,_1):(_1,_0)"), (2, 1)))
    >>> print(*text.splitlines()[-7:-3], sep="\\n")          # D's grid at column N + 3, its labels right of it
    \\draw[color=black,thick,shift={(-0.5,-0.5)}] (0,4) grid (2,5);
    <BLANKLINE>
    \\node at (0,5) {\\Large{\\texttt{0}}};
    \\node at (1,5) {\\Large{\\texttt{1}}};
    """
    S, D = pic.panels
    M, N = pic.tile
    out = [f"% Layout S TV: {S.header}\n", f"% Layout D TV: {D.header}\n", _HEADER]
    _tv_nodes(out, S, color)
    out.append(_grid(0, 0, M, N))
    out.extend(_label(m, -1, m) for m in range(S.rows))
    out.extend(_label(-1, n, n) for n in range(S.cols))
    _tv_nodes(out, D, color, dy=N + 3)
    out.append(_grid(0, N + 3, M, N + N + 3))
    out.extend(_label(m, N + N + 3, m) for m in range(D.rows))
    out.extend(_label(-1, n + N + 3, n) for n in range(D.cols))
    out.append(_FOOTER)
    return "".join(out)


def picture_latex(pic: Picture, color: Optional[Callable[..., str]] = None) -> str:
    """The TikZ text of any picture, in CuTe's format for its kind.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.views.model import layout_picture
    >>> picture_latex(layout_picture(parse("_2:_1"))) == layout_latex(parse("_2:_1"))
    True
    """
    if pic.kind == "layout":
        return _layout_text(pic, color or tikz_bw)
    if pic.kind == "tv":
        return _tv_text(pic, color or tikz_tv)
    if pic.kind == "mma":
        return mma_latex(pic, color or tikz_tv)
    return copy_latex(pic, color or tikz_tv)


def layout_latex(layout: Any, color: ColorIdx = tikz_bw, bind: Bind = None) -> str:
    """CuTe's ``print_latex(layout)`` text for a Layout or ComposedLayout of rank <= 2.

    A rank-1 layout gets a second mode ``_1:_0`` (CuTe's ``append<2>``); the
    comment line prints that layout. ``color(idx)`` is a TikZ color (CuTe's
    ``TikzColor_BWx8`` by default). Symbols take their values from ``bind``.

    @pre ``rank(layout) <= 2``; every extent, stride and offset has a value.
    @post one ``\\node[fill=color(idx)] at (m,n) {idx}`` per cell, row by row,
          with ``idx == layout(m, n)``; then the grid and the row/column labels.

    >>> from cute_sym.notation import parse
    >>> layout_latex(parse("(M,_2):(_1,M)"), bind={"M": 2}).splitlines()[0]
    '% Layout: (2,_2):(_1,2)'
    """
    return _layout_text(layout_picture(layout, bind), color)


def tv_latex(layout_tv: Any, tile_mn: Any, color: ColorTV = tikz_tv) -> str:
    """CuTe's ``print_latex_tv(layout_tv, tile_mn)`` text.

    ``layout_tv`` maps ``(thread, value)`` to an index of the ``(M, N)`` tile
    (column-major: ``m + n * M``), as ``get_layoutC_TV()`` and the like return.

    @post one node per cell of the tile that some ``(t, v)`` reaches, for the
          first such ``(t, v)`` in thread-major order, labeled ``T t`` / ``V v``.

    >>> from cute_sym.notation import parse
    >>> print(tv_latex(parse("(_2,_1):(_1,_0)"), (2, 1)).splitlines()[7])
    \\node[fill={rgb,255:red,175;green,175;blue,255}] at (0,0) {\\shortstack{T0 \\\\ V0}};
    """
    return _tv_text(tv_picture(layout_tv, tile_mn), color)
