"""assume: state facts for a block of code."""
from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Iterator, Sequence

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..errors import LayoutError
from ..integers import Dyn, as_int_like
from .base import Fact, _FACTS
from .guards import _to_facts


# ---------------------------------------------------------------- assume
def _parse_fact(f: Any, names: dict[str, sympy.Symbol]) -> list[Fact]:
    if isinstance(f, bool) or f is sympy.true or f is sympy.false:
        raise LayoutError("assume: got a plain bool; write the fact as sympy.Eq(M % 4, 0) or as the string 'M % 4 == 0'")
    if type(f) is tuple and len(f) == 3 and isinstance(f[0], str):
        # (rel, a, b), as prove takes it
        rel, a, b = f
        if rel not in ("==", "<", "<=", ">", ">=", "|"):
            raise LayoutError(f"assume: cannot use the relation {rel!r} in a fact (one of == < <= > >= |)")
        return _to_facts(rel, as_int_like(a, "assume: an operand"), as_int_like(b, "assume: an operand"))
    if isinstance(f, str):
        text = f
        try:
            f = sympy.sympify(f.replace("==", "__EQ__").replace("__EQ__", "=="), locals=dict(names), evaluate=False)
        except (sympy.SympifyError, SyntaxError, TypeError, ValueError, AttributeError, NameError) as e:
            raise LayoutError(f"assume: cannot read the fact {text!r} (write it as 'M % 4 == 0', "
                              f"'N >= 8', ...): {type(e).__name__}") from None
        if isinstance(f, bool):
            raise LayoutError("assume: the fact text evaluated to a constant")
    if isinstance(f, sympy.Eq):
        lhs, rhs = f.lhs, f.rhs
        if isinstance(lhs, sympy.Mod) and rhs == 0:
            return [("dvd", lhs.args[1], lhs.args[0])]
        return _to_facts("==", lhs, rhs)
    for cls, rel in ((sympy.StrictLessThan, "<"), (sympy.LessThan, "<="),
                     (sympy.StrictGreaterThan, ">"), (sympy.GreaterThan, ">=")):
        if isinstance(f, cls):
            return _to_facts(rel, f.lhs, f.rhs)
    if isinstance(f, sympy.And):
        out: list[Fact] = []
        for a in f.args:
            out.extend(_parse_fact(a, names))
        return out
    raise LayoutError(f"assume: cannot use {f!r} as a fact (use ==, <, <=, >, >= or a Mod(...) == 0)")


@contextlib.contextmanager
def assume(*facts: Any, symbols: Sequence[sympy.Symbol] = ()) -> Iterator[None]:
    """State facts about symbols for a block of code.

    Facts are sympy relations (``N >= K``, ``sympy.Eq(M % 128, 0)``), strings
    (``"M % 128 == 0"``; names are looked up among ``symbols`` and the symbols
    of the other facts, else made positive), or triples as :func:`prove` takes them
    (``("|", 128, M)``).

    @pre each fact is a relation (``==``, ``<``, ``<=``, ``>``, ``>=``, a
         ``Mod(...) == 0``, ``|`` in a triple, or an ``And`` of those), not a plain bool
         (else :class:`LayoutError`).
    @post inside the block :func:`prove` and :func:`require` may use the facts
          (added to those of enclosing blocks); on exit they are forgotten.

    >>> from cute_sym.core.integers import Dyn
    >>> from cute_sym.core.decide import prove, assume
    >>> M, N = Dyn("M"), Dyn("N")
    >>> with assume(N >= M + 1):
    ...     prove("<", M, N)
    True
    >>> prove("<", M, N) is None
    True
    >>> with assume("M % 4 == 0", symbols=[M]):
    ...     prove("|", 4, M)
    True
    >>> with assume(("|", 8, N), (">=", N, 64)):
    ...     prove("|", 4, N), prove(">", N, 32)
    (True, True)
    """
    names: dict[str, sympy.Symbol] = {s.name: s for s in symbols}
    for f in facts:
        for part in f[1:] if type(f) is tuple else (f,):
            if isinstance(part, sympy.Basic):
                for s in part.free_symbols:
                    names.setdefault(s.name, s)
    parsed: list[Fact] = []
    for f in facts:
        if isinstance(f, str):
            import re
            for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f):
                if name not in names and name not in ("Mod", "floor", "ceiling", "Min", "Max"):
                    names[name] = Dyn(name)
        parsed.extend(_parse_fact(f, names))
    token = _FACTS.set(_FACTS.get() + tuple(parsed))
    try:
        yield
    finally:
        _FACTS.reset(token)
