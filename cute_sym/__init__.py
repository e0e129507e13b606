"""cute_sym: CuTe's layout algebra in Python, exact on static and symbolic integers.

>>> import cute_sym as cs
>>> print(cs.logical_divide(cs.parse("_24:_2"), cs.parse("_4:_2")))
(_4,(_2,_3)):(_4,(_2,_16))
>>> cs.size(cs.parse("(_4,_8):(_1,_4)"))
_32
"""
from __future__ import annotations

import functools as _functools
import sys as _sys
from typing import TYPE_CHECKING as _TYPE_CHECKING, Any as _Any, Callable as _Callable, TypeVar as _TypeVar

from .core.errors import (
    DivisibilityError, InjectivityError, LayoutError, NotationError, RankError, UndecidableError,
)
from .core.integers import Dyn, Int, IntLike, is_static
from .core.decide import assume, collect_guards, prove
from .core.int_tuple import IntTuple, StaticInt, Tup, _, wrap as _wrap, unwrap as _unwrap
from .core import int_tuple as _it
from . import layout as _lay
from . import swizzle as _alg
from .layout import coords as _coords
from .layout.layout import Layout, LayoutLeft, LayoutRight, make_layout
from .swizzle import ComposedLayout, Swizzle
from .notation.notation import parse, subs as _subs, to_str as _to_str
from .views.table import layout_table as _layout_table, print_layout as _print_layout

if _TYPE_CHECKING:
    from .core.symbolic import DynSymbol, IMod
    from .codegen.expr import index_expr as _index_expr, coord_expr as _coord_expr, FloorDiv
    from .codegen.emit import emit as _emit
    from .codegen.evaluate import evaluate as _evaluate

__version__ = "0.1.0"

_F = _TypeVar("_F", bound=_Callable[..., _Any])


# What a wrong kind of argument raises deep inside; at the API it becomes a LayoutError.
_MISUSE = (AttributeError, TypeError, ZeroDivisionError, RecursionError, IndexError, KeyError)


def _is_misuse(e: BaseException) -> bool:
    # sympy's SympifyError too, without importing sympy to name it
    return isinstance(e, _MISUSE) or ("sympy" in _sys.modules and isinstance(e, _sys.modules["sympy"].SympifyError))


def _misuse(f: _Callable[..., _Any], args: tuple[_Any, ...], e: BaseException) -> LayoutError:
    shown = ", ".join(str(a) if isinstance(a, (int, tuple, Layout)) else type(a).__name__ for a in args)
    return LayoutError(f"{f.__name__}({shown}): invalid arguments ({type(e).__name__}: {e})")


def _entry(f: _Callable[..., _Any], convert: bool) -> _Any:
    """The wrapper for ``f``, written with ``f``'s own parameters: a call costs one plain frame
    (no ``*args`` packing); ``None`` when ``f`` takes ``*args``/``**kw``/keyword-only arguments."""
    code = f.__code__
    if code.co_flags & 0x0C or code.co_kwonlyargcount:
        return None
    names = code.co_varnames[:code.co_argcount]
    defaults = f.__defaults__ or ()
    first_default = len(names) - len(defaults)
    params = ", ".join(n if i < first_default else f"{n}=__d[{i - first_default}]" for i, n in enumerate(names))
    passed = ", ".join(f"__u({n})" if convert else n for n in names)
    call = f"__w(__f({passed}))" if convert else f"__f({passed})"
    src = (f"def {f.__name__}({params}):\n"
           f"    try:\n        return {call}\n"
           f"    except Exception as __e:\n"
           f"        if __is_misuse(__e):\n"
           f"            raise __misuse(__f, __given(({', '.join(names)}{',' if names else ''})), __e) from __e\n"
           f"        raise\n")
    def given(args: tuple[_Any, ...]) -> tuple[_Any, ...]:
        # the arguments as the user gave them (for the message): trailing defaults left out
        n = len(args)
        while n > first_default and args[n - 1] is defaults[n - 1 - first_default]:
            n -= 1
        return args[:n]
    ns: dict[str, _Any] = {"__f": f, "__d": defaults, "__u": _unwrap, "__w": _wrap,
                           "__is_misuse": _is_misuse, "__misuse": _misuse, "__given": given}
    exec(src, ns)  # noqa: S102 - the source is built above from f's parameter names only
    return _functools.update_wrapper(ns[f.__name__], f)


def _public(f: _F) -> _F:
    """User-facing entry: plain ints/tuples in, CuTe-printing ints/tuples out; a misuse is a LayoutError."""
    fast = _entry(f, True)
    if fast is not None:
        return fast  # type: ignore[no-any-return]

    @_functools.wraps(f)
    def entry(*args: _Any, **kw: _Any) -> _Any:
        try:
            return _wrap(f(*[_unwrap(a) for a in args], **kw))
        except Exception as e:
            if _is_misuse(e):
                raise _misuse(f, args, e) from e
            raise
    return entry  # type: ignore[return-value]


def _checked(f: _F) -> _F:
    """A misuse (a wrong kind of argument) is a LayoutError, not an error from deep inside."""
    fast = _entry(f, False)
    if fast is not None:
        return fast  # type: ignore[no-any-return]

    @_functools.wraps(f)
    def entry(*args: _Any, **kw: _Any) -> _Any:
        try:
            return f(*args, **kw)
        except Exception as e:
            if _is_misuse(e):
                raise _misuse(f, args, e) from e
            raise
    return entry  # type: ignore[return-value]


# int tuples
shape_div = _public(_it.shape_div)
ceil_div = _public(_it.ceil_div)
prefix_product = _public(_it.prefix_product)
inner_product = _public(_it.inner_product)
elem_scale = _public(_it.elem_scale)
congruent = _public(_it.congruent)
weakly_congruent = _public(_it.weakly_congruent)
compatible = _public(_it.compatible)
crd2crd = _public(_it.crd2crd)
product = _public(_it.product)
unflatten = _public(_lay.unflatten)
crd2idx = _public(_coords.crd2idx)
idx2crd = _public(_coords.idx2crd)

# layouts
size = _public(_lay.size)
cosize = _public(_lay.cosize)
coshape = _public(_lay.coshape)
rank = _public(_lay.rank)
depth = _public(_lay.depth)
flatten = _public(_lay.flatten)
make_ordered_layout = _public(_lay.make_ordered_layout)
make_layout_like = _checked(_lay.make_layout_like)
append = _checked(_lay.append)
prepend = _checked(_lay.prepend)
group = _checked(_lay.group)
select = _checked(_lay.select)
take = _checked(_lay.take)
get = _checked(_lay.get)
slice_ = _public(_lay.slice_)
dice = _public(_lay.dice)
slice_and_offset = _public(_lay.slice_and_offset)
filter_zeros = _checked(_lay.filter_zeros)

# algebra
coalesce = _checked(_alg.coalesce)
filter = _checked(_alg.filter)
composition = _checked(_alg.composition)
complement = _checked(_alg.complement)
right_inverse = _checked(_alg.right_inverse)
left_inverse = _checked(_alg.left_inverse)
logical_divide = _checked(_alg.logical_divide)
zipped_divide = _checked(_alg.zipped_divide)
tiled_divide = _checked(_alg.tiled_divide)
flat_divide = _checked(_alg.flat_divide)
logical_product = _checked(_alg.logical_product)
zipped_product = _checked(_alg.zipped_product)
tiled_product = _checked(_alg.tiled_product)
flat_product = _checked(_alg.flat_product)
blocked_product = _checked(_alg.blocked_product)
raked_product = _checked(_alg.raked_product)
tile_to_shape = _checked(_alg.tile_to_shape)
max_common_layout = _checked(_alg.max_common_layout)
max_common_vector = _public(_alg.max_common_vector)
nullspace = _checked(_alg.nullspace)
upcast = _checked(_alg.upcast)
downcast = _checked(_alg.downcast)
recast_layout = _checked(_alg.recast_layout)

subs = _checked(_subs)
to_str = _checked(_to_str)
layout_table = _checked(_layout_table)
print_layout = _checked(_print_layout)
if _TYPE_CHECKING:
    index_expr = _checked(_index_expr)
    coord_expr = _checked(_coord_expr)
    emit = _checked(_emit)
    evaluate = _checked(_evaluate)


def __getattr__(name: str) -> _Any:
    # The sympy-backed parts load on first use: `import cute_sym` and static work never import sympy.
    if name in ("DynSymbol", "IMod"):
        from .core import symbolic
        value = getattr(symbolic, name)
    elif name in ("index_expr", "coord_expr", "FloorDiv"):
        from .codegen import expr
        value = getattr(expr, name)
        value = value if name == "FloorDiv" else _checked(value)
    elif name == "emit":
        from .codegen.emit import emit as value
        value = _checked(value)
    elif name == "evaluate":
        from .codegen.evaluate import evaluate as value
        value = _checked(value)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value

# tensors: scaled bases, engines, partitions; the algebra's entry points also take tensors and basis layouts
from . import tensor as _tensor
from .tensor import (
    ArithmeticTuple, E, ScaledBasis, Tensor, make_tensor, make_gmem_ptr, make_smem_ptr, make_rmem_ptr,
    make_identity_tensor, make_identity_layout, make_fragment_like, make_coord_tensor, make_basis_like,
    make_tensor_like,
)
composition = _checked(_tensor.composition)
logical_divide = _checked(_tensor.logical_divide)
zipped_divide = _checked(_tensor.zipped_divide)
tiled_divide = _checked(_tensor.tiled_divide)
flat_divide = _checked(_tensor.flat_divide)
coalesce = _checked(_tensor.coalesce)  # type: ignore[assignment]
filter_zeros = _checked(_tensor.filter_zeros)  # type: ignore[assignment]
filter = _checked(_tensor.filter)  # type: ignore[assignment]
group_modes = _checked(_tensor.group_modes)
take = _checked(_tensor.take)  # type: ignore[assignment]
logical_product = _checked(_tensor.logical_product)
zipped_product = _checked(_tensor.zipped_product)
tiled_product = _checked(_tensor.tiled_product)
flat_product = _checked(_tensor.flat_product)
blocked_product = _checked(_tensor.blocked_product)
raked_product = _checked(_tensor.raked_product)
local_tile = _checked(_tensor.local_tile)
local_partition = _checked(_tensor.local_partition)
inner_partition = _checked(_tensor.inner_partition)
outer_partition = _checked(_tensor.outer_partition)
flatten = _public(_tensor.flatten)

__all__ = [
    "DivisibilityError", "InjectivityError", "LayoutError", "NotationError", "RankError", "UndecidableError",
    "Dyn", "DynSymbol", "Int", "IntLike", "IntTuple", "StaticInt", "Tup", "is_static", "assume",
    "collect_guards", "prove", "_", "Layout", "LayoutLeft", "LayoutRight", "make_layout", "ComposedLayout",
    "Swizzle", "parse", "subs", "to_str", "shape_div", "ceil_div", "prefix_product", "inner_product",
    "elem_scale", "congruent", "weakly_congruent", "compatible", "crd2crd", "product", "unflatten", "crd2idx",
    "idx2crd", "size", "cosize", "coshape", "rank", "depth", "flatten", "make_ordered_layout",
    "make_layout_like", "append", "prepend", "group", "select", "take", "get", "slice_", "dice",
    "slice_and_offset", "filter_zeros", "coalesce", "filter", "composition", "complement", "right_inverse",
    "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
    "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape",
    "max_common_layout", "max_common_vector", "nullspace", "upcast", "downcast", "recast_layout",
    "layout_table", "print_layout", "index_expr", "coord_expr", "FloorDiv", "IMod", "emit", "evaluate",
    "ArithmeticTuple", "E", "ScaledBasis", "Tensor", "make_tensor", "make_gmem_ptr", "make_smem_ptr",
    "make_rmem_ptr", "make_identity_tensor", "make_identity_layout", "make_fragment_like", "make_coord_tensor",
    "make_basis_like", "make_tensor_like", "group_modes", "local_tile", "local_partition", "inner_partition", "outer_partition",
]

# MMA atoms (CuTe's traits as data) and tiled MMAs
from .tensor.atoms import MMA_Traits, Major, ScaleIn, mma_atom_names
from .tensor.mma import (
    MMA_Atom, ThrMMA, TiledMMA, make_tiled_mma, partition_shape_A, partition_shape_B, partition_shape_C,
    tile_shape,
)

__all__ += [
    "MMA_Traits", "Major", "ScaleIn", "mma_atom_names", "MMA_Atom", "ThrMMA", "TiledMMA", "make_tiled_mma",
    "partition_shape_A", "partition_shape_B", "partition_shape_C", "tile_shape",
]

# copy atoms (CuTe's Copy_Traits as data) and tiled copies
from .tensor.atoms.copy_traits import Copy_Traits
from .tensor.atoms.copy_atom import Copy_Atom
from .tensor.copy import ThrCopy, TiledCopy
from .tensor import copy_make as _copy
make_tiled_copy = _checked(_copy.make_tiled_copy)
make_tiled_copy_impl = _checked(_copy.make_tiled_copy_impl)
make_tiled_copy_A = _checked(_copy.make_tiled_copy_A)
make_tiled_copy_B = _checked(_copy.make_tiled_copy_B)
make_tiled_copy_C = _checked(_copy.make_tiled_copy_C)
make_tiled_copy_C_atom = _checked(_copy.make_tiled_copy_C_atom)
make_cotiled_copy = _checked(_copy.make_cotiled_copy)
make_tiled_copy_S = _checked(_copy.make_tiled_copy_S)
make_tiled_copy_D = _checked(_copy.make_tiled_copy_D)

__all__ += [
    "Copy_Traits", "Copy_Atom", "ThrCopy", "TiledCopy", "make_tiled_copy", "make_tiled_copy_impl",
    "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_S", "make_tiled_copy_D",
    "make_tiled_copy_C_atom", "make_cotiled_copy",
]

# Pictures: CuTe's print_latex / print_svg text; cute_sym's SVG and offline HTML of every object.
# The Jupyter reprs are wired here, at the top: the lower layers never import views (see views.notebook).
from . import views as _views
from .views import notebook as _notebook

latex = _checked(_views.latex)
latex_tv = _checked(_views.latex_tv)
svg = _checked(_views.svg)
svg_tv = _checked(_views.svg_tv)
html = _checked(_views.html)
html_tv = _checked(_views.html_tv)
print_latex = _checked(_views.print_latex)
print_latex_tv = _checked(_views.print_latex_tv)
print_svg = _checked(_views.print_svg)
_notebook.wire(Layout, ComposedLayout, Tensor, TiledMMA, TiledCopy)

__all__ += ["latex", "latex_tv", "svg", "svg_tv", "html", "html_tv", "print_latex", "print_latex_tv", "print_svg"]

# Analyses: vector width, bank conflicts, coalescing, copy/MMA compatibility (symbolic answers by cases)
from .analysis import (
    BankConflicts, Coalescing, CopyMMACheck, VectorWidth, bank_conflicts, check_copy_mma, coalescing,
    vector_width,
)
from .views.banks import bank_svg

__all__ += [
    "BankConflicts", "Coalescing", "CopyMMACheck", "VectorWidth", "bank_conflicts", "check_copy_mma",
    "coalescing", "vector_width", "bank_svg",
]
