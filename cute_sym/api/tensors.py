"""The public signatures of tensors, partitions, the notation, tables and code generation."""
# mypy: disable-error-code="empty-body"
from __future__ import annotations

from typing import (
    TYPE_CHECKING, Any as _Any, Mapping as _Mapping, Optional as _Optional,
    TextIO as _TextIO, Union as _Union, overload as _overload,
)


from ..core.errors import (
    LayoutError,
)
from ..core.integers import DynInt
from ..layout.layout import Layout
from ..swizzle import ComposedLayout
from ..notation import notation as _notation
from ..views import table as _table
from ..views import tensor_text as _tensor_text
# tensors: scaled bases, engines, partitions; the algebra's entry points also take tensors and basis layouts
from .. import tensor as _tensor
from ..tensor import ScaledBasis, Tensor
from ..tensor.engine import Pointer as _Pointer

if TYPE_CHECKING:
    import numpy as _np
    from numpy.typing import NDArray as _NDArray


from .types import AnyLayout, IntLike, IntTuple, Parsed, Tiler
from .face import api as _api

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
    return importlib.import_module(f"cute_sym.codegen.{module}")


def _evaluate_checked(layout: _Any, bind: _Any = None) -> _Any:
    try:
        return _codegen("evaluate").evaluate(layout, bind)
    except LayoutError:
        raise
    except (MemoryError, ValueError) as e:   # NumPy cannot hold the table
        raise LayoutError(f"evaluate: the table of {layout} does not fit in memory ({e})") from None


@_api(_evaluate_checked, lazy=("cute_sym.codegen.evaluate", "evaluate"))
def evaluate(layout: Layout, bind: _Optional[_Mapping[_Any, _Any]] = None) -> "_NDArray[_np.int64]": ...
