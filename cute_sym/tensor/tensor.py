"""Tensor: an engine (what offsets point into) and a layout (coordinates to offsets), CuTe's ``Tensor``.

>>> from cute_sym.notation import parse
>>> T = make_tensor(make_gmem_ptr("A", "half_t"), parse("(_4,_8):(_1,_4)"))
>>> print(T)
gmem_ptr[half_t](A) o (_4,_8):(_1,_4)
>>> print(T(1, 2), T[_, 3])
gmem_ptr[half_t](A+9) gmem_ptr[half_t](A+12) o (_4):(_1)
>>> print(make_identity_tensor((4, 8)))
ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1)
>>> make_identity_tensor((4, 8))(1, 2)
ArithmeticTuple((_1,_2))
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from .. import swizzle as _alg
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.errors import LayoutError
from ..core.lazy import is_basic
from ..core.int_tuple import _, crd2idx, iter_leaves, unwrap
from ..core.integers import IntLike
from ..layout.layout import Layout, _check_coord, _mk, index_offset, make_layout
from ..layout.ordered import make_layout_like, make_ordered_layout
from ..layout.modes import slice_and_offset
from ..swizzle import ComposedLayout, Swizzle
from ..swizzle.smem_flag import SmemPtrFlag
from .arith_tuple import ScaledBasis, coprofile_of
from .basis_layout import filter_zeros as _basis_filter_zeros, is_basis_layout, make_identity_layout
from .engine import ArrayEngine, CountingEngine, Engine, Pointer, make_gmem_ptr, make_rmem_ptr  # noqa: F401

__all__ = ["Tensor", "make_tensor", "make_identity_tensor", "make_coord_tensor", "make_fragment_like", "make_tensor_like",
           "is_tensor"]

AnyLayout = Union[Layout, ComposedLayout]


def _has_underscore(c: Any) -> bool:
    if c is _:
        return True
    if type(c) is tuple:
        return any(_has_underscore(e) for e in c)
    return False


class Tensor:
    """An immutable ``engine o layout``: ``T(c)`` is ``engine[layout(c)]``.

    * ``T(c)`` / ``T[c]`` with a coordinate: the element - the pointer moved to it
      (its ``offset`` is the formula), the array value, or the coordinate (identity tensors).
    * ``T(c)`` / ``T[c]`` with ``_`` in ``c``: the sub-tensor ``engine + offset o slice(c, layout)``.

    @pre ``layout`` is a Layout (plain or basis-strided) or a ComposedLayout.
    @post ``T(c) == T.engine[T.layout(c)]``; a slice ``S = T(c)`` has ``S(c') == T(c with c')``.

    >>> from cute_sym.notation import parse
    >>> T = make_tensor(make_gmem_ptr("A"), parse("(_4,(_2,_3)):(_1,(_4,_8))"))
    >>> T.shape, T.stride, T.size(), T.rank()
    ((4, (2, 3)), (1, (4, 8)), 24, 2)
    >>> print(T(_, (1, _)), T(3, (1, 2)).offset)
    gmem_ptr(A+4) o (_4,_3):(_1,_8) 23
    """

    __slots__ = ("_engine", "_layout")

    _engine: Engine
    _layout: AnyLayout

    def __init__(self, engine: Engine, layout: AnyLayout) -> None:
        if not isinstance(layout, (Layout, ComposedLayout)):
            raise LayoutError(f"Tensor: the layout must be a Layout or a ComposedLayout, got {type(layout).__name__}")
        if not isinstance(engine, (Pointer, ArrayEngine, CountingEngine)):
            raise LayoutError(f"Tensor: the engine must be a pointer, an array or a counting engine, "
                              f"got {type(engine).__name__}")
        if is_basis_layout(layout) and not isinstance(engine, CountingEngine):
            raise LayoutError("Tensor: a layout with scaled-basis strides maps to coordinates: "
                              "it needs a counting engine (make_identity_tensor, make_coord_tensor)")
        object.__setattr__(self, "_engine", engine)
        object.__setattr__(self, "_layout", layout)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Tensor is immutable")

    # -------------------------------------------------------- parts
    @property
    def engine(self) -> Engine:
        """The engine (CuTe's ``data()``: the iterator at the tensor's origin)."""
        return self._engine

    data = engine
    iterator = engine

    @property
    def layout(self) -> AnyLayout:
        return self._layout

    @property
    def shape(self) -> Any:
        return self._layout.shape

    @property
    def stride(self) -> Any:
        lay = self._layout
        if not isinstance(lay, Layout):
            raise LayoutError("Tensor.stride: a ComposedLayout has no stride")
        return lay.stride

    def size(self) -> IntLike:
        return self._layout.size()

    def rank(self) -> int:
        return self._layout.rank()

    def depth(self) -> int:
        return self._layout.depth()

    def cosize(self) -> IntLike:
        return self._layout.cosize()

    def is_static(self) -> bool:
        """No symbol in the engine's offset, the shape or the strides (a static scaled basis counts)."""
        lay = self._layout
        if not isinstance(lay, Layout):
            return self._engine.is_static() and lay.is_static()
        return self._engine.is_static() and all(type(s) is int for s in iter_leaves(lay.shape)) and all(
            type(d) is int or (isinstance(d, ScaledBasis) and d.is_static()) for d in iter_leaves(lay.stride))

    # -------------------------------------------------------- access
    def __call__(self, *coord: Any) -> Any:
        c: Any = coord[0] if len(coord) == 1 else tuple(coord)
        return self._at(c)

    def __getitem__(self, coord: Any) -> Any:
        return self._at(coord)

    def _at(self, c: Any) -> Any:
        if type(c) is not int:
            c = unwrap(c)
            _check_coord(c, 0)      # integers, symbols and _ (a name or a pointer is no coordinate)
        if _has_underscore(c):
            lay = self._layout
            if not isinstance(lay, Layout):
                # CuTe's generic composed slice: the fixed part moves into the layout's offset
                return Tensor(self._engine, lay(c))
            sliced, offset = slice_and_offset(c, lay)
            return Tensor(self._engine + offset, sliced)
        return self._engine[self._offset_of(c)]

    def _offset_of(self, c: Any) -> Any:
        lay = self._layout
        if isinstance(lay, Layout):
            if type(c) is not int and type(c) is not tuple and type(lay.shape) is tuple:
                return index_offset(c, lay.shape, lay.stride)     # a formula index: the shorter form
            return crd2idx(c, lay.shape, lay.stride)
        return lay(c)

    def __iter__(self) -> Iterator[Any]:
        for i in range(len(self)):
            yield self._at(i)

    def __len__(self) -> int:
        n = self.size()
        if type(n) is not int:
            if not ((is_basic(n) and isinstance(n, sympy.Integer))):
                raise LayoutError(f"Tensor: the size {n} is symbolic")
            n = int(n)
        return n

    def compose(self, *layouts: Any) -> "Tensor":
        """``make_tensor(engine, composition(layout, layouts...))`` (a tuple of tilers for several)."""
        from .basis_layout import composition
        rhs = layouts[0] if len(layouts) == 1 else tuple(layouts)
        return Tensor(self._engine, composition(self._layout, rhs))

    def _cute_subs(self, go: Any) -> "Tensor":
        """``cute_sym.subs`` on a tensor: the engine's offset and the layout."""
        return Tensor(self._engine._cute_subs(go), go(self._layout))

    # -------------------------------------------------------- printing, equality
    def __str__(self) -> str:
        return f"{self._engine} o {self._layout}"

    def __repr__(self) -> str:
        return f"Tensor({self})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tensor) and self._engine == other._engine and self._layout == other._layout

    def __hash__(self) -> int:
        return hash((str(self._engine), self._layout))


def is_tensor(x: object) -> bool:
    return isinstance(x, Tensor)


def _as_engine(x: Any) -> Engine:
    if isinstance(x, (Pointer, ArrayEngine, CountingEngine)):
        return x
    if type(x).__module__ == "numpy" and type(x).__name__ == "ndarray":
        return ArrayEngine(x)
    raise LayoutError(f"make_tensor: expected a pointer (make_gmem_ptr, ...), a numpy array or a counting "
                      f"engine, got {type(x).__name__}")


def make_tensor(engine: Any, layout: Any, stride: Any = None) -> Tensor:
    """CuTe's ``make_tensor(iter, layout)`` / ``make_tensor(iter, shape[, stride])``.

    ``engine`` is a pointer (:func:`make_gmem_ptr`, ...), a NumPy array (viewed
    flat, in C order) or a :class:`CountingEngine`.

    @post ``result.layout`` is ``layout`` (or ``make_layout(shape, stride)``), ``result.engine`` the engine.

    >>> import numpy as np
    >>> T = make_tensor(np.arange(12), (3, 4))
    >>> int(T(2, 1)), str(T.layout)
    (5, '(_3,_4):(_1,_3)')
    """
    eng = _as_engine(engine)
    if isinstance(layout, ComposedLayout) and isinstance(layout.offset, SmemPtrFlag):
        return _flagged_tensor(eng, layout)
    if isinstance(layout, (Layout, ComposedLayout)):
        if stride is not None:
            raise LayoutError("make_tensor: a stride cannot follow a layout")
        return Tensor(eng, layout)
    return Tensor(eng, make_layout(unwrap(layout), unwrap(stride)) if stride is not None
                  else make_layout(unwrap(layout)))


def _flagged_tensor(eng: Engine, layout: ComposedLayout) -> Tensor:
    """CuTe's ``make_tensor(smem_ptr, Sw o smem_ptr_flag_bits<B> o L)``: a swizzled smem
    pointer over ``L`` (``pointer_flagged.hpp``)."""
    from .atoms.copy_types import sizeof_bits   # the atoms' tables load on first use
    flag = layout.offset
    if not isinstance(flag, SmemPtrFlag):  # pragma: no cover - the caller checked
        raise LayoutError(f"make_tensor: {layout} has no smem_ptr_flag")
    if not isinstance(eng, Pointer) or eng.space != "smem":
        raise LayoutError(f"make_tensor: the layout {layout} waits for a shared-memory pointer "
                          f"(make_smem_ptr), got {eng}: Expected smem.")
    if eng.dtype is not None and sizeof_bits(eng.dtype) != flag.bits:
        raise LayoutError(f"make_tensor: the layout {layout} is for {flag.bits}-bit elements, the pointer "
                          f"{eng} to {sizeof_bits(eng.dtype)}-bit ones: Expected a B-bit pointer type.")
    sw = layout.layout_a
    inner = layout.layout_b
    if not isinstance(sw, Swizzle) or not isinstance(inner, Layout):
        raise LayoutError(f"make_tensor: expected Swizzle o smem_ptr_flag o Layout, got {layout}")
    return Tensor(eng.with_swizzle(sw), inner)


def make_coord_tensor(layout: Layout) -> Tensor:
    """CuTe's ``make_coord_tensor``: ``layout`` over a counting engine at the zero of its codomain.

    >>> print(make_coord_tensor(make_identity_layout(((2, 4), 8))))
    ArithTuple((_0,_0),_0) o ((_2,_4),_8):((_1@0@0,_1@1@0),_1@1)
    """
    return Tensor(CountingEngine(coprofile_of(layout.stride)), layout)


def make_identity_tensor(shape: Any) -> Tensor:
    """CuTe's ``make_identity_tensor``: ``T(c) == c`` for every coordinate ``c`` of ``shape``.

    @post ``result.layout == make_identity_layout(shape)``; the engine counts from ``(_0, ..., _0)``.

    >>> I = make_identity_tensor((4, (2, 2), 3))
    >>> print(I.layout)
    (_4,(_2,_2),_3):(_1@0,(_1@0@1,_1@1@1),_1@2)
    >>> print(I(3, (1, 0), 2), I(23))
    (_3,(_1,_0),_2) (_3,(_1,_0),_1)
    """
    return make_coord_tensor(make_identity_layout(shape))


def _fragment_layout(layout: Layout) -> Layout:
    """CuTe's ``make_fragment_like(Layout)``: mode 0 compact (column-major, stride-0 modes kept at
    stride 0), the other modes ordered like ``layout``'s strides after it; a dynamic shape gives
    the compact column-major layout."""
    r = layout.rank()
    static_shape = all(type(s) is int for s in iter_leaves(layout.shape))
    if r > 1 and static_shape:
        if is_basis_layout(layout):
            raise LayoutError("make_fragment_like: the strides of a basis layout have no order (CuTe has none)")
        m0 = layout[0]
        kept = _basis_filter_zeros(m0)          # stride-0 modes become extent 1 ...
        m0_strides = make_layout(kept.shape).stride
        first = _mk(m0.shape, m0_strides)       # ... so they get stride 0, at their own extent
        s, d = layout.shape, layout.stride
        rest = make_ordered_layout(s[1:], d[1:])  # type: ignore[index]
        return _alg.tiled_product(first, rest)  # type: ignore[no-any-return]
    return make_layout(layout.shape)


def make_fragment_like(x: Any, dtype: Optional[str] = None, name: str = "frg") -> Tensor:
    """CuTe's ``make_fragment_like``: a register tensor of the same shape, compact, mode 0 first.

    ``x`` is a tensor, a layout or a shape; the engine is a register pointer
    ``rmem_ptr[dtype](name)`` (``dtype`` defaults to the tensor's element type).

    @post ``result.shape`` has the shape of ``x``; the layout is injective off its stride-0
          modes, and a stride-0 mode of mode 0 stays stride 0.

    >>> from cute_sym.notation import parse
    >>> print(make_fragment_like(parse("((_2,_2),_4,_3):((_0,_64),_4,_1)")))
    rmem_ptr(frg) o ((_2,_2),_4,_3):((_0,_1),_6,_2)
    >>> print(make_fragment_like(make_tensor(make_gmem_ptr("A", "float"), parse("(_8,_4):(_4,_1)"))))
    rmem_ptr[float](frg) o (_8,(_4)):(_1,(_8))
    """
    src: Any = x
    if isinstance(x, Tensor):
        if dtype is None and isinstance(x.engine, Pointer):
            dtype = x.engine.dtype
        src = x.layout
    if isinstance(src, ComposedLayout):
        src = src.layout_b        # the domain's shape is what a fragment copies
    if not isinstance(src, Layout):
        return Tensor(make_rmem_ptr(name, dtype), make_layout(unwrap(src)))
    return Tensor(make_rmem_ptr(name, dtype), _fragment_layout(src))


def make_tensor_like(x: Any, dtype: Optional[str] = None, name: str = "frg") -> Tensor:
    """CuTe's ``make_tensor_like``: a register tensor of the same shape, compact, its modes ordered
    like ``x``'s strides (``make_layout_like``).

    @post ``result.shape == shape(x)``; the layout is a bijection onto ``[0, size)`` ordered as ``x``.

    >>> from cute_sym.notation import parse
    >>> print(make_tensor_like(make_tensor(make_gmem_ptr("A", "float"), parse("(_2,_3):(_30,_2)"))))
    rmem_ptr[float](frg) o (_2,_3):(_3,_1)
    """
    src: Any = x
    if isinstance(x, Tensor):
        if dtype is None and isinstance(x.engine, Pointer):
            dtype = x.engine.dtype
        src = x.layout
    if isinstance(src, ComposedLayout):
        src = src.layout_b
    if not isinstance(src, Layout):
        return Tensor(make_rmem_ptr(name, dtype), make_layout(unwrap(src)))
    if is_basis_layout(src):
        raise LayoutError("make_tensor_like: the strides of a basis layout have no order (CuTe has none)")
    return Tensor(make_rmem_ptr(name, dtype), make_layout_like(src))
