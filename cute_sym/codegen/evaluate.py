"""Tabulate a layout: every offset as a NumPy array (NumPy is an optional extra).

>>> from cute_sym.notation import parse
>>> evaluate(parse("(_2,_3):(_3,_1)")).tolist()
[0, 3, 1, 4, 2, 5]
>>> evaluate(parse("(_2,M):(M,_1)"), {"M": 3}).tolist()
[0, 3, 1, 4, 2, 5]
>>> evaluate(parse("Sw<1,0,2> o _0 o _8:_1")).tolist()
[0, 1, 2, 3, 5, 4, 7, 6]
"""
from __future__ import annotations

from typing import Any, Mapping, Optional, Union

import sympy

from ..algebra import coalesce
from ..core.errors import LayoutError
from ..core.int_tuple import iter_leaves
from ..layout.layout import Layout
from ..swizzle import ComposedLayout, Swizzle

__all__ = ["evaluate", "apply_swizzle"]


def _bound(v: Any, name: str) -> int:
    """A bound value: an integer (a numpy or sympy one too), never a float or text rounded."""
    index = getattr(v, "__index__", None)
    if isinstance(v, bool) or index is None:
        raise LayoutError(f"evaluate: the value of {name} must be an integer, got {v!r}")
    return int(index())


def _value(x: Any, bind: Mapping[Any, Any], what: str) -> int:
    if type(x) is int:
        return x
    e = sympy.sympify(x)
    if e.free_symbols:
        sub = {}
        for s in e.free_symbols:
            if s.name in bind:
                sub[s] = sympy.Integer(_bound(bind[s.name], s.name))
            elif s in bind:
                sub[s] = sympy.Integer(_bound(bind[s], s.name))
        e = e.xreplace(sub)
        if e.free_symbols:
            names = ", ".join(sorted(s.name for s in e.free_symbols))
            raise LayoutError(f"evaluate: no value bound for {names} (in the {what} {x})")
        e = e.doit() if not e.is_Integer else e     # closed: evaluate, no open-ended simplify
    if not e.is_Integer:
        raise LayoutError(f"evaluate: the {what} {x} is not an integer under the binding")
    return int(e)


def evaluate(layout: Union[Layout, ComposedLayout], bind: Optional[Mapping[Any, Any]] = None) -> Any:
    """Every offset of ``layout``, in index order, as a NumPy ``int64`` array.

    A composed layout ``A o O o B`` is ``A(O + B(i))``: its outer function is a
    swizzle (applied bit-wise to the whole table) or a layout (whose own table is
    indexed, so ``O + B(i)`` must stay below ``size(A)``).

    ``bind`` maps symbol names (or symbols) to integers for a dynamic layout.
    The table is built mode by mode with broadcasting (the layout is
    coalesced first), so a 2^24-element layout takes a few tens of ms.

    @pre every symbol of the layout is bound; extents are positive.
    @post ``result[i] == layout(i)`` (under ``bind``) for every ``0 <= i < size``.
    @raise LayoutError when NumPy is not installed or a symbol is unbound.

    >>> from cute_sym.notation import parse
    >>> evaluate(parse("((_2,_2),_2):((_4,_1),_2)")).tolist()
    [0, 4, 1, 5, 2, 6, 3, 7]
    """
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - exercised with numpy hidden
        raise LayoutError("evaluate needs NumPy: pip install 'cute_sym[numpy]'") from None
    bind = {} if bind is None else bind
    if isinstance(layout, ComposedLayout):
        if isinstance(layout.layout_b, Swizzle):
            raise LayoutError(f"evaluate: the inner function of {layout} is a swizzle, which has no domain")
        inner = evaluate(layout.layout_b, bind) + np.int64(_value(layout.offset, bind, "offset"))
        outer = layout.layout_a
        if isinstance(outer, Swizzle):
            return apply_swizzle(outer, inner)
        table = evaluate(outer, bind)
        if inner.size and (int(inner.min()) < 0 or int(inner.max()) >= table.size):
            raise LayoutError(f"evaluate: the inner offsets of {layout} leave the domain of its outer layout "
                              f"(0 <= O + B(i) < {table.size})")
        return table[inner]
    if not isinstance(layout, Layout):
        raise LayoutError(f"evaluate takes a Layout or a ComposedLayout, got {type(layout).__name__}")
    S = [_value(s, bind, "extent") for s in iter_leaves(layout._shape)]
    D = [_value(d, bind, "stride") for d in iter_leaves(layout._stride)]
    for s in S:
        if s < 1:
            raise LayoutError(f"evaluate: extents must be positive, got {s}")
    flat = coalesce(Layout._make(tuple(S), tuple(D)))
    S = list(iter_leaves(flat._shape))
    D = list(iter_leaves(flat._stride))
    acc = np.zeros(1, dtype=np.int64)
    for s, d in zip(S, D):   # colexicographic: mode 0 varies fastest
        col = np.arange(s, dtype=np.int64) * np.int64(d)
        acc = np.add.outer(col, acc).reshape(-1) if acc.size > 1 else col + acc[0]
    return acc


def apply_swizzle(sw: Swizzle, x: Any) -> Any:
    """``sw`` applied to every element of an integer array: ``x ^ shiftr(x & yyy_msk, shift)``.

    >>> import numpy as np
    >>> apply_swizzle(Swizzle(1, 0, 2), np.arange(8)).tolist()
    [0, 1, 2, 3, 5, 4, 7, 6]
    """
    y = x & sw.yyy_msk
    return x ^ ((y >> sw.shift) if sw.shift >= 0 else (y << -sw.shift))
