"""complement of a layout whose strides are scaled bases, in a coordinate space: per basis
position ``k``, the integer complement of the modes of stride ``v@k`` in the extent
``cotarget[k]``, scaled back to ``@k`` (CuTe's coordinate layouts are sums of one integer layout
per position, and the positions never meet).

>>> from cute_sym.layout import make_layout
>>> from cute_sym.stride.basis import E
>>> from cute_sym.algebra.complement import _complement
>>> print(complement_basis(make_layout((4, 4), (E(1), 2 * E(0))), (8, 8), _complement))
(_2,_2):(_1@0,_4@1)
"""
from __future__ import annotations

from typing import Any

from ..core.errors import LayoutError
from ..core.int_tuple import leaves
from ..layout.layout import Layout, _mk
from ..stride.basis import ScaledBasis

__all__ = ["complement_basis", "is_basis_strided", "complement_of_kinds"]


def is_basis_strided(layout: Layout) -> bool:
    """Every stride a scaled basis or a static 0, and at least one a basis."""
    ds = leaves(layout.stride)
    return any(isinstance(d, ScaledBasis) for d in ds) and all(
        isinstance(d, ScaledBasis) or (type(d) is int and d == 0) for d in ds)


def _scaled(t: Any, k: int) -> Any:
    if type(t) is tuple:
        return tuple(_scaled(e, k) for e in t)
    return 0 if type(t) is int and t == 0 else ScaledBasis(t, (k,))


def complement_basis(layout: Layout, cotarget: Any, int_complement: Any = None) -> Layout:
    """The coordinate layout of the positions of ``cotarget`` that ``layout`` does not reach.

    @pre every stride of ``layout`` is ``v@k`` (one level) or ``_0``; ``cotarget`` a shape whose
         rank covers every position ``k`` (an integer is a shape of rank 1).
    ``int_complement`` is the integer complement to use (the algebra's, CuTe's steps).

    @post one mode per position ``k``: the integer complement of ``layout``'s ``@k`` modes in
          ``cotarget[k]``, its strides ``@k``; ``(layout, result)`` reaches every coordinate of
          ``cotarget`` where each position's modes tile it.
    """
    if int_complement is None:
        raise LayoutError("complement_basis: the integer complement is needed")
    cot = cotarget if type(cotarget) is tuple else (cotarget,)
    groups: list[tuple[list[Any], list[Any]]] = [([], []) for _ in cot]
    for s, d in zip(leaves(layout.shape), leaves(layout.stride)):
        if not isinstance(d, ScaledBasis):
            continue
        if len(d.modes) != 1:
            raise LayoutError(f"complement: a nested basis stride {d} (only one level is supported)")
        k = d.modes[0]
        if k >= len(cot):
            raise LayoutError(f"complement: stride {d} is outside the cotarget {cotarget}")
        groups[k][0].append(s)
        groups[k][1].append(d.value)
    shapes, strides = [], []
    for k, (ss, vs) in enumerate(groups):
        c = int_complement(_mk(tuple(ss), tuple(vs)) if ss else _mk(1, 0), cot[k])
        shapes.append(c.shape)
        strides.append(_scaled(c.stride, k))
    if len(shapes) == 1:
        return _mk(shapes[0], strides[0])
    return _mk(tuple(shapes), tuple(strides))


def complement_of_kinds(layout: Layout, cotarget: Any, int_complement: Any) -> Layout:
    """complement of a layout with strides that are not integers: per basis position for scaled
    bases in a tuple cotarget; refused for strides without an order (F2 vectors, sums of bases)."""
    if is_basis_strided(layout) and cotarget is not None:
        return complement_basis(layout, cotarget, int_complement)
    raise LayoutError(f"complement: {layout} has strides without an order (scaled bases or F2 vectors): "
                      "CuTe's complement sorts the strides")
