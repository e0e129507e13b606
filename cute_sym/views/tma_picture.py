"""Pictures of a TMA copy: the boxes over the gmem tile, and where each 16-byte chunk lands in
the swizzled smem tile (SVG, and an HTML page around it).

Left: the CTA tile of gmem, one cell per 16-byte chunk (along the gmem's contiguous mode),
each TMA instruction's box outlined, each chunk colored by its place in its 128-byte row
and labeled with its tile coordinate. Right: shared memory, 128 bytes (8 chunks) a row, each
chunk showing which gmem chunk the TMA puts there: the swizzle is the permutation of the
colors within each row.

>>> import cute_sym as cs
>>> gT = cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), cs.parse("(512,256):(256,_1)"))
>>> sL = cs.tile_to_shape(cs.smem_layout_atom("GMMA::Layout_K_SW128_Atom<half_t>"), (16, 64))
>>> tma = cs.make_tma_copy("SM90_TMA_LOAD", gT, sL)
>>> pl = tma_placement(tma, gT, sL)
>>> pl.chunk_elems, pl.smem_chunks[:9]      # smem chunk -> (m, k) of its first element
(8, [(0, 0), (0, 8), (0, 16), (0, 24), (0, 32), (0, 40), (0, 48), (0, 56), (1, 8)])
>>> s = tma_svg(tma, gT, sL)
>>> s.startswith("<svg") and s.count('class="box"') == 1
True
"""
from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from ..core.errors import LayoutError
from ..core.int_tuple import unwrap
from ..layout import size
from ..swizzle import ComposedLayout
from ..tensor.arith_tuple import ArithmeticTuple, ScaledBasis, as_arithmetic_tuple
from ..tensor.atoms.copy_types import sizeof_bits
from ..tensor.partition import local_tile
from ..tensor.tensor import Tensor
from .svg import escape

__all__ = ["TmaPlacement", "tma_placement", "tma_svg", "tma_html"]

# eight colors for the chunk's place in its 128-byte row (colorblind-safe Okabe-Ito, lightened)
_COLORS = ("#f3c98b", "#a7d3f0", "#8fd1b5", "#f6ef9a", "#8fb8de", "#f0b28c", "#e3b4cf", "#cfcfcf")


class TmaPlacement(NamedTuple):
    tile: tuple[int, int]
    contiguous: int                      # the tile mode a 16-byte chunk runs along
    chunk_elems: int
    smem_chunks: list[tuple[int, int]]   # physical smem chunk -> tile coordinate of its first element
    boxes: list[tuple[tuple[int, int], tuple[int, int]]]   # per TMA: (tile origin, extent) in elements


def _coords(x: Any, n: int) -> list[int]:
    if isinstance(x, ScaledBasis):
        x = as_arithmetic_tuple(x)
    v = [int(e) for e in x.values] if isinstance(x, ArithmeticTuple) else ([] if x == 0 else [int(x)])
    return v + [0] * (n - len(v))


def tma_placement(tma: Any, gtensor: Tensor, slayout: Any, coord: Sequence[int] = (0, 0)) -> TmaPlacement:
    """Where a TMA load of the CTA tile at ``coord`` puts every 16-byte chunk, from cute_sym's
    own answers (``make_tma_copy``'s partitions and the smem layout, position-independently).

    @pre a rank-2 tile; ``tma`` made by :func:`make_tma_copy` for ``gtensor`` and ``slayout``.
    @post ``smem_chunks[q]`` is the tile coordinate of the element at smem byte ``16*q``; every
          chunk of the tile appears once.
    """
    t0 = unwrap(tma.Tiler_MN)
    tile = tuple(int(t) for t in t0) if type(t0) is tuple else (int(t0),)
    if len(tile) != 2:
        raise LayoutError(f"tma_placement: pictures are of rank-2 tiles, got the tile {tile}")
    bits = sizeof_bits(tma.ValType)
    if bits < 8 or 128 % bits:
        raise LayoutError(f"tma_placement: {bits}-bit elements do not fill 16-byte chunks evenly")
    ce = 128 // bits
    inner: Any = slayout.layout_b if isinstance(slayout, ComposedLayout) else slayout
    where: dict[int, tuple[int, int]] = {}
    for m in range(tile[0]):
        for k in range(tile[1]):
            where[int(slayout(m, k))] = (m, k)
    n = int(size(inner))
    chunks = [where[q * ce] for q in range(n // ce) if q * ce in where]
    contiguous = 0 if int(inner(1, 0)) == 1 else 1
    # the boxes: each TMA's coordinates, back to the tile's (gmem mode i is TMA mode j)
    g_stride = tma.Traits.AuxParams.g_stride_
    perm = [d.modes[0] if isinstance(d, ScaledBasis) else -1 for d in g_stride]
    box = tma.get_tma_descriptor().box_dim
    mT = tma.get_tma_tensor(gtensor.shape)
    gTile = local_tile(mT, tile, tuple(coord))
    pS = tma.get_slice(0).partition_S(gTile)
    nbox = int(size(tma.Traits.AuxParams.TmaGmemBasis))
    boxes = []
    for v in range(0, int(size(pS.layout)), nbox):
        c = [a + b for a, b in zip(_coords(pS.data.coord, len(box)), _coords(pS.layout(v), len(box)))]
        org = tuple(c[perm[i]] - coord[i] * tile[i] for i in range(2))
        ext = tuple(box[perm[i]] if 0 <= perm[i] < len(box) else 1 for i in range(2))
        boxes.append((org, ext))
    return TmaPlacement(tile, contiguous, ce, chunks, boxes)   # type: ignore[arg-type]


def tma_svg(tma: Any, gtensor: Tensor, slayout: Any, coord: Sequence[int] = (0, 0), max_rows: int = 64) -> str:
    """An SVG of the TMA boxes over the gmem tile and the chunks' landing in smem (see the module)."""
    pl = tma_placement(tma, gtensor, slayout, coord)
    ce, (tm, tk) = pl.chunk_elems, pl.tile
    cw, chh = 34, 16
    if pl.contiguous == 1:
        rows, cols = tm, tk // ce

        def cell(m: int, k: int) -> tuple[int, int]:
            return m, k // ce
    else:
        rows, cols = tm // ce, tk

        def cell(m: int, k: int) -> tuple[int, int]:
            return m // ce, k
    rows_shown = min(rows, max_rows)
    smem_rows = min((len(pl.smem_chunks) + 7) // 8, max_rows)
    x1 = 40 + cols * cw + 60
    width = x1 + 8 * cw + 20
    height = 60 + max(rows_shown, smem_rows) * chh + 20
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" '
           f'font-size="8">',
           '<style>.box{fill:none;stroke:#c00;stroke-width:2}.g{stroke:#fff;stroke-width:0.5}</style>',
           f'<text x="40" y="14" font-size="11">{escape(str(tma.Traits.name))}: gmem tile {tm}x{tk} '
           f'({"K" if pl.contiguous == 1 else "MN"}-major), {len(pl.boxes)} box(es) of '
           f'{"x".join(str(b) for b in tma.get_tma_descriptor().box_dim)}, swizzle '
           f'{escape(tma.get_tma_descriptor().swizzle)}</text>',
           f'<text x="40" y="32" font-size="10">gmem: one cell per 16-byte chunk (row, first column)</text>',
           f'<text x="{x1}" y="32" font-size="10">smem: 128 bytes a row</text>']
    y0 = 40
    colour = {}
    for q, (m, k) in enumerate(sorted(set(pl.smem_chunks))):
        r, c = cell(m, k)
        colour[(m, k)] = _COLORS[c % 8] if pl.contiguous == 1 else _COLORS[r % 8]
    for (m, k), col in colour.items():
        r, c = cell(m, k)
        if r < rows_shown:
            out.append(f'<rect class="g" x="{40 + c * cw}" y="{y0 + r * chh}" width="{cw}" height="{chh}" '
                       f'fill="{col}"/><text x="{42 + c * cw}" y="{y0 + r * chh + 11}">{m},{k}</text>')
    for (om, ok), (em, ek) in pl.boxes:
        r0, c0 = cell(om, ok)
        r1, c1 = cell(om + em - 1, ok + ek - 1)
        if r0 < rows_shown:
            out.append(f'<rect class="box" x="{40 + c0 * cw}" y="{y0 + r0 * chh}" width="{(c1 - c0 + 1) * cw}" '
                       f'height="{(min(r1, rows_shown - 1) - r0 + 1) * chh}"/>')
    for q, mk in enumerate(pl.smem_chunks):
        r, c = divmod(q, 8)
        if r < smem_rows:
            out.append(f'<rect class="g" x="{x1 + c * cw}" y="{y0 + r * chh}" width="{cw}" height="{chh}" '
                       f'fill="{colour[mk]}"/><text x="{x1 + 2 + c * cw}" y="{y0 + r * chh + 11}">'
                       f'{mk[0]},{mk[1]}</text>')
    out.append("</svg>")
    return "\n".join(out)


def tma_html(tma: Any, gtensor: Tensor, slayout: Any, coord: Sequence[int] = (0, 0)) -> str:
    """An offline HTML page around :func:`tma_svg`, with the descriptor's fields."""
    d = tma.get_tma_descriptor()
    return ("<!doctype html><html><head><meta charset=\"utf-8\"><title>TMA placement</title></head><body>"
            f"<h3>{escape(str(tma.Traits.name))} of {escape(str(gtensor.layout))} into {escape(str(slayout))}</h3>"
            f"<p>{escape(str(d))}</p>{tma_svg(tma, gtensor, slayout, coord)}</body></html>")
