"""Readable text for dynamic integer formulas, as a person writes them.

``ceiling(M/128)`` prints as ``ceil_div(M,128)``, ``floor(M/4)`` as ``M//4``,
``Mod(i, 8)`` as ``i%8``, ``Min``/``Max`` as ``min``/``max``, ``M**2`` as
``M*M``; no spaces, so a formula can stand as a leaf of CuTe notation, and the
notation parser (:func:`cute_sym.parse`) reads it back: ``//`` and ``%`` bind
like ``*`` (left to right), so a floor division or modulo that is a factor of a
product is parenthesised (``N*(M//4)``, never ``N*M//4``).

>>> import sympy
>>> M = sympy.Symbol("M", integer=True, positive=True)
>>> N = sympy.Symbol("N", integer=True, positive=True)
>>> formula_str(sympy.ceiling(M / 128)), formula_str(sympy.floor(M / 4) + 1), formula_str(16 * M)
('ceil_div(M,128)', 'M//4+1', '16*M')
>>> formula_str(N * sympy.floor(M / 4)), formula_str(-sympy.floor(M / 4)), formula_str(M * M * N)
('N*(M//4)', '-(M//4)', 'M*M*N')
>>> formula_str(sympy.floor((M + 3) / 4)), formula_str(sympy.Min(M, 2 * N))
('(M+3)//4', 'min(M,2*N)')
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

import sympy
from sympy.printing.str import StrPrinter

__all__ = ["formula_str"]

_MAX_POW = 16    # M**k prints as k factors up to this k

_TEXT: dict[Any, str] = {}      # printed parts of formulas (a memo: the same text again)
_TEXT_MAX = 4096


@lru_cache(maxsize=4096)
def _num_den(e: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    # (memo: a nested formula asks it of the same argument at every level that prints it)
    n, d = sympy.fraction(sympy.together(e))
    return n, d


def _is_div_like(e: Any) -> bool:
    """Printed with a ``//``, ``%`` or ``/`` operator (binds like ``*``)."""
    if isinstance(e, (sympy.floor,)):
        return bool(_num_den(e.args[0])[1] != 1)
    if isinstance(e, sympy.Mod) or type(e).__name__ == "IMod":
        return True
    if isinstance(e, sympy.Pow):
        return not (e.exp.is_Integer and 0 < int(e.exp) <= 1)
    return False


class _Printer(StrPrinter):  # type: ignore[misc]
    def _print(self, expr: Any, **kwargs: Any) -> str:
        # a formula guard mode builds is a DAG far smaller than its tree: each shared part
        # printed once (the text depends on the part alone)
        if kwargs or not expr.args:
            return str(super()._print(expr, **kwargs))
        text = _TEXT.get(expr)
        if text is None:
            if len(_TEXT) >= _TEXT_MAX:
                _TEXT.clear()
            text = _TEXT[expr] = str(super()._print(expr))
        return text

    def _factor(self, e: Any) -> str:
        """A factor of a product: parenthesised unless it is an atom or a call."""
        s = str(self._print(e))
        if isinstance(e, (sympy.Add, sympy.Mul)) or _is_div_like(e) or (isinstance(e, sympy.Number) and e < 0):
            return f"({s})"
        return s

    def _left(self, e: Any) -> str:
        """Left operand of ``//`` / ``%``: these bind left to right like ``*``."""
        s = str(self._print(e))
        if isinstance(e, sympy.Add) or (isinstance(e, sympy.Number) and e < 0):
            return f"({s})"
        return s

    def _print_Mul(self, e: Any) -> str:
        c, rest = e.as_coeff_Mul()
        sign = ""
        if c < 0:
            sign, c = "-", -c
        num: list[str] = []
        den: list[str] = []
        if c != 1:
            if c.p != 1:
                num.append(str(c.p))
            if c.q != 1:
                den.append(str(c.q))
        for f in (rest.as_ordered_factors() if rest.is_Mul else [rest]):
            if f is sympy.S.One:
                continue
            base, ex = f.as_base_exp()
            if isinstance(f, sympy.Pow) and ex.is_Integer and ex != 0 and abs(int(ex)) <= _MAX_POW:
                (num if ex > 0 else den).extend([self._factor(base)] * abs(int(ex)))
            else:
                num.append(self._factor(f))
        text = "*".join(num) if num else "1"
        if den:
            text += "/" + (den[0] if len(den) == 1 else "(" + "*".join(den) + ")")
        return sign + text

    def _print_Pow(self, e: Any) -> str:
        base, ex = e.args
        if ex.is_Integer and ex != 0 and abs(int(ex)) <= _MAX_POW:
            k = int(ex)
            text = "*".join([self._factor(base)] * abs(k))
            return text if k > 0 else ("1/" + (text if abs(k) == 1 else f"({text})"))
        return super()._print_Pow(e)  # type: ignore[no-any-return]

    def _print_floor(self, e: Any) -> str:
        n, d = _num_den(e.args[0])
        if d == 1:
            return self._print(n)
        return f"{self._left(n)}//{self._factor(d)}"

    def _print_ceiling(self, e: Any) -> str:
        n, d = _num_den(e.args[0])
        if d == 1:
            return self._print(n)
        return f"ceil_div({self._print(n)},{self._print(d)})"

    def _print_Mod(self, e: Any) -> str:
        return f"{self._left(e.args[0])}%{self._factor(e.args[1])}"

    def _print_IMod(self, e: Any) -> str:
        return f"{self._left(e.args[0])}%{self._factor(e.args[1])}"

    def _print_Min(self, e: Any) -> str:
        return "min(" + ",".join(self._print(a) for a in e.args) + ")"

    def _print_Max(self, e: Any) -> str:
        return "max(" + ",".join(self._print(a) for a in e.args) + ")"

    def _print_Abs(self, e: Any) -> str:
        return f"abs({self._print(e.args[0])})"

    def _print_sign(self, e: Any) -> str:
        return f"sign({self._print(e.args[0])})"


_PRINTER = _Printer()


def formula_str(e: sympy.Basic) -> str:
    """Compact text of a dynamic integer formula (no spaces).

    @post ``cute_sym.parse(formula_str(e), symbols)`` has the value of ``e`` for
          every integer value of the symbols (``e`` integer-valued).
    """
    if isinstance(e, sympy.Integer):
        return str(int(e))
    if isinstance(e, sympy.Symbol):
        return str(e.name)
    return str(_PRINTER.doprint(e)).replace(" ", "")
