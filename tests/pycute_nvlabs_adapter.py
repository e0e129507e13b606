"""NVIDIA PyCuTe's names (github NVlabs/CuTe, ``pycute``) over cute_sym's API: a thin adapter that
only renames and converts argument forms (PyCuTe's ``Layout(shape, stride)`` constructor, its
varargs ``ArithTuple``, shapes where PyCuTe promotes them to layouts, ``lift``'s keyword ``mode``).
No algebra here: every answer is cute_sym's. Used by tests/test_pycute_nvlabs.py."""
from __future__ import annotations

from typing import Any, Iterator

import cute_sym as cs
from cute_sym.core import int_tuple as _it
from cute_sym.stride import basis as _basis

E = cs.E
F2 = cs.F2
Swizzle = cs.Swizzle
composition_ = cs.composition


def _t(x: Any) -> Any:
    return tuple(_t(e) for e in x) if isinstance(x, list) else x


def Layout(shape: Any, stride: Any = None) -> cs.Layout:
    return cs.make_layout(_t(shape)) if stride is None else cs.make_layout(_t(shape), _t(stride))


def ArithTuple(*args: Any) -> Any:
    if len(args) == 1 and not isinstance(args[0], (tuple, list)):
        return args[0]                      # a lone scalar passes through (PyCuTe)
    seq = args[0] if len(args) == 1 else args
    return cs.ArithmeticTuple(_t(tuple(seq)))


def ScaledBasis(value: Any, seq: Any = ()) -> Any:
    return value if not tuple(seq) else cs.ScaledBasis(value, tuple(seq))


def _shape(x: Any) -> Any:
    return x.shape if isinstance(x, cs.Layout) else _t(x)


def _layout(x: Any) -> Any:
    """PyCuTe promotes a shape to its compact layout where a layout is taken."""
    return x if isinstance(x, (cs.Layout, cs.ComposedLayout)) else cs.make_layout(_t(x))


def is_layout(x: Any) -> bool:
    return isinstance(x, cs.Layout)


def composition(a: Any, b: Any) -> Any:
    return cs.composition(_layout(a), b)


def logical_divide(a: Any, b: Any) -> Any:
    return cs.logical_divide(_layout(a), b)


def zipped_divide(a: Any, b: Any) -> Any:
    return cs.zipped_divide(_layout(a), b)


def coalesce(a: Any) -> Any:
    return cs.coalesce(a)


coalesce_z = cs.coalesce_z
layout_add = cs.layout_add
greatest_common_domain = cs.greatest_common_domain
common_refinement = cs.common_refinement
common_coarsening = cs.common_coarsening


def size(x: Any) -> Any:
    return cs.size(x) if isinstance(x, cs.Layout) else cs.product(_t(x))


def shape(x: Any) -> Any:
    return _shape(x)


def depth(x: Any) -> Any:
    return cs.depth(_shape(x))


def rank(x: Any) -> Any:
    return cs.rank(_shape(x))


def congruent(a: Any, b: Any) -> bool:
    return cs.congruent(_shape(a), _shape(b))


def weakly_congruent(a: Any, b: Any) -> bool:
    return cs.weakly_congruent(_shape(a), _shape(b))


def compatible(a: Any, b: Any) -> bool:
    return cs.compatible(_shape(a), _shape(b))


def coprofile(layout: Any) -> Any:
    return _basis.coprofile_of(layout.stride)


idx2crd = cs.idx2crd
crd2idx = cs.crd2idx
wrap = cs.wrap
unwrap = cs.unwrap
product = cs.product
inner_product = cs.inner_product
prefix_product = cs.prefix_product
transform_leaf = cs.transform_leaf
transform_apply_leaf = cs.transform_apply_leaf
zip_leaves = cs.zip_leaves
fold_leaf = cs.fold_leaf
flatten = cs.flatten


def product_each(t: Any) -> Any:
    return _it.product_each(_t(t))


def unflatten(it: Iterator[Any], profile: Any) -> Any:
    return cs.unflatten(tuple(it), profile)


def repeat_like(x: Any, profile: Any) -> Any:
    return _it.repeat_like(profile, x)


def lift(obj: Any, *, mode: Any = (), pad: Any = 0) -> Any:
    return cs.lift(obj, mode, pad)


def get(obj: Any, *, mode: Any = ()) -> Any:
    return cs.get(obj, *mode) if mode else obj
