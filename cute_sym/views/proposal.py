"""A proposal as a picture: the ranking table of :func:`cute_sym.analysis.propose_smem_layout`,
each legal layout a row with a bar of its wavefronts over the ideal (a heat scale: green
conflict-free, red the most conflicted), the illegal ones below with their reasons.

>>> from cute_sym.notation import parse
>>> from cute_sym import Copy_Atom, make_tiled_copy
>>> from cute_sym.analysis import propose_smem_layout
>>> cp = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_8,_4):(_4,_1)"), parse("(_1,_8)"))
>>> svg = proposal_svg(propose_smem_layout(writers=[cp], dtype="half_t", tile_shape=(8, 32), majors=("K",)))
>>> svg.startswith("<svg") and svg.count("<rect") >= 4
True
"""
from __future__ import annotations

from html import escape
from typing import Any

from ..core.errors import LayoutError

__all__ = ["proposal_svg"]

ROW, W_NAME, W_BAR, W_TEXT = 22, 430, 220, 330


def _heat(ratio: float) -> str:
    """Green (1: conflict-free) to red (4 or more times the ideal)."""
    t = max(0.0, min(1.0, (ratio - 1.0) / 3.0))
    r, g = int(60 + 180 * t), int(170 - 120 * t)
    return f"rgb({r},{g},70)"


def proposal_svg(proposal: Any) -> str:
    """The SVG text of a :class:`~cute_sym.analysis.SmemProposal`'s ranking.

    @post one row per legal candidate (best first: the bar's length is its wavefronts against
          the most of any, its color the ratio to its ideal), one per illegal one (grey, with
          the reason), and the reason for the best.
    """
    ranked = getattr(proposal, "ranked", None)
    if ranked is None:
        raise LayoutError(f"proposal_svg: expected a proposal from propose_smem_layout, got {type(proposal).__name__}")
    illegal = proposal.illegal
    most = max([s.wavefronts for s in ranked] + [1])
    n = len(ranked) + len(illegal) + 3
    width = W_NAME + W_BAR + W_TEXT
    title = escape(f"shared-memory layouts of a {proposal.tile_shape} {proposal.dtype} tile, best first")
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{n * ROW + 10}" '
           f'font-family="monospace" font-size="12">',
           f'<text x="8" y="{ROW - 6}" font-weight="bold">{title}</text>']
    y = ROW
    for i, s in enumerate(ranked):
        ratio = s.wavefronts / s.ideal if s.ideal else 1.0
        bar = int(W_BAR * s.wavefronts / most) if most else 0
        out.append(f'<text x="8" y="{y + 15}">{i + 1}. {escape(s.candidate.name)}</text>')
        out.append(f'<rect x="{W_NAME}" y="{y + 4}" width="{max(bar, 2)}" height="{ROW - 8}" fill="{_heat(ratio)}">'
                   f'<title>{escape(str(s))}</title></rect>')
        out.append(f'<text x="{W_NAME + W_BAR + 8}" y="{y + 15}">{s.wavefronts} wf (ideal {s.ideal}), '
                   f'{s.tma_instructions} TMA, {s.bytes} B</text>')
        y += ROW
    for s in illegal:
        out.append(f'<rect x="4" y="{y + 2}" width="{width - 8}" height="{ROW - 4}" fill="#eeeeee"/>')
        out.append(f'<text x="8" y="{y + 15}" fill="#777777">-  {escape(s.candidate.name)}: '
                   f'{escape(s.reason[:90])}</text>')
        y += ROW
    out.append(f'<text x="8" y="{y + 15}">{escape("why: " + proposal.why[:160])}</text>')
    out.append("</svg>")
    return "\n".join(out)
