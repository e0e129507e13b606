"""NVIDIA PyCuTe's names for cute_sym's: a thin adapter that only renames.

PyCuTe spells CuTe's ``_`` as ``None`` (or ``:``), a tensor's engine ``accessor``, an owning
tensor ``make_tensor(layout, dtype=ctypes type)``, ``size[i](x)`` for ``size<i>``, its
identity tensor ``identity_tensor`` and its counting iterator ``ImplicitAccessor``; the
reference algorithms are ``alg.ref.copy``/``alg.copy`` (both cute_sym's ``copy``) and
``alg.ref.gemm``. :class:`PTensor` wraps a cute_sym tensor to read those spellings; every
computation is cute_sym's.
"""
from __future__ import annotations

import ctypes
from typing import Any

import cute_sym as cs
from cute_sym import _
from cute_sym.tensor.arith_tuple import ArithmeticTuple
from cute_sym.tensor.einfold import parse_modes as _parse_modes  # noqa: F401  (PyCuTe's example's private name)
from cute_sym.tensor.engine import CountingEngine

_CTYPES = {ctypes.c_int: "int32_t", ctypes.c_int32: "int32_t", ctypes.c_int64: "int64_t", ctypes.c_double: "double",
           ctypes.c_float: "float", ctypes.c_int8: "int8_t", ctypes.c_uint8: "uint8_t", ctypes.c_int16: "int16_t"}


def _crd(c: Any) -> Any:
    if c is None or (isinstance(c, slice) and c == slice(None)):
        return _
    if type(c) is tuple:
        return tuple(_crd(x) for x in c)
    return c


def _un(x: Any) -> Any:
    return x.t if isinstance(x, PTensor) else x


class PTensor:
    """A cute_sym tensor read with PyCuTe's spellings (``None`` for ``_``, ``accessor``)."""

    def __init__(self, t: cs.Tensor) -> None:
        self.t = t

    @property
    def accessor(self) -> Any:
        return self.t.engine

    @property
    def layout(self) -> Any:
        return self.t.layout

    def __getitem__(self, c: Any) -> Any:
        out = self.t[_crd(c)]
        return PTensor(out) if isinstance(out, cs.Tensor) else out

    def __call__(self, *c: Any) -> Any:
        return self[c if len(c) != 1 else c[0]]

    def __setitem__(self, c: Any, v: Any) -> None:
        self.t[_crd(c)] = v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PTensor) and self.t == other.t

    def __repr__(self) -> str:
        return f"PTensor({self.t})"


def Layout(shape: Any, stride: Any = None) -> cs.Layout:
    return cs.make_layout(shape) if stride is None else cs.make_layout(shape, stride)


def make_tensor(layout: Any, dtype: Any = ctypes.c_double) -> PTensor:
    return PTensor(cs.make_tensor(layout if isinstance(layout, cs.Layout) else cs.make_layout(layout),
                                  dtype=_CTYPES[dtype]))


def Tensor(accessor: Any, layout: Any) -> PTensor:
    return PTensor(cs.make_tensor(accessor, layout))


def Ptr(array: Any) -> Any:                       # a pointer over NumPy storage: the array itself
    return array


def ImplicitAccessor(origin: Any) -> CountingEngine:
    return CountingEngine(origin)


def ArithTuple(*xs: Any) -> ArithmeticTuple:
    return ArithmeticTuple(xs)


def identity_tensor(shape: Any) -> PTensor:
    return PTensor(cs.make_identity_tensor(shape))


def is_tensor(x: Any) -> bool:
    return isinstance(x, PTensor)


class _Size:
    def __call__(self, x: Any) -> Any:
        return cs.size(_un(x))

    def __getitem__(self, i: int) -> Any:
        return lambda x: cs.size(_un(x).layout[i] if isinstance(_un(x), cs.Tensor) else _un(x)[i])


size = _Size()


def rank(x: Any) -> int:
    return int(cs.rank(_un(x).layout if isinstance(_un(x), cs.Tensor) else _un(x)))


def shape(x: Any) -> Any:
    return cs.shape(_un(x).layout if isinstance(_un(x), cs.Tensor) else _un(x))


def stride(x: Any) -> Any:
    return cs.stride(_un(x))


def coshape(x: Any) -> Any:
    return cs.coshape(_un(x))


def coalesce(x: Any) -> Any:
    out = cs.coalesce(_un(x))
    return PTensor(out) if isinstance(out, cs.Tensor) else out


def logical_divide(x: Any, tiler: Any) -> Any:
    out = cs.logical_divide(_un(x), tiler)
    return PTensor(out) if isinstance(out, cs.Tensor) else out


def idx2crd(i: Any, s: Any) -> Any:
    return cs.idx2crd(i, s)


def make_ordered_layout(s: Any, order: Any) -> cs.Layout:
    return cs.make_ordered_layout(s, order)


def make_layout(*modes: Any) -> cs.Layout:
    ms = modes[0] if len(modes) == 1 and isinstance(modes[0], (list, tuple)) else modes
    return cs.make_layout(*[m if isinstance(m, cs.Layout) else cs.make_layout(m) for m in ms])


def copy_ref(src: PTensor, dst: PTensor) -> None:             # pycute.alg.ref.copy
    cs.copy(src.t, dst.t)


copy_opt = copy_ref                                           # pycute.alg.copy: the same result


def gemm(A: PTensor, B: PTensor, C: PTensor) -> None:         # pycute.alg.ref.gemm, rank 2
    cs.gemm(A.t, B.t, C.t)


def einsum(subscripts: str, A: PTensor, B: PTensor, C: PTensor) -> PTensor:
    cs.einsum(subscripts, A.t, B.t, C.t)
    return C


def im2col(A: PTensor, stencil: Any, **kw: Any) -> PTensor:
    return PTensor(cs.im2col(A.t, stencil, **kw))


def im2col_coord(A: PTensor, stencil: Any, **kw: Any) -> PTensor:
    return PTensor(cs.im2col_coord(A.t, stencil, **kw))


def im2col_padded(A: PTensor, stencil: Any, **kw: Any) -> PTensor:
    return PTensor(cs.im2col_padded(A.t, stencil, **kw))


def einfold(subscripts: str, source: Any) -> Any:
    out = cs.einfold(subscripts, _un(source))
    return PTensor(out) if isinstance(out, cs.Tensor) else out


def is_layout(x: Any) -> bool:
    return isinstance(x, cs.Layout)

