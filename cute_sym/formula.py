"""Readable text for dynamic integer formulas, as a person writes them.

``ceiling(M/128)`` prints as ``ceil_div(M,128)``, ``floor(M/4)`` as ``M//4``,
``Mod(i, 8)`` as ``i%8``, ``Min``/``Max`` as ``min``/``max``; no spaces, so a
formula can stand as a leaf of CuTe notation, and the notation parser reads
it back.

>>> import sympy
>>> M = sympy.Symbol("M", integer=True, positive=True)
>>> formula_str(sympy.ceiling(M / 128)), formula_str(sympy.floor(M / 4) + 1), formula_str(16 * M)
('ceil_div(M,128)', 'M//4+1', '16*M')
"""
from __future__ import annotations

from typing import Any

import sympy
from sympy.printing.str import StrPrinter

__all__ = ["formula_str"]


def _num_den(e: sympy.Expr) -> tuple[sympy.Expr, sympy.Expr]:
    n, d = sympy.fraction(sympy.together(e))
    return n, d


class _Printer(StrPrinter):  # type: ignore[misc]
    def _wrap(self, e: Any) -> str:
        s = str(self._print(e))
        if isinstance(e, (sympy.Add, sympy.Mul)) or (isinstance(e, sympy.Number) and e < 0):
            return f"({s})"
        return s

    def _print_floor(self, e: Any) -> str:
        n, d = _num_den(e.args[0])
        if d == 1:
            return self._print(n)  # type: ignore[no-any-return]
        return f"{self._wrap(n)}//{self._wrap(d)}"

    def _print_ceiling(self, e: Any) -> str:
        n, d = _num_den(e.args[0])
        if d == 1:
            return self._print(n)  # type: ignore[no-any-return]
        return f"ceil_div({self._print(n)},{self._print(d)})"

    def _print_Mod(self, e: Any) -> str:
        return f"{self._wrap(e.args[0])}%{self._wrap(e.args[1])}"

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
    """Compact text of a dynamic integer formula (no spaces)."""
    if isinstance(e, sympy.Integer):
        return str(int(e))
    if isinstance(e, sympy.Symbol):
        return str(e.name)
    s: str = str(_PRINTER.doprint(e)).replace(" ", "")
    if s.startswith("("):   # a leaf must not start with "(": that would read as a tuple
        s = "1*" + s
    return s
