"""Jupyter reprs: a cell that ends in a layout (a composed layout, a tensor, a
TiledMMA, a TiledCopy) shows its picture.

Layering: the classes live in lower layers, which never import this package.
``cute_sym/__init__.py`` (the top, which imports everything anyway) calls
:func:`wire` once with the classes to draw; it sets ``_repr_svg_`` on each.
The alternative, a method on each class that looks a renderer up in a
registry, would put a hook and a mutable registry into every lower layer; the
top-level wiring keeps them unaware of pictures and keeps the choice in one
place.

Past ``MAX_SIDE`` rows or columns the picture shows the first
``MAX_SIDE x MAX_SIDE`` tile, with a line saying what was left out. An object
that cannot be drawn (a symbolic layout, rank > 2) has no SVG repr: Jupyter
shows its text.

>>> from cute_sym.notation import parse
>>> repr_svg(parse("(_2,_2):(_1,_2)")).startswith("<svg")
True
>>> repr_svg(parse("(M,_2):(_1,M)")) is None
True
>>> "left out" in repr_svg(parse("(_100,_2):(_2,_1)"))
True
"""
from __future__ import annotations

from typing import Any, Optional

from ..core.errors import LayoutError

__all__ = ["MAX_SIDE", "repr_svg", "repr_html", "wire"]

MAX_SIDE = 64


def repr_svg(x: Any) -> Optional[str]:
    """The compact SVG of ``x``, clipped to ``MAX_SIDE x MAX_SIDE`` cells; ``None`` when it cannot be drawn.

    @post ``None`` exactly when drawing raises a :class:`LayoutError` (symbols
          without values, rank > 2, an object with no picture).
    """
    from .draw import svg
    try:
        return svg(x, max_rows=MAX_SIDE, max_cols=MAX_SIDE, cute=False)
    except LayoutError:
        return None


def repr_html(x: Any) -> Optional[str]:
    """An HTML fragment of ``x`` (its compact SVG with the hover view: coordinate, offset, thread,
    value), clipped to ``MAX_SIDE x MAX_SIDE`` cells; ``None`` when it cannot be drawn.

    @post ``None`` exactly when drawing raises a :class:`LayoutError`; no external resource.

    >>> from cute_sym.notation import parse
    >>> "left out" in repr_html(parse("(_100,_100):(_100,_1)"))
    True
    """
    from .draw import picture
    from .html import picture_fragment
    try:
        return picture_fragment(picture(x, None, MAX_SIDE, MAX_SIDE))
    except LayoutError:
        return None


def _repr_svg_(self: Any) -> Optional[str]:
    return repr_svg(self)


def _repr_html_(self: Any) -> Optional[str]:
    return repr_html(self)


def wire(*classes: type) -> None:
    """Give each class a ``_repr_svg_`` and a ``_repr_html_`` (IPython's rich display protocol;
    a notebook takes the HTML, with its hover view).

    @post ``cls._repr_svg_(obj) == repr_svg(obj)`` and ``cls._repr_html_(obj)`` is ``repr_html(obj)``
          (one fresh id a call) for every class given.
    """
    for cls in classes:
        setattr(cls, "_repr_svg_", _repr_svg_)
        setattr(cls, "_repr_html_", _repr_html_)
