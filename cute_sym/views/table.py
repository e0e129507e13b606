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

__all__ = ["layout_table", "print_layout"]


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

    @pre ``rank(layout) == 2`` (else :class:`RankError`) and every extent and
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
    """
    from ..notation.notation import subs
    from ..swizzle import ComposedLayout
    if not isinstance(layout, (Layout, ComposedLayout)):
        raise LayoutError(f"print_layout takes a Layout or a ComposedLayout, got {type(layout).__name__}")
    if layout.rank() != 2:
        raise RankError(f"print_layout needs a rank-2 layout, got rank {layout.rank()}")
    shown = layout if values is None else subs(layout, values)
    m = _int(product(shown.shape[0]), "size<0>")  # type: ignore[index]
    n = _int(product(shown.shape[1]), "size<1>")  # type: ignore[index]
    cos = _int(cosize(shown), "cosize")
    width = len(str(cos)) + 2
    delim = "+-----------------------"
    out = [f"{shown}\n", "    "]
    out.extend(f"  {j:>{width - 2}} " for j in range(n))
    out.append("\n")
    for i in range(m):
        out.append("    " + delim[:width + 1] * n + "+\n")
        out.append(f"{i:2d}  ")
        for j in range(n):
            out.append(f"| {_int(shown(i, j), 'offset'):>{width - 2}} ")
        out.append("|\n")
    out.append("    " + delim[:width + 1] * n + "+\n")
    return "".join(out)


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
