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

__all__ = ["einsum", "im2col"]


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
    offsets leave ``A``; in a simulation they are reported).

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
    spatial = [_mode(A, i) for i in range(1, r - 1)]
    if shape_zpq is None:
        zpq = tuple(1 + (size(spatial[i]) + lo[i] + hi[i] - ((stencil[i] - 1) * s[i] + 1)) // u[i] for i in range(n))
    else:
        zpq = _per_mode(shape_zpq, n, None, "shape_zpq")
    if any(z <= 0 for z in zpq):
        raise LayoutError(f"im2col: stencil {stencil} dilated by {s} does not fit in {tuple(size(x) for x in spatial)} "
                          f"padded by {lo}/{hi}: extent {zpq}")
    a_dhw = make_layout(*spatial)
    windows = composition(a_dhw, tuple(make_layout(z, d) for z, d in zip(zpq, u)))
    taps = composition(a_dhw, tuple(make_layout(t, d) for t, d in zip(stencil, s)))
    layout = make_layout(make_layout(_mode(A, 0), windows), make_layout(taps, _mode(A, r - 1)))
    origin = 0
    for i in range(n):
        c = lt[i] - lo[i]
        if c >= 0:
            origin += spatial[i](c)
        elif type(spatial[i].stride) is int:
            origin += c * spatial[i].stride
        else:
            raise LayoutError(f"im2col: a padded origin before a hierarchical spatial mode {spatial[i]} has no offset")
    return Tensor(A.engine + origin, layout)
