"""Shape arithmetic: shape_div, ceil_div, prefix_product, inner_product, compact majors."""
from __future__ import annotations

from typing import Any


from ..errors import RankError
from ..monomials import mul
from ..integers import IntLike
from .scalar import _ceil_div1, _shape_div1, smin
from .structure import product
from .types import IntTuple, norm


def shape_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``shape_div``: divide shape ``a`` by ``b``, mode by mode or folding.

    * int int: ``a / b`` when ``b | a``; ``signum(a*b)`` when ``a | b``; else an error
      ("Static shape_div failure").
    * tuple int: divide the modes left to right, carrying what is left of ``b``.
    * int tuple: ``shape_div(a, product(b))``; tuple tuple: mode by mode (equal ranks).

    @post ``product(result) * product(b) == product(a)`` when ``product(b) | product(a)``.

    >>> shape_div(12, 3), shape_div(3, 12), shape_div((3, 4), 6), shape_div((6, 8), (2, 4))
    (4, 1, (1, 2), (3, 2))
    """
    if type(a) is tuple:
        if type(b) is tuple:
            if len(a) != len(b):
                raise RankError(f"shape_div: Mismatched ranks ({len(a)} vs {len(b)})")
            return tuple(shape_div(x, y) for x, y in zip(a, b))
        out = []
        rest: IntTuple = b
        for ai in a:
            out.append(shape_div(ai, rest))
            rest = shape_div(rest, ai)
        return tuple(out)
    if type(b) is tuple:
        return _shape_div1(a, product(b))
    return _shape_div1(a, b)


def ceil_div(a: IntTuple, b: IntTuple) -> IntTuple:
    """CuTe's ``ceil_div``: ``(a + b - 1) / b``, mode by mode or folding.

    * tuple tuple: mode by mode; missing modes of ``b`` count as 1 (``rank(a) >= rank(b)``).
    * tuple int: fold left to right, carrying ``ceil_div(rest, a_i)``.
    * int tuple: ``ceil_div(a, product(b))``.

    @pre ``rank(a) >= rank(b)`` when both are tuples ("Mismatched ranks"); ``b`` is non-zero.
    @post int int: ``result * b >= a > (result - 1) * b``; the result has ``a``'s profile.

    >>> ceil_div(7, 2), ceil_div((4, 7), 8), ceil_div((10, 7, 3), (4, 2))
    (4, (1, 4), (3, 4, 3))
    >>> from cute_sym.core.integers import Dyn
    >>> ceil_div(Dyn("M"), 4)
    ceiling(M/4)
    """
    if type(a) is tuple:
        if type(b) is tuple:
            if len(a) < len(b):
                raise RankError(f"ceil_div: Mismatched ranks ({len(a)} < {len(b)})")
            return tuple(ceil_div(x, b[i] if i < len(b) else 1) for i, x in enumerate(a))
        out = []
        rest: IntTuple = b
        last = len(a) - 1
        for k, ai in enumerate(a):
            out.append(ceil_div(ai, rest))
            if k < last:    # CuTe's fold computes a final rest too, and drops it
                rest = ceil_div(rest, ai)
        return tuple(out)
    if type(b) is tuple:
        return _ceil_div1(a, product(b))
    return _ceil_div1(a, b)


def shape_min(a: IntLike, b: IntLike) -> IntLike:
    """``min(a, b)`` with CuTe's rule that a static 1 wins (it preserves static-ness)."""
    if type(a) is int and type(b) is int:
        return a if a <= b else b
    if a == 1 or b == 1:
        return 1
    return smin(a, b)


def prefix_product(a: IntTuple, init: IntTuple = 1) -> IntTuple:
    """Exclusive prefix product, CuTe's column-major strides.

    @post congruent with ``a``; the first leaf is ``init`` and each next leaf is
          the previous one times the previous leaf of ``a``.

    >>> prefix_product((2, (3, 4), 5))
    (1, (2, 6), 24)
    >>> prefix_product((2, 3), 4), prefix_product(5)
    ((4, 8), 1)
    >>> prefix_product(((24, 24), 24), (1, 24))      # a tuple init: mode by mode (CuTe's compact_major)
    ((1, 24), 24)

    @pre a tuple ``init`` has the rank of ``a`` (else :class:`RankError`) and is applied mode by mode.
    """
    if type(init) is tuple:
        if type(a) is not tuple:
            raise RankError(f"prefix_product: Invalid parameters (tuple init {init} for the integral {a})")
        if len(a) != len(init):
            raise RankError(f"prefix_product: Mismatched Ranks (init {init} of rank {len(init)} for {a} "
                            f"of rank {len(a)})")
        return tuple(prefix_product(x, i) for x, i in zip(a, init))
    if type(a) is tuple:
        out = []
        cur: IntTuple = init
        for e in a:
            out.append(prefix_product(e, cur))
            cur = cur * product(e)
        return tuple(out)
    return init


def inner_product(a: IntTuple, b: IntTuple) -> IntLike:
    """Sum of products of corresponding leaves (congruent tuples).

    @pre ``congruent(a, b)`` ("Mismatched ranks", a :class:`RankError`).
    @post an integer; ``crd2idx(c, shape, stride) == inner_product(c, stride)``
          for a natural coordinate ``c``.

    >>> inner_product((2, (3, 4)), (1, (2, 6)))
    32
    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M")
    >>> inner_product((M, 2), (1, M))
    3*M
    """
    if type(a) is tuple:
        if type(b) is not tuple or len(a) != len(b):
            raise RankError("inner_product: Mismatched ranks")
        s: IntLike = 0
        for x, y in zip(a, b):
            s = s + inner_product(x, y)
        return norm(s)
    if type(b) is tuple:
        raise RankError("inner_product: Mismatched ranks")
    return a * b  # type: ignore[operator]


def elem_scale(a: IntTuple, b: IntTuple) -> IntTuple:
    """``a`` scaled leafwise by ``b`` (an integer of ``a`` by the product of ``b``'s mode).

    @pre ``weakly_congruent(a, b)`` ("Mismatched ranks", a :class:`RankError`).
    @post congruent with ``a``.

    >>> elem_scale((2, 3), (4, (5, 6))), elem_scale(2, (3, 4))
    ((8, 90), 24)
    """
    if type(a) is tuple:
        if type(b) is not tuple or len(a) != len(b):
            raise RankError("elem_scale: Mismatched ranks")
        return tuple(elem_scale(x, y) for x, y in zip(a, b))
    r = a * product(b)
    return r if type(r) is int else norm(r)


def compact_major(shape: IntTuple, current: IntLike = 1, row: bool = False) -> IntTuple:
    """Compact strides for ``shape`` starting at ``current`` (CuTe's compact_major).

    A static size-1 mode gets stride 0, as in CuTe.

    >>> compact_major((4, 1, (2, 3)))
    (1, 0, (4, 8))
    >>> compact_major((4, 2, 3), row=True)
    (6, 3, 1)
    """
    return _compact(shape, current, row, False)[0]


def _compact(shape: IntTuple, current: IntLike, row: bool, more: bool) -> tuple[IntTuple, IntLike]:
    """The strides and the stride after them; ``more`` false: that last one is not needed (a
    symbolic product costs microseconds), and ``current`` stands in for it."""
    if type(shape) is tuple:
        out: list[Any] = [None] * len(shape)
        order = range(len(shape) - 1, -1, -1) if row else range(len(shape))
        last = order[-1] if len(shape) else -1
        for i in order:
            out[i], current = _compact(shape[i], current, row, more or i != last)
        return tuple(out), current
    if type(shape) is int and shape == 1:
        return 0, current
    if not more:
        return current, current
    nxt = mul(current, shape)
    return current, (nxt if type(nxt) is int else norm(nxt))


def compact_col_major(shape: IntTuple, current: IntLike = 1) -> IntTuple:
    return compact_major(shape, current, False)


def compact_row_major(shape: IntTuple, current: IntLike = 1) -> IntTuple:
    return compact_major(shape, current, True)


# ---------------------------------------------------------------- coordinates
