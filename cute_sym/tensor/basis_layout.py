"""Layouts whose strides are scaled bases (CuTe's identity layouts and what the algebra makes of them).

A basis layout is a :class:`~cute_sym.layout.Layout` whose stride leaves are
:class:`~cute_sym.stride.basis.ScaledBasis` values (or a static ``_0``): it maps a
coordinate to a coordinate. There is no algebra of its own here: a scaled basis is a stride
kind (:mod:`cute_sym.stride`), and coalesce, composition (with a basis layout on either side)
and the divides are the algebra's own, run once over any stride kind.

>>> from cute_sym.notation import parse
>>> from cute_sym.swizzle import composition, zipped_divide
>>> I = make_identity_layout((16, 8))
>>> print(I)
(_16,_8):(_1@0,_1@1)
>>> print(composition(I, parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")))
((_4,_8),(_2,_2)):((_2@1,_1@0),(_1@1,_8@0))
>>> print(zipped_divide(I, (4, 2)))
((_4,_2),(_4,_4)):((_1@0,_1@1),(_4@0,_2@1))
"""
from __future__ import annotations

from typing import Any

from ..core.int_tuple import iter_leaves, unwrap
from ..layout.layout import Layout, _mk
from ..stride.basis import ScaledBasis, make_basis_like

__all__ = ["is_basis_layout", "make_identity_layout"]


def is_basis_layout(x: object) -> bool:
    """True for a Layout with a scaled-basis stride (an identity layout, or one derived from it)."""
    return isinstance(x, Layout) and any(isinstance(d, ScaledBasis) for d in iter_leaves(x.stride))


def make_identity_layout(shape: Any) -> Layout:
    """CuTe's ``make_identity_layout``: ``shape`` with the strides ``make_basis_like(shape)``.

    @post ``result(c) == c`` (as an ArithmeticTuple) for every natural coordinate ``c`` of ``shape``.

    >>> print(make_identity_layout(((2, 4), 8)))
    ((_2,_4),_8):((_1@0@0,_1@1@0),_1@1)
    >>> make_identity_layout((4, 8))(1, 2)
    ArithmeticTuple((_1,_2))
    """
    shape = Layout(unwrap(shape)).shape      # checked like any shape
    return _mk(shape, make_basis_like(shape))
