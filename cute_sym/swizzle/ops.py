"""The algebra over every layout, plain or swizzled: the one place that sees both.

Each operation here takes plain layouts, swizzles and composed layouts; a call
whose arguments are all plain goes straight to :mod:`cute_sym.algebra`, the
others follow CuTe's ``swizzle_layout.hpp`` and ``layout_composed.hpp``
(:func:`dispatch`): operations that reshape the domain (divides, products,
``coalesce``, composition on the right) act on the inner layout; a layout
composed with a swizzle on its right moves the swizzle through the layout; the
inverses invert every stage.

>>> from cute_sym.notation import parse
>>> C = parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)")
>>> print(logical_divide(C, parse("(_4,_8)")))
Sw<3,0,3> o _0 o ((_4,_2),(_8,_1)):((_8,_32),(_1,_0))
>>> print(composition(parse("(_4,_4):(_4,_1)"), Swizzle(2, 0, 2)))
Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)
"""
from __future__ import annotations

from typing import Any


from ..core.errors import LayoutError
from ..layout.layout import Layout
from .. import algebra as _plain
from ..algebra.complement import _complement as _plain_complement
from ..algebra.composition import _composition_cute as _plain_composition_cute
from .swizzle import Swizzle, make_swizzle, _static_int
from .composed import ComposedLayout, make_composed_layout, _is_zero, _neg



# ---------------------------------------------------------------- operations
def compose_layout_swizzle(a: Layout, sw: Swizzle) -> Any:
    """CuTe's ``composition(Layout a, Swizzle sw)``: the swizzle moved through ``a``,
    ``composition(make_swizzle<a(yyy_msk), a(zzz_msk)>(), a)``.

    @pre ``a`` has static strides and maps the YYY and ZZZ masks to masks of a valid swizzle.
    @post ``result(i) == a(sw(i))`` for ``i < size(a)`` when ``a`` carries each YYY and
          ZZZ bit to a single bit, in increasing order (e.g. a compact layout with
          power-of-two extents that keeps the order of the bits inside each mask).
          Like CuTe, only the images of the whole masks are checked: a layout that
          permutes the bits inside a mask gets CuTe's (not pointwise) answer.

    >>> from cute_sym.notation import parse
    >>> print(compose_layout_swizzle(parse("(_4,_4):(_4,_1)"), Swizzle(2, 0, 2)))
    Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)
    >>> print(compose_layout_swizzle(parse("(_8,_32):(_32,_1)"), Swizzle(2, 4, 3)))
    Sw<2,1,3> o _0 o (_8,_32):(_32,_1)
    """
    y = _static_int(a(sw.yyy_msk), "composition(Layout, Swizzle): the image of the YYY mask")
    z = _static_int(a(sw.zzz_msk), "composition(Layout, Swizzle): the image of the ZZZ mask")
    return make_composed_layout(make_swizzle(y, z), 0, a)


def compose_swizzles(s0: Swizzle, s1: Swizzle) -> Swizzle:
    """CuTe's ``composition(Swizzle, Swizzle)``: merge two swizzles of the same shift.

    @pre ``s0.shift == s1.shift`` ("Can only merge swizzles of the same shift.").

    >>> print(compose_swizzles(Swizzle(1, 0, 3), Swizzle(1, 1, 3)))
    Sw<2,0,3>
    """
    if s0.shift != s1.shift:
        raise LayoutError("Can only merge swizzles of the same shift.")
    return make_swizzle(s0.yyy_msk ^ s1.yyy_msk, s0.zzz_msk ^ s1.zzz_msk)


def _composition(lhs: Any, rhs: Any) -> Any:
    if isinstance(lhs, ComposedLayout):
        return make_composed_layout(lhs.layout_a, lhs.offset, _composition_cute(lhs.layout_b, rhs))
    if isinstance(lhs, Swizzle):
        if isinstance(rhs, Swizzle):
            return compose_swizzles(lhs, rhs)
        if isinstance(rhs, (Layout, ComposedLayout)):
            return make_composed_layout(lhs, 0, rhs)
        raise LayoutError(f"composition({lhs}, {rhs!r}): a swizzle composes with a layout or a swizzle only")
    if isinstance(lhs, Layout):
        if isinstance(rhs, Swizzle):
            return compose_layout_swizzle(lhs, rhs)
        if isinstance(rhs, ComposedLayout):
            if not _is_zero(rhs.offset):
                raise LayoutError("Require offset == 0.")
            return _composition_cute(_composition_cute(lhs, rhs.layout_a), rhs.layout_b)
    raise LayoutError(f"composition: unsupported arguments {lhs!r}, {rhs!r}")


def _inverse(layout: Any, left: bool) -> Any:
    inv = left_inverse if left else right_inverse
    if isinstance(layout, Swizzle):
        return layout
    if not isinstance(layout, ComposedLayout):
        raise LayoutError(f"{'left' if left else 'right'}_inverse: not a layout: {layout!r}")
    a, o, b = layout.layout_a, layout.offset, layout.layout_b
    if isinstance(a, Swizzle) and _is_zero(o):
        return _composition_cute(inv(b), a)
    return make_composed_layout(inv(b), _neg(o), inv(a))


_DOMAIN_OPS = frozenset({
    "logical_divide", "zipped_divide", "tiled_divide", "flat_divide",
    "logical_product", "zipped_product", "tiled_product", "flat_product",
    "blocked_product", "raked_product",
})


def dispatch(op: str, a: Any, b: Any, *rest: Any) -> Any:
    """Run ``op`` (a CuTe function name) where an argument is a Swizzle or a ComposedLayout.

    * ``composition``: ``(A o O o B) o R == A o O o (B o R)``;
      ``Sw o L == Sw o _0 o L`` (just ``L`` for ``Sw<0,..>``);
      ``L o Sw`` moves the swizzle through ``L`` (see :func:`compose_layout_swizzle`);
      ``L o (A o _0 o B) == (L o A) o B``; two swizzles of one shift merge.
    * divides, products, ``coalesce``: applied to the inner layout.
    * ``complement``: of the inner layout.
    * ``left_inverse``/``right_inverse``: ``inv(B) o Sw`` for a zero offset, else
      ``inv(B) o -O o inv(A)``; a swizzle is its own inverse.

    @post every other op or argument raises a LayoutError.

    >>> from cute_sym.notation import parse
    >>> print(dispatch("composition", parse("Sw<3,3,3> o _0 o (_8,_8):(_8,_1)"), parse("_8:_2")))
    Sw<3,3,3> o _0 o (_4,_2):(_16,_1)
    >>> print(dispatch("left_inverse", parse("Sw<1,0,1> o _0 o (_4,_4):(_8,_1)"), None))
    Sw<1,2,1> o _0 o (_8,_4):(_4,_1)
    >>> print(dispatch("logical_product", parse("Sw<0,4,3> o _0 o (_8,_16):(_16,_1)"), parse("_4:_1")))
    ((_8,_16),_4):((_16,_1),_128)
    >>> dispatch("max_common_vector", Swizzle(1, 0, 1), None)
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: max_common_vector: not supported for swizzles and composed layouts
    """
    if op == "composition":
        return _composition(a, b)
    if op in ("left_inverse", "right_inverse"):
        return _inverse(a, op == "left_inverse")
    if isinstance(a, ComposedLayout):
        if op in _DOMAIN_OPS:
            if isinstance(b, (Swizzle, ComposedLayout)):
                raise LayoutError(f"{op}: the tiler must be a layout, a tiler or a shape, not {b}")
            return make_composed_layout(a.layout_a, a.offset, _DOMAIN[op](a.layout_b, b, *rest))
        if op == "coalesce":
            return make_composed_layout(a.layout_a, a.offset, coalesce(a.layout_b, b))
        if op == "complement":
            inner = a._domain()
            return _complement(inner, inner.cosize() if b is None else b)
    if op in _DOMAIN_OPS or op in ("coalesce", "complement"):
        raise LayoutError(f"{op}: unsupported arguments {a!r}, {b!r}")
    raise LayoutError(f"{op}: not supported for swizzles and composed layouts")




# ---------------------------------------------------------------- the public operations
_SWIZZLED = (Swizzle, ComposedLayout)


def _any_swizzled(a: Any, b: Any = None) -> bool:
    # two isinstance calls, not any() over a generator: this runs on every call
    return isinstance(a, _SWIZZLED) or isinstance(b, _SWIZZLED)


def composition(lhs: Any, rhs: Any) -> Any:
    if _any_swizzled(lhs, rhs):
        return _composition(lhs, rhs)
    return _plain.composition(lhs, rhs)


def _composition_cute(lhs: Any, rhs: Any) -> Any:
    if _any_swizzled(lhs, rhs):
        return _composition(lhs, rhs)
    return _plain_composition_cute(lhs, rhs)


def coalesce(layout: Any, profile: Any = None) -> Any:
    if isinstance(layout, _SWIZZLED):
        return dispatch("coalesce", layout, profile)
    return _plain.coalesce(layout, profile)


def complement(layout: Any, cotarget: Any = None) -> Any:
    if isinstance(layout, _SWIZZLED):
        return dispatch("complement", layout, cotarget)
    return _plain.complement(layout, cotarget)


def _complement(layout: Any, cotarget: Any = None) -> Any:
    if isinstance(layout, _SWIZZLED):
        return dispatch("complement", layout, cotarget)
    return _plain_complement(layout, cotarget)


def right_inverse(layout: Any) -> Any:
    if isinstance(layout, _SWIZZLED):
        return _inverse(layout, False)
    return _plain.right_inverse(layout)


def left_inverse(layout: Any) -> Any:
    if isinstance(layout, _SWIZZLED):
        return _inverse(layout, True)
    return _plain.left_inverse(layout)


def _domain_op(name: str) -> Any:
    plain = getattr(_plain, name)

    def op(layout: Any, tiler: Any) -> Any:
        if _any_swizzled(layout, tiler):
            return dispatch(name, layout, tiler)
        return plain(layout, tiler)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = plain.__doc__
    return op


logical_divide = _domain_op("logical_divide")
zipped_divide = _domain_op("zipped_divide")
tiled_divide = _domain_op("tiled_divide")
flat_divide = _domain_op("flat_divide")
logical_product = _domain_op("logical_product")
zipped_product = _domain_op("zipped_product")
tiled_product = _domain_op("tiled_product")
flat_product = _domain_op("flat_product")
blocked_product = _domain_op("blocked_product")
raked_product = _domain_op("raked_product")

_DOMAIN = {name: globals()[name] for name in _DOMAIN_OPS}

# Not (yet) defined on swizzled layouts: the plain operation refuses them.
filter = _plain.filter
tile_to_shape = _plain.tile_to_shape
max_common_layout = _plain.max_common_layout
max_common_vector = _plain.max_common_vector
nullspace = _plain.nullspace
upcast = _plain.upcast
downcast = _plain.downcast
recast_layout = _plain.recast_layout
coalesce_shape = _plain.coalesce_shape
zip_layouts = _plain.zip_layouts
