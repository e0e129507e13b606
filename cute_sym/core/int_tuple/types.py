"""The values: IntTuple, the underscore, CuTe-printing static ints and tuples, and how they print."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Union

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy
from typing import TypeAlias

from ..integers import IntLike, StaticInt as StaticInt
from ..lazy import is_basic, is_expr



IntTuple: TypeAlias = Union[IntLike, tuple[Any, ...]]


class Underscore:
    """CuTe's ``_``: "keep this mode" in slices and tilers. Use the singleton ``_``."""

    __slots__ = ()
    _instance: "Underscore | None" = None

    def __new__(cls) -> "Underscore":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "_"

    __str__ = __repr__

    def __reduce__(self) -> str:
        return "_"


_ = Underscore()


class Tup(tuple):  # type: ignore[type-arg]
    """An IntTuple as returned to users: a ``tuple`` that prints in CuTe notation.

    @post equal to the plain ``tuple`` of the same items; only ``str``/``repr`` differ.

    >>> Tup((4, (2, 8))), Tup((4, (2, 8))) == (4, (2, 8)), str(Tup((8,)))
    ((_4,(_2,_8)), True, '(_8)')
    """

    __slots__ = ()

    def __str__(self) -> str:
        return fmt(tuple(self))

    def __repr__(self) -> str:
        return fmt(tuple(self))


def wrap(x: Any) -> Any:
    """Give a result its CuTe printing (``_4``, ``(_2,M)``) without changing its value."""
    t = type(x)
    if t is int:
        return StaticInt(x)
    if t is tuple:
        return Tup(x)
    return x


def plain(x: Any) -> Any:
    """A top-level ``Tup`` (as ``parse`` returns) as a plain ``tuple``."""
    return tuple(x) if type(x) is Tup else x


def unwrap(x: Any) -> Any:
    """Plain ``int``/``tuple`` for user-supplied values (StaticInt, Tup, lists, numpy ints)."""
    t = type(x)
    if t is int or t.__name__ == "Layout":
        return x
    if t is tuple or t is Tup:
        for e in x:
            if type(e) is not int and not is_basic(e):
                break       # (a symbolic extent is kept as it is, like an int)
        else:
            return x if t is tuple else tuple(x)
        return tuple([unwrap(e) for e in x])
    if is_basic(x):
        return x        # a symbolic integer as it is (the checks below are for other kinds)
    if isinstance(x, bool):
        return x
    if isinstance(x, (tuple, list)):
        return tuple(unwrap(e) for e in x)
    if isinstance(x, int):
        return int(x)
    if not is_basic(x) and hasattr(x, "__index__") and not hasattr(x, "_shape"):
        return int(x.__index__())
    return x


def is_tuple(x: object) -> bool:
    return type(x) is tuple


def is_int(x: object) -> bool:
    """True for an integer leaf (static or dynamic), False for tuples and ``_``."""
    return type(x) is int or is_expr(x)


# ---------------------------------------------------------------- scalars
def norm(x: Any) -> Any:
    """Results computed from a dynamic input stay dynamic, even when their value
    is known (a sympy ``Integer``), as in CuTe: static-ness follows the inputs."""
    return x



def leaf_str(x: Any) -> str:
    """CuTe's print of one leaf: ``_4`` static, ``4`` known dynamic, a formula otherwise."""
    if type(x) is int:
        return f"_{x}"
    if x is _:
        return "_"
    if is_basic(x):
        from ..formula import formula_str
        return formula_str(x)
    if isinstance(x, int):
        return f"_{int(x)}"
    return str(x)


def fmt(t: Any) -> str:
    """CuTe notation of an IntTuple: ``(_2,(_3,M))``.

    >>> fmt((2, (3, 4))), fmt((4,)), fmt(())
    ('(_2,(_3,_4))', '(_4)', '()')
    """
    if type(t) is tuple:
        return "(" + ",".join([fmt(e) for e in t]) + ")"
    if type(t) is int:
        return f"_{t}"
    if hasattr(t, "_cute_str"):
        return t._cute_str()  # type: ignore[no-any-return]
    return leaf_str(t)


def leaves(t: Any) -> list[Any]:
    """The leaves of ``t`` as a list (an integer gives a one-element list)."""
    if type(t) is not tuple:
        return [t]
    out: list[Any] = []
    for e in t:
        if type(e) is tuple:
            out.extend(leaves(e))
        else:
            out.append(e)
    return out


def iter_leaves(t: Any) -> Iterable[Any]:
    if type(t) is tuple:
        for e in t:
            yield from iter_leaves(e)
    else:
        yield t
