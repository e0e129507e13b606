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
from ..stride.kind import StrideKind, stride_eq_fact, stride_mul


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
    if isinstance(b, StrideKind) or isinstance(a, StrideKind):
        return stride_mul(a, b)     # a scaled basis, an F2 vector: the stride kind scales itself
    return mul(a, b)


def _require_ordered(layout: Layout, op: str) -> None:
    """Raise where ``layout`` has a stride without an order (a scaled basis, an F2 vector): the
    inverses, complement and the products sort strides (CuTe's do too)."""
    for d in leaves(layout._stride):
        if isinstance(d, StrideKind) and not d.ORDERED:
            raise LayoutError(f"{op}: {layout} has the stride {d}, of a kind without an order (CuTe's "
                              f"{op} sorts strides)")


def _stride_eq_proved(a: Any, b: Any) -> bool:
    """``a == b`` proved, for strides of any kind (:mod:`cute_sym.stride.kind`)."""
    f = stride_eq_fact(a, b)
    if type(f) is bool:
        return f
    return decide.prove(*f) is True


def _stride_fact(rel: str, a: Any, b: Any) -> Any:
    """The question ``a rel b`` (``==``/``!=``) about two strides as an answer (a bool) or as one
    integer question for ``decide`` (scaled bases at one position compare their values)."""
    f = stride_eq_fact(a, b)
    if type(f) is bool:
        return f if rel == "==" else not f
    return f if rel == "==" else ("!=", f[1], f[2])




def _composed_dispatch(op: str, a: Any, b: Any, *rest: Any) -> Any:
    """An argument that is not a plain layout (or a tiler made of them).

    Swizzles and composed layouts are handled one layer up
    (:mod:`cute_sym.swizzle.ops`), which calls this algebra only with plain layouts.
    """
    raise LayoutError(f"{op}: unsupported arguments {a!r}, {b!r}")
