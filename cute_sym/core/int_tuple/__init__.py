"""Int tuples: nested tuples of static/dynamic integers, with CuTe's operations.

An *IntTuple* is an integer (:data:`~cute_sym.core.integers.IntLike`) or a Python
``tuple`` of IntTuples. Names and semantics follow CuTe's ``int_tuple.hpp``;
integer division is C's (truncating), as in CuTe. Every function takes a
plain-``int`` path when its arguments are static; symbolic arguments give exact
sympy formulas, and any fact that must be decided goes through
:mod:`cute_sym.core.decide`.

>>> shape_div((12, 8), 6)
(2, 8)
>>> idx2crd(16, (3, (2, 3)))
(1, (1, 2))
>>> crd2idx((1, 5), (3, (2, 3)), (3, (12, 1)))
17

One module a concern: ``types`` (the values and their printing), ``scalar``
(C's integer arithmetic), ``structure``, ``arith`` (shape arithmetic) and
``coords``.
"""
from .types import IntTuple, Underscore, _, is_tuple, is_int, fmt, leaf_str, norm, StaticInt, Tup, iter_leaves, leaves, plain, wrap, unwrap
from .scalar import signum, cdiv, cmod, smin, smax, sabs, whole_multiple
from .structure import rank, depth, product, size, flatten, unflatten, congruent, weakly_congruent, compatible, evenly_divides, repeat_like, product_each, transform_leaf
from .arith import shape_div, ceil_div, shape_min, prefix_product, inner_product, elem_scale, compact_col_major, compact_row_major, compact_major
from .coords import crd2idx, idx2crd, crd2crd, zip2_by

__all__ = [
    "IntTuple",
    "Underscore",
    "_",
    "is_tuple",
    "is_int",
    "rank",
    "depth",
    "product",
    "size",
    "flatten",
    "unflatten",
    "congruent",
    "weakly_congruent",
    "compatible",
    "evenly_divides",
    "shape_div",
    "ceil_div",
    "shape_min",
    "prefix_product",
    "inner_product",
    "elem_scale",
    "crd2idx",
    "idx2crd",
    "crd2crd",
    "compact_col_major",
    "compact_row_major",
    "compact_major",
    "zip2_by",
    "repeat_like",
    "product_each",
    "fmt",
    "leaf_str",
    "signum",
    "cdiv",
    "cmod",
    "smin",
    "smax",
    "sabs",
    "whole_multiple",
    "norm",
    "StaticInt",
    "Tup",
    "iter_leaves",
    "leaves",
    "plain",
    "wrap",
    "unwrap",
    "transform_leaf",
]
