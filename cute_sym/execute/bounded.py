"""A counting engine that reads a tensor where its coordinate lies inside it, and a fill value
elsewhere: the engine of :func:`cute_sym.execute.examples.im2col_padded` (software for TMA's
out-of-bounds fill).

>>> import numpy as np
>>> from cute_sym.layout import make_layout
>>> from cute_sym.tensor.tensor import make_tensor
>>> A = make_tensor(np.arange(4.0), make_layout((2, 2)))
>>> e = BoundedEngine(A, -1.0, (0, 0))
>>> float(e[(1, 1)]), e[(2, 0)], (e + (1, 0))[(1, 0)]
(3.0, -1.0, -1.0)
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError
from ..layout import size
from ..tensor.arith_tuple import ArithmeticTuple, coord_add
from ..tensor.engine import CountingEngine
from ..tensor.tensor import Tensor

__all__ = ["BoundedEngine"]


class BoundedEngine(CountingEngine):
    """``e[k]``: ``A[coord + k]`` when every entry of ``coord + k`` is inside its mode of ``A``
    (a 1-D index of the mode), else ``fill``. Read-only.

    @pre ``A`` is a tensor over memory; coordinates have one entry a top-level mode of ``A``.
    """

    __slots__ = ("_tensor", "_fill")
    _tensor: Tensor
    _fill: Any

    def __init__(self, tensor: Tensor, fill: Any, coord: Any = 0) -> None:
        super().__init__(coord)
        object.__setattr__(self, "_tensor", tensor)
        object.__setattr__(self, "_fill", fill)

    def __add__(self, k: Any) -> "BoundedEngine":
        return BoundedEngine(self._tensor, self._fill, coord_add(self.coord, k))

    def __getitem__(self, k: Any) -> Any:
        c = coord_add(self.coord, k)
        entries = tuple(c) if isinstance(c, (ArithmeticTuple, tuple)) else (c,)
        shape = self._tensor.shape if type(self._tensor.shape) is tuple else (self._tensor.shape,)
        entries = entries + (0,) * (len(shape) - len(entries))
        if len(entries) != len(shape):
            raise LayoutError(f"BoundedEngine: the coordinate {c} does not have one entry a mode of {shape}")
        if all(0 <= int(x) < size(s) for x, s in zip(entries, shape)):
            return self._tensor[tuple(int(x) for x in entries)]
        return self._fill

    def _cute_subs(self, go: Any) -> "BoundedEngine":
        return BoundedEngine(self._tensor, self._fill, go(self.coord))

    def __str__(self) -> str:
        return f"Bounded[{self._fill}]" + CountingEngine.__str__(self)[len("ArithTuple"):]

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, BoundedEngine) and other._tensor is self._tensor and other._fill == self._fill
                and CountingEngine.__eq__(self, other))

    def __hash__(self) -> int:
        return hash((id(self._tensor), str(self.coord)))
