"""Static and dynamic integers: the leaves of every shape, stride and coordinate.

* A **static** integer is a plain Python ``int``; ``Int[4]`` spells one the way
  CuTe spells ``Int<4>{}`` and prints as ``_4`` (a :class:`StaticInt`, the
  ``int`` subclass every static result of the API is). Arithmetic on static
  integers is plain ``int`` arithmetic: no sympy object is ever created for them.
* A **dynamic** integer is a sympy expression over integer symbols made by
  :func:`Dyn` (``Dyn("M")`` is a positive integer unless told otherwise).
  A sympy ``Integer`` is a dynamic integer whose run-time value happens to be
  known; it prints without the underscore, as CuTe prints run-time values.

>>> Int[4], Int[4] * Int[8]
(_4, _32)
>>> M = Dyn("M")
>>> Int[4] * M
4*M
>>> is_static(Int[4] + 3), is_static(M + 1)
(True, False)
"""
from __future__ import annotations

import sys

import re
from typing import TYPE_CHECKING, Any, Final, Optional, Protocol, Union, overload

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
    "DynInt",
    "UserInt",
    "StaticInt",
    "Int",
    "Dyn",
    "DynSymbol",
    "is_static",
    "is_int_like",
    "as_int_like",
    "symbol_facts",
    "IMod",
]

class DynInt(Protocol):
    """A dynamic integer as user code sees it: a sympy integer expression.

    The project's own type for what :func:`Dyn` and formulas return, so that a
    user's ``mypy --strict`` needs no stubs for sympy. At run time the values
    are sympy expressions.
    """

    def __add__(self, other: "IntLike") -> "DynInt": ...
    def __radd__(self, other: "IntLike") -> "DynInt": ...
    def __sub__(self, other: "IntLike") -> "DynInt": ...
    def __rsub__(self, other: "IntLike") -> "DynInt": ...
    def __mul__(self, other: "IntLike") -> "DynInt": ...
    def __rmul__(self, other: "IntLike") -> "DynInt": ...
    def __floordiv__(self, other: "IntLike") -> "DynInt": ...
    def __rfloordiv__(self, other: "IntLike") -> "DynInt": ...
    def __mod__(self, other: "IntLike") -> "DynInt": ...
    def __rmod__(self, other: "IntLike") -> "DynInt": ...
    def __neg__(self) -> "DynInt": ...
    # a comparison sympy cannot decide raises TypeError when made a bool
    def __lt__(self, other: "IntLike") -> bool: ...
    def __le__(self, other: "IntLike") -> bool: ...
    def __gt__(self, other: "IntLike") -> bool: ...
    def __ge__(self, other: "IntLike") -> bool: ...
    def __int__(self) -> int: ...
    def __getattr__(self, name: str) -> Any: ...    # the rest of sympy's Expr


#: A static ``int`` or a dynamic sympy integer expression (inside the package).
IntLike: TypeAlias = Union[int, "sympy.Expr"]

#: The same as user code sees it (``cute_sym.IntLike``): no sympy type in it.
UserInt: TypeAlias = Union[int, DynInt]
#: An int tuple as user code sees it (``cute_sym.IntTuple``): user integers, nested.
UserIntTuple: TypeAlias = Union[int, DynInt, tuple["UserIntTuple", ...]]


class StaticInt(int):
    """A static integer as returned to users: an ``int`` that prints as CuTe does (``_4``).

    @post equal to (and hashing as) the plain ``int``; only ``str``/``repr``
          differ. ``+ - * // %`` and unary ``-`` of static integers give a static integer
          (CuTe: ``Int<4>{} * Int<8>{}`` is ``_32``); with a plain ``int`` (a dynamic value in
          CuTe) they give a plain ``int``.

    >>> StaticInt(4), StaticInt(4) == 4, type(StaticInt(4) + 1).__name__
    (_4, True, 'int')
    >>> StaticInt(4) * StaticInt(8), StaticInt(9) // StaticInt(2), -StaticInt(3), 8 * StaticInt(4)
    (_32, _4, _-3, 32)
    """

    __slots__ = ()

    @overload
    def __add__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __add__(self, other: int) -> int: ...
    def __add__(self, other: int) -> int:
        r = int.__add__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __radd__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __radd__(self, other: int) -> int: ...
    def __radd__(self, other: int) -> int:
        r = int.__radd__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __sub__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __sub__(self, other: int) -> int: ...
    def __sub__(self, other: int) -> int:
        r = int.__sub__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __rsub__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __rsub__(self, other: int) -> int: ...
    def __rsub__(self, other: int) -> int:
        r = int.__rsub__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __mul__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __mul__(self, other: int) -> int: ...
    def __mul__(self, other: int) -> int:
        r = int.__mul__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __rmul__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __rmul__(self, other: int) -> int: ...
    def __rmul__(self, other: int) -> int:
        r = int.__rmul__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __floordiv__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __floordiv__(self, other: int) -> int: ...
    def __floordiv__(self, other: int) -> int:
        r = int.__floordiv__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __rfloordiv__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __rfloordiv__(self, other: int) -> int: ...
    def __rfloordiv__(self, other: int) -> int:
        r = int.__rfloordiv__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __mod__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __mod__(self, other: int) -> int: ...
    def __mod__(self, other: int) -> int:
        r = int.__mod__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    @overload
    def __rmod__(self, other: "StaticInt") -> "StaticInt": ...
    @overload
    def __rmod__(self, other: int) -> int: ...
    def __rmod__(self, other: int) -> int:
        r = int.__rmod__(self, other)
        return StaticInt(r) if type(other) is StaticInt else r

    def __neg__(self) -> "StaticInt":
        return StaticInt(-int(self))

    def __pos__(self) -> "StaticInt":
        return self

    def __str__(self) -> str:
        return f"_{int(self)}"

    def __repr__(self) -> str:
        return f"_{int(self)}"


class _StaticIntFactory:
    """``Int[N]`` is the static integer ``N`` (CuTe's ``Int<N>{}``), printed ``_N``.

    >>> Int[4], str(Int[-1]), Int[4] + 1, Int[4] * Int[8]
    (_4, '_-1', 5, _32)
    """

    __slots__ = ()

    def __getitem__(self, value: int) -> StaticInt:
        if not isinstance(value, int) or isinstance(value, bool):
            raise LayoutError(f"Int[...] takes a Python int, got {value!r}")
        return StaticInt(value)

    def __repr__(self) -> str:
        return "Int"


Int: Final = _StaticIntFactory()


def Dyn(name: str, *, divisible_by: int = 1, min: Optional[int] = None,
        max: Optional[int] = None, sign: str = "positive") -> DynInt:
    """A dynamic (run-time) integer symbol.

    ``sign`` is ``"positive"`` (the default: an extent), ``"nonnegative"`` (a
    coordinate) or ``"any"`` (a stride). ``divisible_by``, ``min`` and ``max``
    are facts the decision procedure may use.

    @pre ``name`` is an identifier CuTe notation reads back (a letter, then
         letters, digits, ``_``; not ``o``, which joins composed layouts), or
         one with trailing primes (``K'``, a fresh symbol of the analyses);
         ``divisible_by >= 1``; some value of the sign, a multiple of ``divisible_by``, lies in
         ``[min, max]`` (else :class:`LayoutError`: no value at all).
    @post the result is an integer sympy symbol named ``name``.

    >>> M = Dyn("M", divisible_by=16)
    >>> M, M.divisor
    (M, 16)
    >>> Dyn("d", sign="any").is_positive is None
    True
    """
    if not isinstance(name, str) or not _NAME.fullmatch(name) or name == "o":
        raise LayoutError(f"Dyn: the name must be a letter then letters, digits or '_' (not 'o'), got {name!r}")
    for what, v in (("min", min), ("max", max)):
        if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
            raise LayoutError(f"Dyn: {what} must be an int, got {v!r}")
    if not isinstance(divisible_by, int) or isinstance(divisible_by, bool) or divisible_by < 1:
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
    if lo is not None and max is not None and -(-lo // divisible_by) * divisible_by > max:
        # no value at all: every question about it would be vacuously true
        what = f"a multiple of {divisible_by} " if divisible_by > 1 else ""
        raise LayoutError(f"Dyn: no {sign} value {what}in [{lo}, {max}] for {name}")
    MADE_NAMES.add(name)
    if divisible_by == 1 and min is None and max is None:
        return sympy.Symbol(name, **assumptions)  # type: ignore[no-any-return]
    from .symbolic import DynSymbol
    return DynSymbol(name, int(divisible_by), lo, max, **assumptions)


_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*'*")     # trailing primes: the fresh names analyses make
# every name Dyn (and so parse) has made a symbol of: subs refuses a name never made (a typo)
MADE_NAMES: set[str] = set()


def builtins_max(a: int, b: int) -> int:
    return a if a >= b else b


def symbolic_module() -> Any:
    """``cute_sym.core.symbolic`` (DynSymbol, IMod: sympy classes), imported on first use; later
    calls read it from ``sys.modules`` (an import statement in a hot path costs a microsecond)."""
    mod = sys.modules.get("cute_sym.core.symbolic")
    if mod is None:
        from . import symbolic as mod
    return mod


def symbol_facts(sym: sympy.Symbol) -> tuple[int, Optional[int], Optional[int]]:
    """``(divisor, lo, hi)`` known about a symbol from its construction.

    >>> symbol_facts(Dyn("K"))
    (1, 1, None)
    >>> symbol_facts(Dyn("c", sign="nonnegative", max=7))
    (1, 0, 7)
    """
    # a DynSymbol exists only once core.symbolic is loaded: read the class from sys.modules
    # (an import statement here costs more than the rest of the function)
    symbolic = sys.modules.get("cute_sym.core.symbolic")
    if symbolic is not None and isinstance(sym, symbolic.DynSymbol):
        return sym.divisor, sym.lo, sym.hi
    if sym.is_positive:
        return 1, 1, None
    if sym.is_nonnegative:
        return 1, 0, None
    return 1, None, None


# the assumptions a symbol's (divisor, lo, hi) fully account for: with any other (even, prime,
# ...) some of the values symbol_facts allows are impossible, and sympy may simplify what it builds
PLAIN_ASSUMPTIONS: Final = frozenset(("integer", "positive", "nonnegative", "negative", "nonpositive", "nonzero",
                                      "commutative"))


def scaled_symbol(e: Any) -> tuple[int, Any]:
    """``e`` as ``(k, S)`` for ``e = S`` or ``k*S`` (``k`` a positive integer, ``S`` an integer
    symbol); ``(0, None)`` for any other shape.

    >>> scaled_symbol(4 * Dyn("M")), scaled_symbol(4)
    ((4, M), (0, None))
    """
    if getattr(e, "is_Symbol", False):
        return (1, e) if e.is_integer else (0, None)
    if getattr(e, "is_Mul", False) and len(e.args) == 2:
        k, x = e.args
        if k.is_Integer and k.p > 0 and x.is_Symbol and x.is_integer:
            return int(k.p), x
    return 0, None


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
