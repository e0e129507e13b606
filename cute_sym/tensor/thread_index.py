"""A thread index as coordinates and offsets: CuTe's ``get_flat_coord``, and a layout's value at a
symbolic index as one formula (``floor`` and ``IMod``, simplified by what bounds the index).

>>> from cute_sym.core.integers import Dyn
>>> from cute_sym.notation import parse, to_str
>>> tid = Dyn("tid", max=127, sign="nonnegative")
>>> to_str(thread_coord(parse("(_32,_2,_2,_1):(_1,_32,_64,_0)"), tid))
'(tid%32,(tid//32)%2,tid//64,_0)'
>>> thread_coord(parse("((_4,_2),_1,_2,_1):((_1,_16),_0,_4,_0)"), 21)
(5, 0, 1, 0)
>>> to_str(index_formula(parse("((_4,_8),(_2,_2)):((_2,_32),(_1,_8))"), tid))
'2*(tid%4)+(tid//32)%2+32*((tid//4)%8)+8*(tid//64)'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core.decide import bounds
from ..core.errors import LayoutError
from ..core.int_tuple import leaves
from ..core.lazy import is_expr
from ..layout import Layout
from ..swizzle import coalesce

__all__ = ["thread_coord", "index_formula", "floor_mod", "upper_bound", "thread_index_arg"]


def thread_index_arg(thr_idx: Any, count: Optional[int] = None, what: str = "tiled MMA",
                     static_past: bool = False) -> Any:
    """A thread index as ``get_slice`` takes it: a non-negative ``int`` (a numpy one too) or a
    non-negative integer formula (``Dyn("tid", max=127, sign="nonnegative")``); else
    :class:`LayoutError` naming what it got. With ``count`` (the threads of the ``what``) the
    index is below it: an ``int`` past it, or a formula whose largest value is past it, is a
    :class:`LayoutError`; a formula with no bound asks ``thr_idx < count`` of the decision
    procedure (an :class:`UndecidableError` naming it, or a guard inside ``collect_guards``).
    ``static_past``: an ``int`` past ``count`` is read as CuTe reads it (a TiledMMA's, pinned by
    CuTe's own answers), only a dynamic index is checked."""
    if isinstance(thr_idx, bool) or not (type(thr_idx) is int or is_expr(thr_idx)):
        idx = getattr(thr_idx, "__index__", None)
        if idx is None:
            raise LayoutError(f"get_slice: a thread index is an integer, got {type(thr_idx).__name__}")
        thr_idx = int(idx())
    if type(thr_idx) is int:
        if thr_idx < 0:
            raise LayoutError(f"get_slice: thread index {thr_idx} is negative")
    elif not (thr_idx.is_integer and thr_idx.is_nonnegative):
        raise LayoutError(f"get_slice: a dynamic thread index must be a non-negative integer "
                          f"(Dyn(..., sign='nonnegative')), got {thr_idx}")
    if count is not None:
        if type(thr_idx) is int:
            if thr_idx >= count and not static_past:
                raise LayoutError(f"get_slice: thread index {thr_idx} is past the last thread of the {what} "
                                  f"(thread indices 0..{count - 1})")
        else:
            hi = upper_bound(thr_idx)
            if hi is not None and hi >= count:
                raise LayoutError(f"get_slice: the thread index {thr_idx} may be {hi}, past the last thread of "
                                  f"the {what} (thread indices 0..{count - 1}: give it max={count - 1})")
            if hi is None:
                from ..core.decide import require
                require("<", thr_idx, count, why=f"get_slice (the {what}'s thread indices are 0..{count - 1})")
    return thr_idx


def upper_bound(x: Any) -> Optional[int]:
    """The largest value ``x`` can take when it is known, else None (:func:`cute_sym.core.decide.bounds`).

    >>> from cute_sym.core.integers import Dyn
    >>> upper_bound(Dyn("t", max=127) // 4), upper_bound(Dyn("t")), upper_bound(5)
    (31, None, 5)
    """
    hi = bounds(x)[1]
    return hi if type(hi) is int else None


def floor_mod(x: Any, d: int, s: Optional[int]) -> Any:
    """``(x // d) % s`` for a non-negative symbolic ``x`` (no ``% s`` when ``s`` is None), simplified by
    the bound of ``x``: no division by 1, no modulo where ``x // d < s``, 0 where ``x < d``.

    @pre ``x >= 0`` an integer expression; ``d >= 1``; ``s >= 1`` or None.
    @post equal to ``(v // d) % s`` (``v // d``) at every value ``v`` of ``x`` within its bounds.

    >>> from cute_sym.core.integers import Dyn
    >>> t = Dyn("t", max=127, sign="nonnegative")
    >>> from cute_sym.notation import to_str
    >>> to_str((floor_mod(t, 4, 8), floor_mod(t, 32, 4), floor_mod(t, 128, 2), floor_mod(t, 1, None)))
    '((t//4)%8,t//32,_0,t)'
    """
    hi = upper_bound(x)
    if hi is not None and hi < d:
        return 0
    q = x if d == 1 else sympy.floor(x / d)
    if s is None or (hi is not None and hi < d * s):
        return q
    from ..core.symbolic import IMod
    return IMod(q, s)


def index_formula(layout: Layout, x: Any) -> Any:
    """``layout(x)`` for a symbolic 1-D index ``x``: ``sum_k ((x // P_k) % S_k) * D_k`` over the
    coalesced layout (the last mode takes the rest), each term simplified by :func:`floor_mod`.

    @pre ``0 <= x < size(layout)`` an integer expression; ``layout`` has static extents.
    @post equal to ``layout(v)`` at every value ``v`` of ``x`` within its bounds; a static ``0``
          when every stride is a static 0.

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.notation import parse, to_str
    >>> to_str(index_formula(parse("(_4,_8):(_8,_1)"), Dyn("i", max=31, sign="nonnegative")))
    '8*(i%4)+i//4'
    """
    lay = coalesce(layout)
    S, D = list(leaves(lay.shape)), list(leaves(lay.stride))
    out: Any = 0            # stays a static 0 where every stride is a static 0, as in CuTe
    prefix = 1
    for k, (sk, dk) in enumerate(zip(S, D)):
        if not (type(dk) is int and dk == 0):
            out = out + floor_mod(x, prefix, None if k == len(S) - 1 else sk) * dk
        prefix *= sk
    return out


def thread_coord(vmnk: Layout, thr_idx: Any) -> tuple[Any, ...]:
    """CuTe's ``vmnk.get_flat_coord(thr_idx)``: in each mode, the index of the coordinate
    ``(thr_idx // d) % s`` of every leaf ``s:d`` (0 for an extent 1), counted column-major.

    @pre ``vmnk`` static, no stride 0 where the extent is not 1; ``thr_idx >= 0``.
    @post ``vmnk(result) == thr_idx`` for every ``thr_idx`` in the image of an injective ``vmnk``;
          an integer ``thr_idx`` gives ints, a symbolic one formulas equal to them at every value.
    """
    out = []
    for k in range(vmnk.rank()):
        mode = vmnk[k]
        idx: Any = 0
        prefix = 1
        for s, d in zip(leaves(mode.shape), leaves(mode.stride)):
            if s == 1:
                continue
            if type(s) is not int or type(d) is not int or d == 0:
                raise LayoutError(f"get_slice: the thread layout {vmnk} must be static with non-zero strides "
                                  f"where the extent is not 1")
            c = (thr_idx // d) % s if type(thr_idx) is int else floor_mod(thr_idx, d, s)
            idx = idx + c * prefix
            prefix *= s
        out.append(idx)
    return tuple(out)
