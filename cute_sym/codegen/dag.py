"""Lowering an index formula to a DAG of machine operations (shifts, masks, div/mod) at the least count, exact over the value ranges."""
from __future__ import annotations

from typing import Any, Optional, cast

import sympy

from ..core import decide
from ..core.decide.reason import _mul_iv
from ..core.errors import LayoutError
from .expr import FloorDiv, IMod
from ..core.integers import symbol_facts



Node = tuple[Any, ...]
Bound = Optional[int]
_I32 = (-(2 ** 31), 2 ** 31 - 1)


def _log2(n: int) -> Optional[int]:
    return n.bit_length() - 1 if n > 0 and n & (n - 1) == 0 else None


# ---------------------------------------------------------------- the DAG
class _Dag:
    """Builds hash-consed operation nodes and knows their bounds."""

    def __init__(self, var_bounds: dict[str, tuple[Bound, Bound]]) -> None:
        self.var_bounds = var_bounds
        self._bounds: dict[Node, tuple[Bound, Bound]] = {}

    # -- bounds
    def bounds(self, n: Node) -> tuple[Bound, Bound]:
        got = self._bounds.get(n)
        if got is not None:
            return got
        r = self._compute_bounds(n)
        self._bounds[n] = r
        return r

    def _compute_bounds(self, n: Node) -> tuple[Bound, Bound]:
        op = n[0]
        if op == "c":
            return n[1], n[1]
        if op == "v":
            return self.var_bounds.get(n[1], (None, None))
        if op == "neg":
            lo, hi = self.bounds(n[1])
            return (None if hi is None else -hi), (None if lo is None else -lo)
        (al, ah), (bl, bh) = self.bounds(n[1]), self.bounds(n[2])
        if op == "+":
            return (None if al is None or bl is None else al + bl), (None if ah is None or bh is None else ah + bh)
        if op == "-":
            return (None if al is None or bh is None else al - bh), (None if ah is None or bl is None else ah - bl)
        if op == "*":   # integer ends multiply to integer ends
            return cast(tuple[Bound, Bound], _mul_iv((al, ah), (bl, bh)))
        if op in ("/", ">>"):
            if al is None or al < 0 or bl is None or bl < 0:
                return None, None
            if op == ">>":
                return al >> (bh if bh is not None else 0), (None if ah is None else ah >> bl)
            if bl == 0:
                return None, None
            return (al // bh if bh is not None else 0), (None if ah is None else ah // bl)
        if op == "<<":
            if bl is None or bh is None:
                return None, None
            return (None if al is None else al << (bl if al >= 0 else bh)), (None if ah is None else ah << (bh if ah >= 0 else bl))
        if op == "%":
            if al is not None and al >= 0 and bl is not None and bl > 0:
                if ah is not None and ah < bl:
                    return al, ah
                return 0, (None if bh is None else bh - 1)
            return None, None
        if op == "&":
            if al is not None and al >= 0:
                if bl is not None and bl >= 0 and bh is not None:
                    return 0, (bh if ah is None else min(ah, bh))
                return 0, ah
            if bl is not None and bl >= 0:
                return 0, bh
            return None, None
        return None, None

    # -- builders (each folds the trivial cases)
    def add(self, a: Node, b: Node) -> Node:
        if a == ("c", 0):
            return b
        if b == ("c", 0):
            return a
        return ("+", a, b)

    def sub(self, a: Node, b: Node) -> Node:
        if b == ("c", 0):
            return a
        return ("-", a, b)

    def mul(self, a: Node, b: Node) -> Node:
        if a[0] == "c" and b[0] != "c":
            a, b = b, a
        if b == ("c", 1):
            return a
        if b == ("c", 0) or a == ("c", 0):
            return ("c", 0)
        if a[0] == "c" and b[0] == "c":
            return ("c", a[1] * b[1])
        if b[0] == "c" and b[1] > 0 and _log2(b[1]) is not None:
            return self.shift(a, -_log2(b[1]))  # type: ignore[operator]
        return ("*", a, b)

    def shift(self, a: Node, s: int) -> Node:
        """``a >> s`` for ``s > 0``, ``a << -s`` for ``s < 0``."""
        if s == 0:
            return a
        if a[0] == "c":
            return ("c", a[1] >> s if s > 0 else a[1] << -s)
        if s > 0:
            lo, hi = self.bounds(a)
            if lo is not None and lo >= 0 and hi is not None and hi >> s == 0:
                return ("c", 0)
            if a[0] == ">>" and a[2][0] == "c":
                return (">>", a[1], ("c", a[2][1] + s))     # (x >> p) >> s is x >> (p + s)
            return (">>", a, ("c", s))
        return ("<<", a, ("c", -s))

    def div(self, a: Node, b: Node) -> Node:
        if b[0] == "c":
            if b[1] == 1:
                return a
            lg = _log2(b[1])
            if lg is not None:
                return self.shift(a, lg)
        lo, hi = self.bounds(a)
        blo, _ = self.bounds(b)
        if lo is not None and lo >= 0 and hi is not None and blo is not None and hi < blo:
            return ("c", 0)
        return ("/", a, b)

    def mod(self, a: Node, b: Node) -> Node:
        lo, hi = self.bounds(a)
        blo, _ = self.bounds(b)
        if lo is not None and lo >= 0 and hi is not None and blo is not None and hi < blo:
            return a
        if b[0] == "c":
            if b[1] == 1:
                return ("c", 0)
            lg = _log2(b[1])
            if lg is not None:
                return self.mask(a, b[1] - 1)
        return ("%", a, b)

    def mask(self, a: Node, m: int, zero_low: int = 0) -> Node:
        """``a & m`` unless every bit ``a`` may have is in ``m`` (``m`` may be negative: high bits).

        ``zero_low``: the low bits of ``a`` known to be zero (``a`` is a left shift).
        """
        lo, hi = self.bounds(a)
        low = (1 << zero_low) - 1
        if lo is not None and lo >= 0:
            if hi is not None:
                full = (1 << hi.bit_length()) - 1
                m = m & full & ~low
                if (m | low) & full == full:
                    return a
                if m == 0:
                    return ("c", 0)
            elif m < 0 and (m | low) == -1:
                return a
        return ("&", a, ("c", m))


# ---------------------------------------------------------------- lowering
Signed = tuple[int, Node]


class _Exact:
    """An already-lowered term (an exact division) carried through the sum machinery."""

    __slots__ = ("node",)
    is_Integer = is_Symbol = is_Add = is_Mul = is_Pow = False

    def __init__(self, node: Node) -> None:
        self.node = node


def _dag_ops(roots: list[Node]) -> int:
    """Distinct operation nodes reachable from ``roots`` (each computed once)."""
    seen: set[Node] = set()
    stack = list(roots)
    while stack:
        n = stack.pop()
        if n in seen or n[0] in ("c", "v"):
            continue
        seen.add(n)
        stack.extend(n[1:])
    return len(seen)


class _Lowerer:
    def __init__(self, dag: _Dag) -> None:
        self.d = dag
        self.neg_fields = True

    def lower(self, e: Any) -> Node:
        d = self.d
        if isinstance(e, _Exact):
            return e.node
        if e.is_Integer:
            return ("c", int(e))
        if e.is_Symbol:
            return ("v", e.name)
        if e.is_Add or e.is_Mul:
            return self.sum(sympy.Add.make_args(e))
        if isinstance(e, (FloorDiv, IMod, sympy.Mod)):
            a, b = self.lower(e.args[0]), self.lower(e.args[1])
            return d.div(a, b) if isinstance(e, FloorDiv) else d.mod(a, b)
        if isinstance(e, (sympy.floor, sympy.ceiling)):
            num, den = sympy.fraction(sympy.together(e.args[0]))
            if not (num.is_integer and den.is_integer):
                raise LayoutError(f"emit: cannot lower {e} with integer operations")
            a, b = self.lower(num), self.lower(den)
            if isinstance(e, sympy.ceiling):
                a = d.sub(d.add(a, b), ("c", 1))
            return d.div(a, b)
        if e.is_Pow and e.exp.is_Integer and int(e.exp) > 0:
            base = self.lower(e.base)
            out = base
            for _ in range(int(e.exp) - 1):
                out = d.mul(out, base)
            return out
        raise LayoutError(f"emit: cannot lower {e} ({type(e).__name__}) with integer operations")

    # -- sums of terms coef * symbols * rest
    def sum(self, terms: Any) -> Node:
        items: list[tuple[int, list[str], Any]] = []
        for t in terms:
            coef, rest = t.as_coeff_Mul()
            if not coef.is_Integer:
                if not coef.is_Rational:
                    raise LayoutError(f"emit: non-integer coefficient {coef} in {t}")
                p, q = int(coef.p), int(coef.q)
                if decide.prove("|", q, p * rest) is not True:
                    raise LayoutError(f"emit: {t} is not provably an integer")
                # an exact division: (p*rest) / q (a shift for a power of two; exact, so any sign)
                num = self.lower(p * rest)
                lg = _log2(q)
                items.append((1, [], _Exact(("/", num, ("c", q)) if lg is None else self.d.shift(num, lg))))
                continue
            syms: list[str] = []
            other: list[Any] = []
            for f in sympy.Mul.make_args(rest):
                if f.is_Symbol:
                    syms.append(f.name)
                elif f.is_Pow and f.base.is_Symbol and f.exp.is_Integer and int(f.exp) > 0:
                    syms.extend([f.base.name] * int(f.exp))
                elif f != 1:
                    other.append(f)
            g = None if not other else (other[0] if len(other) == 1 else sympy.Mul(*other))
            items.append((int(coef), sorted(syms), g))
        sign, node = self.signed_sum(items)
        if sign > 0:
            return node
        neg = self.negate(node)
        if neg[0] == "neg" and self.neg_fields:
            # a negation costs an operation: try negative constant factors instead
            self.neg_fields = False
            try:
                alt_sign, alt = self.signed_sum(items)
            finally:
                self.neg_fields = True
            alt = alt if alt_sign > 0 else self.negate(alt)
            if _dag_ops([alt]) < _dag_ops([neg]):
                return alt
        return neg

    def negate(self, n: Node) -> Node:
        """``-n``, folded into a constant factor or a subtraction where that is free."""
        if n[0] == "*" and n[2][0] == "c":
            return ("*", n[1], ("c", -n[2][1]))
        if n[0] == "<<":
            return ("*", n[1], ("c", -(1 << n[2][1])))
        if n[0] == "c":
            return ("c", -n[1])
        if n[0] == "-":
            return ("-", n[2], n[1])
        if n[0] == "+":
            a = self.negate(n[1])
            if a[0] != "neg":
                return ("-", a, n[2])
        return ("neg", n)

    def signed_sum(self, items: list[tuple[int, list[str], Any]]) -> Signed:
        parts: list[Signed] = []
        counts: dict[str, int] = {}
        for _, syms, _g in items:
            for s in set(syms):
                counts[s] = counts.get(s, 0) + 1
        best = max(sorted(counts), key=lambda s: counts[s], default=None)
        if best is not None and counts[best] >= 2:
            with_s, without = [], []
            for c, syms, g in items:
                if best in syms:
                    rest = list(syms)
                    rest.remove(best)
                    with_s.append((c, rest, g))
                else:
                    without.append((c, syms, g))
            sg, node = self.signed_sum(with_s)
            parts.append((sg, self.d.mul(node, ("v", best))))
            if without:
                parts.append(self.signed_sum(without))
            return self.combine(parts)
        static = [(c, g) for c, syms, g in items if not syms]
        parts.extend(self.leaf_sum(static))
        for c, syms, g in items:
            if syms:
                sg, node = self.combine(self.leaf_sum([(c, g)]))
                for s in syms:
                    node = self.d.mul(node, ("v", s))
                parts.append((sg, node))
        return self.combine(parts)

    def combine(self, parts: list[Signed]) -> Signed:
        d = self.d
        parts = [p for p in parts if p[1] != ("c", 0)]
        pos = [n for s, n in parts if s > 0]
        neg = [n for s, n in parts if s < 0]
        if not pos and not neg:
            return 1, ("c", 0)
        if not pos:
            node = neg[0]
            for n in neg[1:]:
                node = d.add(node, n)
            return -1, node
        node = pos[0]
        for n in pos[1:]:
            node = d.add(node, n)
        for n in neg:
            node = d.sub(node, n)
        return 1, node

    def field(self, g: Any) -> Optional[tuple[Node, int, Optional[int]]]:
        """``g`` as bits of a source: ``(src, a, w)`` meaning ``(src >> a) & (2^w - 1)`` (``w`` None: all)."""
        w: Optional[int] = None
        inner = g
        if isinstance(g, (IMod, sympy.Mod)) and g.args[1].is_Integer:
            w = _log2(int(g.args[1]))
            if w is None:
                return None
            inner = g.args[0]
        a = 0
        while isinstance(inner, FloorDiv) and inner.args[1].is_Integer and _log2(int(inner.args[1])) is not None:
            a += _log2(int(inner.args[1]))  # type: ignore[operator]
            inner = inner.args[0]
        if w is None and a == 0 and not inner.is_Symbol:
            return None
        src = self.lower(inner)
        lo, _ = self.d.bounds(src)
        if lo is None or lo < 0:
            return None
        return src, a, w

    def leaf_sum(self, items: list[tuple[int, Any]]) -> list[Signed]:
        d = self.d
        out: list[Signed] = []
        const = 0
        fields: dict[tuple[int, Node, int], list[Optional[tuple[int, Optional[int]]]]] = {}
        order: list[tuple[int, Node, int]] = []
        for c, g in items:
            if g is None:
                const += c
                continue
            sign, a = (1 if c > 0 else -1), abs(c)
            if sign < 0 and not self.neg_fields:
                out.append((1, d.mul(self.lower(g), ("c", c))))
                continue
            e = _log2(a)
            f = self.field(g) if e is not None else None
            if f is not None and e is not None:
                src, sh, w = f
                key = (sign, src, sh - e)
                if key not in fields:
                    fields[key] = []
                    order.append(key)
                fields[key].append((e, w))
                continue
            node = self.lower(g)
            out.append((sign, d.mul(node, ("c", a))))
        order.sort(key=lambda k: min(e for e, _ in fields[k]))  # type: ignore[misc]
        for key in order:
            sign, src, s = key
            m = 0
            for e, w in fields[key]:  # type: ignore[misc]
                m |= -(1 << e) if w is None else ((1 << w) - 1) << e
            v = d.shift(src, s)
            lo_bit = max(0, -s)
            out.append((sign, d.mask(v, m, lo_bit)))
        if const:
            out.append((1 if const > 0 else -1, ("c", abs(const))))
        return out


def lower(e: Any, var_bounds: Optional[dict[str, tuple[Bound, Bound]]] = None) -> tuple[list[Node], "_Dag"]:
    """Lower expressions (one or a tuple) to operation-DAG roots.

    ``var_bounds`` maps a symbol name to its inclusive bounds; by default they
    come from the symbols' facts (:func:`cute_sym.core.integers.symbol_facts`).

    >>> from cute_sym.codegen.expr import index_symbol
    >>> i = index_symbol(64)
    >>> roots, _ = lower(IMod(FloorDiv(i, 4), 8) * 2)
    >>> roots
    [('&', ('>>', ('v', 'i'), ('c', 1)), ('c', 14))]
    """
    exprs = [sympy.sympify(x) for x in _leaves(e)]
    if var_bounds is None:
        var_bounds = _var_bounds(exprs)
    dag = _Dag(var_bounds)
    lw = _Lowerer(dag)
    return [lw.lower(x) for x in exprs], dag


def _leaves(e: Any) -> list[Any]:
    if isinstance(e, (tuple, list)):
        out: list[Any] = []
        for x in e:
            out.extend(_leaves(x))
        return out
    return [e]


def _var_bounds(exprs: list[Any]) -> dict[str, tuple[Bound, Bound]]:
    vb: dict[str, tuple[Bound, Bound]] = {}
    for x in exprs:
        for s in x.free_symbols:
            _, lo, hi = symbol_facts(s)
            if s.name in vb:   # same name, other facts: the weaker bounds
                plo, phi = vb[s.name]
                lo = None if plo is None or lo is None else min(plo, lo)
                hi = None if phi is None or hi is None else max(phi, hi)
            vb[s.name] = (lo, hi)
    return vb

