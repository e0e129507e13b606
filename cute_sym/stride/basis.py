"""Scaled bases and arithmetic tuples: CuTe's ``E<i...>``, ``ScaledBasis`` and ``ArithmeticTuple``.

A scaled basis ``k@i`` is the ArithmeticTuple with ``k`` in mode ``i`` and 0
elsewhere; ``E(0, 1)`` (CuTe's ``E<0,1>``) is ``1`` in sub-mode 1 of mode 0,
and prints with the innermost index first, as CuTe does: ``_1@1@0``. Strides
made of scaled bases turn a layout into a map from coordinates to coordinates
(an identity layout, ``(_4,_8):(_1@0,_1@1)``).

>>> e0, e1 = E(0), E(1)
>>> print(4 * e0, e0 + 8 * e1, E(0, 1))
_4@0 (_1,_8) _1@1@0
>>> (3 * e0 + 2 * e1) + ArithmeticTuple((1, 1))
ArithmeticTuple((_4,_3))
>>> 4 * e0 == 4 * e0, 4 * e0 == 4 * e1, e0 == 1
(True, False, False)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core.errors import LayoutError
from ..core.frozen import frozen_copy, frozen_deepcopy, frozen_reduce
from ..core.lazy import is_expr
from ..core.int_tuple import fmt
from ..core.integers import IntLike
from .kind import Fact, StrideKind

__all__ = [
    "ScaledBasis", "ArithmeticTuple", "E", "make_basis_like", "as_arithmetic_tuple", "basis_value",
    "basis_get", "is_scaled_basis", "coord_add", "coord_sum", "coprofile_of", "Coord",
]

#: A value in the codomain of a basis-strided layout: an integer, a scaled basis or an arithmetic tuple.
Coord = Union[IntLike, "ScaledBasis", "ArithmeticTuple"]


def _is_int(x: Any) -> bool:
    return type(x) is int or is_expr(x)


def _mul(a: Any, b: Any) -> Any:
    """Product of two integers; a static 0 or 1 stays static (CuTe: ``_0 * x`` is ``_0``)."""
    if type(a) is int and type(b) is int:
        return a * b
    if type(a) is int:
        return 0 if a == 0 else (b if a == 1 else a * b)
    if type(b) is int:
        return 0 if b == 0 else (a if b == 1 else a * b)
    return a * b


def _is_static_zero(x: Any) -> bool:
    return type(x) is int and x == 0


class _Coordinate(StrideKind):
    """What a scaled basis and an arithmetic tuple share: the hash and CuTe's colexicographic order
    of their canonical coordinate (implicit zeros dropped), so equal values hash and order alike."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(_canon(self))

    def __lt__(self, other: Any) -> bool:
        return _colex_lt(_canon(self), _canon(other))

    def __gt__(self, other: Any) -> bool:
        return _colex_lt(_canon(other), _canon(self))

    def __le__(self, other: Any) -> bool:
        return not _colex_lt(_canon(other), _canon(self))

    def __ge__(self, other: Any) -> bool:
        return not _colex_lt(_canon(self), _canon(other))


class ScaledBasis(_Coordinate):
    """``value@modes``: ``value`` at the hierarchical position ``modes`` of a coordinate, 0 elsewhere.

    ``modes`` is outermost first (CuTe's ``ScaledBasis<T, Ns...>``); the text is
    the value then ``@n`` for each index, innermost first.

    @pre ``value`` is an integer (static ``int`` or sympy); ``modes`` is a tuple of non-negative ints.
    @post immutable; ``k * b`` scales the value; ``b + c`` is an :class:`ArithmeticTuple`;
          two bases are equal exactly when their modes and values are.

    >>> b = ScaledBasis(8, (1,))
    >>> print(b, 2 * b, b * 2, -b)
    _8@1 _16@1 _16@1 _-8@1
    >>> print(ScaledBasis(ScaledBasis(1, (0,)), (1,)))    # flattened: E<1,0>
    _1@0@1
    """

    __slots__ = ("_value", "_modes")

    _value: IntLike
    _modes: tuple[int, ...]

    def __init__(self, value: Any, modes: tuple[int, ...]) -> None:
        if isinstance(value, ScaledBasis):
            modes = tuple(modes) + value._modes
            value = value._value
        if not _is_int(value):
            raise LayoutError(f"ScaledBasis: the value must be an integer, got {value!r}")
        if not all(type(m) is int and m >= 0 for m in modes):
            raise LayoutError(f"ScaledBasis: modes must be non-negative ints, got {modes!r}")
        object.__setattr__(self, "_value", value)
        object.__setattr__(self, "_modes", tuple(modes))

    @property
    def value(self) -> IntLike:
        return self._value

    @property
    def modes(self) -> tuple[int, ...]:
        return self._modes

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ScaledBasis is immutable")

    def is_static(self) -> bool:
        return type(self._value) is int

    # the stride kind (cute_sym.stride.kind): what the algebra asks of a stride
    def scale(self, k: Any) -> "ScaledBasis":
        return ScaledBasis(_mul(k, self._value), self._modes)

    def eq_fact(self, other: Any) -> Fact:
        if not isinstance(other, ScaledBasis):
            return isinstance(other, ArithmeticTuple) and other.eq_fact(self)
        if self._modes != other._modes:
            return False
        a, b = self._value, other._value
        if type(a) is int and type(b) is int:
            return a == b
        return a is b or ("==", a, b)

    def is_zero(self) -> bool:
        return type(self._value) is int and self._value == 0

    def int_leaves(self) -> tuple[Any, ...]:
        return (self._value,)

    def coordinate(self) -> Any:
        x = as_arithmetic_tuple(self)
        return x.to_tuple() if isinstance(x, ArithmeticTuple) else x

    def _cute_str(self) -> str:
        return fmt(self._value) + "".join(f"@{m}" for m in reversed(self._modes))

    def _cute_subs(self, go: Any) -> "ScaledBasis":
        return ScaledBasis(go(self._value), self._modes)

    __str__ = _cute_str

    def __repr__(self) -> str:
        return f"ScaledBasis({self})"

    __hash__ = _Coordinate.__hash__      # (a class defining __eq__ must name its hash again)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScaledBasis):
            return self._modes == other._modes and bool(self._value == other._value) or \
                bool(_canon(self) == _canon(other))
        if isinstance(other, ArithmeticTuple) or type(other) in (int, tuple) or is_expr(other):
            return bool(_canon(self) == _canon(other))        # implicit zeros: E(0) == (1,0), 0@1 == 0
        return NotImplemented

    def __mul__(self, k: Any) -> "ScaledBasis":
        if not _is_int(k):
            return NotImplemented
        return ScaledBasis(_mul(self._value, k), self._modes)

    def __rmul__(self, k: Any) -> "ScaledBasis":
        if not _is_int(k):
            return NotImplemented
        return ScaledBasis(_mul(k, self._value), self._modes)

    def __neg__(self) -> "ScaledBasis":
        return ScaledBasis(-self._value, self._modes)

    def __add__(self, other: Any) -> Any:
        return coord_add(self, other)

    def __radd__(self, other: Any) -> Any:
        return coord_add(other, self)

    def __sub__(self, other: Any) -> Any:
        return coord_add(self, _neg(other))

    def __rsub__(self, other: Any) -> Any:
        return coord_add(other, -self)


class ArithmeticTuple(_Coordinate):
    """A tuple of integers (or nested ArithmeticTuples) with element-wise ``+`` and ``-``.

    Tuples of different ranks add as if padded with ``_0``; a static ``_0`` added to
    it is no change. Printed as a tuple (``(_0,_3)``); the counting iterator of an
    identity tensor prints it as ``ArithTuple(_0,_0)``.

    @post immutable; ``a + b`` has rank ``max(rank(a), rank(b))``; equal to a plain tuple
          with the same elements.

    >>> a = ArithmeticTuple((1, 2))
    >>> print(a + ArithmeticTuple((0, 0, 5)), -a, a - a)
    (_1,_2,_5) (_-1,_-2) (_0,_0)
    >>> a == (1, 2), a[1], len(a), list(a)
    (True, 2, 2, [1, 2])
    """

    __slots__ = ("_v",)

    _v: tuple[Any, ...]

    def __init__(self, values: Any) -> None:
        object.__setattr__(self, "_v", tuple(_as_element(e) for e in values))

    __reduce__ = frozen_reduce
    __copy__ = frozen_copy
    __deepcopy__ = frozen_deepcopy

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ArithmeticTuple is immutable")

    @property
    def values(self) -> tuple[Any, ...]:
        return self._v

    def __len__(self) -> int:
        return len(self._v)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._v)

    def __getitem__(self, i: int) -> Any:
        return self._v[i]

    def is_static(self) -> bool:
        return all(type(e) is int or (isinstance(e, ArithmeticTuple) and e.is_static()) for e in self._v)

    def _cute_str(self) -> str:
        return "(" + ",".join(fmt(e) for e in self._v) + ")"

    # the stride kind (cute_sym.stride.kind): a sum of scaled bases as a stride
    def scale(self, k: Any) -> "ArithmeticTuple":
        return ArithmeticTuple(tuple(e.scale(k) if isinstance(e, ArithmeticTuple) else _mul(k, e) for e in self._v))

    def eq_fact(self, other: Any) -> Fact:
        if isinstance(other, ScaledBasis):
            other = as_arithmetic_tuple(other)
        if not isinstance(other, ArithmeticTuple):
            return False
        a, b = _padded(self.to_tuple(), other.to_tuple())
        if a == b:
            return True
        diff = [(x, y) for x, y in zip(_flat(a), _flat(b)) if not (type(x) is int and type(y) is int and x == y)]
        if len(_flat(a)) != len(_flat(b)) or any(type(x) is int and type(y) is int for x, y in diff):
            return False
        return ("==", diff[0][0], diff[0][1]) if len(diff) == 1 else False

    def int_leaves(self) -> tuple[Any, ...]:
        return tuple(_flat(self.to_tuple()))

    def coordinate(self) -> Any:
        return self.to_tuple()

    def is_zero(self) -> bool:
        return all(type(e) is int and e == 0 or isinstance(e, ArithmeticTuple) and e.is_zero() for e in self._v)

    def _cute_subs(self, go: Any) -> "ArithmeticTuple":
        return ArithmeticTuple(tuple(go(e) for e in self._v))

    __str__ = _cute_str

    def __repr__(self) -> str:
        return f"ArithmeticTuple({self})"

    def to_tuple(self) -> tuple[Any, ...]:
        """Plain nested tuple of the elements."""
        return tuple(e.to_tuple() if isinstance(e, ArithmeticTuple) else e for e in self._v)

    __hash__ = _Coordinate.__hash__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (ArithmeticTuple, ScaledBasis)) or type(other) in (int, tuple) or is_expr(other):
            return bool(_canon(self) == _canon(other))        # implicit zeros: (1,0) == (1,) == E(0)
        return NotImplemented

    def __mul__(self, k: Any) -> "ArithmeticTuple":
        if not _is_int(k):
            return NotImplemented
        return self.scale(k)

    __rmul__ = __mul__

    def __add__(self, other: Any) -> Any:
        return coord_add(self, other)

    def __radd__(self, other: Any) -> Any:
        return coord_add(other, self)

    def __neg__(self) -> "ArithmeticTuple":
        return ArithmeticTuple(tuple(_neg(e) for e in self._v))

    def __sub__(self, other: Any) -> Any:
        return coord_add(self, _neg(other))

    def __rsub__(self, other: Any) -> Any:
        return coord_add(other, -self)


def _as_element(e: Any) -> Any:
    if type(e) is tuple or isinstance(e, list):
        return ArithmeticTuple(e)
    if isinstance(e, ScaledBasis):
        return as_arithmetic_tuple(e)
    if not (_is_int(e) or isinstance(e, ArithmeticTuple)):
        raise LayoutError(f"ArithmeticTuple: elements are integers or tuples, got {e!r}")
    return e


def _padded(a: tuple[Any, ...], b: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Two tuples padded with ``_0`` to one rank at every level (an arithmetic tuple's implicit zeros)."""
    n = max(len(a), len(b))
    a, b = a + (0,) * (n - len(a)), b + (0,) * (n - len(b))
    pa, pb = [], []
    for x, y in zip(a, b):
        if type(x) is tuple or type(y) is tuple:
            x, y = _padded(x if type(x) is tuple else (x,), y if type(y) is tuple else (y,))
        pa.append(x)
        pb.append(y)
    return tuple(pa), tuple(pb)


def _flat(t: Any) -> list[Any]:
    if type(t) is tuple:
        return [x for e in t for x in _flat(e)]
    return [t]


def _canon(x: Any) -> Any:
    """The canonical value of a coordinate: a scaled basis as its tuple, trailing zeros dropped at
    every level, an all-zero tuple the integer 0 (PyCuTe's implicit-zero equality: ``E(0)``,
    ``(1,0)`` and ``(1,)`` are one element; ``(5,)`` is not ``5``, a depth apart)."""
    if isinstance(x, ScaledBasis):
        x = as_arithmetic_tuple(x)
    if isinstance(x, ArithmeticTuple):
        x = x.values
    if type(x) is tuple or isinstance(x, list):
        out = [_canon(e) for e in x]
        while out and type(out[-1]) is int and out[-1] == 0:
            out.pop()
        return tuple(out) if out else 0
    return x


def _colex_lt(a: Any, b: Any) -> bool:
    """``a < b`` in the colexicographic order of canonical coordinates (the last position decides
    first), as PyCuTe orders arithmetic tuples; a non-zero integer against a tuple has no order."""
    if type(a) is not tuple and type(b) is not tuple:
        return bool(a < b)
    for x in (a, b):
        if type(x) is not tuple and not (type(x) is int and x == 0):
            raise LayoutError(f"no order between {fmt(a)} and {fmt(b)}: an integer and a tuple of other rank")
    ta = a if type(a) is tuple else ()
    tb = b if type(b) is tuple else ()
    n = max(len(ta), len(tb))
    for i in reversed(range(n)):
        x = ta[i] if i < len(ta) else 0
        y = tb[i] if i < len(tb) else 0
        if _colex_lt(x, y):
            return True
        if _colex_lt(y, x):
            return False
    return False


def _neg(x: Any) -> Any:
    if isinstance(x, (ScaledBasis, ArithmeticTuple)):
        return -x
    if type(x) is tuple:
        return ArithmeticTuple(x).__neg__()
    return -x


def as_arithmetic_tuple(x: Any) -> Any:
    """CuTe's ``as_arithmetic_tuple``: a scaled basis ``k@(n, ...)`` becomes ``(_0, ...n..., inner)``;
    a tuple becomes an ArithmeticTuple; an integer stays itself.

    >>> print(as_arithmetic_tuple(E(2)), as_arithmetic_tuple(E(0, 1)), as_arithmetic_tuple(5))
    (_0,_0,_1) ((_0,_1)) 5
    """
    if isinstance(x, ScaledBasis):
        out: Any = x.value
        for m in reversed(x.modes):
            out = ArithmeticTuple((0,) * m + (out,))
        return out
    if type(x) is tuple or isinstance(x, list):
        return ArithmeticTuple(x)
    return x


def _add_int(a: Any, b: Any) -> Any:
    if _is_static_zero(a):
        return b
    if _is_static_zero(b):
        return a
    return a + b


def coord_add(a: Any, b: Any) -> Any:
    """``a + b`` for integers, scaled bases and arithmetic tuples, as CuTe adds them.

    @pre a non-tuple integer added to a tuple is a static 0 (CuTe's ``C<0> + ArithmeticTuple``).
    @post element-wise sum, shorter tuples padded with ``_0``; two integers add as integers.

    >>> print(coord_add(E(0), E(1)), coord_add(0, 3 * E(1)), coord_add(E(0), ArithmeticTuple((0, 2))))
    (_1,_1) _3@1 (_1,_2)
    """
    if isinstance(a, ScaledBasis):
        if _is_static_zero(b):
            return a
        if not a.modes:
            return coord_add(a.value, b)
        a = as_arithmetic_tuple(a)
    if isinstance(b, ScaledBasis):
        if _is_static_zero(a):
            return b
        if not b.modes:
            return coord_add(a, b.value)
        b = as_arithmetic_tuple(b)
    if type(a) is tuple:
        a = ArithmeticTuple(a)
    if type(b) is tuple:
        b = ArithmeticTuple(b)
    ta, tb = isinstance(a, ArithmeticTuple), isinstance(b, ArithmeticTuple)
    if ta and tb:
        va, vb = a.values, b.values
        n = max(len(va), len(vb))
        va = va + (0,) * (n - len(va))
        vb = vb + (0,) * (n - len(vb))
        return ArithmeticTuple(tuple(coord_add(x, y) for x, y in zip(va, vb)))
    if ta or tb:
        other = b if ta else a
        if not _is_static_zero(other):
            raise LayoutError(f"ArithmeticTuple + {other}: only a static 0 adds to a tuple (CuTe's C<0>)")
        return a if ta else b
    if not (_is_int(a) and _is_int(b)):
        raise LayoutError(f"cannot add {a!r} and {b!r}")
    return _add_int(a, b)


def coord_sum(items: Any) -> Any:
    """Sum of coordinates (starting from a static 0)."""
    out: Any = 0
    for x in items:
        out = coord_add(out, x)
    return out


def E(*modes: int) -> Any:
    """CuTe's ``E<modes...>``: ``1`` at the position ``modes``; ``E()`` is the integer 1.

    >>> print(E(0), E(1, 0), E())
    _1@0 _1@0@1 1
    """
    if not modes:
        return 1
    return ScaledBasis(1, tuple(modes))


def make_basis_like(shape: Any, prefix: tuple[int, ...] = ()) -> Any:
    """The strides of the identity layout of ``shape``: ``E<prefix..., i, j, ...>`` at every leaf.

    @post congruent with ``shape``; a leaf at position ``(i, j, ...)`` holds ``E(i, j, ...)``;
          an integral shape gives ``1`` (CuTe's ``E<>``).

    >>> fmt(make_basis_like((4, (2, 2), 3)))
    '(_1@0,(_1@0@1,_1@1@1),_1@2)'
    """
    if type(shape) is tuple:
        return tuple(make_basis_like(s, prefix + (i,)) for i, s in enumerate(shape))
    return E(*prefix)


def is_scaled_basis(x: object) -> bool:
    return isinstance(x, ScaledBasis)


def basis_value(x: Any) -> Any:
    """The value of a scaled basis; an integer is its own value."""
    return x.value if isinstance(x, ScaledBasis) else x


def basis_get(b: Any, t: Any) -> Any:
    """The element of ``t`` at the position of basis ``b`` (``t`` itself for an integer ``b``).

    >>> basis_get(E(1, 0), (4, (2, 3)))
    2
    """
    if not isinstance(b, ScaledBasis):
        return t
    for m in b.modes:
        if type(t) is not tuple and not isinstance(t, ArithmeticTuple):
            raise LayoutError(f"basis_get: {b} indexes into a non-tuple {t!r}")
        try:
            t = t[m]
        except IndexError:
            raise LayoutError(f"basis_get: {b} is out of range for {t!r}") from None
    return t


def coprofile_of(strides: Any) -> Any:
    """CuTe's coprofile: the codomain's nesting with every leaf ``_0`` (``repeat_like(sum(strides), _0)``).

    >>> coprofile_of((E(0), E(1)))
    (0, 0)
    >>> coprofile_of(((E(0, 0), E(0, 1)), E(1)))
    ((0, 0), 0)
    >>> coprofile_of((4, 1))
    0
    """
    from ..core.int_tuple import leaves
    total = coord_sum(leaves(strides))

    def zeros(x: Any) -> Any:
        if isinstance(x, ArithmeticTuple):
            return tuple(zeros(e) for e in x.values)
        if isinstance(x, ScaledBasis):
            return zeros(as_arithmetic_tuple(x))
        return 0
    return zeros(total)
