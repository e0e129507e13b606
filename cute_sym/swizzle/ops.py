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
from .swizzle import Swizzle, make_swizzle
from .through import swizzle_through
from .composed import ComposedLayout, make_composed_layout, _is_zero, _neg
from . import casts as _casts



# ---------------------------------------------------------------- operations
def compose_layout_swizzle(a: Layout, sw: Swizzle) -> Any:
    """CuTe's ``composition(Layout a, Swizzle sw)``: the swizzle moved through ``a``,
    ``composition(make_swizzle<a(yyy_msk), a(zzz_msk)>(), a)``.

    @pre the images of the masks are static and form a swizzle, and ``a`` carries the
         swizzle's bits to bits (see :func:`swizzle_through`), else :class:`LayoutError`
         (CuTe answers, but its answer is not ``a(sw(i))``).
    @post ``result(i) == a(sw(i))`` for ``i < size(a)``.

    >>> from cute_sym.notation import parse
    >>> print(compose_layout_swizzle(parse("(_4,_4):(_4,_1)"), Swizzle(2, 0, 2)))
    Sw<2,0,-2> o _0 o (_4,_4):(_4,_1)
    >>> print(compose_layout_swizzle(parse("(_16,_32):(_32,_1)"), Swizzle(2, 4, 3)))
    Sw<2,0,3> o _0 o (_16,_32):(_32,_1)
    """
    return make_composed_layout(swizzle_through(a, sw), 0, a)


def compose_swizzles(s0: Swizzle, s1: Swizzle) -> Swizzle:
    """CuTe's ``composition(Swizzle, Swizzle)``: merge two swizzles of the same shift.

    @pre ``s0.shift == s1.shift`` ("Can only merge swizzles of the same shift.").

    >>> print(compose_swizzles(Swizzle(1, 0, 3), Swizzle(1, 1, 3)))
    Sw<2,0,3>
    """
    if s0.shift != s1.shift:
        raise LayoutError("Can only merge swizzles of the same shift.")
    return make_swizzle(s0.yyy_msk ^ s1.yyy_msk, s0.zzz_msk ^ s1.zzz_msk)


def _composition(lhs: Any, rhs: Any, strict: bool = False) -> Any:
    if isinstance(lhs, ComposedLayout):
        inner = composition if strict else _composition_cute
        return make_composed_layout(lhs.layout_a, lhs.offset, inner(lhs.layout_b, rhs))
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
        ib = inv(b)
        try:
            return _composition_cute(ib, a)
        except LayoutError as e:
            if type(e) is not LayoutError:
                raise       # a subtype (undecidable, divisibility) keeps its own type and text
            # the inverse exists as a function (inv(B) after the swizzle), but not as CuTe's form
            raise LayoutError(f"{'left' if left else 'right'}_inverse({layout}) is {ib} o {a} as CuTe "
                              f"computes it, and that composition fails: {e}") from None
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
        return _composition(lhs, rhs, True)
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


# the public contract: the plain operation's, and what a swizzled layout gets
complement.__doc__ = (_plain.complement.__doc__ or "") + """
    A swizzled layout ``Sw o O o B`` has the complement of its inner layout ``B``.
    """
right_inverse.__doc__ = (_plain.right_inverse.__doc__ or "") + """
    A swizzled layout ``Sw o _0 o B`` (CuTe's ComposedLayout) gets ``right_inverse(B) o Sw`` as CuTe
    computes it (a swizzle is its own inverse), or a :class:`LayoutError` naming where that
    composition fails (no layout after a swizzle is the function then); with an offset ``O``,
    ``right_inverse(B) o -O o right_inverse(Sw)``.

    >>> print(right_inverse(parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)")))
    Sw<3,0,-6> o _0 o (_64,_8):(_8,_1)
    """
left_inverse.__doc__ = (_plain.left_inverse.__doc__ or "") + """
    A swizzled layout ``Sw o _0 o B`` gets ``left_inverse(B) o Sw`` as CuTe computes it, or a
    :class:`LayoutError` naming where that composition fails; with an offset ``O``,
    ``left_inverse(B) o -O o left_inverse(Sw)``.

    >>> print(left_inverse(parse("Sw<1,0,1> o _0 o (_4,_4):(_8,_1)")))
    Sw<1,2,1> o _0 o (_8,_4):(_4,_1)
    """


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
_logical_product_inner = _domain_op("logical_product")
zipped_product = _domain_op("zipped_product")
tiled_product = _domain_op("tiled_product")
flat_product = _domain_op("flat_product")
blocked_product = _domain_op("blocked_product")
raked_product = _domain_op("raked_product")

_DOMAIN = {name: globals()[name] for name in _DOMAIN_OPS - {"logical_product"}}


def logical_product(block: Any, tiler: Any) -> Any:
    if isinstance(block, Layout) and isinstance(tiler, ComposedLayout):
        return _casts.logical_product_swizzled(block, tiler)
    return _logical_product_inner(block, tiler)


logical_product.__doc__ = _plain.logical_product.__doc__
_DOMAIN["logical_product"] = logical_product


def tile_to_shape(block: Any, trg_shape: Any, order: Any = None) -> Any:
    """CuTe's ``tile_to_shape``; a composed layout ``A o O o L`` tiles its inner layout:
    ``A o O o tile_to_shape(L, trg_shape, order)``.

    @pre as :func:`cute_sym.algebra.tile_to_shape` for the inner layout.
    @post the outer function and offset are kept.

    >>> from cute_sym.notation import parse
    >>> print(tile_to_shape(parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)"), (16, 8)))
    Sw<3,0,3> o _0 o ((_8,_2),(_8,_1)):((_8,_64),(_1,_0))
    """
    args = (trg_shape,) if order is None else (trg_shape, order)
    if isinstance(block, ComposedLayout):
        return make_composed_layout(block.layout_a, block.offset, tile_to_shape(block.layout_b, *args))
    return _plain.tile_to_shape(block, *args)


# Swizzles pass through the casts and common vectors (swizzle.casts).
max_common_layout = _casts.max_common_layout
max_common_vector = _casts.max_common_vector
upcast = _casts.upcast
downcast = _casts.downcast
recast_layout = _casts.recast_layout
# Not defined on swizzled layouts: the plain operation refuses them.
filter = _plain.filter
nullspace = _plain.nullspace
coalesce_shape = _plain.coalesce_shape
zip_layouts = _plain.zip_layouts
