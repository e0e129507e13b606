"""Small helpers shared by the algebra's families."""
from __future__ import annotations

from typing import Any


from ..core import decide
from ..core.errors import LayoutError
from ..core.int_tuple import (
    leaves,
)
from ..core.integers import IntLike
from ..core.monomials import mul
from ..layout.layout import Layout


def _is1(x: IntLike) -> bool:
    """Static 1 (CuTe's is_constant<1>): a symbol is never dropped as 1."""
    return type(x) is int and x == 1


def _is0(x: IntLike) -> bool:
    if type(x) is int:
        return x == 0
    return decide.prove("==", x, 0) is True


def _flat(layout: Layout) -> tuple[list[Any], list[Any]]:
    return leaves(layout._shape), leaves(layout._stride)


def _eq_proved(a: IntLike, b: IntLike) -> bool:
    if type(a) is int and type(b) is int:
        return a == b
    return decide.prove("==", a, b) is True


def _mul(a: IntLike, b: IntLike) -> IntLike:
    """Product; a static 0 stays static (CuTe: _0 * x is _0)."""
    if type(a) is int:
        if type(b) is int or a == 0:
            return a * b if type(b) is int else 0
        if a == 1:
            return b
    elif type(b) is int:
        if b == 0:
            return 0
        if b == 1:
            return a
    return mul(a, b)




def _composed_dispatch(op: str, a: Any, b: Any, *rest: Any) -> Any:
    """An argument that is not a plain layout (or a tiler made of them).

    Swizzles and composed layouts are handled one layer up
    (:mod:`cute_sym.swizzle.ops`), which calls this algebra only with plain layouts.
    """
    raise LayoutError(f"{op}: unsupported arguments {a!r}, {b!r}")
