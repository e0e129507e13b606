"""cute_sym: CuTe's layout algebra in Python, exact on static and symbolic integers.

>>> import cute_sym as cs
>>> print(cs.logical_divide(cs.parse("_24:_2"), cs.parse("_4:_2")))
(_4,(_2,_3)):(_4,(_2,_16))
>>> cs.size(cs.parse("(_4,_8):(_1,_4)")), cs.size(cs.parse("(_4,(_2,_3)):(_1,(_4,_8))"), 1)
(_32, _6)

Every public function keeps the types it declares (``mypy --strict`` sees a
:class:`Layout` where one comes back, never ``Any``): each is a typed
signature below whose body is the implementation in the layer that owns it,
entered through :func:`cute_sym.face.api` (plain ints and tuples in, CuTe-printing ones
out; a wrong kind of argument is a :class:`LayoutError`; the implementation's contract
for ``help()``).
"""
# mypy: disable-error-code="empty-body"
from __future__ import annotations

from typing import (
    TYPE_CHECKING, Any as _Any, Callable as _Callable, Iterator as _Iterator, Mapping as _Mapping, Optional as _Optional,
    TextIO as _TextIO, Union as _Union, overload as _overload,
)

from typing_extensions import TypeAlias as _TypeAlias

from .core.errors import (
    DivisibilityError, InjectivityError, LayoutError, NotationError, RankError, UndecidableError,
)
from .core.integers import Dyn, DynInt, Int, StaticInt, UserInt, UserIntTuple, is_static
from .core.decide import assume, collect_guards, prove_checked as prove
from .core.int_tuple import Tup, Underscore, _
from .core import int_tuple as _it
from . import layout as _lay
from . import swizzle as _alg
from . import algebra as _plain_alg
from .algebra.coalesce import coalesce_static as _coalesce_static
from .layout import coords as _coords
from .layout.layout import Layout, LayoutLeft, LayoutRight, make_layout
from .swizzle import ComposedLayout, Swizzle
from .notation import notation as _notation
from .views import table as _table
from .views import tensor_text as _tensor_text
# tensors: scaled bases, engines, partitions; the algebra's entry points also take tensors and basis layouts
from . import tensor as _tensor
from .tensor import ArithmeticTuple, ScaledBasis, Tensor
from .tensor.engine import Pointer as _Pointer

if TYPE_CHECKING:
    import numpy as _np
    from numpy.typing import NDArray as _NDArray
    from .core.symbolic import DynSymbol, IMod
    from .codegen.expr import FloorDiv

__version__ = "0.1.0"

#: What user code sees: a static ``int`` (``_4``) or a dynamic integer (:class:`DynInt`).
IntLike: _TypeAlias = UserInt
#: An integer or a (nested) tuple of them.
IntTuple: _TypeAlias = UserIntTuple
#: A plain or a composed (swizzled) layout.
AnyLayout: _TypeAlias = _Union[Layout, ComposedLayout]
#: What the divides and products take as their second argument: a layout, a shape, or a tile.
Tiler: _TypeAlias = _Union[Layout, int, DynInt, Underscore, "tuple[Tiler, ...]"]
#: A coordinate with ``_`` in it (a slice).
_SliceCoord: _TypeAlias = _Union[int, DynInt, Underscore, "tuple[_SliceCoord, ...]"]
#: Everything ``parse`` may read.
Parsed: _TypeAlias = _Union[Layout, ComposedLayout, Swizzle, Underscore, int, DynInt, "tuple[Tiler, ...]",
                           ScaledBasis, ArithmeticTuple, Tensor]

from .face import api as _api, checked as _checked, ints as _ints  # noqa: E402


# ---------------------------------------------------------------- int tuples
@_api(_ints(_it.shape_div))
def shape_div(a: IntTuple, b: IntTuple) -> IntTuple: ...
@_api(_ints(_it.ceil_div))
def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple: ...
@_api(_ints(_it.prefix_product))
def prefix_product(a: IntTuple, init: IntTuple = 1) -> IntTuple: ...
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
def make_coord(*coords: _SliceCoord) -> IntTuple: ...
@_api(_lay.make_tile)
def make_tile(*modes: Tiler) -> "tuple[_Any, ...]": ...


# ---------------------------------------------------------------- layouts
@_api(_lay.size)
def size(x: _Union[AnyLayout, Tensor, IntTuple], *idx: int) -> IntLike: ...
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
@_overload
def flatten(x: Tensor) -> Tensor: ...
@_api(_tensor.flatten)
def flatten(x: _Union[AnyLayout, Tensor, IntTuple]) -> _Union[AnyLayout, Tensor, IntTuple]: ...
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
@_overload
def take(layout: Layout, begin: int, end: int) -> Layout: ...
@_overload
def take(layout: Tensor, begin: int, end: int) -> Tensor: ...
@_api(_tensor.take)
def take(layout: _Union[Layout, Tensor], begin: int, end: int) -> _Union[Layout, Tensor]: ...
@_api(_lay.slice_)
def slice_(coord: _SliceCoord, layout: Layout) -> Layout: ...
@_api(_lay.dice)
def dice(coord: _SliceCoord, layout: Layout) -> Layout: ...
@_api(_lay.slice_and_offset)
def slice_and_offset(coord: _SliceCoord, layout: Layout) -> "tuple[Layout, IntLike]": ...
@_overload
def filter_zeros(layout: Layout) -> Layout: ...
@_overload
def filter_zeros(layout: Tensor) -> Tensor: ...
@_api(_tensor.filter_zeros)
def filter_zeros(layout: _Union[Layout, Tensor]) -> _Union[Layout, Tensor]: ...


# ---------------------------------------------------------------- algebra
@_overload
def coalesce(layout: Layout, profile: _Optional[IntTuple] = None) -> Layout: ...
@_overload
def coalesce(layout: ComposedLayout, profile: _Optional[IntTuple] = None) -> ComposedLayout: ...
@_overload
def coalesce(layout: Tensor, profile: _Optional[IntTuple] = None) -> Tensor: ...
@_api(_tensor.coalesce, fast=_plain_alg.coalesce, kernel=_coalesce_static)
def coalesce(layout: _Union[AnyLayout, Tensor], profile: _Optional[IntTuple] = None
           ) -> _Union[AnyLayout, Tensor]: ...
@_overload
def filter(layout: Layout, profile: _Optional[IntTuple] = None) -> Layout: ...
@_overload
def filter(layout: ComposedLayout, profile: _Optional[IntTuple] = None) -> ComposedLayout: ...
@_overload
def filter(layout: Tensor, profile: _Optional[IntTuple] = None) -> Tensor: ...
@_api(_tensor.filter, fast=_plain_alg.filter)
def filter(layout: _Union[AnyLayout, Tensor], profile: _Optional[IntTuple] = None
           ) -> _Union[AnyLayout, Tensor]: ...
@_overload
def composition(lhs: Layout, rhs: Tiler) -> Layout: ...
@_overload
def composition(lhs: _Union[AnyLayout, Swizzle], rhs: _Union[Tiler, ComposedLayout, Swizzle]) -> AnyLayout: ...
@_overload
def composition(lhs: Tensor, rhs: Tiler) -> Tensor: ...
@_api(_tensor.composition, fast=_plain_alg.composition)
def composition(lhs: _Union[AnyLayout, Swizzle, Tensor], rhs: _Union[Tiler, ComposedLayout, Swizzle]
                ) -> _Union[AnyLayout, Tensor]: ...


def _check_cotarget(cotarget: _Any) -> None:
    leaves = (cotarget,) if type(cotarget) is int else () if cotarget is None else _it.iter_leaves(cotarget)
    if any(type(c) is int and c < 1 for c in leaves):
        raise LayoutError(f"complement: the cotarget must be positive, got {cotarget}")


def _complement(layout: _Any, cotarget: _Any = None) -> _Any:
    _check_cotarget(cotarget)
    return _alg.complement(layout, cotarget)


def _complement_plain(layout: _Any, cotarget: _Any = None) -> _Any:
    if type(cotarget) is not int or cotarget < 1:       # (a positive int, the usual: no call)
        _check_cotarget(cotarget)
    return _plain_alg.complement(layout, cotarget)


@_api(_complement, fast=_complement_plain, doc=_alg.complement)
def complement(layout: Layout, cotarget: _Optional[IntTuple] = None) -> Layout: ...
@_overload
def right_inverse(layout: Layout) -> Layout: ...
@_overload
def right_inverse(layout: ComposedLayout) -> AnyLayout: ...
@_api(_alg.right_inverse, fast=_plain_alg.right_inverse)
def right_inverse(layout: AnyLayout) -> AnyLayout: ...
@_overload
def left_inverse(layout: Layout) -> Layout: ...
@_overload
def left_inverse(layout: ComposedLayout) -> AnyLayout: ...
@_api(_alg.left_inverse, fast=_plain_alg.left_inverse)
def left_inverse(layout: AnyLayout) -> AnyLayout: ...


# Divides and products: a plain layout gives a plain layout, a composed one a composed one.
@_overload
def logical_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def logical_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def logical_divide(layout: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.logical_divide, fast=_plain_alg.logical_divide)
def logical_divide(layout: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def zipped_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def zipped_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def zipped_divide(layout: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.zipped_divide, fast=_plain_alg.zipped_divide)
def zipped_divide(layout: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def tiled_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def tiled_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def tiled_divide(layout: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.tiled_divide, fast=_plain_alg.tiled_divide)
def tiled_divide(layout: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def flat_divide(layout: Layout, tiler: Tiler) -> Layout: ...
@_overload
def flat_divide(layout: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def flat_divide(layout: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.flat_divide, fast=_plain_alg.flat_divide)
def flat_divide(layout: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def logical_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def logical_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def logical_product(block: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.logical_product, fast=_plain_alg.logical_product)
def logical_product(block: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def zipped_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def zipped_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def zipped_product(block: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.zipped_product, fast=_plain_alg.zipped_product)
def zipped_product(block: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def tiled_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def tiled_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def tiled_product(block: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.tiled_product, fast=_plain_alg.tiled_product)
def tiled_product(block: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def flat_product(block: Layout, tiler: Tiler) -> Layout: ...
@_overload
def flat_product(block: ComposedLayout, tiler: Tiler) -> ComposedLayout: ...
@_overload
def flat_product(block: Tensor, tiler: Tiler) -> Tensor: ...
@_api(_tensor.flat_product, fast=_plain_alg.flat_product)
def flat_product(block: _Union[AnyLayout, Tensor], tiler: Tiler) -> _Union[AnyLayout, Tensor]: ...
@_overload
def blocked_product(block: Layout, tiler: Layout) -> Layout: ...
@_overload
def blocked_product(block: Tensor, tiler: Layout) -> Tensor: ...
@_api(_tensor.blocked_product, fast=_plain_alg.blocked_product)
def blocked_product(block: _Union[Layout, Tensor], tiler: Layout) -> _Union[Layout, Tensor]: ...
@_overload
def raked_product(block: Layout, tiler: Layout) -> Layout: ...
@_overload
def raked_product(block: Tensor, tiler: Layout) -> Tensor: ...
@_api(_tensor.raked_product, fast=_plain_alg.raked_product)
def raked_product(block: _Union[Layout, Tensor], tiler: Layout) -> _Union[Layout, Tensor]: ...
@_overload
def tile_to_shape(block: Layout, trg_shape: IntTuple, order: _Any = LayoutLeft) -> Layout: ...
@_overload
def tile_to_shape(block: ComposedLayout, trg_shape: IntTuple, order: _Any = LayoutLeft) -> ComposedLayout: ...
@_api(_alg.tile_to_shape)
def tile_to_shape(block: AnyLayout, trg_shape: IntTuple, order: _Any = LayoutLeft) -> AnyLayout: ...
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


# ---------------------------------------------------------------- tensors
@_api(_tensor.E, wrap=False, plain=False)
def E(*modes: int) -> _Union[ScaledBasis, int]: ...
@_api(_tensor.make_basis_like, wrap=False, plain=False)
def make_basis_like(shape: IntTuple, prefix: "tuple[int, ...]" = ()) -> _Union[ScaledBasis, "tuple[_Any, ...]"]: ...
@_api(_tensor.make_identity_layout, wrap=False, plain=False)
def make_identity_layout(shape: IntTuple) -> Layout: ...
@_api(_tensor.make_gmem_ptr, wrap=False, plain=False)
def make_gmem_ptr(name: str, dtype: _Optional[str] = None, offset: IntLike = 0) -> _Pointer: ...
@_api(_tensor.make_smem_ptr, wrap=False, plain=False)
def make_smem_ptr(name: str, dtype: _Optional[str] = None, offset: IntLike = 0) -> _Pointer: ...
@_api(_tensor.make_rmem_ptr, wrap=False, plain=False)
def make_rmem_ptr(name: str, dtype: _Optional[str] = None, offset: IntLike = 0) -> _Pointer: ...
@_api(_tensor.make_tensor, wrap=False, plain=False)
def make_tensor(engine: _Any, layout: _Any = None, stride: _Any = None, dtype: _Optional[str] = None) -> Tensor: ...
@_api(_tensor.make_coord_tensor, wrap=False, plain=False)
def make_coord_tensor(layout: Layout) -> Tensor: ...
@_api(_tensor.make_identity_tensor, wrap=False, plain=False)
def make_identity_tensor(shape: IntTuple) -> Tensor: ...
@_api(_tensor.make_fragment_like, wrap=False, plain=False)
def make_fragment_like(x: _Any, dtype: _Optional[str] = None, name: str = "frg") -> Tensor: ...
@_api(_tensor.make_tensor_like, wrap=False, plain=False)
def make_tensor_like(x: _Any, dtype: _Optional[str] = None, name: str = "frg") -> Tensor: ...
@_api(_tensor.group_modes)
def group_modes(t: Tensor, begin: int, end: int) -> Tensor: ...
@_api(_tensor.local_tile)
def local_tile(tensor: Tensor, tiler: Tiler, coord: _Any, proj: _Optional[_Any] = None) -> Tensor: ...
@_api(_tensor.local_partition)
def local_partition(tensor: Tensor, thr_layout: Layout, thr_idx: _Any, proj: _Optional[_Any] = None) -> Tensor: ...
@_api(_tensor.inner_partition)
def inner_partition(tensor: Tensor, tiler: Tiler, coord: _Any) -> Tensor: ...
@_api(_tensor.outer_partition)
def outer_partition(tensor: Tensor, tiler: Tiler, coord: _Any) -> Tensor: ...


# ---------------------------------------------------------------- notation, views, code
@_api(_notation.parse)
def parse(text: str, symbols: _Optional[_Mapping[str, _Any]] = None, dialect: str = "cute") -> Parsed: ...
@_overload
def subs(obj: Layout, values: _Mapping[str, _Any], ignore_unknown: bool = False) -> Layout: ...
@_overload
def subs(obj: ComposedLayout, values: _Mapping[str, _Any], ignore_unknown: bool = False) -> ComposedLayout: ...
@_overload
def subs(obj: IntTuple, values: _Mapping[str, _Any], ignore_unknown: bool = False) -> IntTuple: ...
@_api(_notation.subs)
def subs(obj: _Union[AnyLayout, IntTuple], values: _Mapping[str, _Any], ignore_unknown: bool = False) -> _Union[AnyLayout, IntTuple]: ...
@_api(_notation.to_str)
def to_str(obj: object) -> str: ...
@_api(_table.layout_table)
def layout_table(layout: AnyLayout, values: _Optional[_Mapping[str, int]] = None) -> str: ...
@_api(_table.print_layout)
def print_layout(layout: AnyLayout, values: _Optional[_Mapping[str, int]] = None,
                 file: _Optional[_TextIO] = None) -> None: ...
@_api(_tensor_text.print_tensor)
def print_tensor(tensor: Tensor, print_type: bool = True, file: _Optional[_TextIO] = None) -> None: ...
@_api(lambda *a, **k: _codegen("expr").index_expr(*a, **k), lazy=("cute_sym.codegen.expr", "index_expr"))
def index_expr(layout: Layout, *coords: _Any) -> DynInt: ...
@_api(lambda *a, **k: _codegen("expr").coord_expr(*a, **k), wrap=False, lazy=("cute_sym.codegen.expr", "coord_expr"))       # formulas print as Python reads them
def coord_expr(shape: _Union[Layout, IntTuple], index: _Any = None) -> IntTuple: ...
@_api(lambda *a, **k: _codegen("emit").emit(*a, **k), lazy=("cute_sym.codegen.emit", "emit"))
def emit(obj: _Any, lang: str, name: str = "offset", params: _Optional[list[str]] = None) -> str: ...
def _codegen(module: str) -> _Any:
    """A codegen module, imported on first use (it needs sympy; static work never imports it)."""
    import importlib
    return importlib.import_module(f"{__name__}.codegen.{module}")


def _evaluate_checked(layout: _Any, bind: _Any = None) -> _Any:
    try:
        return _codegen("evaluate").evaluate(layout, bind)
    except LayoutError:
        raise
    except (MemoryError, ValueError) as e:   # NumPy cannot hold the table
        raise LayoutError(f"evaluate: the table of {layout} does not fit in memory ({e})") from None


@_api(_evaluate_checked, lazy=("cute_sym.codegen.evaluate", "evaluate"))
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
    "layout_table", "print_layout", "print_tensor", "index_expr", "coord_expr", "FloorDiv", "IMod", "emit", "evaluate",
    "ArithmeticTuple", "E", "ScaledBasis", "Tensor", "make_tensor", "make_gmem_ptr", "make_smem_ptr",
    "make_rmem_ptr", "make_identity_tensor", "make_identity_layout", "make_fragment_like", "make_coord_tensor",
    "make_basis_like", "make_tensor_like", "group_modes", "local_tile", "local_partition", "inner_partition", "outer_partition",
]

# ---------------------------------------------------------------- issue 34: stride kinds (F2 strides, Triton's
# linear layouts) and NVIDIA PyCuTe's layout operations. One block, to ease merging.
from .stride import F2  # noqa: E402
from .swizzle import linear as _linear  # noqa: E402
@_api(_linear.f2_layout, wrap=False, plain=False)
def f2_layout(sw: Swizzle, size: _Optional[int] = None) -> Layout: ...
@_api(_linear.as_f2_layout, wrap=False, plain=False)
def as_f2_layout(x: _Union[Layout, ComposedLayout, Swizzle]) -> Layout: ...
@_api(_linear.to_linear_layout, wrap=False)
def to_linear_layout(x: _Union[Layout, ComposedLayout, Swizzle], out_shape: "tuple[int, ...]",
                     order: "_Optional[tuple[int, ...]]" = None, in_dims: "_Optional[tuple[str, ...]]" = None,
                     in_sizes: "_Optional[tuple[int, ...]]" = None) -> "dict[str, list[tuple[int, ...]]]": ...
@_api(_linear.from_linear_layout, wrap=False)
def from_linear_layout(bases: "_Mapping[str, _Any]", out_shape: "tuple[int, ...]",
                       order: "_Optional[tuple[int, ...]]" = None) -> Layout: ...
# NVIDIA PyCuTe's layout operations (shape lattice, gcd domain, pointwise sum, extended-domain coalesce)
@_api(_plain_alg.common_refinement)
def common_refinement(a: _Union[IntTuple, Layout], b: _Union[IntTuple, Layout]) -> IntTuple: ...
@_api(_plain_alg.common_coarsening)
def common_coarsening(a: _Union[IntTuple, Layout], b: _Union[IntTuple, Layout]) -> IntTuple: ...
@_api(_plain_alg.greatest_common_domain)
def greatest_common_domain(a: _Union[IntTuple, Layout], b: _Union[IntTuple, Layout]) -> Layout: ...
@_api(_plain_alg.layout_add)
def layout_add(a: Layout, b: Layout) -> Layout: ...
@_api(_plain_alg.coalesce_z)
def coalesce_z(layout: Layout) -> Layout: ...
# hierarchical-tuple helpers (CuTe's wrap/unwrap of one-tuples; PyCuTe's lift and leaf walks)
from .core.int_tuple import htuple as _ht  # noqa: E402
@_api(_ht.wrap_tuple)
def wrap(x: _Any) -> "tuple[_Any, ...]": ...
@_api(_ht.unwrap_tuple)
def unwrap(x: _Any) -> _Any: ...
@_api(_ht.lift, wrap=False, plain=False)
def lift(obj: _Any, mode: _Any = (), pad: _Any = 0) -> _Any: ...
@_api(_ht.zip_leaves, wrap=False, plain=False)
def zip_leaves(t: _Any, *ts: _Any) -> "_Iterator[tuple[_Any, ...]]": ...
@_api(_ht.fold_leaf, wrap=False, plain=False)
def fold_leaf(fn: "_Callable[..., _Any]", v: _Any, *ts: _Any) -> _Any: ...
@_api(_ht.transform_leaf, wrap=False, plain=False)
def transform_leaf(f: "_Callable[..., _Any]", *ts: _Any) -> _Any: ...
@_api(_ht.transform_apply_leaf, wrap=False, plain=False)
def transform_apply_leaf(g: "_Callable[..., _Any]", f: "_Callable[..., _Any]", t: _Any, *ts: _Any) -> _Any: ...
@_api(_ht.coordinates, wrap=False)
def coordinates(shape: IntTuple) -> "_Iterator[_Any]": ...
@_api(_ht.in_bounds, wrap=False)
def in_bounds(coord: _Any, shape: IntTuple) -> bool: ...
__all__ += ["F2", "f2_layout", "as_f2_layout", "to_linear_layout", "from_linear_layout",
            "common_refinement", "common_coarsening", "greatest_common_domain", "layout_add", "coalesce_z",
            "wrap", "unwrap", "lift", "zip_leaves", "fold_leaf", "transform_leaf", "transform_apply_leaf",
            "coordinates", "in_bounds"]
# ---------------------------------------------------------------- end of issue 34's block

# MMA and copy atoms (CuTe's traits as data) and tiled MMAs and copies: their tables load on
# first use (__getattr__ below), so `import cute_sym` compiles and runs only the algebra's code.
if TYPE_CHECKING:
    from .tensor.atoms import MMA_Traits, Major, ScaleIn, mma_atom_names
    from .tensor.mma import MMA_Atom, ThrMMA, TiledMMA
    from .tensor.atoms.copy_traits import Copy_Traits
    from .tensor.atoms.copy_atom import Copy_Atom
    from .tensor.copy import ThrCopy, TiledCopy
    from .tensor.copy_make import (
        make_cotiled_copy, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C,
        make_tiled_copy_C_atom, make_tiled_copy_D, make_tiled_copy_impl, make_tiled_copy_S,
    )

    def make_tiled_mma(atom: _Union[str, MMA_Traits, MMA_Atom], atom_layout: _Any = (1, 1, 1),
                       permutations: _Any = None) -> TiledMMA: ...
    def tile_shape(mma: TiledMMA) -> IntTuple: ...
    def partition_shape_A(mma: TiledMMA, shape_mk: IntTuple) -> IntTuple: ...
    def partition_shape_B(mma: TiledMMA, shape_nk: IntTuple) -> IntTuple: ...
    def partition_shape_C(mma: TiledMMA, shape_mn: IntTuple) -> IntTuple: ...

    # --- Blackwell UMMA (issue 35, MMA side): tile_to_mma_shape, tmem_frg_layout
    def tile_to_mma_shape(atom: _Union[Layout, ComposedLayout], mma_tile_shape: IntTuple,
                          order: _Any = None) -> _Union[Layout, ComposedLayout]: ...
    def tmem_frg_layout(frg_type: str, tmem_shape: IntTuple) -> Layout: ...
    def tmem_sf_frg_layout(sf_type: str, n_sm: int, is_sfa: bool, tmem_shape: IntTuple,
                           alloc: str = "ScaleFactorDuplicated4by1") -> Layout: ...
    # --- end Blackwell UMMA

# public name -> (module, attribute, how it is entered: None as it is, "checked", or _api's options)
_ATOMS: dict[str, tuple[str, str, _Any]] = {
    **{n: ("tensor.atoms", n, None) for n in ("MMA_Traits", "Major", "ScaleIn", "mma_atom_names")},
    **{n: ("tensor.mma", n, None) for n in ("MMA_Atom", "ThrMMA", "TiledMMA")},
    "make_tiled_mma": ("tensor.mma", "make_tiled_mma", {"wrap": False, "plain": False}),
    **{n: ("tensor.mma", n, {}) for n in ("tile_shape", "partition_shape_A", "partition_shape_B",
                                           "partition_shape_C")},
    "Copy_Traits": ("tensor.atoms.copy_traits", "Copy_Traits", None),
    "Copy_Atom": ("tensor.atoms.copy_atom", "Copy_Atom", None),
    **{n: ("tensor.copy", n, None) for n in ("ThrCopy", "TiledCopy")},
    **{n: ("tensor.copy_make", n, "checked") for n in (
        "make_tiled_copy", "make_tiled_copy_impl", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
        "make_tiled_copy_C_atom", "make_cotiled_copy", "make_tiled_copy_S", "make_tiled_copy_D")},
    # --- Blackwell UMMA (issue 35, MMA side)
    **{n: ("tensor.umma", n, "checked") for n in ("tile_to_mma_shape", "tmem_frg_layout", "tmem_sf_frg_layout")},
    # --- end Blackwell UMMA
}
# issue 33: the list of copy atoms (as mma_atom_names lists the MMA atoms)
if TYPE_CHECKING:
    from .tensor.atoms.copy_traits import copy_atom_names
_ATOMS["copy_atom_names"] = ("tensor.atoms.copy_traits", "copy_atom_names", None)
__all__ += ["copy_atom_names"]
# issue 33: an analysis answered by cases is a Cases (narrow with isinstance), its wavefronts typed
if TYPE_CHECKING:
    from .analysis.cases import Cases
_ATOMS["Cases"] = ("analysis.cases", "Cases", None)
__all__ += ["Cases"]
# (end of issue 33's block)

# (a literal list: mypy reads re-exports from it)
__all__ += [
    "MMA_Traits", "Major", "ScaleIn", "mma_atom_names", "MMA_Atom", "ThrMMA", "TiledMMA", "make_tiled_mma",
    "partition_shape_A", "partition_shape_B", "partition_shape_C", "tile_shape",
    "Copy_Traits", "Copy_Atom", "ThrCopy", "TiledCopy", "make_tiled_copy", "make_tiled_copy_impl",
    "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_S", "make_tiled_copy_D",
    "make_tiled_copy_C_atom", "make_cotiled_copy",
    # --- Blackwell UMMA (issue 35, MMA side)
    "tile_to_mma_shape", "tmem_frg_layout", "tmem_sf_frg_layout",
    # --- end Blackwell UMMA
]

# ---- issue 36: the canonical smem layout atoms, TMA copies, GMMA/UMMA descriptors (loaded on first use)
if TYPE_CHECKING:
    from .tensor.atoms.smem_atoms import smem_layout_atom
    from .tensor.tma import (TmaCopyAtom, TmaDescriptor, TmaTiledCopy, make_tma_atom, make_tma_copy, tma_partition,
                             make_tma_atom_A_sm100, make_tma_atom_B_sm100)
    from .tensor.smem_desc import GmmaDescriptor, UmmaDescriptor, check_mma_smem_layout, make_gmma_desc, make_umma_desc
_ATOMS.update({
    "smem_layout_atom": ("tensor.atoms.smem_atoms", "smem_layout_atom", "checked"),
    **{n: ("tensor.tma", n, "checked") for n in ("make_tma_copy", "make_tma_atom", "tma_partition",
                                                 "make_tma_atom_A_sm100", "make_tma_atom_B_sm100")},
    **{n: ("tensor.tma", n, None) for n in ("TmaCopyAtom", "TmaDescriptor", "TmaTiledCopy")},
    **{n: ("tensor.smem_desc", n, "checked") for n in ("make_gmma_desc", "make_umma_desc", "check_mma_smem_layout")},
    **{n: ("tensor.smem_desc", n, None) for n in ("GmmaDescriptor", "UmmaDescriptor")},
})
__all__ += [
    "smem_layout_atom", "make_tma_copy", "make_tma_atom", "tma_partition", "make_tma_atom_A_sm100",
    "make_tma_atom_B_sm100", "TmaCopyAtom", "TmaDescriptor",
    "TmaTiledCopy", "make_gmma_desc", "make_umma_desc", "check_mma_smem_layout", "GmmaDescriptor", "UmmaDescriptor",
]
_TMA_PICTURES = ("tma_placement", "tma_svg", "tma_html")
if TYPE_CHECKING:
    from .views.tma_picture import tma_html, tma_placement, tma_svg
__all__ += ["tma_placement", "tma_svg", "tma_html"]
# ---- end issue 36
# Blackwell TMEM (issue #35, the copy half): TMEM as a memory space, tcgen05.ld/st tiled over a warpgroup
if TYPE_CHECKING:
    from .tensor.tmem_space import (
        TMEM_DP, check_warp_lanes, make_tmem_ptr, tmem_address, tmem_column, tmem_lane,
    )
    from .tensor.tmem_copy import make_tmem_copy, make_utccp_copy
    from .tensor.atoms.copy_sm100_data import tmem_load_to_store, tmem_op_repeater
    from .views.tmem_picture import (
        latex_tmem_copy, print_latex_tmem_copy, print_svg_tmem_copy, svg_tmem_copy, tmem_copy_picture,
    )
_ATOMS.update({
    **{n: ("tensor.tmem_space", n, "checked") for n in (
        "TMEM_DP", "check_warp_lanes", "make_tmem_ptr", "tmem_address", "tmem_column", "tmem_lane")},
    **{n: ("tensor.tmem_copy", n, "checked") for n in ("make_tmem_copy", "make_utccp_copy")},
    **{n: ("tensor.atoms.copy_sm100_data", n, "checked") for n in ("tmem_load_to_store", "tmem_op_repeater")},
    **{n: ("views.tmem_picture", n, "checked") for n in (
        "latex_tmem_copy", "print_latex_tmem_copy", "print_svg_tmem_copy", "svg_tmem_copy", "tmem_copy_picture")},
})
__all__ += [
    "TMEM_DP", "check_warp_lanes", "make_tmem_ptr", "tmem_address", "tmem_column", "tmem_lane", "make_tmem_copy",
    "tmem_load_to_store", "tmem_op_repeater", "make_utccp_copy", "latex_tmem_copy", "print_latex_tmem_copy", "print_svg_tmem_copy", "svg_tmem_copy",
    "tmem_copy_picture",
]


def _atom_attr(name: str) -> _Any:
    """The public ``name`` of the atoms' layer, loaded now; the tiled MMA and copy classes get
    their Jupyter reprs when they first load."""
    import importlib
    module, attr, entry = _ATOMS[name]
    impl = getattr(importlib.import_module(f"{__name__}.{module}"), attr)
    from .tensor.copy import TiledCopy as _TC
    from .tensor.mma import TiledMMA as _TM
    _notebook.wire(_TM, _TC)
    if entry is None:
        return impl
    if entry == "checked":
        return _checked(impl)

    def face(*args: _Any, **kw: _Any) -> _Any: ...
    face.__name__ = face.__qualname__ = name
    return _api(impl, **entry)(face)


# Kernels on the CPU (issue 37): recast of tensors, CuTe's algorithms over tensors in memory and
# the thread-level simulation of a CTA. They need NumPy (an optional extra) and load on first use
# (__getattr__ below), so `import cute_sym` imports neither NumPy nor them.
if TYPE_CHECKING:
    from .tensor.recast import recast
    from .tensor.einfold import einfold
    from .execute import axpby, clear, copy, copy_if, fill, gemm
    from .execute.simulate import Simulation, cp_async_fence, cp_async_wait, simulate, syncthreads
    from .execute.report import Fault, SimulationError, SimulationReport
    from .execute.examples import einsum, im2col, im2col_coord, im2col_padded

_EXECUTE: dict[str, str] = {
    "recast": "tensor.recast", "einfold": "tensor.einfold",
    **{n: "execute.algorithms" for n in ("axpby", "clear", "copy", "copy_if", "fill", "gemm")},
    **{n: "execute.simulate" for n in ("Simulation", "simulate", "syncthreads", "cp_async_fence", "cp_async_wait")},
    **{n: "execute.report" for n in ("Fault", "SimulationError", "SimulationReport")},
    **{n: "execute.examples" for n in ("einsum", "im2col", "im2col_coord", "im2col_padded")},
}
__all__ += [
    "recast", "einfold", "axpby", "clear", "copy", "copy_if", "fill", "gemm", "Simulation", "simulate", "syncthreads",
    "cp_async_fence", "cp_async_wait", "Fault", "SimulationError", "SimulationReport", "einsum", "im2col", "im2col_coord", "im2col_padded",
]


def _execute_attr(name: str) -> _Any:
    import importlib
    return getattr(importlib.import_module(f"{__name__}.{_EXECUTE[name]}"), name)


# Pictures: CuTe's print_latex / print_svg text; cute_sym's SVG and offline HTML of every object.
# Analyses: vector width, bank conflicts, coalescing, copy/MMA compatibility (symbolic answers by cases).
# Both load on first use (module __getattr__ below): `import cute_sym` stays fast for the algebra.
# The Jupyter reprs are wired here, at the top: the lower layers never import views (see views.notebook).
from .views import notebook as _notebook
_notebook.wire(Layout, ComposedLayout, Tensor, Swizzle)      # TiledMMA and TiledCopy when they load (_atom_attr)

if TYPE_CHECKING:
    from .views.draw import latex, latex_tv, svg, svg_tv, html, html_tv, print_latex, print_latex_tv, print_svg
    from .analysis.vector import VectorWidth, vector_width
    from .analysis.banks import BankConflicts, bank_conflicts
    from .analysis.coalescing import Coalescing, coalescing
    from .analysis.compat import CopyMMACheck, check_copy_mma
    from .views.banks import bank_svg

_PICTURES = ("latex", "latex_tv", "svg", "svg_tv", "html", "html_tv", "print_latex", "print_latex_tv", "print_svg")
_ANALYSES = ("BankConflicts", "Coalescing", "CopyMMACheck", "VectorWidth", "bank_conflicts", "check_copy_mma",
             "coalescing", "vector_width")
__all__ += ["latex", "latex_tv", "svg", "svg_tv", "html", "html_tv", "print_latex", "print_latex_tv", "print_svg",
            "BankConflicts", "Coalescing", "CopyMMACheck", "VectorWidth", "bank_conflicts", "check_copy_mma",
            "coalescing", "vector_width", "bank_svg"]


def __getattr__(name: str) -> _Any:
    # The sympy-backed classes load on first use: `import cute_sym` and static work never import sympy.
    if name in ("DynSymbol", "IMod"):
        from .core import symbolic
        value = getattr(symbolic, name)
    elif name == "FloorDiv":
        from .codegen.expr import FloorDiv as value
    elif name in _ATOMS:
        value = _atom_attr(name)
    elif name in _EXECUTE:
        value = _execute_attr(name)
    elif name in _PICTURES:
        from .views import draw
        value = _checked(getattr(draw, name))
    elif name in _ANALYSES or name in _ANALYSES_39:
        from . import analysis
        value = getattr(analysis, name)
    elif name == "bank_svg":
        from .views.banks import bank_svg as value
    elif name == "proposal_svg":       # issue 39
        from .views.proposal import proposal_svg as value
    elif name in _TMA_PICTURES:       # issue 36
        from .views import tma_picture
        value = _checked(getattr(tma_picture, name))
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


# ---- issue 39: Hopper/Blackwell analyses and the design search (loaded on first use, as the analyses)
_ANALYSES_39 = ("MmaOperandCheck", "TmaCheck", "TmemCheck", "mma_operand_check", "tma_copy_check", "tmem_copy_check",
                "tmem_warp_lanes", "CopyCandidate", "MmaOperand", "Scored", "SmemCandidate", "SmemProposal",
                "TiledCopyProposal", "TmaCopy", "propose_smem_layout", "propose_tiled_copy", "smem_candidates")
if TYPE_CHECKING:
    from .analysis import *  # noqa: F401,F403 - the names of _ANALYSES_39 (analysis/__init__.py's __all__)
    from .views.proposal import proposal_svg
__all__ += list(_ANALYSES_39) + ["proposal_svg"]  # ---- end issue 39
