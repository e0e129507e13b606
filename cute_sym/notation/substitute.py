"""``subs``: symbols replaced by values, each value checked against its symbol's facts."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    import sympy
else:
    from ..core.lazy import sympy
from ..core.lazy import is_basic

from ..core.errors import LayoutError
from ..layout.layout import Layout

__all__ = ["subs"]


def _integer_formula(v: Any) -> bool:
    """An integer at every value of its symbols: by its structure, or a quotient whose
    denominator the decision procedure shows divides its numerator (``Q/2`` for an even ``Q``)."""
    from ..core import decide
    if v.is_integer is False or v.is_Float or decide.integer_valued(v):
        return bool(v.is_integer is not False and not v.is_Float)
    num, den = v.as_numer_denom()
    return decide.prove("|", den, num) is True


def subs(obj: Any, values: Mapping[Any, Any], ignore_unknown: bool = False) -> Any:
    """Replace symbols by name. Values become dynamic-known integers (printed ``8``).

    @pre ``values`` maps symbol names (or the symbols) to integers (or integer expressions);
         else :class:`LayoutError`.
    @pre every name in ``values`` is a symbol of ``obj`` or of a symbol made elsewhere (one binding
         given to several objects); a name no symbol has is a typo, refused unless ``ignore_unknown``; its value keeps the symbol's
         facts (its sign, ``divisible_by``, ``min``, ``max``): a value that breaks one is a
         :class:`LayoutError` naming it; a formula not proved to keep one is an
         :class:`UndecidableError` naming the fact.
    @post same structure as ``obj``; symbols not named in ``values`` stay; static
          leaves are unchanged.

    >>> from cute_sym.notation import parse
    >>> from cute_sym.core.integers import Dyn
    >>> print(subs(parse("(M,N):(_1,M)"), {"M": 4}))
    (4,N):(_1,4)
    >>> print(subs(parse("(M,_2):(_1,M)"), {"M": 8}))
    (8,_2):(_1,8)
    >>> M = Dyn("M")
    >>> print(subs(Layout((M, 2)), {M: 8}))        # a symbol stands for its name
    (8,_2):(_1,8)
    >>> subs(parse("(M,_8):(_1,M)"), {"M": 0})
    Traceback (most recent call last):
    ...
    cute_sym.LayoutError: subs: M = 0 breaks its fact M >= 1
    """
    named: dict[str, Any] = {}
    for k, v in values.items():
        name = k if isinstance(k, str) else getattr(k, "name", None) if getattr(k, "is_Symbol", False) else None
        if name is None:
            raise LayoutError(f"subs: a value is given by a symbol's name or the symbol, got the key {k!r}")
        if type(v) is not int and not is_basic(v) and not isinstance(v, bool) and hasattr(v, "__index__"):
            v = v.__index__()       # a numpy integer
        if not (type(v) is int or is_basic(v) and _integer_formula(v)):
            raise LayoutError(f"subs: the value of {name} must be an integer (or an integer formula), got {v!r}")
        named[name] = v
    values = named
    seen: dict[str, Any] = {}
    allnames: set[str] = set()

    def leaf(x: Any) -> Any:
        if is_basic(x) and x.free_symbols:
            for s in x.free_symbols:
                allnames.add(s.name)
                if s.name in values and s.name not in seen:
                    seen[s.name] = s
                    _check_facts(s, values[s.name])
            mp = {s: values[s.name] for s in x.free_symbols if s.name in values}
            if not mp:
                return x
            r = x.xreplace({k: sympy.Integer(v) if isinstance(v, int) else v for k, v in mp.items()})
            if r.free_symbols:
                return r
            r = r.doit() if not r.is_Integer else r     # closed: evaluate, no open-ended simplify
            return sympy.Integer(r) if r.is_Integer else r
        return x

    def go(t: Any) -> Any:
        if isinstance(t, tuple):
            return tuple(go(e) for e in t)
        if isinstance(t, Layout):
            return Layout._make(go(t.shape), go(t.stride))
        sub = getattr(t, "_cute_subs", None)
        if callable(sub):
            return sub(go)
        return leaf(t)

    out = go(obj)
    # a name of no symbol of obj: one binding given to several objects (a symbol made elsewhere), or a typo
    from ..core.integers import MADE_NAMES
    unknown = sorted(n for n in set(values) - set(seen) if n not in MADE_NAMES)
    if unknown and not ignore_unknown:
        have = sorted(allnames)
        raise LayoutError(f"subs: {', '.join(unknown)} is not a symbol of {obj} "
                          f"(its symbols: {', '.join(have) or 'none'})")
    return out


def _check_facts(sym: Any, v: Any) -> None:
    """``v`` keeps every fact of ``sym`` (sign, divisor, bounds), else a LayoutError naming the one it breaks."""
    from ..core.decide import prove
    from ..core.errors import UndecidableError
    from ..core.integers import symbol_facts
    div, lo, hi = symbol_facts(sym)
    facts = []
    if lo is not None:
        facts.append((">=", lo, f"{sym} >= {lo}"))
    if hi is not None:
        facts.append(("<=", hi, f"{sym} <= {hi}"))
    if div > 1:
        facts.append(("|", div, f"{sym} % {div} == 0 (divisible_by={div})"))
    for rel, c, text in facts:
        r = prove("|", c, v) if rel == "|" else prove(rel, v, c)
        if r is False:
            raise LayoutError(f"subs: {sym} = {v} breaks its fact {text}")
        if r is None:
            fact = text.replace(str(sym), f"({v})", 1).split(" (divisible_by")[0]
            raise UndecidableError(fact, f"subs: {sym} = {v} needs {fact} (cannot be decided: give the "
                                   "value's symbols that fact)")
