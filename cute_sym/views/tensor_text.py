"""CuTe's ``print_tensor``: a tensor's type line, then its elements (rank 1 to 4).

>>> import numpy as np
>>> from cute_sym.notation import parse
>>> from cute_sym.tensor import make_tensor
>>> print(tensor_text(make_tensor(np.arange(6, dtype=np.int32), parse("(_2,_3):(_3,_1)"))), end="")
array[int32](+0) o (_2,_3):(_3,_1):
    0    1    2
    3    4    5
"""
from __future__ import annotations

import sys
from typing import Any, Optional, TextIO

from ..core.errors import RankError, UndecidableError
from ..core.int_tuple import _, product
from ..tensor import Tensor

__all__ = ["tensor_text", "print_tensor"]


def _count(x: Any, what: str) -> int:
    if isinstance(x, int):
        return int(x)
    try:
        return int(x)
    except TypeError:
        raise UndecidableError(f"{what} has a value", f"print_tensor needs a value for {what} = {x}") from None


def _pretty(v: Any) -> str:
    """CuTe's ``pretty_print`` of one element: integers ``%5d``, float ``%10.2e``, double ``%11.3e``,
    bool ``%3d``, anything else two spaces and its print."""
    kind = getattr(getattr(v, "dtype", None), "kind", None)
    if isinstance(v, bool) or kind == "b":
        return f"{int(v):3d}"
    if kind in ("i", "u") or type(v) is int:
        return f"{int(v):5d}"
    if kind == "f":
        return f"{float(v):10.2e}" if v.dtype.itemsize <= 4 else f"{float(v):11.3e}"
    if isinstance(v, float):
        return f"{v:11.3e}"
    return "  " + str(v)


def _body(t: Tensor) -> list[str]:
    r = t.rank()
    shape = t.shape
    if r == 1:
        return [_pretty(t(m)) + "\n" for m in range(_count(product(shape), "size"))]
    m, n = _count(product(shape[0]), "size<0>"), _count(product(shape[1]), "size<1>")
    if r == 2:
        return ["".join(_pretty(t(i, j)) for j in range(n)) + "\n" for i in range(m)]
    if r == 3:
        out = _body(t(_, _, 0))
        for k in range(1, _count(product(shape[2]), "size<2>")):
            out += ["-" * (5 * n) + "\n"] + _body(t(_, _, k))
        return out
    if r == 4:
        out = _body(t(_, _, _, 0))
        for p in range(1, _count(product(shape[3]), "size<3>")):
            out += ["=" * (5 * n) + "\n"] + _body(t(_, _, _, p))
        return out
    raise RankError(f"print_tensor takes a tensor of rank 1 to 4, got rank {r}")


def tensor_text(tensor: Tensor, print_type: bool = True) -> str:
    """The text of CuTe's ``print_tensor``.

    @pre ``tensor`` is a :class:`~cute_sym.tensor.Tensor` of rank 1 to 4 whose extents have values.
    @post with ``print_type``, the first line is ``str(tensor) + ":"``; then one line a row
          (a rank-1 tensor: one element a line), rank-3 slices ``(_,_,k)`` separated by a
          line of ``-`` and rank-4 slices ``(_,_,_,p)`` by ``=``, as CuTe prints them.
    """
    if not isinstance(tensor, Tensor):
        raise RankError(f"print_tensor takes a Tensor, got {type(tensor).__name__}")
    return (f"{tensor}:\n" if print_type else "") + "".join(_body(tensor))


def print_tensor(tensor: Tensor, print_type: bool = True, file: Optional[TextIO] = None) -> None:
    """Print CuTe's ``print_tensor`` text (:func:`tensor_text`) to ``file`` (default stdout)."""
    (file or sys.stdout).write(tensor_text(tensor, print_type))
