"""Stride kinds: what the layout algebra asks of a stride, whatever the stride is.

CuTe writes its algebra once over any stride type. Here a stride leaf is one of

* a plain ``int`` (static; the algebra's fast paths test ``type(d) is int`` first and never
  reach this module),
* a sympy integer formula (dynamic; every question about it goes to ``core.decide``),
* a :class:`StrideKind` object: a scaled basis ``k@i`` (:mod:`.basis`, the strides of identity
  and TMA coordinate layouts) or an element of F2^n (:mod:`.f2`, the strides of swizzles and
  Triton's linear layouts).

The algebra reaches a stride only through the handful of operations below: scale it by an
integer (:func:`stride_mul`), compare two strides (:func:`stride_eq_fact`), ask whether it is
zero (:func:`stride_is_zero`), and whether strides of its kind have an order
(:func:`orderable`, which complement and the products need). Integers answer them directly
(static) or through ``decide`` (dynamic); a :class:`StrideKind` answers them itself.

>>> from cute_sym.stride.basis import E
>>> print(stride_mul(4, E(1)), stride_mul(0, E(1)), stride_mul(3, 5))
_4@1 0 15
>>> stride_eq_fact(4 * E(0), 4 * E(1)), stride_eq_fact(2 * E(0), E(0))
(False, False)
>>> orderable(E(0)), orderable(7)
(False, True)
"""
from __future__ import annotations

from typing import Any, Union

from ..core.errors import LayoutError
from ..core.int_tuple import norm
from ..core.lazy import is_expr
from ..core.monomials import mul

__all__ = ["StrideKind", "is_stride_kind", "stride_mul", "stride_eq_fact", "stride_is_zero", "orderable",
           "stride_continues", "stride_add", "Fact"]

#: An integer question for ``decide`` (``(rel, a, b)``), or its answer already known.
Fact = Union[bool, tuple[str, Any, Any]]


class StrideKind:
    """The operations the algebra needs of a stride that is not an integer.

    A subclass is an immutable value that provides:

    * ``scale(k)``: ``k * self`` for an integer ``k`` (static or dynamic); a static ``k == 0``
      never reaches it (the algebra keeps CuTe's static ``_0``);
    * ``eq_fact(other)``: ``self == other`` as an answer (``True``/``False``) or as one integer
      question ``(rel, a, b)`` for ``decide`` (scaled bases at one position compare their values);
    * ``is_zero()``: whether the stride is the zero of its kind;
    * ``is_static()``, ``int_leaves()``: whether it holds symbols, and the integers it holds;
    * ``ORDERED``: whether strides of the kind have an order (complement sorts strides; bases and
      F2 vectors have none).

    @post every method answers without importing sympy for static values.
    """

    __slots__ = ()
    ORDERED = False

    def scale(self, k: Any) -> Any:
        raise NotImplementedError

    def eq_fact(self, other: Any) -> Fact:
        raise NotImplementedError

    def is_zero(self) -> bool:
        raise NotImplementedError

    def is_static(self) -> bool:
        raise NotImplementedError

    def int_leaves(self) -> tuple[Any, ...]:
        """The integers the stride holds (their symbols are the stride's)."""
        raise NotImplementedError

    def continues(self, s: Any, nxt: Any) -> Fact:
        """Whether a mode ``s:self`` followed by a mode of stride ``nxt`` is one mode (coalesce):
        ``s * self == nxt`` by default; a kind with other conditions (F2: ``s`` a power of two)
        says so here."""
        return stride_eq_fact(self.scale(s), nxt)

    def coordinate(self) -> Any:
        """The stride read as a coordinate (a nested tuple of integers), for ``L(x)``."""
        raise LayoutError(f"{self!r} is not a coordinate")


def is_stride_kind(x: object) -> bool:
    """True for a stride that is neither an integer nor a formula (a :class:`StrideKind`)."""
    return isinstance(x, StrideKind)


def stride_mul(k: Any, d: Any) -> Any:
    """``k * d`` for an integer ``k`` and a stride ``d`` of any kind; a static 0 or 1 factor stays
    static (CuTe: ``_0 * x`` is ``_0``).

    @pre ``k`` is an integer (static or a formula).
    @post of a :class:`StrideKind`, ``d.scale(k)``; of integers, their product.
    """
    if type(k) is int:
        if k == 0:
            return 0
        if k == 1:
            return d
    if isinstance(d, StrideKind):
        return d.scale(k)
    if isinstance(k, StrideKind):
        return k.scale(d)
    if type(d) is int:
        if type(k) is int:
            return k * d
        if d == 0:
            return 0
        if d == 1:
            return k
    return mul(k, d)


def stride_eq_fact(a: Any, b: Any) -> Fact:
    """``a == b`` for strides of any kind: an answer, or one integer question for ``decide``.

    A :class:`StrideKind` never equals an integer other than a static 0 it is the zero of.
    """
    if isinstance(a, StrideKind):
        if isinstance(b, StrideKind):
            return a.eq_fact(b)
        return type(b) is int and b == 0 and a.is_zero()
    if isinstance(b, StrideKind):
        return type(a) is int and a == 0 and b.is_zero()
    if type(a) is int and type(b) is int:
        return a == b
    return ("==", a, b)


def stride_continues(s: Any, d: Any, nxt: Any) -> Fact:
    """Whether a mode ``s:d`` followed by a mode of stride ``nxt`` is one mode of extent ``s*t``
    (coalesce's merge), for strides of any kind: an answer or one integer question."""
    if isinstance(d, StrideKind):
        return d.continues(s, nxt)
    if isinstance(nxt, StrideKind):
        return stride_eq_fact(stride_mul(s, d), nxt)
    return stride_eq_fact(stride_mul(s, d), nxt)


def stride_add(a: Any, b: Any) -> Any:
    """``a + b`` for strides of any kind: integers add, a scaled basis and an arithmetic tuple add
    position by position, F2 vectors by XOR; a static 0 is every kind's zero."""
    if type(a) is int and a == 0:
        return b
    if type(b) is int and b == 0:
        return a
    if isinstance(a, StrideKind) or isinstance(b, StrideKind):
        return a + b
    if type(a) is int and type(b) is int:
        return a + b
    return norm(a + b)


def stride_is_zero(d: Any) -> Fact:
    """``d == 0`` for a stride of any kind: an answer or one integer question."""
    if type(d) is int:
        return d == 0
    if isinstance(d, StrideKind):
        return d.is_zero()
    return ("==", d, 0)


def orderable(d: Any) -> bool:
    """Whether ``d`` is a stride with an order (an integer): complement and the products need it."""
    if type(d) is int or is_expr(d):
        return True
    if isinstance(d, StrideKind):
        return d.ORDERED
    raise LayoutError(f"not a stride: {d!r}")
