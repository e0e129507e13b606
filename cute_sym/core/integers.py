"""Static and dynamic integers: the leaves of every shape, stride and coordinate.

* A **static** integer is a plain Python ``int``; ``Int[4]`` spells one the way
  CuTe spells ``Int<4>{}`` and prints as ``_4``. Arithmetic on static integers
  is plain ``int`` arithmetic: no sympy object is ever created for them.
* A **dynamic** integer is a sympy expression over integer symbols made by
  :func:`Dyn` (``Dyn("M")`` is a positive integer unless told otherwise).
  A sympy ``Integer`` is a dynamic integer whose run-time value happens to be
  known; it prints without the underscore, as CuTe prints run-time values.

>>> Int[4] * Int[8]
32
>>> M = Dyn("M")
>>> Int[4] * M
4*M
>>> is_static(Int[4] + 3), is_static(M + 1)
(True, False)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Optional, Union

from typing import TypeAlias, TypeGuard

from .errors import LayoutError
from .lazy import is_basic, is_expr

if TYPE_CHECKING:
    import sympy
    from .symbolic import DynSymbol, IMod
else:
    from .lazy import sympy

__all__ = [
    "IntLike",
    "Int",
    "Dyn",
    "DynSymbol",
    "is_static",
    "is_int_like",
    "as_int_like",
    "symbol_facts",
    "IMod",
]

#: A static ``int`` or a dynamic sympy integer expression.
IntLike: TypeAlias = Union[int, "sympy.Expr"]


class _StaticIntFactory:
    """``Int[N]`` is the static integer ``N`` (CuTe's ``Int<N>{}``)."""

    __slots__ = ()

    def __getitem__(self, value: int) -> int:
        if type(value) is not int:
            raise LayoutError(f"Int[...] takes a Python int, got {value!r}")
        return value

    def __repr__(self) -> str:
        return "Int"


Int: Final = _StaticIntFactory()


def Dyn(name: str, *, divisible_by: int = 1, min: Optional[int] = None,
        max: Optional[int] = None, sign: str = "positive") -> sympy.Symbol:
    """A dynamic (run-time) integer symbol.

    ``sign`` is ``"positive"`` (the default: an extent), ``"nonnegative"`` (a
    coordinate) or ``"any"`` (a stride). ``divisible_by``, ``min`` and ``max``
    are facts the decision procedure may use.

    @pre ``divisible_by >= 1``; ``min <= max`` when both are given.
    @post the result is an integer sympy symbol named ``name``.

    >>> M = Dyn("M", divisible_by=16)
    >>> M, M.divisor
    (M, 16)
    >>> Dyn("d", sign="any").is_positive is None
    True
    """
    if type(divisible_by) is not int or divisible_by < 1:
        raise LayoutError(f"Dyn: divisible_by must be a positive int, got {divisible_by!r}")
    if min is not None and max is not None and min > max:
        raise LayoutError(f"Dyn: empty range min={min} > max={max}")
    lo: Optional[int]
    if sign == "positive":
        assumptions = {"integer": True, "positive": True}
        lo = 1 if min is None else builtins_max(min, 1)
    elif sign == "nonnegative":
        assumptions = {"integer": True, "nonnegative": True}
        lo = 0 if min is None else builtins_max(min, 0)
    elif sign == "any":
        assumptions = {"integer": True}
        lo = min
    else:
        raise LayoutError(f"Dyn: sign must be 'positive', 'nonnegative' or 'any', got {sign!r}")
    if divisible_by == 1 and min is None and max is None:
        return sympy.Symbol(name, **assumptions)
    from .symbolic import DynSymbol
    return DynSymbol(name, divisible_by, lo, max, **assumptions)


def builtins_max(a: int, b: int) -> int:
    return a if a >= b else b


def symbol_facts(sym: sympy.Symbol) -> tuple[int, Optional[int], Optional[int]]:
    """``(divisor, lo, hi)`` known about a symbol from its construction.

    >>> symbol_facts(Dyn("K"))
    (1, 1, None)
    >>> symbol_facts(Dyn("c", sign="nonnegative", max=7))
    (1, 0, 7)
    """
    from .symbolic import DynSymbol
    if isinstance(sym, DynSymbol):
        return sym.divisor, sym.lo, sym.hi
    if sym.is_positive:
        return 1, 1, None
    if sym.is_nonnegative:
        return 1, 0, None
    return 1, None, None


def is_static(x: object) -> bool:
    """True when ``x`` (an integer, int tuple, layout, ...) holds no symbol.

    @post ``True`` exactly when every leaf is a Python ``int`` (a sympy
          ``Integer``, a run-time value, is dynamic); ``None`` counts as static.

    >>> is_static(sympy.Integer(4))
    False
    >>> is_static(4), is_static((4, (2, 8))), is_static(Dyn("M"))
    (True, True, False)
    """
    t = type(x)
    if t is int:
        return True
    if isinstance(x, tuple):
        return all(is_static(e) for e in x)
    if x is None:
        return True
    static = getattr(x, "is_static", None)
    if callable(static):
        return bool(static())
    if is_basic(x):
        return False
    return isinstance(x, int)


def is_int_like(x: object) -> TypeGuard[IntLike]:
    """True for a static int or a sympy integer expression (not a tuple)."""
    if type(x) is int:
        return True
    return is_expr(x) and x.is_integer is not False and not isinstance(x, sympy.Tuple)


def as_int_like(x: object, what: str = "integer") -> IntLike:
    """Check and normalise a user-supplied leaf: ``int``, sympy integer, numpy int.

    @post ``bool`` is refused; a numpy or other ``__index__`` integer becomes ``int``.
    """
    if type(x) is int:
        return x
    if isinstance(x, bool):
        raise LayoutError(f"{what} must be an integer, got the bool {x!r}")
    if is_expr(x):
        if x.is_integer is False or x.is_number and not x.is_Integer:
            raise LayoutError(f"{what} must be an integer expression, got {x!r}")
        return x
    index = getattr(x, "__index__", None)
    if index is not None:
        return int(index())
    raise LayoutError(f"{what} must be an int or a sympy integer expression, got {x!r}")


def __getattr__(name: str) -> Any:
    # DynSymbol and IMod are sympy classes: defined (and sympy imported) on first use
    if name in ("DynSymbol", "IMod"):
        from . import symbolic
        return getattr(symbolic, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
