"""Coordinates: crd2idx, idx2crd, crd2crd over shapes and strides."""
from __future__ import annotations

from typing import Any

from ..errors import RankError
from ..integers import IntLike
from .scalar import cdiv, cmod
from .structure import flatten_to_tuple, product
from .types import IntTuple, norm


def crd2idx(coord: Any, shape: IntTuple, stride: IntTuple | None = None) -> IntLike:
    """Coordinate -> index: the inner product of a natural coordinate with the strides.

    An integer coordinate on a tuple shape is a 1-D (colexicographic) index:
    every mode but the last takes ``coord % size(mode)``; the last takes the rest.

    Without ``stride`` it is CuTe's two-argument ``crd2idx(coord, shape)``: an integer
    coordinate is already the index; a tuple coordinate is read by Horner's rule
    ``c0 + s0 * (c1 + s1 * (c2 + ...))`` over the flattened coordinate and the shape
    taken to its profile (``product_like(shape, coord)``), so a coordinate past its
    extent (also on an extent 1) counts as CuTe counts it.

    @pre ``coord`` is weakly congruent with ``shape`` ("Mismatched Ranks").
    @post for ``coord`` within ``shape``: ``crd2idx(coord, shape)`` is the coordinate's
          colexicographic index, ``crd2idx(coord, shape, compact_col_major(shape))``.

    >>> crd2idx(16, (3, (2, 3)), (3, (12, 1)))
    17
    >>> crd2idx((1, (1, 2)), (3, (2, 3)), (3, (12, 1)))
    17
    >>> crd2idx((1, (1, 2)), (3, (2, 3))), crd2idx((1, 5), (3, (2, 3)))
    (16, 16)
    >>> crd2idx((1, 0, 2), (2, 1, 1)), crd2idx(7, (2, 1))       # past the extent, as CuTe
    (5, 7)
    """
    if stride is None:
        return _horner(coord, shape)
    if type(coord) is tuple:
        if type(shape) is not tuple:
            raise RankError(f"crd2idx: Invalid parameters (tuple coordinate {coord} for integral shape {shape})")
        if len(coord) != len(shape) or type(stride) is not tuple or len(stride) != len(shape):
            raise RankError(f"crd2idx: Mismatched Ranks ({coord} for {shape})")
        s: IntLike = 0
        for c, sh, d in zip(coord, shape, stride):
            t = crd2idx(c, sh, d)
            if not (type(t) is int and t == 0):
                s = t if (type(s) is int and s == 0) else s + t
        return s
    if type(shape) is tuple:
        if type(stride) is not tuple or len(stride) != len(shape):
            raise RankError("crd2idx: Mismatched Ranks (shape vs stride)")
        if not shape:
            return 0
        s = 0
        last = len(shape) - 1
        for i in range(last + 1):
            if i < last:
                n = product(shape[i])
                t = crd2idx(cmod(coord, n), shape[i], stride[i])
                coord = cdiv(coord, n)
            else:
                t = crd2idx(coord, shape[last], stride[last])
            if not (type(t) is int and t == 0):
                s = t if (type(s) is int and s == 0) else s + t
        return s
    if type(stride) is tuple:
        raise RankError("crd2idx: Mismatched Ranks (integral shape, tuple stride)")
    if type(coord) is int and coord == 0 or type(stride) is int and stride == 0:
        return 0    # a static zero stays static, as in CuTe
    r = coord * stride
    return r if type(r) is int else norm(r)


def _product_like(shape: IntTuple, coord: Any) -> Any:
    """``shape`` taken to the profile of ``coord``: a mode whose coordinate is an integer
    becomes its size (CuTe's ``product_like``)."""
    if type(coord) is not tuple:
        return product(shape)
    if type(shape) is not tuple:
        raise RankError(f"crd2idx: Invalid parameters (tuple coordinate {coord} for integral shape {shape})")
    if len(coord) != len(shape):
        raise RankError(f"crd2idx: Mismatched Ranks ({coord} for {shape})")
    return tuple(_product_like(s, c) for s, c in zip(shape, coord))


def _horner(coord: Any, shape: IntTuple) -> IntLike:
    """CuTe's ``crd2idx(coord, shape)``: see :func:`crd2idx`."""
    if type(coord) is not tuple:
        return coord    # already an index
    if type(shape) is not tuple:
        raise RankError(f"crd2idx: Invalid parameters (tuple coordinate {coord} for integral shape {shape})")
    extents = flatten_to_tuple(_product_like(shape, coord))
    s: IntLike = 0
    scale: IntLike = 1
    for c, n in zip(flatten_to_tuple(coord), extents):
        if not (type(c) is int and c == 0):
            t = c * scale
            s = t if (type(s) is int and s == 0) else s + t
        scale = scale * n
    return s if type(s) is int else norm(s)


def idx2crd(idx: Any, shape: IntTuple, stride: IntTuple | None = None) -> Any:
    """Index -> natural coordinate of ``shape`` (CuTe's ``idx2crd``).

    An integer index on a tuple shape gives ``(idx / stride) % extent`` per leaf,
    with compact column-major ``stride`` by default (a static extent 1 gives
    ``0``). A tuple index is taken mode by mode; an integer index on an integer
    shape is already a coordinate and is returned as it is.

    >>> idx2crd(16, (3, (2, 3))), idx2crd((1, 5), (3, (2, 3)))
    ((1, (1, 2)), (1, (1, 2)))
    >>> idx2crd(42, (3, 7, 2, 1))      # the last mode takes the rest, also on an extent 1
    (0, 0, 0, 1)
    """
    if type(idx) is tuple:
        if type(shape) is not tuple:
            raise RankError(f"idx2crd: Invalid parameters (tuple index {idx} for integral shape {shape})")
        if len(idx) != len(shape):
            raise RankError(f"idx2crd: Mismatched Ranks ({idx} for {shape})")
        if stride is None:
            return tuple(idx2crd(i, s) for i, s in zip(idx, shape))
        return tuple(idx2crd(i, s, d) for i, s, d in zip(idx, shape, stride))  # type: ignore[arg-type]
    if type(shape) is tuple:
        if stride is None:
            return _idx2crd_rest(idx, shape)
        if type(stride) is not tuple or len(stride) != len(shape):
            raise RankError("idx2crd: Mismatched Ranks (shape vs stride)")
        return tuple(_idx2crd_leaf(idx, s, d) for s, d in zip(shape, stride))
    if stride is None:
        return idx
    return _idx2crd_leaf(idx, shape, stride)


def _idx2crd_rest(idx: Any, shape: IntTuple) -> Any:
    """Every mode but the last takes ``idx % size(mode)``; the last takes the rest (as crd2idx)."""
    if type(shape) is not tuple:
        # the rest, also on a static extent 1 (CuTe: idx2crd(42, (3,7,2,1)) is (0,0,0,1)); a symbolic
        # index is in range (@pre), where the rest on an extent 1 is 0
        return 0 if type(shape) is int and shape == 1 and type(idx) is not int else idx
    out = []
    last = len(shape) - 1
    for k, s in enumerate(shape):
        if k == last:
            out.append(_idx2crd_rest(idx, s))
        else:
            n = product(s)
            if type(idx) is int and idx == 0:
                out.append(_idx2crd_rest(0, s))   # CuTe: _0 % n and _0 / n stay _0
                continue
            out.append(_idx2crd_rest(cmod(idx, n), s))
            idx = cdiv(idx, n)
    return tuple(out)


def _idx2crd_leaf(idx: Any, shape: IntTuple, stride: IntTuple) -> Any:
    if type(shape) is tuple:
        return tuple(_idx2crd_leaf(idx, s, d) for s, d in zip(shape, stride))  # type: ignore[arg-type]
    if type(shape) is int and shape == 1 or type(idx) is int and idx == 0:
        return 0
    return cmod(cdiv(idx, stride), shape)


def crd2crd(coord: Any, src_shape: IntTuple, dst_shape: IntTuple) -> Any:
    """Re-express a coordinate of ``src_shape`` as a coordinate of ``dst_shape``.

    @pre ``size(src_shape) == size(dst_shape)``; when ``coord``, ``src_shape`` and
         ``dst_shape`` are all tuples they have one rank ("Mismatched Ranks").
    @post ``crd2idx(result, dst_shape) == crd2idx(coord, src_shape)`` (colexicographic indices).

    >>> crd2crd(5, 6, (2, 3)), crd2crd((1, 2), (2, 3), 6)
    ((1, 2), 5)
    """
    if type(coord) is tuple and type(dst_shape) is tuple and type(src_shape) is tuple:
        if not (len(coord) == len(src_shape) == len(dst_shape)):
            raise RankError("crd2crd: Mismatched Ranks")
        return tuple(crd2crd(c, s, d) for c, s, d in zip(coord, src_shape, dst_shape))
    return idx2crd(crd2idx(coord, src_shape), dst_shape)


def zip2_by(t: Any, guide: Any) -> Any:
    """Gather the rank-2 terminals of ``t`` found at the leaves of ``guide`` into
    two modes (CuTe's ``zip2_by``, used by zipped divides and products)."""
    if type(guide) is not tuple:
        if type(t) is not tuple or len(t) != 2:
            raise RankError("zip2_by: Mismatched ranks (terminal is not rank 2)")
        return t
    n = len(guide)
    if type(t) is not tuple or len(t) < n:
        raise RankError("zip2_by: Mismatched ranks")
    first: list[Any] = []
    second: list[Any] = []
    for i in range(n):
        x = t[i]
        if type(guide[i]) is tuple:
            x = zip2_by(x, guide[i])
        elif type(x) is not tuple or len(x) != 2:
            raise RankError("zip2_by: Mismatched ranks (terminal is not rank 2)")
        first.append(x[0])
        second.append(x[1])
    second.extend(t[n:])
    return tuple(first), tuple(second)


# ---------------------------------------------------------------- printing
