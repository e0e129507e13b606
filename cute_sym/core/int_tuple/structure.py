"""The shape of an int tuple: rank, depth, product, flatten, congruence, transforms."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy
from ..lazy import is_expr

from .. import decide
from ..errors import LayoutError, RankError
from ..integers import IntLike
from ..monomials import mul
from .types import IntTuple, norm


def rank(t: IntTuple) -> int:
    """Number of top-level modes (1 for an integer).

    >>> rank(4), rank((4, (2, 3))), rank(())
    (1, 2, 0)
    """
    return len(t) if type(t) is tuple else 1


def depth(t: IntTuple) -> int:
    """Nesting depth: 0 for an integer, 1 for a flat tuple.

    >>> depth(4), depth((4, 2)), depth((4, (2, 3)))
    (0, 1, 2)
    """
    if type(t) is tuple:
        d = 0
        for e in t:
            x = depth(e)
            if x > d:
                d = x
        return 1 + d
    return 0


def product(t: IntTuple) -> IntLike:
    """Product of every leaf (CuTe's ``product``/``size`` of an IntTuple).

    @pre ``t`` is an IntTuple (else :class:`LayoutError`).
    @post static when every leaf is static; ``product(()) == 1``; an integer is its own product.

    >>> product((2, (3, 4))), product(())
    (24, 1)
    >>> from cute_sym.core.integers import Dyn
    >>> product((2, (Dyn("M"), 4)))
    8*M
    """
    if type(t) is int:
        return t
    if type(t) is tuple:
        p: IntLike = 1
        for e in t:
            p = mul(p, product(e))
        return norm(p) if type(p) is not int else p
    if is_expr(t):
        return t
    raise LayoutError(f"product: not an IntTuple: {t!r}")


size = product


def flatten(t: IntTuple) -> IntTuple:
    """The leaves of ``t`` as a flat tuple (an integer stays an integer).

    >>> flatten(((2, 3), 5, (7,)))
    (2, 3, 5, 7)
    """
    if type(t) is not tuple:
        return t
    out: list[Any] = []
    _flatten_into(t, out)
    return tuple(out)


def _flatten_into(t: tuple[Any, ...], out: list[Any]) -> None:
    for e in t:
        if type(e) is tuple:
            _flatten_into(e, out)
        else:
            out.append(e)


def flatten_to_tuple(t: IntTuple) -> tuple[Any, ...]:
    return flatten(t) if type(t) is tuple else (t,)  # type: ignore[return-value]


def unflatten(flat: IntTuple, profile: IntTuple) -> IntTuple:
    """Fold a flat tuple back into the nesting of ``profile``.

    @pre ``rank(flat) == rank(flatten(profile))``.
    @post ``flatten(result) == flat`` and ``result`` is congruent to ``profile``.

    >>> unflatten((2, 3, 5, 7), ((0, 0), 0, (0,)))
    ((2, 3), 5, (7,))
    """
    items = flatten_to_tuple(flat)
    if type(profile) is not tuple:
        if len(items) != 1:
            raise RankError(f"unflatten: Mismatched ranks ({len(items)} leaves for an integral profile)")
        return items[0]
    pos = [0]

    def go(p: Any) -> Any:
        if type(p) is tuple:
            return tuple(go(e) for e in p)
        if pos[0] >= len(items):
            raise RankError("unflatten: Mismatched ranks (too few leaves)")
        v = items[pos[0]]
        pos[0] += 1
        return v

    r = go(profile)
    if pos[0] != len(items):
        raise RankError("unflatten: Mismatched ranks (too many leaves)")
    return r


def congruent(a: IntTuple, b: IntTuple) -> bool:
    """Same nesting (profile), leaves ignored.

    @post symmetric; ``True`` iff both are integers, or both are tuples of equal
          length with congruent items. A shape and its stride are congruent.

    >>> congruent((1, (2, 3)), (4, (5, 6))), congruent((1, 2), (1, (2,)))
    (True, False)
    """
    if type(a) is tuple and type(b) is tuple:
        return len(a) == len(b) and all(congruent(x, y) for x, y in zip(a, b))
    return type(a) is not tuple and type(b) is not tuple


def weakly_congruent(a: IntTuple, b: IntTuple) -> bool:
    """``a`` is a coarsening of ``b``: an integer of ``a`` may stand for a tuple of ``b``.

    @post ``congruent(a, b)`` implies ``weakly_congruent(a, b)``; an integer ``a``
          is weakly congruent with anything.

    >>> weakly_congruent(1, (2, 3)), weakly_congruent((1, 2), ((2, 3), 4)), weakly_congruent((1, 2), 3)
    (True, True, False)
    """
    if type(a) is not tuple:
        return True
    if type(b) is not tuple:
        return False
    return len(a) == len(b) and all(weakly_congruent(x, y) for x, y in zip(a, b))


def compatible(a: IntTuple, b: IntTuple) -> bool:
    """Every coordinate of shape ``a`` is a coordinate of shape ``b``
    (``a``'s integers equal the sizes of ``b``'s corresponding modes).

    @post ``True`` implies ``weakly_congruent(a, b)`` and ``product(a) == product(b)``;
          a symbolic size equality that cannot be proved counts as ``False``.

    >>> compatible(24, (4, 6)), compatible((4, 6), (4, (2, 3))), compatible((4, 6), (6, 4))
    (True, True, False)
    """
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(compatible(x, y) for x, y in zip(a, b))
    r = decide.prove("==", a, product(b))
    return bool(r)


def evenly_divides(a: IntTuple, b: IntTuple) -> bool:
    """``b`` divides ``a`` mode by mode (CuTe's ``evenly_divides``)."""
    if type(b) is tuple:
        if type(a) is not tuple or len(a) < len(b):
            return False
        return all(evenly_divides(x, y) for x, y in zip(a, b))
    return bool(decide.prove("|", b, product(a)))


def transform_leaf(t: IntTuple, f: Callable[[Any], Any]) -> Any:
    if type(t) is tuple:
        return tuple(transform_leaf(e, f) for e in t)
    return f(t)


def repeat_like(t: IntTuple, v: Any) -> Any:
    """``t``'s nesting with every leaf replaced by ``v``."""
    if type(t) is tuple:
        return tuple(repeat_like(e, v) for e in t)
    return v


def product_each(t: IntTuple) -> IntTuple:
    """The size of each top-level mode."""
    if type(t) is tuple:
        return tuple(product(e) for e in t)
    return t


# ---------------------------------------------------------------- arithmetic
