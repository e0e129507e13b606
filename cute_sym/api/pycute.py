"""The public signatures of the stride kinds' operations (F2 strides, Triton's linear layouts) and
NVIDIA PyCuTe's layout and hierarchical-tuple operations."""
# mypy: disable-error-code="empty-body"
from __future__ import annotations

from typing import (
    TYPE_CHECKING, Any as _Any, Callable as _Callable, Iterator as _Iterator, Mapping as _Mapping, Optional as _Optional,
    Union as _Union,
)


from .. import algebra as _plain_alg
from ..layout.layout import Layout
from ..swizzle import ComposedLayout, Swizzle
# tensors: scaled bases, engines, partitions; the algebra's entry points also take tensors and basis layouts

if TYPE_CHECKING:
    pass


from .types import IntTuple
from .face import api as _api

from ..swizzle import linear as _linear
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
from ..core.int_tuple import htuple as _ht
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
