"""bank_svg: every cell's color is its element's bank; the outlined cells are the words of the
conflicting phases' worst banks."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from cute_sym.analysis import BankConflicts, bank_conflicts
from cute_sym.core.errors import LayoutError
from cute_sym.core.integers import Dyn
from cute_sym.layout import make_layout
from cute_sym.notation import parse
from cute_sym import Copy_Atom
from cute_sym import make_tiled_copy_A
from cute_sym import make_tiled_mma
from cute_sym.views.banks import bank_color, bank_svg

NS = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("text", ["(_32,_16):(_32,_1)", "Sw<2,3,3> o _0 o (_32,_16):(_32,_1)", "(_32,_16):(_40,_1)"])
def test_cells_and_hits(text: str) -> None:
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    tc = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    lay = parse(text)
    svg = bank_svg(tc, lay)
    root = ET.fromstring(svg)
    cells = [r for r in root.iter(NS + "rect") if r.get("class") == "cell"]
    assert len(cells) == 32 * 16
    for r in cells:     # the color is the bank of the element drawn there
        m, n = int(r.get("data-m")), int(r.get("data-n"))
        assert r.get("fill") == bank_color((int(lay(m, n)) * 2 // 4) % 32)
    # every cell is where its row and column axis labels say
    rows = {int(t.text): float(t.get("y")) for t in root.iter(NS + "text") if t.get("class") == "row"}
    cols = {int(t.text): float(t.get("x")) for t in root.iter(NS + "text") if t.get("class") == "col"}
    assert sorted(rows) == list(range(32)) and sorted(cols) == list(range(16))
    for r in cells:
        m, n = int(r.get("data-m")), int(r.get("data-n"))
        assert float(r.get("y")) < rows[m] < float(r.get("y")) + float(r.get("height"))
        assert float(r.get("x")) < cols[n] < float(r.get("x")) + float(r.get("width"))
    res = bank_conflicts(tc, lay)
    assert isinstance(res, BankConflicts)
    hits = [r for r in root.iter(NS + "rect") if r.get("class") == "hit"]
    marked = {w for p in res.phases if p.wavefronts > p.ideal for _, w in p.words}
    assert len(hits) == len(marked)
    labels = [t.text for t in root.iter(NS + "text") if t.get("class") == "thr"]
    assert len(labels) == len(hits) and all(re.fullmatch(r"T\d+\+?", x or "") for x in labels)
    width = float(root.get("width"))
    for t in root.iter(NS + "text"):    # no title line runs past the picture's right edge
        if t.get("class") == "title":
            assert float(t.get("x")) + 0.62 * float(t.get("font-size")) * len(t.text or "") <= width
    assert (len(hits) == 0) == (res.conflicts == 0)
    assert re.search(r"(conflict-free|bank conflicts)", svg)


def test_symbolic_layout_is_refused() -> None:
    with pytest.raises(LayoutError):
        bank_svg(parse("(_32,_1):(_1,_0)"), make_layout((32, 8), (Dyn("K", min=8), 1)), 32)
