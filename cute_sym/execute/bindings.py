"""The values of a formula of the thread index at every thread of a simulated CTA, at once.

A partition computed once for a dynamic thread index (``Dyn("tid", max=127)``) has offsets that
are formulas of it; inside a simulation each thread reads them at its own index. The formula is
evaluated for all threads in one pass over its tree (NumPy arrays for the thread index), and kept.

>>> from cute_sym.core.integers import Dyn
>>> tid = Dyn("tid", max=7, sign="nonnegative")
>>> t = ThreadValues("tid", 8)
>>> [int(x) for x in t.values(2 * (tid % 4) + 32 * (tid // 4))]
[0, 2, 4, 6, 32, 34, 36, 38]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

from ..core.errors import LayoutError
from ..tensor.numeric import numpy

__all__ = ["ThreadValues"]


class ThreadValues:
    """Formulas of the symbol named ``name`` evaluated at ``0 .. n-1``."""

    def __init__(self, name: str, n: int) -> None:
        self.name, self.n = name, n
        self._memo: dict[Any, Any] = {}

    def values(self, expr: Any) -> Any:
        """``expr`` at every thread index, an int64 array (kept per formula)."""
        out = self._memo.get(expr)
        if out is None:
            out = self._eval(expr)
            np = numpy()
            out = np.broadcast_to(np.asarray(out, dtype=np.int64), (self.n,))
            self._memo[expr] = out
        return out

    def _eval(self, e: Any) -> Any:
        np = numpy()
        if isinstance(e, int):
            return e
        if e.is_Integer:
            return int(e)
        if e.is_Symbol:
            if e.name != self.name:
                raise LayoutError(f"simulate: the symbol {e} has no value here (the thread index is {self.name})")
            return np.arange(self.n, dtype=np.int64)
        if e.is_Rational:
            return _Frac(int(e.p), int(e.q))
        args = [self._eval(a) for a in e.args]
        if e.is_Add:
            return _add(args)
        if e.is_Mul:
            return _mul(args)
        name = type(e).__name__
        if name == "floor":
            return _floor(args[0])
        if name == "ceiling":
            a = args[0]
            return -_floor(_neg(a))
        if name in ("IMod", "Mod"):
            return _int(args[0]) % _int(args[1])
        if name == "Min":
            return np.minimum.reduce([np.broadcast_to(_int(a), (self.n,)) for a in args])
        if name == "Max":
            return np.maximum.reduce([np.broadcast_to(_int(a), (self.n,)) for a in args])
        if e.is_Pow and isinstance(args[1], int) and args[1] >= 0:
            return _int(args[0]) ** args[1]
        raise LayoutError(f"simulate: cannot evaluate {sympy.srepr(e)} at every thread")


class _Frac:
    """``num / den * x`` kept exact until a floor: numerator array (or int) over an int."""

    def __init__(self, num: Any, den: int) -> None:
        self.num, self.den = num, den


def _as_frac(a: Any) -> _Frac:
    return a if isinstance(a, _Frac) else _Frac(a, 1)


def _add(args: list[Any]) -> Any:
    if not any(isinstance(a, _Frac) for a in args):
        out = args[0]
        for a in args[1:]:
            out = out + a
        return out
    fr = [_as_frac(a) for a in args]
    den = 1
    for f in fr:
        den = den * f.den // _gcd(den, f.den)
    num: Any = 0
    for f in fr:
        num = num + f.num * (den // f.den)
    return _Frac(num, den)


def _mul(args: list[Any]) -> Any:
    if not any(isinstance(a, _Frac) for a in args):
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    num: Any = 1
    den = 1
    for a in args:
        f = _as_frac(a)
        num, den = num * f.num, den * f.den
    return _Frac(num, den)


def _neg(a: Any) -> Any:
    return _Frac(-a.num, a.den) if isinstance(a, _Frac) else -a


def _floor(a: Any) -> Any:
    return a.num // a.den if isinstance(a, _Frac) else a


def _int(a: Any) -> Any:
    if isinstance(a, _Frac):
        if a.den != 1:
            raise LayoutError("simulate: a fraction where an integer is needed")
        return a.num
    return a


def _gcd(a: int, b: int) -> int:
    from math import gcd
    return gcd(a, b)
