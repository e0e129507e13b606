"""cute_sym: CuTe's layout algebra in Python, exact on static and symbolic integers.

>>> import cute_sym as cs
>>> print(cs.logical_divide(cs.parse("_24:_2"), cs.parse("_4:_2")))
(_4,(_2,_3)):(_4,(_2,_16))
>>> cs.size(cs.parse("(_4,_8):(_1,_4)")), cs.size(cs.parse("(_4,(_2,_3)):(_1,(_4,_8))"), 1)
(_32, _6)

Every public function keeps the types it declares (``mypy --strict`` sees a
:class:`Layout` where one comes back, never ``Any``): each is a typed
signature below whose body is the implementation in the layer that owns it,
entered through :func:`_api` (plain ints and tuples in, CuTe-printing ones
out; a wrong kind of argument is a :class:`LayoutError`).
"""
# mypy: disable-error-code="empty-body"
from __future__ import annotations

import functools as _functools
from typing import (
    TYPE_CHECKING, Any as _Any, Callable as _Callable, Mapping as _Mapping, Optional as _Optional,
    TextIO as _TextIO, TypeVar as _TypeVar, Union as _Union, cast as _cast, overload as _overload,
)

from sympy import SympifyError as _SympifyError
from typing_extensions import ParamSpec as _ParamSpec, TypeAlias as _TypeAlias

from .core.errors import (
    DivisibilityError, InjectivityError, LayoutError, NotationError, RankError, UndecidableError,
)
from .core.integers import Dyn, DynInt, DynSymbol, Int, StaticInt, UserInt, is_static
from .core.decide import assume, collect_guards, prove
from .core.int_tuple import Tup, Underscore, _, wrap as _wrap, unwrap as _unwrap
from .core import int_tuple as _it
from . import layout as _lay
from . import swizzle as _alg
from .layout import coords as _coords
from .layout.layout import Layout, LayoutLeft, LayoutRight, MAX_NESTING as _MAX_NESTING, make_layout
from .swizzle import ComposedLayout, Swizzle
from .notation import notation as _notation
from .views import table as _table
from .codegen import expr as _expr
from .codegen.expr import FloorDiv
from .core.integers import IMod
from .codegen.emit import emit as _emit
from .codegen.evaluate import evaluate as _evaluate

if TYPE_CHECKING:
    import numpy as _np
    from numpy.typing import NDArray as _NDArray

__version__ = "0.1.0"

#: What user code sees: a static ``int`` (``_4``) or a dynamic integer (:class:`DynInt`).
IntLike: _TypeAlias = UserInt
#: An integer or a (nested) tuple of them.
IntTuple: _TypeAlias = _Union[int, DynInt, "tuple[_Any, ...]"]
#: A plain or a composed (swizzled) layout.
AnyLayout: _TypeAlias = _Union[Layout, ComposedLayout]
#: What the divides and products take as their second argument: a layout, a shape, or a tile.
Tiler: _TypeAlias = _Union[Layout, int, DynInt, Underscore, "tuple[_Any, ...]"]
#: Everything ``parse`` may read.
Parsed: _TypeAlias = _Union[Layout, ComposedLayout, Swizzle, Underscore, int, DynInt, "tuple[_Any, ...]"]

_P = _ParamSpec("_P")
_R = _TypeVar("_R")

# What a wrong kind of argument raises deep inside; at the API it becomes a LayoutError.
_MISUSE = (AttributeError, TypeError, ZeroDivisionError, RecursionError, IndexError, KeyError, _SympifyError)


def _misuse(name: str, args: tuple[_Any, ...], e: BaseException) -> LayoutError:
    if isinstance(e, RecursionError):
        return LayoutError(f"{name}: the arguments nest too deeply (at most {_MAX_NESTING} levels)")
    shown = ", ".join(str(a) if isinstance(a, (int, tuple, Layout)) else type(a).__name__ for a in args)
    return LayoutError(f"{name}({shown}): invalid arguments ({type(e).__name__}: {e})")


def _api(impl: _Callable[..., _Any], wrap: bool = True) -> _Callable[[_Callable[_P, _R]], _Callable[_P, _R]]:
    """The typed signature decorated is the public face of ``impl``.

    @post plain ints/tuples in (``StaticInt``, ``Tup``, lists, numpy ints
          unwrapped), CuTe-printing ints/tuples out; a misuse raises a
          :class:`LayoutError` naming the call.
    """
    def face(sig: _Callable[_P, _R]) -> _Callable[_P, _R]:
        @_functools.wraps(impl)
        def entry(*args: _P.args, **kw: _P.kwargs) -> _R:
            try:
                r = impl(*[_unwrap(a) for a in args], **kw)
                return _cast(_R, _wrap(r) if wrap else r)
            except _MISUSE as e:
                raise _misuse(sig.__name__, args, e) from e
        entry.__name__ = entry.__qualname__ = sig.__name__
        return entry
    return face


# ---------------------------------------------------------------- int tuples
def _ints(f: _Callable[..., _Any]) -> _Callable[..., _Any]:
    """``f`` on IntTuples checked first (integer leaves, bounded nesting)."""
    def checked(*args: _Any) -> _Any:
        return f(*[_lay.as_int_tuple(a) for a in args])
    return checked


@_api(_ints(_it.shape_div))
def shape_div(a: IntTuple, b: IntTuple) -> IntTuple: ...
@_api(_ints(_it.ceil_div))
def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple: ...
@_api(_ints(_it.prefix_product))
def prefix_product(a: IntTuple, init: IntLike = 1) -> IntTuple: ...
@_api(_ints(_it.inner_product))
def inner_product(a: IntTuple, b: IntTuple) -> IntLike: ...
@_api(_ints(_it.elem_scale))
def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple: ...
@_api(_ints(_it.congruent))
def congruent(a: IntTuple, b: IntTuple) -> bool: ...
@_api(_ints(_it.weakly_congruent))
def weakly_congruent(a: IntTuple, b: IntTuple) -> bool: ...
@_api(_ints(_it.compatible))
def compatible(a: IntTuple, b: IntTuple) -> bool: ...
@_api(_ints(_it.crd2crd))
def crd2crd(coord: IntTuple, src_shape: IntTuple, dst_shape: IntTuple) -> IntTuple: ...
@_api(_ints(_it.product))
def product(a: IntTuple) -> IntLike: ...
@_api(_coords.crd2idx)
def crd2idx(coord: IntTuple, layout: _Union[Layout, IntTuple], stride: _Optional[IntTuple] = None) -> IntLike: ...
@_api(_coords.idx2crd)
def idx2crd(coord: IntTuple, shape: _Union[Layout, IntTuple], stride: _Optional[IntTuple] = None) -> IntTuple: ...
@_api(_lay.make_shape)
def make_shape(*extents: IntTuple) -> IntTuple: ...
@_api(_lay.make_stride)
def make_stride(*strides: IntTuple) -> IntTuple: ...
@_api(_lay.make_step)
def make_step(*steps: IntTuple) -> IntTuple: ...
@_api(_lay.make_coord)
def make_coord(*coords: _Union[IntTuple, Underscore]) -> IntTuple: ...
@_api(_lay.make_tile)
def make_tile(*modes: Tiler) -> "tuple[_Any, ...]": ...


# ---------------------------------------------------------------- layouts
@_api(_lay.size)
def size(x: _Union[AnyLayout, IntTuple], *idx: int) -> IntLike: ...
@_api(_lay.cosize)
def cosize(layout: AnyLayout, *idx: int) -> IntLike: ...
@_api(_lay.rank)
def rank(x: _Union[AnyLayout, IntTuple], *idx: int) -> int: ...
@_api(_lay.depth)
def depth(x: _Union[AnyLayout, IntTuple], *idx: int) -> int: ...
@_api(_lay.shape)
def shape(x: _Union[AnyLayout, IntTuple], *idx: int) -> IntTuple: ...
@_api(_lay.stride)
def stride(layout: Layout, *idx: int) -> IntTuple: ...
@_api(_lay.coshape)
def coshape(layout: Layout) -> IntTuple: ...
@_overload
def get(x: Layout, *idx: int) -> Layout: ...
@_overload
def get(x: ComposedLayout, *idx: int) -> ComposedLayout: ...
@_overload
def get(x: IntTuple, *idx: int) -> IntTuple: ...
@_api(_lay.get)
def get(x: _Union[AnyLayout, IntTuple], *idx: int) -> _Union[AnyLayout, IntTuple]: ...
@_overload
def flatten(x: Layout) -> Layout: ...
@_overload
def flatten(x: ComposedLayout) -> ComposedLayout: ...
@_overload
def flatten(x: IntTuple) -> IntTuple: ...
@_api(_lay.flatten)
def flatten(x: _Union[AnyLayout, IntTuple]) -> _Union[AnyLayout, IntTuple]: ...
@_overload
def unflatten(x: Layout, profile: IntTuple) -> Layout: ...
@_overload
def unflatten(x: IntTuple, profile: IntTuple) -> IntTuple: ...
@_api(_lay.unflatten)
def unflatten(x: _Union[Layout, IntTuple], profile: IntTuple) -> _Union[Layout, IntTuple]: ...
@_api(_lay.make_ordered_layout)
def make_ordered_layout(shape: IntTuple, order: IntTuple) -> Layout: ...
@_api(_lay.make_layout_like)
def make_layout_like(layout: Layout) -> Layout: ...
@_api(_lay.append)
def append(layout: Layout, x: _Optional[Layout] = None, n: _Optional[int] = None) -> Layout: ...
@_api(_lay.prepend)
def prepend(layout: Layout, x: _Optional[Layout] = None, n: _Optional[int] = None) -> Layout: ...
@_api(_lay.group)
def group(layout: Layout, begin: int, end: int) -> Layout: ...
@_api(_lay.select)
def select(layout: Layout, *modes: int) -> Layout: ...
@_api(_lay.take)
def take(layout: Layout, begin: int, end: int) -> Layout: ...
@_api(_lay.slice_)
def slice_(coord: _Union[IntTuple, Underscore], layout: Layout) -> Layout: ...
@_api(_lay.dice)
def dice(coord: _Union[IntTuple, Underscore], layout: Layout) -> Layout: ...
@_api(_lay.slice_and_offset)
def slice_and_offset(coord: _Union[IntTuple, Underscore], layout: Layout) -> "tuple[Layout, IntLike]": ...
@_api(_lay.filter_zeros)
def filter_zeros(layout: Layout) -> Layout: ...


# ---------------------------------------------------------------- algebra
@_overload
def coalesce(layout: Layout, profile: _Optional[IntTuple] = None) -> Layout: ...
@_overload
def coalesce(layout: ComposedLayout, profile: _Optional[IntTuple] = None) -> ComposedLayout: ...
@_api(_alg.coalesce)
def coalesce(layout: AnyLayout, profile: _Optional[IntTuple] = None) -> AnyLayout: ...
@_overload
def filter(layout: Layout, profile: _Optional[IntTuple] = None) -> Layout: ...
@_overload
def filter(layout: ComposedLayout, profile: _Optional[IntTuple] = None) -> ComposedLayout: ...
@_api(_alg.filter)
def filter(layout: AnyLayout, profile: _Optional[IntTuple] = None) -> AnyLayout: ...
@_overload
def composition(lhs: Layout, rhs: Tiler) -> Layout: ...
@_overload
def composition(lhs: _Union[AnyLayout, Swizzle], rhs: _Union[Tiler, ComposedLayout, Swizzle]) -> AnyLayout: ...
@_api(_alg.composition)
def composition(lhs: _Union[AnyLayout, Swizzle], rhs: _Union[Tiler, ComposedLayout, Swizzle]) -> AnyLayout: ...


def _complement(layout: _Any, cotarget: _Any = None) -> _Any:
    for c in _it.iter_leaves(cotarget) if cotarget is not None else ():
        if type(c) is int and c < 1:
            raise LayoutError(f"complement: the cotarget must be positive, got {cotarget}")
    return _alg.complement(layout, cotarget)


@_api(_complement)
def complement(layout: Layout, cotarget: _Optional[IntTuple] = None) -> Layout: ...
@_overload
def right_inverse(layout: Layout) -> Layout: ...
@_overload
def right_inverse(layout: ComposedLayout) -> AnyLayout: ...
@_api(_alg.right_inverse)
def right_inverse(layout: AnyLayout) -> AnyLayout: ...
@_overload
def left_inverse(layout: Layout) -> Layout: ...
@_overload
def left_inverse(layout: ComposedLayout) -> AnyLayout: ...
@_api(_alg.left_inverse)
def left_inverse(layout: AnyLayout) -> AnyLayout: ...


# Divides and products: a plain layout gives a plain layout, a composed one a composed one.
@_overload
def logical_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def logical_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.logical_divide)
def logical_divide(layout: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_overload
def zipped_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def zipped_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.zipped_divide)
def zipped_divide(layout: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_overload
def tiled_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def tiled_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.tiled_divide)
def tiled_divide(layout: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_overload
def flat_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def flat_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.flat_divide)
def flat_divide(layout: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_overload
def logical_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def logical_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.logical_product)
def logical_product(block: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_overload
def zipped_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def zipped_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.zipped_product)
def zipped_product(block: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_overload
def tiled_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def tiled_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.tiled_product)
def tiled_product(block: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_overload
def flat_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def flat_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_api(_alg.flat_product)
def flat_product(block: AnyLayout, tiler: Tiler) -> AnyLayout: ...
@_api(_alg.blocked_product)
def blocked_product(block: Layout, tiler: Layout) -> Layout: ...
@_api(_alg.raked_product)
def raked_product(block: Layout, tiler: Layout) -> Layout: ...
@_api(_alg.tile_to_shape)
def tile_to_shape(block: Layout, trg_shape: IntTuple, order: _Any = LayoutLeft) -> Layout: ...
@_api(_alg.max_common_layout)
def max_common_layout(a: Layout, b: Layout) -> Layout: ...
@_api(_alg.max_common_vector)
def max_common_vector(a: Layout, b: Layout) -> IntLike: ...
@_api(_alg.nullspace)
def nullspace(layout: Layout) -> Layout: ...
@_api(_alg.upcast)
def upcast(layout: Layout, n: int) -> Layout: ...
@_api(_alg.downcast)
def downcast(layout: Layout, n: int) -> Layout: ...
@_api(_alg.recast_layout)
def recast_layout(layout: Layout, old_bits: int, new_bits: int) -> Layout: ...


# ---------------------------------------------------------------- notation, views, code
@_api(_notation.parse)
def parse(text: str, symbols: _Optional[_Mapping[str, _Any]] = None) -> Parsed: ...
@_overload
def subs(obj: Layout, values: _Mapping[str, _Any]) -> Layout: ...
@_overload
def subs(obj: ComposedLayout, values: _Mapping[str, _Any]) -> ComposedLayout: ...
@_overload
def subs(obj: IntTuple, values: _Mapping[str, _Any]) -> IntTuple: ...
@_api(_notation.subs)
def subs(obj: _Union[AnyLayout, IntTuple], values: _Mapping[str, _Any]) -> _Union[AnyLayout, IntTuple]: ...
@_api(_notation.to_str)
def to_str(obj: object) -> str: ...
@_api(_table.layout_table)
def layout_table(layout: AnyLayout, values: _Optional[_Mapping[str, int]] = None) -> str: ...
@_api(_table.print_layout)
def print_layout(layout: AnyLayout, values: _Optional[_Mapping[str, int]] = None,
                 file: _Optional[_TextIO] = None) -> None: ...
@_api(_expr.index_expr)
def index_expr(layout: Layout, *coords: _Any) -> DynInt: ...
@_api(_expr.coord_expr, wrap=False)       # formulas print as Python reads them
def coord_expr(shape: _Union[Layout, IntTuple], index: _Any = None) -> IntTuple: ...
@_api(_emit)
def emit(obj: _Any, lang: str, name: str = "offset", params: _Optional[list[str]] = None) -> str: ...
@_api(_evaluate)
def evaluate(layout: Layout, bind: _Optional[_Mapping[_Any, _Any]] = None) -> "_NDArray[_np.int64]": ...


__all__ = [
    "DivisibilityError", "InjectivityError", "LayoutError", "NotationError", "RankError", "UndecidableError",
    "Dyn", "DynInt", "DynSymbol", "Int", "IntLike", "IntTuple", "StaticInt", "Tup", "Tiler", "AnyLayout",
    "Parsed", "Underscore", "is_static", "assume",
    "collect_guards", "prove", "_", "Layout", "LayoutLeft", "LayoutRight", "make_layout", "ComposedLayout",
    "Swizzle", "parse", "subs", "to_str", "shape_div", "ceil_div", "prefix_product", "inner_product",
    "elem_scale", "congruent", "weakly_congruent", "compatible", "crd2crd", "product", "unflatten", "crd2idx",
    "idx2crd", "make_shape", "make_stride", "make_step", "make_coord", "make_tile",
    "size", "cosize", "coshape", "rank", "depth", "shape", "stride", "flatten", "make_ordered_layout",
    "make_layout_like", "append", "prepend", "group", "select", "take", "get", "slice_", "dice",
    "slice_and_offset", "filter_zeros", "coalesce", "filter", "composition", "complement", "right_inverse",
    "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
    "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape",
    "max_common_layout", "max_common_vector", "nullspace", "upcast", "downcast", "recast_layout",
    "layout_table", "print_layout", "index_expr", "coord_expr", "FloorDiv", "IMod", "emit", "evaluate",
]
