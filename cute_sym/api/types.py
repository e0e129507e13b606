"""The types of the public signatures: what user code passes and gets back (``mypy --strict``
sees these, never sympy)."""
from __future__ import annotations

from typing import Union as _Union

from typing_extensions import TypeAlias as _TypeAlias

from ..core.int_tuple import Underscore
from ..core.integers import DynInt, UserInt, UserIntTuple
from ..layout.layout import Layout
from ..swizzle import ComposedLayout, Swizzle
from ..tensor import ArithmeticTuple, ScaledBasis, Tensor

__all__ = ["IntLike", "IntTuple", "AnyLayout", "Tiler", "SliceCoord", "Parsed"]

#: What user code sees: a static ``int`` (``_4``) or a dynamic integer (:class:`DynInt`).
IntLike: _TypeAlias = UserInt
#: An integer or a (nested) tuple of them.
IntTuple: _TypeAlias = UserIntTuple
#: A plain or a composed (swizzled) layout.
AnyLayout: _TypeAlias = _Union[Layout, ComposedLayout]
#: What the divides and products take as their second argument: a layout, a shape, or a tile.
Tiler: _TypeAlias = _Union[Layout, int, DynInt, Underscore, "tuple[Tiler, ...]"]
#: A coordinate with ``_`` in it (a slice).
SliceCoord: _TypeAlias = _Union[int, DynInt, Underscore, "tuple[SliceCoord, ...]"]
#: Everything ``parse`` may read.
Parsed: _TypeAlias = _Union[Layout, ComposedLayout, Swizzle, Underscore, int, DynInt, "tuple[Tiler, ...]",
                           ScaledBasis, ArithmeticTuple, Tensor]
