"""A dynamic integer formula (sympy) as source text, in one of the dialects emitted code uses.

One walk over the formula; what differs between CuTe C++ and the CuTe DSL (integer literals,
the division operator, the library's ``ceil_div``/``min``/``max``, how a product is written)
is a :class:`Spelling`, a table of the dialect's words.

>>> import sympy
>>> M, N = sympy.symbols("M N", integer=True, positive=True)
>>> e = sympy.ceiling(M / 128) * 4 + sympy.Min(M, N)
>>> formula_text(e, CXX), formula_text(e, DSL)
('(4*cute::ceil_div(M, 128) + cute::min(M, N))', '(cute.ceil_div(M, cutlass.Int32(128)) * 4 + cutlass.min(M, N))')
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from ..core.errors import LayoutError

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy

__all__ = ["Spelling", "CXX", "DSL", "formula_text"]


class Spelling(NamedTuple):
    """The words of one dialect (immutable)."""
    name: str                           # emit's name of the dialect
    language: str                       # named in the error for a formula it cannot write
    integer: Callable[[int], str]       # an integer standing alone
    factor: Callable[[int], str]        # an integer factor of a product
    times: str                          # the product's operator, with its spacing
    numbers_last: bool                  # a product's integer factors after its other factors
    div: str                            # floor division of non-negative integers
    ceil_div: str
    min: str
    max: str
    mod: str                            # the integer modulus ("": none written in this dialect)


def _cxx_int(n: int) -> str:
    return str(n) if n >= 0 else f"({n})"


CXX = Spelling("cute", "C++", _cxx_int, _cxx_int, "*", False, "/", "cute::ceil_div", "cute::min", "cute::max", "")
DSL = Spelling("dsl", "DSL", lambda n: f"cutlass.Int32({n})", str, " * ", True, "//", "cute.ceil_div",
               "cutlass.min", "cutlass.max", "%")


def formula_text(e: Any, sp: Spelling) -> str:
    """``e`` written in the dialect ``sp``.

    @pre ``e`` is an int or a sympy integer formula of symbols, sums, products, positive
         powers, rationals times a formula (an exact division), ``floor``/``ceiling`` of a
         quotient, ``Min``/``Max`` and, where the dialect has one, the integer modulus.
    @post text that evaluates to ``e`` for every value of its symbols (the same
          operations, in the dialect's words); anything else raises :class:`LayoutError`
          naming the formula.
    """
    if type(e) is int:
        return str(e)
    e = sympy.sympify(e)
    if e.is_Integer:
        return sp.integer(int(e))
    if e.is_Symbol:
        return str(e.name)
    if e.is_Add:
        return "(" + " + ".join(formula_text(a, sp) for a in e.args) + ")"
    if e.is_Mul:
        c, rest = e.as_coeff_Mul()
        if c.is_Rational and not c.is_Integer:
            return f"({formula_text(c.p * rest, sp)} {sp.div} {int(c.q)})"
        factors = list(sympy.Mul.make_args(e))
        if sp.numbers_last:
            factors = [a for a in factors if not a.is_Integer] + [a for a in factors if a.is_Integer]
        return sp.times.join(sp.factor(int(a)) if a.is_Integer else formula_text(a, sp) for a in factors)
    if e.is_Pow and e.exp.is_Integer and int(e.exp) > 0:
        return sp.times.join([formula_text(e.base, sp)] * int(e.exp))
    if isinstance(e, (sympy.floor, sympy.ceiling)):
        num, den = sympy.fraction(sympy.together(e.args[0]))
        if isinstance(e, sympy.ceiling):
            return f"{sp.ceil_div}({formula_text(num, sp)}, {formula_text(den, sp)})"
        return f"({formula_text(num, sp)} {sp.div} {formula_text(den, sp)})"
    if isinstance(e, (sympy.Min, sympy.Max)):
        fn = sp.min if isinstance(e, sympy.Min) else sp.max
        out = formula_text(e.args[0], sp)
        for a in e.args[1:]:
            out = f"{fn}({out}, {formula_text(a, sp)})"
        return out
    if type(e).__name__ == "IMod" and sp.mod:
        return f"({formula_text(e.args[0], sp)} {sp.mod} {formula_text(e.args[1], sp)})"
    raise LayoutError(f"emit(..., {sp.name!r}): no {sp.language} arithmetic for {e}")
