"""The colors of every picture: CuTe's TikZ palettes and the same colors as RGB.

A layout's cell is colored by its offset (``idx % 8`` in CuTe's black-and-white
palette ``TikzColor_BWx8``); a thread/value cell by its thread (``tid % 8`` in
``TikzColor_TV``). The SVG pictures use the RGB of the same TikZ color, so a
layout looks the same in LaTeX, SVG and HTML.

>>> tikz_bw(9), rgb_bw(9)
('black!40', (153, 153, 153))
>>> tikz_tv(3, 0), rgb_tv(3, 0)
('{rgb,255:red,255;green,175;blue,175}', (255, 175, 175))
"""
from __future__ import annotations

__all__ = [
    "BW_PERCENT", "TV_RGB", "tikz_bw", "tikz_tv", "rgb_bw", "rgb_tv", "svg_cute_tv", "css_rgb",
]

# TikzColor_BWx8: black!p, p percent black mixed with white.
BW_PERCENT: tuple[int, ...] = (0, 40, 20, 60, 10, 50, 30, 70)

# TikzColor_TV and SVGColor_TV: one color per thread, modulo 8.
TV_RGB: tuple[tuple[int, int, int], ...] = (
    (175, 175, 255), (175, 255, 175), (255, 255, 175), (255, 175, 175),
    (210, 210, 255), (210, 255, 210), (255, 255, 210), (255, 210, 210),
)


def tikz_bw(idx: int) -> str:
    """CuTe's ``TikzColor_BWx8{}(idx)``: ``black!NN`` by ``idx % 8``.

    @post Python's modulo: a negative offset gets a color too (CuTe's is undefined there).

    >>> [tikz_bw(i) for i in range(3)]
    ['black!00', 'black!40', 'black!20']
    """
    return f"black!{BW_PERCENT[idx % 8]:02d}"


def tikz_tv(tid: int, vid: int) -> str:
    """CuTe's ``TikzColor_TV{}(tid, vid)``: one color per ``tid % 8``; ``vid`` is unused.

    >>> tikz_tv(8, 5) == tikz_tv(0, 0)
    True
    """
    r, g, b = TV_RGB[tid % 8]
    return f"{{rgb,255:red,{r};green,{g};blue,{b}}}"


def rgb_bw(idx: int) -> tuple[int, int, int]:
    """The RGB of ``tikz_bw(idx)``: each channel ``255 * (100 - p) / 100``, rounded half up.

    >>> [rgb_bw(i)[0] for i in range(8)]
    [255, 153, 204, 102, 230, 128, 179, 77]
    """
    p = BW_PERCENT[idx % 8]
    v = (255 * (100 - p) + 50) // 100
    return (v, v, v)


def rgb_tv(tid: int, vid: int) -> tuple[int, int, int]:
    """The RGB of ``tikz_tv(tid, vid)`` (the same as CuTe's ``SVGColor_TV``)."""
    return TV_RGB[tid % 8]


def svg_cute_tv(tid: int, vid: int) -> str:
    """CuTe's ``SVGColor_TV{}(tid, vid)``: ``"r,g,b"``.

    >>> svg_cute_tv(1, 0)
    '175,255,175'
    """
    return "%d,%d,%d" % TV_RGB[tid % 8]


def css_rgb(c: tuple[int, int, int]) -> str:
    """``#rrggbb`` for CSS.

    >>> css_rgb((255, 175, 175))
    '#ffafaf'
    """
    return "#%02x%02x%02x" % c
