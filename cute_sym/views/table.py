"""Rendering: CuTe's ``print_layout`` text table.

>>> from cute_sym.notation import parse
>>> print(layout_table(parse("(_2,_3):(_3,_1)")), end="")
(_2,_3):(_3,_1)
      0   1   2 
    +---+---+---+
 0  | 0 | 1 | 2 |
    +---+---+---+
 1  | 3 | 4 | 5 |
    +---+---+---+
"""
from __future__ import annotations

import sys
from typing import Any, Mapping, Optional, TextIO

from ..core.errors import LayoutError, RankError, UndecidableError
from ..layout.layout import Layout, cosize
from ..core.int_tuple import product

__all__ = ["layout_table", "layout_table_capped", "print_layout"]


def _int(x: Any, what: str) -> int:
    if type(x) is int:
        return x
    try:
        return int(x)
    except TypeError:
        raise UndecidableError(f"{what} has a value", f"print_layout needs a value for {what} = {x}; "
                               "bind the symbols first (subs)") from None


def layout_table(layout: Any, values: Optional[Mapping[str, int]] = None) -> str:
    """The text of CuTe's ``print_layout`` for a rank-2 layout (symbols bound by ``values``).

    A rank-1 layout prints as one column under its own header (CuTe itself
    asks for rank 2).

    @pre ``rank(layout)`` is 2 or 1 (else :class:`RankError`) and every extent and
         stride has a value once ``values`` are bound (else :class:`UndecidableError`).
    @post the first line is the (bound) layout; row ``i``, column ``j`` of the
          table holds ``layout(i, j)``; the text ends with a newline.

    >>> from cute_sym.notation import parse
    >>> t = layout_table(parse("(M,_2):(_1,M)"), {"M": 2})
    >>> print(t.splitlines()[0])
    (2,_2):(_1,2)
    >>> print(*t.splitlines()[2:], sep="\\n")
        +---+---+
     0  | 0 | 2 |
        +---+---+
     1  | 1 | 3 |
        +---+---+
    >>> try:
    ...     layout_table(parse("(M,_2):(_1,M)"))
    ... except UndecidableError as e:
    ...     print(e)
    print_layout needs a value for size<0> = M; bind the symbols first (subs)
    >>> print(layout_table(parse("_3:_2")), end="")
    _3:_2
          0 
        +---+
     0  | 0 |
        +---+
     1  | 2 |
        +---+
     2  | 4 |
        +---+
    """
    from ..notation.notation import subs
    from ..swizzle import ComposedLayout
    if not isinstance(layout, (Layout, ComposedLayout)):
        raise LayoutError(f"print_layout takes a Layout or a ComposedLayout, got {type(layout).__name__}")
    if layout.rank() not in (1, 2):
        raise RankError(f"print_layout needs a rank-2 (or rank-1) layout, got rank {layout.rank()}")
    shown = layout if values is None else subs(layout, values, ignore_unknown=True)
    return _table(shown, None, f"{shown}\n")


def _table(shown: Any, limit: Optional[int], header: str, max_cols: Optional[int] = None) -> str:
    """The table of ``shown`` (a rank-1 layout is one column); at most ``limit`` entries and
    ``max_cols`` columns, then a note of what was left out."""
    rank1 = shown.rank() == 1
    m = _int(product(shown.shape if rank1 else shown.shape[0]), "size" if rank1 else "size<0>")
    n_all = 1 if rank1 else _int(product(shown.shape[1]), "size<1>")
    n = n_all if max_cols is None else min(n_all, max_cols)
    cos = _int(cosize(shown), "cosize")
    width = len(str(cos)) + 2
    delim = "+-----------------------"
    out = [header, "    "]
    out.extend(f"  {j:>{width - 2}} " for j in range(n))
    out.append("\n")
    rows = m if limit is None else min(m, max(1, limit // max(n, 1)))
    for i in range(rows):
        out.append("    " + delim[:width + 1] * n + "+\n")
        out.append(f"{i:2d}  ")
        for j in range(n):
            v = shown(i) if rank1 else shown(i, j)
            out.append(f"| {_int(v, 'offset'):>{width - 2}} ")
        out.append("|\n")
    out.append("    " + delim[:width + 1] * n + "+\n")
    if rows < m:
        out.append(f"    ... {m - rows} more rows ({(m - rows) * n_all} entries) left out; --full shows all\n")
    if n < n_all:
        out.append(f"    ... {n_all - n} more columns (columns {n}..{n_all - 1}) left out; --full shows all\n")
    return "".join(out)


def layout_table_capped(layout: Any, limit: int, max_cols: Optional[int] = None) -> str:
    """:func:`layout_table` showing the first rows, at most about ``limit`` entries, and the first
    ``max_cols`` columns, then a line saying how many rows and columns were left out (for the
    command line).

    @pre as :func:`layout_table` (symbols bound), ``limit >= 1``, ``max_cols`` None or ``>= 1``.
    @post equals ``layout_table(layout)`` when ``size(layout) <= limit`` and it has at most
          ``max_cols`` columns.

    >>> from cute_sym.notation import parse
    >>> print(layout_table_capped(parse("_64:_1"), 3), end="")
    _64:_1
           0 
        +----+
     0  |  0 |
        +----+
     1  |  1 |
        +----+
     2  |  2 |
        +----+
        ... 61 more rows (61 entries) left out; --full shows all
    """
    from ..swizzle import ComposedLayout
    if not isinstance(layout, (Layout, ComposedLayout)):
        raise LayoutError(f"print_layout takes a Layout or a ComposedLayout, got {type(layout).__name__}")
    if layout.rank() not in (1, 2):
        raise RankError(f"print_layout needs a rank-2 (or rank-1) layout, got rank {layout.rank()}")
    return _table(layout, limit, f"{layout}\n", max_cols)


def print_layout(layout: Any, values: Optional[Mapping[str, int]] = None, file: Optional[TextIO] = None) -> None:
    """Print CuTe's ``print_layout`` table (rank-2 layouts).

    @pre as :func:`layout_table`.
    @post writes ``layout_table(layout, values)`` to ``file`` (default ``sys.stdout``).

    >>> from cute_sym.notation import parse
    >>> print_layout(parse("(_2,_2):(_2,_1)"))  # doctest: +NORMALIZE_WHITESPACE
    (_2,_2):(_2,_1)
          0   1
        +---+---+
     0  | 0 | 1 |
        +---+---+
     1  | 2 | 3 |
        +---+---+
    """
    (file or sys.stdout).write(layout_table(layout, values))
