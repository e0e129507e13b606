"""CuTe's ``ComposedLayout`` ``A o O o B``: the function ``c -> A(O + B(c))``.

An outer function ``A`` (a swizzle, or a layout), an integer offset ``O`` and an
inner layout ``B`` that defines the domain (shape, size, modes). CuTe prints it
``Sw<3,4,3> o _0 o (_8,_64):(_64,_1)``; it nests to the right.

>>> from cute_sym.notation import parse
>>> C = parse("Sw<3,0,3> o _0 o (_8,_8):(_8,_1)")
>>> C(1, 0), C(1, 1), C.size(), C.rank()
(9, 8, 64, 2)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_basic, is_expr
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce

from ..core.errors import LayoutError
from ..core.int_tuple import IntTuple, Underscore, leaf_str
from ..core.integers import IntLike, is_static
from ..layout.layout import Layout
from ..layout.modes import slice_and_offset
from .swizzle import Swizzle
from .smem_flag import SmemPtrFlag, element_swizzle

__all__ = ["ComposedLayout", "make_composed_layout"]




# ---------------------------------------------------------------- ComposedLayout
Outer = Union[Swizzle, Layout, "ComposedLayout"]
Inner = Union[Layout, "ComposedLayout", Swizzle]


def _is_zero(x: Any) -> bool:
    return type(x) is int and x == 0


def _apply(f: Any, x: Any) -> Any:
    """``f(x)`` for a swizzle, a layout (1-D index) or a composed layout."""
    return f(x)


class ComposedLayout:
    """CuTe's ``ComposedLayout``: ``A o O o B``, the function ``c -> A(O + B(c))``.

    ``layout_a`` is the outer function (a :class:`Swizzle` as a rule, or a Layout),
    ``offset`` an integer, ``layout_b`` the inner layout, which gives the domain:
    shape, size, rank, depth, modes (``C[k]`` is ``A o O o B[k]``).
    ``swizzle`` and ``layout`` are read-only aliases of ``layout_a`` and ``layout_b``.

    @post ``C(c) == A(O + B(c))`` for every coordinate ``c`` of ``B``.
    @post ``size(C) == size(B)``, ``shape(C) == shape(B)``, ``cosize(C) == cosize(B)`` (as in CuTe).

    >>> from cute_sym.notation import parse
    >>> C = ComposedLayout(Swizzle(2, 0, 3), 0, parse("(_8,_8):(_8,_1)"))
    >>> print(C), C.shape, C.size(), C.cosize()
    Sw<2,0,3> o _0 o (_8,_8):(_8,_1)
    (None, (8, 8), 64, 64)
    >>> [C(i) for i in range(4)], C(0, 1), C((1, 1))
    ([0, 9, 18, 27], 1, 8)
    >>> print(C[1])
    Sw<2,0,3> o _0 o _8:_1
    >>> print(parse("Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)"))
    Sw<2,0,3> o _0 o Sw<2,0,3> o _0 o (_8,_8):(_1,_8)
    """

    __slots__ = ("layout_a", "offset", "layout_b")

    layout_a: Outer
    offset: IntLike
    layout_b: Inner

    def __init__(self, layout_a: Any, offset: Any, layout_b: Any) -> None:
        if not isinstance(layout_a, (Swizzle, Layout, ComposedLayout)):
            raise LayoutError(f"ComposedLayout: the outer function must be a Swizzle or a layout, "
                              f"got {type(layout_a).__name__}")
        if not isinstance(layout_b, (Layout, ComposedLayout, Swizzle)):
            raise LayoutError(f"ComposedLayout: the inner layout must be a layout, got {type(layout_b).__name__}")
        if not (type(offset) is int or is_expr(offset) or isinstance(offset, SmemPtrFlag)):
            raise LayoutError(f"ComposedLayout: the offset must be an integer, got {offset!r}")
        if isinstance(offset, SmemPtrFlag) and not isinstance(layout_a, Swizzle):
            raise LayoutError(f"ComposedLayout: {offset} stands between a swizzle and a layout, "
                              f"got the outer function {layout_a}")
        object.__setattr__(self, "layout_a", layout_a)
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "layout_b", layout_b)

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ComposedLayout is immutable")

    # aliases (the names of the first placeholder)
    @property
    def swizzle(self) -> Outer:
        return self.layout_a

    @property
    def layout(self) -> Inner:
        return self.layout_b

    def _domain(self) -> Union[Layout, "ComposedLayout"]:
        b = self.layout_b
        if isinstance(b, Swizzle):
            raise LayoutError(f"{self}: the inner function is a swizzle, which has no shape")
        return b

    @property
    def shape(self) -> IntTuple:
        return self._domain().shape

    def size(self) -> IntLike:
        return self._domain().size()

    def cosize(self) -> IntLike:
        return self._domain().cosize()

    def rank(self) -> int:
        return self._domain().rank()

    def depth(self) -> int:
        return self._domain().depth()

    def is_static(self) -> bool:
        return (isinstance(self.offset, SmemPtrFlag) or is_static(self.offset)) and self.layout_a.is_static() and self.layout_b.is_static()

    def __call__(self, *coord: Any) -> Any:
        """``A(O + B(c))``; a coordinate holding ``_`` slices the inner layout
        (the fixed part of the coordinate moves into the offset)."""
        c: Any = coord[0] if len(coord) == 1 else coord
        if _has_underscore(c):
            dom = self._domain()
            if isinstance(dom, ComposedLayout):
                return ComposedLayout(self.layout_a, self.offset, dom(c))
            sliced, off = slice_and_offset(c, dom)
            return ComposedLayout(self.layout_a, _add(self.offset, off), sliced)
        inner = _apply(self.layout_b, c)
        if isinstance(self.offset, SmemPtrFlag) and isinstance(self.layout_a, Swizzle):
            # position independent: the byte swizzle acting on element indices
            return element_swizzle(self.layout_a, self.offset.bits)(inner)
        return _apply(self.layout_a, _add(self.offset, inner))

    def __getitem__(self, k: Union[int, tuple[int, ...]]) -> "ComposedLayout":
        return ComposedLayout(self.layout_a, self.offset, self._domain()[k])

    def __iter__(self) -> Iterator["ComposedLayout"]:
        for k in range(self.rank()):
            yield self[k]

    def _cute_subs(self, go: Any) -> "ComposedLayout":
        a = self.layout_a if isinstance(self.layout_a, Swizzle) else go(self.layout_a)
        b = self.layout_b if isinstance(self.layout_b, Swizzle) else go(self.layout_b)
        return ComposedLayout(a, go(self.offset), b)

    def __str__(self) -> str:
        return f"{self.layout_a} o {leaf_str(self.offset)} o {self.layout_b}"

    def _cute_str(self) -> str:
        return str(self)

    def __repr__(self) -> str:
        return f"ComposedLayout({self})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, ComposedLayout) and self.layout_a == other.layout_a
                and self.layout_b == other.layout_b and bool(self.offset == other.offset))

    def __hash__(self) -> int:
        return hash(("ComposedLayout", self.layout_a, self.offset, self.layout_b))


def _has_underscore(c: Any) -> bool:
    if isinstance(c, Underscore):
        return True
    if type(c) is tuple:
        return any(_has_underscore(e) for e in c)
    return False


def _add(a: Any, b: Any) -> Any:
    if isinstance(a, SmemPtrFlag):
        # CuTe's slice_and_offset keeps the flag for a static zero offset; otherwise the
        # flag is the Int<0> it derives from
        return a if type(b) is int and b == 0 else b
    if type(a) is int and type(b) is int:
        return a + b
    r = a + b
    return int(r) if is_basic(r) and r.is_Integer else r


def _neg(a: Any) -> Any:
    if type(a) is int:
        return -a
    r = -a
    return int(r) if is_basic(r) and r.is_Integer else r


def make_composed_layout(layout_a: Any, offset: Any, layout_b: Any) -> Any:
    """CuTe's three-argument ``composition(A, O, B)``: ``A o O o B``, except that an
    identity swizzle ``Sw<0,M,S>`` with a static zero offset over a plain layout is
    just that layout.

    >>> from cute_sym.notation import parse
    >>> print(make_composed_layout(Swizzle(0, 4, 3), 0, parse("(_8,_16):(_16,_1)")))
    (_8,_16):(_16,_1)
    >>> print(make_composed_layout(Swizzle(1, 4, 3), 0, parse("(_8,_16):(_16,_1)")))
    Sw<1,4,3> o _0 o (_8,_16):(_16,_1)
    """
    if (isinstance(layout_a, Swizzle) and layout_a.is_identity() and _is_zero(offset)
            and isinstance(layout_b, Layout)):
        return layout_b
    return ComposedLayout(layout_a, offset, layout_b)

