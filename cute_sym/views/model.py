"""What a picture shows, independent of how it is written (TikZ, SVG, HTML).

A :class:`Picture` is one or more :class:`Panel` grids. A panel's cells are
``(row, col, a, b)`` in CuTe's drawing order: for a layout, row by row, ``a``
the offset ``layout(row, col)``; for a thread/value (TV) layout, thread by
thread and value by value, ``a`` the thread and ``b`` the value, the first
``(t, v)`` that reaches a cell owning it (CuTe's ``filled`` tensor).

Everything is evaluated here, once, on plain Python ints (a static layout
creates no sympy object); the writers only format.

>>> from cute_sym.notation import parse
>>> p = layout_picture(parse("(_2,_3):(_3,_1)"))
>>> p.panels[0].cells[:4]
((0, 0, 0, 0), (0, 1, 1, 0), (0, 2, 2, 0), (1, 0, 3, 0))
>>> tv = tv_picture(parse("(_2,_2):(_1,_0)"), (2, 1))     # (T0,V1) reaches (0,0) again
>>> tv.panels[0].cells
((0, 0, 0, 0), (1, 0, 1, 0))
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core.errors import LayoutError, RankError, UndecidableError
from ..core.lazy import is_basic
from ..core.int_tuple import IntTuple, iter_leaves, leaf_str, product
from ..layout import Layout, append, make_layout
from ..swizzle import ComposedLayout, Swizzle

__all__ = [
    "Cell", "Panel", "Picture", "TVSource", "layout_picture", "tv_source", "tv_panel", "tv_picture",
    "static_int", "static_tuple", "bound", "mode_table", "drawable", "clip_note", "tile_extents",
]

Cell = tuple[int, int, int, int]
Bind = Optional[Mapping[str, int]]
Drawable = Union[Layout, ComposedLayout]


@dataclass(frozen=True)
class Panel:
    """One grid: ``rows x cols`` cells, those listed in ``cells`` drawn.

    ``kind`` is ``"offset"`` (cells hold ``(row, col, offset, 0)``) or ``"tv"``
    (``(row, col, thread, value)``). ``header`` is how CuTe prints the object
    drawn; ``row_shape``/``col_shape`` give the hierarchical coordinates of a
    row or column (static int tuples); ``row_name``/``col_name`` name the axes.
    ``texts``, when given, replaces the text of each cell (in ``cells`` order):
    the values of an array tensor, the coordinates of a counting tensor.
    """

    name: str
    rows: int
    cols: int
    kind: str
    cells: tuple[Cell, ...]
    header: str
    row_shape: IntTuple
    col_shape: IntTuple
    row_name: str = "m"
    col_name: str = "n"
    texts: Optional[tuple[str, ...]] = None


@dataclass(frozen=True)
class Picture:
    """Panels of one object, with the title lines and what was left out.

    ``kind`` is ``"layout"``, ``"tv"``, ``"mma"`` (panels C, A, B) or ``"copy"``
    (panels S, D); ``tile`` the static tile extents (``(M, N)`` or ``(M, N, K)``),
    ``tile_text`` how CuTe prints the tile; ``note`` says what a size limit left
    out (empty when everything is drawn).
    """

    kind: str
    panels: tuple[Panel, ...]
    title: tuple[str, ...]
    tile: tuple[int, ...]
    tile_text: str = ""
    note: str = ""


# ---------------------------------------------------------------- values
def static_int(x: Any, what: str) -> int:
    """``x`` as a Python int: static ints and known dynamic ints (sympy ``Integer``).

    @raise UndecidableError naming the symbols when ``x`` is symbolic.

    >>> static_int(4, "extent"), static_int(sympy.Integer(8), "extent")
    (4, 8)
    >>> try:
    ...     static_int(sympy.Symbol("M"), "extent")
    ... except UndecidableError as e:
    ...     print(e)
    drawing needs a value for the extent M: pass bind={'M': ...}
    """
    if type(x) is int:
        return x
    if (is_basic(x) and isinstance(x, sympy.Integer)):
        return int(x)
    if is_basic(x):
        names = sorted(s.name for s in x.free_symbols)
        if names:
            hint = ", ".join(f"{n!r}: ..." for n in names)
            raise UndecidableError(f"{' and '.join(names)} has a value",
                                   f"drawing needs a value for the {what} {leaf_str(x)}: pass bind={{{hint}}}")
        v = sympy.simplify(x)
        if (is_basic(v) and isinstance(v, sympy.Integer)):
            return int(v)
    if isinstance(x, int) and not isinstance(x, bool):
        return int(x)
    raise LayoutError(f"drawing needs an integer {what}, got {x!r}")


def static_tuple(t: Any, what: str) -> IntTuple:
    """An int tuple with every leaf a Python int (see :func:`static_int`).

    >>> static_tuple((sympy.Integer(2), (3, 4)), "extent")
    (2, (3, 4))
    """
    if isinstance(t, tuple):
        return tuple(static_tuple(e, what) for e in t)
    return static_int(t, what)


def bound(obj: Any, bind: Bind) -> Any:
    """``obj`` with the symbols of ``bind`` replaced (nothing happens without ``bind``).

    >>> from cute_sym.notation import parse
    >>> print(bound(parse("(M,_2):(_1,M)"), {"M": 4}))
    (4,_2):(_1,4)
    """
    if not bind:
        return obj
    from ..notation.notation import subs
    return subs(obj, bind, ignore_unknown=True)


def mode_table(mode: Layout, count: Optional[int] = None) -> list[int]:
    """The offsets of a layout at its 1-D indices ``0 .. count-1`` (all by default).

    @pre every extent and stride is an integer (static or known).
    @post ``result[i] == mode(i)``.

    >>> from cute_sym.notation import parse
    >>> mode_table(parse("((_2,_3),_2):((_3,_1),_8)"))
    [0, 3, 1, 4, 2, 5, 8, 11, 9, 12, 10, 13]
    >>> mode_table(parse("_8:_2"), 3)
    [0, 2, 4]
    """
    vals = [0]
    for s, d in zip(iter_leaves(mode.shape), iter_leaves(mode.stride)):
        s_, d_ = static_int(s, "extent"), static_int(d, "stride")
        if s_ < 1:
            raise LayoutError(f"drawing needs positive extents, got {s_}")
        if count is not None and len(vals) >= count:
            break
        vals = [v + i * d_ for i in range(s_) for v in vals]
    return vals if count is None else vals[:count]


def _outer(f: Any, offset: int) -> Callable[[int], int]:
    if isinstance(f, Swizzle):
        ym, sh = f.yyy_msk, f.shift
        if sh >= 0:
            return lambda x: (x + offset) ^ (((x + offset) & ym) >> sh)
        return lambda x: (x + offset) ^ (((x + offset) & ym) << -sh)
    return lambda x: static_int(f(x + offset), "offset")


def _grid(obj: Drawable, rows: int, cols: int) -> list[int]:
    """Row-major offsets of a rank-2 layout over its first ``rows x cols`` cells."""
    if isinstance(obj, Layout):
        t0 = mode_table(obj[0], rows)
        t1 = mode_table(obj[1], cols)
        return [a + b for a in t0 for b in t1]
    inner = obj.layout_b
    if isinstance(inner, Swizzle):
        raise LayoutError(f"{obj}: the inner function is a swizzle, which has no shape to draw")
    f = _outer(obj.layout_a, static_int(obj.offset, "offset"))
    return [f(x) for x in _grid(inner, rows, cols)]


def drawable(x: Any, what: str = "print_latex") -> Drawable:
    """A layout of rank 2 to draw: a rank-1 layout gets a second mode ``_1:_0`` (CuTe's ``append<2>``).

    @pre ``x`` is a Layout or ComposedLayout of rank <= 2 (CuTe's static_assert).

    >>> from cute_sym.notation import parse
    >>> print(drawable(parse("_8:_1")))
    (_8,_1):(_1,_0)
    """
    if not isinstance(x, (Layout, ComposedLayout)):
        raise LayoutError(f"{what} draws a Layout or a ComposedLayout, got {type(x).__name__}")
    r = x.rank()
    if r > 2:
        raise RankError(f"{what} needs a layout of rank <= 2, got rank {r}: {x}")
    if r == 2:
        return x
    if isinstance(x, Layout):
        return append(x, make_layout(1, 0), 2)
    if isinstance(x.layout_b, Swizzle):
        raise LayoutError(f"{x}: the inner function is a swizzle, which has no shape to draw")
    return ComposedLayout(x.layout_a, x.offset, drawable(x.layout_b, what))


def clip_note(rows: int, cols: int, r: int, c: int, what: str = "cells") -> str:
    """What a ``rows x cols`` grid drawn as its first ``r x c`` cells leaves out ('' when nothing).

    >>> clip_note(100, 8, 64, 8)
    'showing the first 64 of 100 rows: rows 64..99 left out'
    """
    if r == rows and c == cols:
        return ""
    return (f"showing the first {r}x{c} {what} of {rows}x{cols}: "
            f"rows {r}..{rows - 1} and columns {c}..{cols - 1} left out"
            if r < rows and c < cols else
            f"showing the first {r} of {rows} rows: rows {r}..{rows - 1} left out" if r < rows else
            f"showing the first {c} of {cols} columns: columns {c}..{cols - 1} left out")


def _formula(layout: Any) -> str:
    """``offset(m,n) = ...`` for a symbolic rank-2 layout ('' when there is none to give)."""
    if not isinstance(layout, Layout):
        return ""
    try:
        from ..codegen.expr import index_expr
        from ..notation.notation import to_str
        return f"offset(m,n) = {to_str(index_expr(layout, 'm', 'n'))}"
    except (LayoutError, TypeError, ValueError):   # a formula is a courtesy, never a failure
        return ""


def _is_symbolic(obj: Any) -> bool:
    if isinstance(obj, Layout):
        return any(is_basic(v) and bool(v.free_symbols)
                   for v in (*iter_leaves(obj.shape), *iter_leaves(obj.stride)))
    if isinstance(obj, ComposedLayout):
        return (_is_symbolic(obj.layout_a) or _is_symbolic(obj.layout_b)
                or (is_basic(obj.offset) and bool(obj.offset.free_symbols)))
    return False


def layout_picture(layout: Any, bind: Bind = None, max_rows: Optional[int] = None,
                   max_cols: Optional[int] = None, what: str = "print_latex") -> Picture:
    """The picture of a layout of rank <= 2 (symbols bound by ``bind``).

    @pre as :func:`drawable`; every symbol has a value in ``bind``.
    @post one panel, ``rows = size<0>``, ``cols = size<1>`` (clipped to
          ``max_rows``/``max_cols``, said in ``note``); cell ``(m, n, idx, 0)``
          with ``idx == layout(m, n)``, row by row; the title is the layout's
          notation, and for a symbolic layout its offset formula and the values drawn.

    >>> from cute_sym.notation import parse
    >>> p = layout_picture(parse("(M,_2):(_1,M)"), {"M": 3})
    >>> p.title
    ('(M,_2):(_1,M)', 'offset(m,n) = n*M+m', 'drawn at M=3: (3,_2):(_1,3)')
    >>> [c[2] for c in p.panels[0].cells]
    [0, 3, 1, 4, 2, 5]
    >>> layout_picture(parse("(_64,_64):(_64,_1)"), max_rows=2, max_cols=3).note
    'showing the first 2x3 cells of 64x64: rows 2..63 and columns 3..63 left out'
    """
    src = drawable(layout, what)
    shown = drawable(bound(layout, bind), what)
    rows = static_int(product(shown.shape[0]), "size<0>")  # type: ignore[index]
    cols = static_int(product(shown.shape[1]), "size<1>")  # type: ignore[index]
    r = rows if max_rows is None else min(rows, max_rows)
    c = cols if max_cols is None else min(cols, max_cols)
    vals = _grid(shown, r, c)
    cells = tuple((i, j, vals[i * c + j], 0) for i in range(r) for j in range(c))
    title: tuple[str, ...] = (str(layout),)
    if _is_symbolic(src):
        f = _formula(src)
        title += ((f,) if f else ()) + (
            "drawn at " + ", ".join(f"{k}={v}" for k, v in sorted((bind or {}).items())) + f": {shown}",)
    panel = Panel("", r, c, "offset", cells, str(shown),
                  static_tuple(shown.shape[0], "extent"), static_tuple(shown.shape[1], "extent"))  # type: ignore[index]
    return Picture("layout", (panel,), title, (rows, cols), f"({rows},{cols})", clip_note(rows, cols, r, c))


# ---------------------------------------------------------------- thread/value layouts
@dataclass(frozen=True)
class TVSource:
    """A thread/value map ``(t, v) -> index of an (M, N) tile``: ``thr[t] + val[v]``.

    The index is column-major (``m + n * M``); ``coord`` turns it into the
    drawn ``(row, col)``; ``header`` is how CuTe prints the map.
    """

    header: str
    thr: tuple[int, ...]
    val: tuple[int, ...]
    M: int
    swap: bool = False

    @property
    def nthr(self) -> int:
        return len(self.thr)

    @property
    def nval(self) -> int:
        return len(self.val)

    def coord(self, t: int, v: int) -> tuple[int, int]:
        """The drawn ``(row, col)`` of ``(t, v)``: ``(m, n)``, or ``(n, m)`` when swapped (B of an MMA)."""
        idx = self.thr[t] + self.val[v]
        return (idx // self.M, idx % self.M) if self.swap else (idx % self.M, idx // self.M)


def tile_extents(tile: Any) -> tuple[int, ...]:
    """The static extent of each mode of a tile (a shape, a tiler of layouts or a layout).

    >>> tile_extents(((2, 4), 8))
    (8, 8)
    """
    if isinstance(tile, (Layout, ComposedLayout)):
        tile = tile.shape
    if not isinstance(tile, tuple):
        tile = (tile,)
    out = []
    for m in tile:
        out.append(static_int(product(m.shape) if isinstance(m, Layout) else product(m), "tile extent"))
    return tuple(out)


def tv_source(layout_tv: Any, tile_mn: Any, swap: bool = False, header: Optional[str] = None) -> TVSource:
    """A TV layout ``(t, v) -> idx`` into a ``tile_mn`` tile, drawn at ``(idx % M, idx // M)``.

    ``swap`` draws ``(idx // M, idx % M)`` instead (B of an MMA is drawn ``k``
    down, ``n`` across); ``header`` replaces how the map prints.

    @pre ``rank(layout_tv) == 2``; every offset lies in the tile (else :class:`LayoutError`).

    >>> from cute_sym.notation import parse
    >>> s = tv_source(parse("(_2,_2):(_2,_1)"), (2, 2))    # T0 owns column 0, T1 column 1
    >>> [s.coord(t, v) for t in range(2) for v in range(2)]
    [(0, 0), (1, 0), (0, 1), (1, 1)]
    """
    ext = tile_extents(tile_mn)
    if len(ext) != 2:
        raise RankError(f"a TV picture needs a rank-2 tile (M,N), got {tile_mn}")
    M, N = ext
    if not isinstance(layout_tv, Layout):
        raise LayoutError(f"a TV picture takes a (thread,value) -> index Layout, got {type(layout_tv).__name__}")
    if layout_tv.rank() != 2:
        raise RankError(f"a TV layout has rank 2 (thread, value), got rank {layout_tv.rank()}: {layout_tv}")
    t0 = tuple(mode_table(layout_tv[0]))
    t1 = tuple(mode_table(layout_tv[1]))
    lo, hi = min(t0) + min(t1), max(t0) + max(t1)     # the extremes of thr[t] + val[v]
    if lo < 0 or hi >= M * N:
        raise LayoutError(f"the TV layout {layout_tv} reaches {lo if lo < 0 else hi}, outside the {M}x{N} tile")
    return TVSource(header or str(layout_tv), t0, t1, M, swap)


def tv_panel(src: TVSource, name: str, rows: int, cols: int, row_name: str = "m", col_name: str = "n",
             max_rows: Optional[int] = None, max_cols: Optional[int] = None) -> Panel:
    """The cells of a TV map over a ``rows x cols`` grid: the first ``(t, v)`` reaching a cell owns it.

    @post cells in ``(t, v)`` order; each cell of the (clipped) grid at most once.

    >>> from cute_sym.notation import parse
    >>> tv_panel(tv_source(parse("(_2,_2):(_1,_0)"), (2, 1)), "", 2, 1).cells     # (T0,V1) comes second
    ((0, 0, 0, 0), (1, 0, 1, 0))
    """
    r = rows if max_rows is None else min(rows, max_rows)
    c = cols if max_cols is None else min(cols, max_cols)
    filled = bytearray(rows * cols)
    left = rows * cols
    cells = []
    M, swap, val = src.M, src.swap, src.val
    for t, a in enumerate(src.thr):
        for v, b in enumerate(val):
            idx = a + b
            m, n = (idx // M, idx % M) if swap else (idx % M, idx // M)
            k = m * cols + n
            if not filled[k]:
                filled[k] = 1
                left -= 1
                if m < r and n < c:
                    cells.append((m, n, t, v))
        if not left:        # every cell has its owner: the later threads draw nothing
            break
    return Panel(name, r, c, "tv", tuple(cells), src.header, rows, cols, row_name, col_name)


def tv_picture(layout_tv: Any, tile_mn: Any, max_rows: Optional[int] = None,
               max_cols: Optional[int] = None) -> Picture:
    """The picture of a TV layout over a ``(M, N)`` tile (CuTe's ``print_latex_tv``).

    @post one panel of ``M x N`` cells; cell ``(m, n, t, v)`` for the first
          ``(t, v)`` (thread-major) with ``layout_tv(t, v) == m + n * M``.

    >>> from cute_sym.notation import parse
    >>> tv_picture(parse("(_4,_2):(_1,_4)"), (4, 2), max_rows=2).note
    'showing the first 2 of 4 rows: rows 2..3 left out'
    """
    M, N = tile_extents(tile_mn)
    src = tv_source(layout_tv, (M, N))
    p = tv_panel(src, "", M, N, max_rows=max_rows, max_cols=max_cols)
    return Picture("tv", (p,), (f"TV layout {src.header}", f"tile ({M},{N})"), (M, N), f"({M},{N})",
                   clip_note(M, N, p.rows, p.cols))
