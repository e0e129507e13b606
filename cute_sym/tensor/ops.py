"""The algebra's entry points for tensors and basis layouts (CuTe's tensor overloads).

A tensor operation acts on the layout and keeps the engine
(``make_tensor(t.data(), op(t.layout(), ...))``); a layout goes to the layout algebra, whatever
its stride kind (integers, scaled bases: :mod:`cute_sym.stride`).
CuTe has no products of tensors ("it often increases cosize"), nor of basis
layouts (their strides have no order for ``complement``): those raise.

>>> from cute_sym.notation import parse
>>> from cute_sym.tensor.tensor import make_tensor, make_identity_tensor
>>> from cute_sym.tensor.engine import make_gmem_ptr
>>> T = make_tensor(make_gmem_ptr("A"), parse("(_8,_6):(_1,_8)"))
>>> print(zipped_divide(T, (2, 3)))
gmem_ptr(A) o ((_2,_3),(_4,_2)):((_1,_8),(_2,_24))
>>> print(composition(make_identity_tensor((8, 6)), parse("(_6,_8):(_8,_1)")))
ArithTuple(_0,_0) o (_6,_8):(_1@1,_1@0)
>>> print(logical_divide(parse("_24:_2"), parse("_4:_2")))     # plain layouts: the algebra's answer
(_4,(_2,_3)):(_4,(_2,_16))
"""
from __future__ import annotations

from typing import Any

from .. import swizzle as _alg
from .. import layout as _lay
from ..layout.layout import _mk
from ..core.errors import LayoutError
from . import basis_layout as _b
from .tensor import Tensor

__all__ = [
    "composition", "compose_modes", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "coalesce",
    "filter_zeros", "filter", "flatten", "group_modes", "take", "logical_product", "zipped_product",
    "tiled_product", "flat_product", "blocked_product", "raked_product",
]


def _on_layout(t: Tensor, layout: Any) -> Tensor:
    return Tensor(t.engine, layout)


def composition(lhs: Any, rhs: Any) -> Any:
    """``lhs o rhs``; a tensor lhs keeps its engine: ``make_tensor(lhs.data(), composition(lhs.layout(), rhs))``.

    @post as the layout algebra's composition: ``result(i) == lhs(rhs(i))`` for ``i < size(rhs)``.
    """
    if isinstance(rhs, Tensor):
        raise LayoutError("composition: the rhs must be a layout or a tiler, not a Tensor")
    if isinstance(lhs, Tensor):
        return _on_layout(lhs, _alg.composition(lhs.layout, rhs))
    return _alg.composition(lhs, rhs)


def compose_modes(lhs: Any, rhs: Any) -> Any:
    """CuTe's composition as it is computed: one composition of ``lhs`` per leaf mode of the
    layout ``rhs``, the results in ``rhs``'s profile.

    Where the leaves overlap or carry across ``lhs``'s modes (a TMA multicast's CTAs sharing the
    box, a thread-value map that is not injective) the whole is not ``lhs(rhs(i))`` for one index
    ``i``, which :func:`composition` refuses; each mode is, and that is what CuTe answers.

    @post ``result[k](i) == lhs(rhs[k](i))`` for every leaf mode ``k`` of ``rhs``.

    >>> from cute_sym.notation import parse
    >>> print(compose_modes(parse("((_8,_4),(_8,_4)):((_1,_64),(_8,_1024))"), parse("(_2,_8):(_256,_128)")))
    (_2,(_2,_4)):(_1024,(_32,_1024))
    """
    if isinstance(lhs, Tensor):
        return _on_layout(lhs, compose_modes(lhs.layout, rhs))
    if not isinstance(rhs, _lay.Layout):
        raise LayoutError(f"compose_modes: the rhs must be a layout, got {type(rhs).__name__}")
    if type(rhs.shape) is not tuple:
        return composition(lhs, rhs)
    parts = [compose_modes(lhs, rhs[i]) for i in range(rhs.rank())]
    return _mk(tuple(p.shape for p in parts), tuple(p.stride for p in parts))


def _divide(op: Any, name: str) -> Any:
    def f(target: Any, tiler: Any) -> Any:
        if isinstance(tiler, Tensor):
            raise LayoutError(f"{name}: the tiler must be a layout, a tuple of tilers or a shape, not a Tensor")
        if isinstance(target, Tensor):
            return _on_layout(target, op(target.layout, tiler))
        return op(target, tiler)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = (f"CuTe's ``{name}`` of a layout or a tensor (the engine is kept).\n\n"
                 f"    @post ``{name}(T, tiler).layout == {name}(T.layout, tiler)``.\n")
    return f


logical_divide = _divide(_alg.logical_divide, "logical_divide")
zipped_divide = _divide(_alg.zipped_divide, "zipped_divide")
tiled_divide = _divide(_alg.tiled_divide, "tiled_divide")
flat_divide = _divide(_alg.flat_divide, "flat_divide")


def coalesce(x: Any, profile: Any = None) -> Any:
    """``coalesce`` of a layout, a basis layout or a tensor (the engine is kept).

    >>> from cute_sym.tensor.tensor import make_identity_tensor
    >>> print(coalesce(make_identity_tensor((4, 8))))
    ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1)
    """
    if isinstance(x, Tensor):
        return _on_layout(x, coalesce(x.layout, profile))
    return _alg.coalesce(x, profile)


def filter_zeros(x: Any) -> Any:
    """Stride-0 modes get extent 1 (layout, basis layout or tensor)."""
    if isinstance(x, Tensor):
        return _on_layout(x, filter_zeros(x.layout))
    return _lay.filter_zeros(x)


def filter(x: Any, profile: Any = None) -> Any:
    """``coalesce(filter_zeros(x))`` (layout, basis layout or tensor)."""
    if isinstance(x, Tensor):
        return _on_layout(x, filter(x.layout, profile))
    return _alg.filter(x, profile)


def flatten(x: Any) -> Any:
    """Flatten a layout, a tensor (its layout) or an IntTuple."""
    if isinstance(x, Tensor):
        return _on_layout(x, _lay.flatten(x.layout))
    return _lay.flatten(x)


def group_modes(t: Tensor, begin: int, end: int) -> Tensor:
    """CuTe's ``group_modes<B,E>(tensor)``: modes ``[begin, end)`` grouped into one."""
    if not isinstance(t, Tensor):
        raise LayoutError(f"group_modes: expected a Tensor, got {type(t).__name__}")
    return _on_layout(t, _lay.group(t.layout, begin, end))  # type: ignore[arg-type]


def take(x: Any, begin: int, end: int) -> Any:
    """Modes ``[begin, end)`` of a layout or a tensor."""
    if isinstance(x, Tensor):
        return _on_layout(x, _lay.take(x.layout, begin, end))  # type: ignore[arg-type]
    return _lay.take(x, begin, end)


def _product(op: Any, name: str) -> Any:
    def f(block: Any, tiler: Any, *rest: Any) -> Any:
        for a in (block, tiler):
            if isinstance(a, Tensor):
                raise LayoutError(f"{name}: CuTe has no products of tensors (they would grow the codomain); "
                                  "take the product of the layouts")
            if _b.is_basis_layout(a):
                raise LayoutError(f"{name}: a layout with scaled-basis strides has no complement "
                                  "(CuTe orders strides, and bases have no order)")
        return op(block, tiler, *rest)
    f.__name__ = name
    f.__qualname__ = name
    f.__doc__ = f"The algebra's ``{name}``; refuses tensors and basis layouts (CuTe has neither).\n"
    return f


logical_product = _product(_alg.logical_product, "logical_product")
zipped_product = _product(_alg.zipped_product, "zipped_product")
tiled_product = _product(_alg.tiled_product, "tiled_product")
flat_product = _product(_alg.flat_product, "flat_product")
blocked_product = _product(_alg.blocked_product, "blocked_product")
raked_product = _product(_alg.raked_product, "raked_product")

