"""Two of NVIDIA PyCuTe's worked examples, written with cute_sym: ``einsum`` (a binary tensor
contraction folded into one batched GEMM, no data copied) and ``im2col`` (a convolution's
activation viewed as the (M,K) operand of a GEMM).

>>> import numpy as np
>>> from cute_sym.tensor.tensor import make_tensor
>>> A = make_tensor(np.arange(24.0), (2, 3, 4))        # "bmk"
>>> B = make_tensor(np.arange(40.0), (2, 5, 4))        # "bnk"
>>> C = make_tensor(np.zeros(30), (2, 3, 5))           # "bmn"
>>> _ = einsum("bmk,bnk->bmn", A, B, C)
>>> a, b = np.arange(24.0).reshape(4, 3, 2).T, np.arange(40.0).reshape(4, 5, 2).T
>>> bool(np.allclose(C.engine.array.reshape(5, 3, 2).T, np.einsum("bmk,bnk->bmn", a, b)))
True
"""
from __future__ import annotations

from typing import Any, Optional

from ..core.errors import LayoutError
from ..layout import Layout, make_layout, size
from ..swizzle import composition
from ..tensor.tensor import Tensor
from .algorithms import gemm

__all__ = ["einsum", "im2col", "im2col_coord", "im2col_padded"]


def _mode(t: Tensor, i: int) -> Layout:
    lay = t.layout
    if not isinstance(lay, Layout):
        raise LayoutError(f"einsum/im2col: a swizzled layout has no modes to regroup: {lay}")
    if type(lay.shape) is not tuple:
        return lay
    return lay[i]


def _rank(t: Tensor) -> int:
    return len(t.shape) if type(t.shape) is tuple else 1


def _group(t: Tensor, labels: list[str], group: list[str]) -> Layout:
    if not group:
        return make_layout(1, 0)
    modes = [_mode(t, labels.index(ch)) for ch in group]
    return modes[0] if len(modes) == 1 else make_layout(*modes)


def einsum(subscripts: str, A: Tensor, B: Tensor, C: Tensor) -> Tensor:
    """``C += contraction of A and B`` by the explicit equation ``"a_labels,b_labels->c_labels"``.

    Each label is a row (in A and C), a column (B and C), a reduction (A and B) or a batch mode
    (all three); the operands are regrouped, without copying, as CuTe's ``(V,M,K)``, ``(V,N,K)``,
    ``(V,M,N)`` and :func:`~cute_sym.execute.gemm` runs. Returns ``C``.

    @pre one ``->`` and two inputs; a label per mode, none repeated in an operand, each in two
         operands at least, of one extent everywhere ("inconsistent extents"), else :class:`LayoutError`.
    @post ``C[c] == C_before[c] + sum over the reduction labels of A[a] * B[b]``.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> x = make_tensor(np.arange(4.0), make_layout(4))
    >>> dot = make_tensor(np.zeros(1), make_layout(()))                # rank 0: a scalar
    >>> _ = einsum("i,i->", x, x, dot); float(dot.engine.array[0])
    14.0
    >>> C = make_tensor(np.zeros(16), make_layout((4, 4)))
    >>> _ = einsum("i,j->ij", x, x, C); float(C[3, 2])
    6.0
    """
    parts = subscripts.replace(" ", "").split("->")
    if len(parts) != 2:
        raise LayoutError(f"einsum: expected exactly one '->' in {subscripts!r}")
    inputs = parts[0].split(",")
    if len(inputs) != 2:
        raise LayoutError(f"einsum: expected exactly two ','-separated inputs in {subscripts!r}")
    la, lb, lc = list(inputs[0]), list(inputs[1]), list(parts[1])
    extent: dict[str, Any] = {}
    for name, t, labels in (("A", A, la), ("B", B, lb), ("C", C, lc)):
        if not isinstance(t, Tensor):
            raise LayoutError(f"einsum: operand {name} is not a Tensor")
        r = _rank(t) if labels else 0
        if labels and r != len(labels):
            raise LayoutError(f"einsum: operand {name} has rank {r} but {len(labels)} labels {''.join(labels)!r}")
        if len(set(labels)) != len(labels):
            raise LayoutError(f"einsum: repeated label within operand {name}: {''.join(labels)!r}")
        for i, ch in enumerate(labels):
            e = size(_mode(t, i))
            if extent.setdefault(ch, e) != e:
                raise LayoutError(f"einsum: label {ch!r} has inconsistent extents {extent[ch]} and {e}")
    sa, sb, sc = set(la), set(lb), set(lc)
    order = list(dict.fromkeys(la + lb + lc))
    row = [x for x in order if x in sa and x in sc and x not in sb]
    col = [x for x in order if x in sb and x in sc and x not in sa]
    red = [x for x in order if x in sa and x in sb and x not in sc]
    bat = [x for x in order if x in sa and x in sb and x in sc]
    lone = sorted((sa | sb | sc) - set(row + col + red + bat))
    if lone:
        raise LayoutError(f"einsum: label(s) {lone} appear in only one operand; each label must appear in "
                          "at least two of A, B, C")
    A3 = Tensor(A.engine, make_layout(_group(A, la, bat), _group(A, la, row), _group(A, la, red)))
    B3 = Tensor(B.engine, make_layout(_group(B, lb, bat), _group(B, lb, col), _group(B, lb, red)))
    C3 = Tensor(C.engine, make_layout(_group(C, lc, bat), _group(C, lc, row), _group(C, lc, col)))
    gemm(A3, B3, C3)
    return C


def _per_mode(value: Any, n: int, default: Any, what: str) -> tuple[Any, ...]:
    if value is None:
        return (default,) * n
    v = value if type(value) is tuple else (value,)
    if len(v) != n:
        raise LayoutError(f"im2col: {what} has rank {len(v)} but expected {n}")
    return tuple(v)


def _im2col(A: Tensor, stencil: Any, coord: bool, lower_dhw: Any, upper_dhw: Any, stride_dhw: Any,
            lower_trs: Any, stride_trs: Any, shape_zpq: Any) -> tuple[Layout, list[Any]]:
    """The layout ``((N,(Z,P,Q)), ((T,R,S),C))`` over ``A``'s offsets (or, ``coord``, its coordinates:
    one basis a top-level mode, each mode read as a 1-D index) and the spatial origin (one value a
    spatial mode, ``lower_trs - lower_dhw``)."""
    if not isinstance(A, Tensor):
        raise LayoutError(f"im2col: expected a Tensor, got {type(A).__name__}")
    r = _rank(A)
    n = r - 2
    if n < 1:
        raise LayoutError(f"im2col: activation {A.shape} needs at least (N, W, C)")
    stencil = _per_mode(stencil, n, None, "stencil")
    lo = _per_mode(lower_dhw, n, 0, "lower_dhw")
    hi = lo if upper_dhw is None else _per_mode(upper_dhw, n, 0, "upper_dhw")
    u = _per_mode(stride_dhw, n, 1, "stride_dhw")
    lt = _per_mode(lower_trs, n, 0, "lower_trs")
    s = _per_mode(stride_trs, n, 1, "stride_trs")
    modes = [_mode(A, i) for i in range(r)]
    if coord:
        modes = [_basis_mode(m, i) for i, m in enumerate(modes)]
    spatial = modes[1:-1]
    if shape_zpq is None:
        zpq = tuple(1 + (size(spatial[i]) + lo[i] + hi[i] - ((stencil[i] - 1) * s[i] + 1)) // u[i] for i in range(n))
    else:
        zpq = _per_mode(shape_zpq, n, None, "shape_zpq")
    if any(z <= 0 for z in zpq):
        raise LayoutError(f"im2col: stencil {stencil} dilated by {s} does not fit in {tuple(size(x) for x in spatial)} "
                          f"padded by {lo}/{hi}: extent {zpq}")
    compose = _basis_composition if coord else composition
    a_dhw = make_layout(*spatial)
    windows = compose(a_dhw, tuple(make_layout(z, d) for z, d in zip(zpq, u)))
    taps = compose(a_dhw, tuple(make_layout(t, d) for t, d in zip(stencil, s)))
    layout = make_layout(make_layout(modes[0], windows), make_layout(taps, modes[-1]))
    return layout, [lt[i] - lo[i] for i in range(n)]


def _basis_mode(m: Layout, i: int) -> Layout:
    """Mode ``i`` of shape ``m.shape`` mapping to its 1-D index times ``E(i)``."""
    from ..layout.layout import _mk
    from ..tensor.arith_tuple import E
    compact = make_layout(m.shape)
    scale = E(i)
    def go(d: Any) -> Any:
        return tuple(go(x) for x in d) if type(d) is tuple else scale * d if d != 1 else scale
    return _mk(m.shape, go(compact.stride))


def _basis_composition(a: Layout, tiler: Any) -> Any:
    from ..swizzle.ops import composition      # one algebra over scaled-basis strides too
    return composition(a, tiler)


def im2col(A: Tensor, stencil: Any, *, lower_dhw: Any = None, upper_dhw: Any = None, stride_dhw: Any = None,
           lower_trs: Any = None, stride_trs: Any = None, shape_zpq: Optional[Any] = None) -> Tensor:
    """The ``im2col`` view of the activation ``A`` ``(N, [D,] [H,] W, C)``: the ``(M,K)`` tensor
    ``((N,(Z,P,Q)), ((T,R,S),C))`` over ``A``'s memory that a GEMM contracts against a
    ``(K, ((T,R,S),C))`` filter, for a convolution of stencil ``stencil`` (``(T,R,S)``).

    Each parameter has one entry per spatial mode (an integer for one mode): ``lower_dhw`` /
    ``upper_dhw`` padding (default 0, upper as lower), ``stride_dhw`` traversal stride, ``stride_trs``
    dilation (default 1), ``lower_trs`` stencil origin (default 0); ``shape_zpq`` the output
    extents, by default ``Z = 1 + (D + lo + hi - ((T-1)*s + 1)) // u``. The spatial coordinate read
    is ``u*z + s*t + lower_trs - lower_dhw``: a padded window starts before ``A``'s origin (its
    offsets leave ``A``; :func:`im2col_padded` reads a fill value there, :func:`im2col_coord`
    gives the coordinates).

    @pre ``rank(A) >= 3``; parameters of the spatial rank ("has rank .. but expected .."); every
         output extent positive ("does not fit").
    @post ``result[(n,(z..)), ((t..),c)] == A[n, (u*z + s*t + lower_trs - lower_dhw).., c]``; no data copied.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> X = make_tensor(np.arange(16.0), make_layout((1, 4, 4, 1), (16, 4, 1, 1)))   # (N,H,W,C)
    >>> V = im2col(X, (2, 2))
    >>> print(V.layout)
    ((_1,(_3,_3)),((_2,_2),_1)):((_16,(_4,_1)),((_4,_1),_1))
    >>> float(V[(0, (1, 2)), ((1, 0), 0)]) == float(X[0, 2, 2, 0])
    True
    """
    layout, origin = _im2col(A, stencil, False, lower_dhw, upper_dhw, stride_dhw, lower_trs, stride_trs, shape_zpq)
    offset = 0
    r = _rank(A)
    for i, c in enumerate(origin):
        m = _mode(A, i + 1)
        if c >= 0:
            offset += m(c)
        elif type(m.stride) is int:
            offset += c * m.stride
        else:
            raise LayoutError(f"im2col: a padded origin before a hierarchical spatial mode {m} has no offset; "
                              "use im2col_padded or im2col_coord")
    assert r >= 3
    return Tensor(A.engine + offset, layout)


def im2col_coord(A: Tensor, stencil: Any, *, lower_dhw: Any = None, upper_dhw: Any = None, stride_dhw: Any = None,
                 lower_trs: Any = None, stride_trs: Any = None, shape_zpq: Optional[Any] = None) -> Tensor:
    """:func:`im2col`'s layout over ``A``'s coordinates: element ``(m, k)`` is the coordinate of ``A``
    (each top-level mode as a 1-D index, an :class:`ArithmeticTuple`) that ``im2col`` reads there;
    a padded position gives a coordinate outside ``A`` (negative, or past an extent).

    @post ``A[result[m, k]] == im2col(A, ...)[m, k]`` wherever ``result[m, k]`` is inside ``A``.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> X = make_tensor(np.arange(16.0), make_layout((1, 4, 4, 1), (16, 4, 1, 1)))
    >>> P = im2col_coord(X, (3, 3), lower_dhw=(1, 1))
    >>> P[(0, (0, 0)), ((0, 0), 0)], P[(0, (1, 2)), ((1, 1), 0)]
    (ArithmeticTuple((_0,_-1,_-1,_0)), ArithmeticTuple((_0,_1,_2,_0)))
    """
    from ..tensor.arith_tuple import ArithmeticTuple
    from ..tensor.engine import CountingEngine
    layout, origin = _im2col(A, stencil, True, lower_dhw, upper_dhw, stride_dhw, lower_trs, stride_trs, shape_zpq)
    return Tensor(CountingEngine(ArithmeticTuple((0, *origin, 0))), layout)


def im2col_padded(A: Tensor, stencil: Any, *, fill: Any = 0, lower_dhw: Any = None, upper_dhw: Any = None,
                  stride_dhw: Any = None, lower_trs: Any = None, stride_trs: Any = None,
                  shape_zpq: Optional[Any] = None) -> Tensor:
    """:func:`im2col` read through a bounds check: a position whose coordinate is outside ``A``
    reads ``fill`` (what TMA's out-of-bounds fill does for a padded convolution); read-only.

    @post ``result[m, k] == A[c]`` for ``c = im2col_coord(A, ...)[m, k]`` inside ``A``, else ``fill``.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> X = make_tensor(np.arange(1.0, 10.0), make_layout((1, 3, 3, 1), (9, 3, 1, 1)))
    >>> B = im2col_padded(X, (3, 3), lower_dhw=(1, 1))
    >>> float(B[(0, (1, 1)), ((1, 1), 0)]), B[(0, (0, 0)), ((0, 0), 0)]
    (5.0, 0)
    """
    crd = im2col_coord(A, stencil, lower_dhw=lower_dhw, upper_dhw=upper_dhw, stride_dhw=stride_dhw,
                       lower_trs=lower_trs, stride_trs=stride_trs, shape_zpq=shape_zpq)
    from .bounded import BoundedEngine
    eng = crd.engine
    return Tensor(BoundedEngine(A, fill, eng.coord), crd.layout)  # type: ignore[union-attr]
