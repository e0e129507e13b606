"""One self-contained HTML page of a picture: the compact SVG, and hovering a
cell shows its coordinate (1-D and hierarchical), its offset, thread and value.

The page needs nothing from the network: the SVG is inline, the script and
its data (one array per panel) are in the page. The SVG sits at the top-left
corner of the page at scale 1, so its pixel coordinates are the page's.

>>> from cute_sym.notation import parse
>>> from cute_sym.views.model import layout_picture
>>> page = picture_html(layout_picture(parse("(_2,_2):(_1,_2)")))
>>> page.startswith("<!DOCTYPE html>") and "<svg" in page and "http" not in page.replace(SVG_NS, "")
True
"""
from __future__ import annotations

import json
from typing import Any, Union
from html import escape as _html_escape


def escape(s: str) -> str:
    """&, < and > as XML entities (what SVG and HTML text need; quotes are left as they are)."""
    return _html_escape(s, quote=False)

from .model import Panel, Picture
from .svg import SVG_NS, picture_svg

__all__ = ["picture_html", "picture_fragment", "panel_data", "SVG_NS"]

Nested = Union[int, list["Nested"]]

_SCRIPT = r"""
(function () {
  var svg = document.querySelector("svg.cute-sym"), tip = document.getElementById("cs-tip");
  var NS = "http://www.w3.org/2000/svg";
  var hi = document.createElementNS(NS, "rect");
  hi.setAttribute("class", "cs-hi"); hi.style.display = "none"; svg.appendChild(hi);
  var groups = svg.querySelectorAll("g.cs-panel"), panels = [];
  for (var i = 0; i < groups.length; i++) {
    var g = groups[i], a = function (k) { return +g.getAttribute("data-" + k); };
    panels.push({x: a("x"), y: a("y"), w: a("w"), h: a("h"), rows: a("rows"), cols: a("cols"),
                 name: g.getAttribute("data-name"), kind: g.getAttribute("data-kind"),
                 rn: g.getAttribute("data-rname"), cn: g.getAttribute("data-cname"), d: CS_DATA[i]});
  }
  function size(s) { if (typeof s === "number") return s; var n = 1; for (var i = 0; i < s.length; i++) n *= size(s[i]); return n; }
  function crd(i, s) {
    if (typeof s === "number") return String(i);
    var out = [];
    for (var k = 0; k < s.length; k++) {
      var n = size(s[k]), last = k === s.length - 1;
      out.push(crd(last ? i : i % n, s[k])); i = Math.floor(i / n);
    }
    return "(" + out.join(",") + ")";
  }
  function at(ev) {
    var pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
    var p = pt.matrixTransform(svg.getScreenCTM().inverse());
    for (var i = 0; i < panels.length; i++) {
      var q = panels[i], c = Math.floor((p.x - q.x) / q.w), r = Math.floor((p.y - q.y) / q.h);
      if (r >= 0 && c >= 0 && r < q.rows && c < q.cols) return {q: q, r: r, c: c};
    }
    return null;
  }
  svg.addEventListener("mousemove", function (ev) {
    var h = at(ev);
    if (!h) { tip.style.display = "none"; hi.style.display = "none"; return; }
    var q = h.q, k = h.r * q.cols + h.c, lines = [];
    if (q.name) lines.push(q.name);
    var rc = crd(h.r, q.d.rshape), cc = crd(h.c, q.d.cshape);
    lines.push("(" + q.rn + "," + q.cn + ") = (" + h.r + "," + h.c + ")" +
               (rc !== String(h.r) || cc !== String(h.c) ? " = (" + rc + "," + cc + ")" : ""));
    if (q.d.t) lines.push("value " + q.d.t[k]);
    if (q.kind === "offset") lines.push((q.d.t ? "index " : "offset ") + q.d.a[k]);
    else if (q.d.a[k] === null) lines.push("no thread");
    else lines.push("thread " + q.d.a[k] + ", value " + q.d.b[k] + "  (T" + q.d.a[k] + " V" + q.d.b[k] + ")");
    tip.textContent = lines.join("\n");
    tip.style.left = (ev.clientX + 14) + "px"; tip.style.top = (ev.clientY + 14) + "px";
    tip.style.display = "block";
    hi.setAttribute("x", q.x + h.c * q.w); hi.setAttribute("y", q.y + h.r * q.h);
    hi.setAttribute("width", q.w); hi.setAttribute("height", q.h); hi.style.display = "";
  });
  svg.addEventListener("mouseleave", function () { tip.style.display = "none"; hi.style.display = "none"; });
})();
"""


def _nested(t: Any) -> Nested:
    return [_nested(e) for e in t] if isinstance(t, tuple) else int(t)


def panel_data(p: Panel) -> dict[str, Any]:
    """The hover data of a panel: row-major cell arrays and the hierarchical shapes of its axes.

    @post ``a[r * cols + c]`` is the offset (or thread, ``None`` where no thread
          reaches the cell) of cell ``(r, c)``; ``b`` the value (TV panels).

    >>> from cute_sym.notation import parse
    >>> from cute_sym.views.model import layout_picture
    >>> panel_data(layout_picture(parse("((_2,_2),_2):((_1,_4),_2)")).panels[0])
    {'a': [0, 2, 1, 3, 4, 6, 5, 7], 'rshape': [2, 2], 'cshape': 2}
    """
    a: list[Any] = [None] * (p.rows * p.cols)
    b: list[Any] = [None] * (p.rows * p.cols)
    for r, c, x, y in p.cells:
        a[r * p.cols + c] = x
        b[r * p.cols + c] = y
    out: dict[str, Any] = {"a": a}
    if p.kind == "tv":
        out["b"] = b
    if p.texts is not None:
        t: list[Any] = [None] * (p.rows * p.cols)
        for (r, c, _, _), text in zip(p.cells, p.texts):
            t[r * p.cols + c] = text
        out["t"] = t
    out["rshape"] = _nested(p.row_shape)
    out["cshape"] = _nested(p.col_shape)
    return out


def picture_html(pic: Picture) -> str:
    """A self-contained HTML page: the compact SVG of ``pic`` with hover details.

    @post no external resource; the SVG is the page's first element, at (0, 0).
    """
    data = json.dumps([panel_data(p) for p in pic.panels], separators=(",", ":")).replace("</", "<\\/")
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n"
            f"<title>{escape(pic.title[0])}</title>\n"
            "<style>html,body{margin:0;padding:0;background:#fff}svg.cute-sym{display:block}"
            "#cs-tip{position:fixed;display:none;background:#ffffe8;border:1px solid #888;padding:4px 6px;"
            "font:12px monospace;white-space:pre;pointer-events:none}</style>\n"
            "</head><body>\n" + picture_svg(pic) +
            "<div id=\"cs-tip\"></div>\n"
            f"<script>var CS_DATA = {data};{_SCRIPT}</script>\n</body></html>\n")


_FRAGMENTS = [0]


def picture_fragment(pic: Picture) -> str:
    """An HTML fragment (a notebook's ``_repr_html_``): the compact SVG of ``pic`` and its hover
    details, scoped to its own ``<div>`` (several on one page do not share their data).

    @post no external resource; the script reads only its own div's SVG and tooltip.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.views.model import layout_picture
    >>> f = picture_fragment(layout_picture(parse("(_2,_2):(_1,_2)")))
    >>> f.startswith('<div class="cute-sym-view" id="cs-view-') and "<svg" in f and "<!DOCTYPE" not in f
    True
    """
    _FRAGMENTS[0] += 1
    uid = f"cs-view-{_FRAGMENTS[0]}-{id(pic) & 0xffffff:x}"
    data = json.dumps([panel_data(p) for p in pic.panels], separators=(",", ":")).replace("</", "<\\/")
    script = (_SCRIPT.replace('document.querySelector("svg.cute-sym")', 'ROOT.querySelector("svg.cute-sym")')
              .replace('document.getElementById("cs-tip")', 'ROOT.querySelector(".cs-tip")'))
    return (f'<div class="cute-sym-view" id="{uid}">'
            "<style>.cs-tip{position:fixed;display:none;background:#ffffe8;border:1px solid #888;padding:4px 6px;"
            "font:12px monospace;white-space:pre;pointer-events:none;z-index:10}</style>\n"
            + picture_svg(pic) + '<div class="cs-tip"></div>\n'
            f'<script>(function () {{ var ROOT = document.getElementById("{uid}"); var CS_DATA = {data};'
            f"{script}}})();</script></div>\n")
