"""The sympy classes of dynamic integers: :class:`DynSymbol` and :class:`IMod`.

Imported only once a dynamic integer appears (``Dyn`` and the symbolic paths
import this module), so that a static computation never imports sympy.

>>> from cute_sym.core.integers import Dyn
>>> isinstance(Dyn("K", divisible_by=8), DynSymbol)
True
"""
from __future__ import annotations

from typing import Any, Optional

import sympy
from sympy.printing.precedence import PRECEDENCE

from .errors import LayoutError

__all__ = ["DynSymbol", "IMod"]  # and _Fresh, internal to the decision procedure


class DynSymbol(sympy.Symbol):  # type: ignore[misc]
    """An integer symbol that carries the facts the user stated about it.

    ``divisor``: the symbol is a multiple of it; ``lo``/``hi``: inclusive
    bounds (``None`` when unbounded). Two symbols with the same name but other
    facts are different symbols, as in sympy.

    @pre ``divisor >= 1``; ``lo <= hi`` when both are given (:func:`Dyn` checks these).
    @post an integer sympy symbol named ``name`` carrying ``divisor``, ``lo``, ``hi``.

    >>> from cute_sym.core.integers import Dyn
    >>> K = Dyn("K", divisible_by=8, min=8, max=64)
    >>> isinstance(K, DynSymbol), K.divisor, K.lo, K.hi
    (True, 8, 8, 64)
    >>> K == DynSymbol("K", 8, 8, 64, integer=True, positive=True), K == Dyn("K")
    (True, False)
    """

    __slots__ = ("divisor", "lo", "hi", "_content")

    divisor: int
    lo: Optional[int]
    hi: Optional[int]
    _content: Optional[tuple[Any, ...]]

    def __new__(cls, name: str, divisor: int = 1, lo: Optional[int] = None,
                hi: Optional[int] = None, **assumptions: bool) -> "DynSymbol":
        obj = sympy.Symbol.__xnew__(cls, name, **assumptions)
        obj.divisor = divisor
        obj.lo = lo
        obj.hi = hi
        obj._content = None
        return obj  # type: ignore[no-any-return]

    def __getnewargs_ex__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return ((self.name, self.divisor, self.lo, self.hi), self.assumptions0)

    def __eq__(self, other: object) -> bool:
        # sympy's Basic.__eq__, without its scan of the content for numbers (a symbol's has none)
        if self is other:
            return True
        if type(other) is type(self):
            return self._hashable_content() == other._hashable_content()
        return super().__eq__(other)  # type: ignore[no-any-return]

    __hash__ = sympy.Symbol.__hash__

    def _hashable_content(self) -> tuple[Any, ...]:
        # every equality test of two such symbols that are not the same object asks for it (a memo
        # hit on a symbol of an earlier call): computed once, a symbol never changes
        content = self._content
        if content is None:
            # no None inside: sympy orders hashable contents
            lo, hi = self.lo, self.hi
            content = self._content = super()._hashable_content() + (
                self.divisor, lo is None, 0 if lo is None else lo, hi is None, 0 if hi is None else hi)
        return content



class IMod(sympy.Function):  # type: ignore[misc]
    """Integer ``a % b`` for ``a >= 0``, ``b > 0``, kept unevaluated unless both are numbers.

    sympy's own ``Mod`` rewrites nested symbolic modulos in ways that are not
    sound for our use, so coordinates use this one.

    @pre ``a >= 0`` and ``b > 0`` (integers).
    @post ``0 <= result < b``; a number when ``a`` and ``b`` are numbers, 0 when
          ``b == 1`` or ``a == 0``, else unevaluated.

    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M")
    >>> IMod(M, 8).subs(M, 13), IMod(M, 1)
    (5, 0)
    """

    is_integer = True
    precedence = PRECEDENCE["Mul"]     # binds like *: 2*(x % 4)

    @classmethod
    def eval(cls, a: Any, b: Any) -> Any:
        if b.is_Integer and int(b) <= 0:
            raise LayoutError(f"IMod: the modulus must be positive, got {b}")
        if a.is_Integer and b.is_Integer:
            return sympy.Integer(int(a) % int(b))
        if b == 1 or a == 0:
            return sympy.Integer(0)
        return None

    def _eval_is_nonnegative(self) -> Optional[bool]:
        return True if self.args[1].is_positive else None

    def _sympystr(self, printer: Any) -> str:
        def p(x: Any) -> str:
            s = str(printer._print(x))
            return s if x.is_Atom and not (x.is_Number and x < 0) else f"({s})"
        return f"{p(self.args[0])} % {p(self.args[1])}"


class _Fresh(DynSymbol):
    """A symbol standing for another one with the facts in force as its bounds (internal).

    Its hashable content has no ``None`` (sympy orders symbols of one name by it,
    and ``None`` does not compare).
    """

    __slots__ = ()
