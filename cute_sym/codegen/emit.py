"""Source code for layouts and index expressions: C, CUDA, Python, NumPy, CuTe.

:func:`emit` lowers an index expression (see :mod:`cute_sym.codegen.expr`) to a small
operation DAG, then prints it. The lowering is where the target's integer
tricks happen, all of them exact for the non-negative indices and
coordinates a layout takes:

* a static power-of-two divisor is a shift (``i >> 2``), a modulus a mask
  (``i & 7``); a mask is dropped when the bounds show it keeps every bit;
* a power-of-two stride folds into the shift and mask of its coordinate:
  ``((i >> 5) & 1) * 16`` is ``(i >> 1) & 16``, ``(i & 3) * 32`` is
  ``(i << 5) & 96``; coordinate fields with the same shift merge into one mask;
* terms sharing a dynamic factor are factored (Horner): ``x*M + y*M*N`` is
  ``(x + y*N)*M``; equal subexpressions are computed once (temporaries);
* the integer type is 32-bit when the bounds prove every value fits, 64-bit
  otherwise (the source says which and why in a comment).

:func:`count_ops` counts the arithmetic and bitwise operators of emitted C;
:func:`canonical_op_count` is the operation count of the coalesced canonical
form, the bar every emitted body meets.

>>> from cute_sym.notation import parse
>>> print(emit(parse("(_4,_8):(_8,_1)"), "python"))
def offset(i: int) -> int:
    \"\"\"Offset of the layout (_4,_8):(_8,_1) at the 1-D index i (0 <= i < 32).\"\"\"
    return (i >> 2) + ((i << 3) & 24)
"""
from __future__ import annotations

import re
from typing import Any, Optional, Union, cast

import sympy

from ..core import decide
from ..algebra import coalesce
from ..core.errors import LayoutError
from .expr import FloorDiv, IMod, dynamic_divisors, index_expr
from ..core.integers import symbol_facts
from ..core.int_tuple import iter_leaves, product
from ..layout.layout import Layout

__all__ = ["emit", "count_ops", "canonical_op_count", "lower", "LANGS"]

LANGS = ("c", "cuda", "python", "numpy", "cute")

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
            return cast(tuple[Bound, Bound], decide._mul_iv((al, ah), (bl, bh)))
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


# ---------------------------------------------------------------- printing
_PREC = {"|": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}


class _Printer:
    def __init__(self, roots: list[Node], lang: str, tmp: str) -> None:
        self.lang = lang
        uses: dict[Node, int] = {}
        seen: set[Node] = set()

        def visit(n: Node) -> None:
            for ch in n[1:] if n[0] not in ("c", "v") else ():
                uses[ch] = uses.get(ch, 0) + 1
                if ch not in seen:
                    seen.add(ch)
                    visit(ch)
        for r in roots:
            if r not in seen:
                seen.add(r)
                visit(r)
        self.ops = sum(1 for n in seen if n[0] not in ("c", "v"))
        self.temps: dict[Node, str] = {}
        self.order: list[Node] = []

        def topo(n: Node, done: set[Node]) -> None:
            if n in done or n[0] in ("c", "v"):
                return
            done.add(n)
            for ch in n[1:]:
                topo(ch, done)
            if uses.get(n, 0) >= 2:
                self.temps[n] = f"{tmp}{len(self.temps)}"
                self.order.append(n)
        done: set[Node] = set()
        for r in roots:
            topo(r, done)

    def atom(self, n: Node) -> str:
        if n[0] == "c":
            return str(n[1])
        if n[0] == "v":
            return str(n[1])
        return self.temps[n]

    def expr(self, n: Node, top: bool = True) -> str:
        if n[0] in ("c", "v") or (not top and n in self.temps):
            s = self.atom(n)
            return f"({s})" if n[0] == "c" and n[1] < 0 else s
        if n[0] == "neg":
            return f"-({self.expr(n[1], False)})"
        op, a, b = n
        sym = "//" if op == "/" and self.lang in ("python", "numpy") else op
        left = self.expr(a, False)
        right = self.expr(b, False)
        if a[0] not in ("c", "v") and a not in self.temps and not (op in "+-" and a[0] in "+-"):
            left = f"({left})"
        if b[0] not in ("c", "v") and b not in self.temps:
            right = f"({right})"
        return f"{left} {sym} {right}"


def _ctype(dag: _Dag, roots: list[Node], params: list[str]) -> tuple[str, str]:
    nodes: list[Node] = []
    stack = list(roots)
    seen: set[Node] = set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        nodes.append(n)
        if n[0] not in ("c", "v"):
            stack.extend(n[1:])
    nodes.extend(("v", p) for p in params)
    for n in nodes:
        lo, hi = dag.bounds(n)
        if lo is None or hi is None or lo < _I32[0] or hi > _I32[1]:
            why = "values are not bounded" if lo is None or hi is None else "values reach 2^31"
            return "int64_t", f"64-bit: the largest offset or intermediate may exceed 2^31-1 ({why})"
    return "int32_t", "32-bit: every offset and intermediate value is proved below 2^31"


# ---------------------------------------------------------------- emit
def _prepare(obj: Any) -> tuple[Any, list[str], list[str], str]:
    """(expression(s), index names, parameter names, description)."""
    if isinstance(obj, Layout):
        size = product(obj._shape)
        e = index_expr(obj)
        idx = ["i"]
        lay_syms = sympy.Tuple(*iter_leaves((obj._shape, obj._stride))).free_symbols
        desc = f"Offset of the layout {obj} at the 1-D index i (0 <= i < {size})"
    else:
        e = obj
        if isinstance(e, (tuple, list)):
            e = tuple(sympy.sympify(x) if not isinstance(x, (tuple, list)) else x for x in e)
        else:
            e = sympy.sympify(e)
        idx = []
        desc = f"{_flat_str(e)}"
    names: set[str] = set()
    for x in _leaves(e):
        for s in sympy.sympify(x).free_symbols:
            names.add(s.name)
    if not idx:     # index variables: the non-negative, not positive symbols (coordinates)
        for x in _leaves(e):
            for s in sympy.sympify(x).free_symbols:
                if s.is_nonnegative and not s.is_positive and s.name not in idx:
                    idx.append(s.name)
        idx.sort()
    if isinstance(obj, Layout):
        names |= {x.name for x in lay_syms}
    params = sorted(n for n in names if n not in idx)
    return e, [n for n in idx if n in names or isinstance(obj, Layout)], params, desc


def _flat_str(e: Any) -> str:
    if isinstance(e, tuple):
        return "(" + ", ".join(_flat_str(x) for x in e) + ")"
    return str(e)


_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def emit(obj: Any, lang: str, name: str = "offset", params: Optional[list[str]] = None) -> str:
    """Source code computing a layout's offset (or an index expression) in ``lang``.

    ``obj`` is a :class:`Layout` (its 1-D offset function, argument ``i``), a
    sympy expression from :func:`~cute_sym.codegen.expr.index_expr` /
    :func:`~cute_sym.codegen.expr.coord_expr`, or a tuple of them (several outputs).
    ``lang`` is one of

    * ``"c"``: a C99 function ``T name(T i, T M, ...)`` with the dynamic
      symbols as extra parameters in name order (``T`` is ``int32_t`` when
      every value is proved below 2^31, else ``int64_t``; a comment says
      which); several outputs are written to ``T *out``;
    * ``"cuda"``: the same as a ``__device__ __forceinline__`` function;
    * ``"python"``: a function on Python ints;
    * ``"numpy"``: a function vectorised over an array of indices;
    * ``"cute"``: CuTe C++ building the same layout (``Int<N>{}`` leaves),
      for a layout only.

    For an expression the index arguments are its non-negative symbols (in
    name order), the parameters the rest; ``params`` overrides the order of
    all arguments. Dynamic divisors (a run-time division) are flagged in a
    comment.

    @pre indices and coordinates are in range and non-negative.
    @post the function returns ``layout(i)`` for every ``0 <= i < size``;
          its operator count is at most :func:`canonical_op_count`.

    >>> from cute_sym.notation import parse
    >>> print(emit(parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"), "c"))
    #include <stdint.h>
    /* Offset of the layout ((_4,_8),(_2,_2)):((_32,_1),(_16,_8)) at the 1-D index i (0 <= i < 128).
       32-bit: every offset and intermediate value is proved below 2^31 */
    int32_t offset(int32_t i) {
        return ((i >> 2) & 7) + ((i >> 3) & 8) + ((i >> 1) & 16) + ((i << 5) & 96);
    }
    >>> M = sympy.Symbol("M", integer=True, positive=True)
    >>> print(emit(parse("(_4,M):(M,_1)", {"M": M}), "cuda", name="f"))
    #include <stdint.h>
    /* Offset of the layout (_4,M):(M,_1) at the 1-D index i (0 <= i < 4*M).
       64-bit: the largest offset or intermediate may exceed 2^31-1 (values are not bounded) */
    __device__ __forceinline__ int64_t f(int64_t i, int64_t M) {
        return (i >> 2) + ((i & 3) * M);
    }
    >>> print(emit(parse("(_4,M):(_1,_4)"), "cute"))
    // (_4,M):(_1,_4)
    inline auto offset(int64_t M) {
        return cute::make_layout(cute::make_shape(cute::Int<4>{}, M), cute::make_stride(cute::Int<1>{}, cute::Int<4>{}));
    }
    """
    if lang not in LANGS:
        raise LayoutError(f"emit: unknown language {lang!r} (one of {', '.join(LANGS)})")
    if not _IDENT.match(name):
        raise LayoutError(f"emit: {name!r} is not an identifier")
    if lang == "cute":
        return _emit_cute(obj, name)
    e, idx, prm, desc = _prepare(obj)
    args = idx + prm
    if params is not None:
        if sorted(params) != sorted(args):
            raise LayoutError(f"emit: params {params} must name exactly the arguments {args}")
        args = list(params)
    for a in args:
        if not _IDENT.match(a):
            raise LayoutError(f"emit: symbol {a!r} is not an identifier")
    roots, dag = lower(e)
    tmp = "tmp" if any(re.match(r"^t\d+$", a) for a in args) else "t"
    pr = _Printer(roots, lang, tmp)
    multi = isinstance(e, tuple)
    dyn = dynamic_divisors(_flat_tuple(e))
    flag = ("run-time division by " + ", ".join(str(x) for x in dyn)) if dyn else ""
    if lang in ("c", "cuda"):
        ctype, why = _ctype(dag, roots, args)
        lines = ["#include <stdint.h>", f"/* {desc}."]
        if flag:
            lines.append(f"   {flag} (dynamic divisor: consider precomputed fast division)")
        lines[-1:] = [lines[-1], f"   {why} */"]
        arglist = ", ".join(f"{ctype} {a}" for a in args)
        qual = "__device__ __forceinline__ " if lang == "cuda" else ""
        if multi:
            sig = f"{qual}void {name}({arglist}{', ' if arglist else ''}{ctype} *out) {{"
        else:
            sig = f"{qual}{ctype} {name}({arglist}) {{"
        lines.append(sig)
        used = {x.name for x in _flat_tuple(e).free_symbols}
        for a in args:
            if a not in used:
                lines.append(f"    (void){a};")
        for n in pr.order:
            lines.append(f"    const {ctype} {pr.temps[n]} = {pr.expr(n)};")
        if multi:
            for k, r in enumerate(roots):
                lines.append(f"    out[{k}] = {pr.expr(r)};")
        else:
            lines.append(f"    return {pr.expr(roots[0])};")
        lines.append("}")
        return "\n".join(lines)
    # python / numpy
    lines = []
    if lang == "numpy":
        lines += ["import numpy as np", "", ""]
        lines.append(f"def {name}({', '.join(args)}):  # type: ignore[no-untyped-def]")
    else:
        hints = ", ".join(f"{a}: int" for a in args)
        ret = "tuple[int, ...]" if multi else "int"
        lines.append(f"def {name}({hints}) -> {ret}:")
    doc = desc + ("." if not flag else f"; {flag}.")
    if lang == "numpy":
        doc += " Vectorised: index arguments may be integer arrays (int64)."
    lines.append(f'    """{doc}"""')
    if lang == "numpy":
        for a in idx:
            lines.append(f"    {a} = np.asarray({a}, dtype=np.int64)")
    for n in pr.order:
        lines.append(f"    {pr.temps[n]} = {pr.expr(n)}")
    if multi:
        it = iter(roots)
        lines.append(f"    return {_nest(e, it, pr)}")
    else:
        lines.append(f"    return {pr.expr(roots[0])}")
    return "\n".join(lines)


def _flat_tuple(e: Any) -> Any:
    return sympy.Tuple(*[sympy.sympify(x) for x in _leaves(e)])


def _nest(e: Any, it: Any, pr: _Printer) -> str:
    if isinstance(e, tuple):
        inner = ", ".join(_nest(x, it, pr) for x in e)
        return f"({inner}{',' if len(e) == 1 else ''})"
    return pr.expr(next(it))


# ---------------------------------------------------------------- CuTe
def _cute_leaf(x: Any) -> str:
    if type(x) is int:
        return f"cute::Int<{x}>{{}}"
    return _cxx(sympy.sympify(x))


def _cxx(e: Any) -> str:
    """A dynamic integer formula as C++ text (``4*M``, ``cute::ceil_div(M, 128)``)."""
    if e.is_Integer:
        return str(int(e)) if e >= 0 else f"({int(e)})"
    if e.is_Symbol:
        return str(e.name)
    if e.is_Add:
        return "(" + " + ".join(_cxx(a) for a in e.args) + ")"
    if e.is_Mul:
        c, rest = e.as_coeff_Mul()
        if c.is_Rational and not c.is_Integer:
            return f"({_cxx(c.p * rest)} / {int(c.q)})"
        return "*".join(_cxx(a) for a in sympy.Mul.make_args(e))
    if e.is_Pow and e.exp.is_Integer and int(e.exp) > 0:
        return "*".join([_cxx(e.base)] * int(e.exp))
    if isinstance(e, (sympy.floor, sympy.ceiling)):
        num, den = sympy.fraction(sympy.together(e.args[0]))
        if isinstance(e, sympy.ceiling):
            return f"cute::ceil_div({_cxx(num)}, {_cxx(den)})"
        return f"({_cxx(num)} / {_cxx(den)})"
    if isinstance(e, (sympy.Min, sympy.Max)):
        fn = "cute::min" if isinstance(e, sympy.Min) else "cute::max"
        out = _cxx(e.args[0])
        for a in e.args[1:]:
            out = f"{fn}({out}, {_cxx(a)})"
        return out
    raise LayoutError(f"emit(..., 'cute'): cannot print {e} as C++")


def _cute_tuple(t: Any, maker: str) -> str:
    if isinstance(t, tuple):
        return f"cute::{maker}(" + ", ".join(_cute_tuple(x, maker) for x in t) + ")"
    return _cute_leaf(t)


def _cute_type(t: Any, what: str) -> str:
    if isinstance(t, tuple):
        return f"cute::{what}<" + ", ".join(_cute_type(x, what) for x in t) + ">"
    return f"cute::Int<{t}>"


def _emit_cute(obj: Any, name: str) -> str:
    if not isinstance(obj, Layout):
        raise LayoutError("emit(..., 'cute') takes a Layout")
    s, d = obj._shape, obj._stride
    syms = sorted({x.name for x in iter_leaves((s, d)) if isinstance(x, sympy.Basic) for x in x.free_symbols})
    shape = _cute_tuple(s if isinstance(s, tuple) else (s,), "make_shape")
    stride = _cute_tuple(d if isinstance(d, tuple) else (d,), "make_stride")
    if not isinstance(s, tuple):
        shape = _cute_leaf(s)
        stride = _cute_leaf(d)
    lines = [f"// {obj}"]
    if obj.is_static():
        st = _cute_type(s if isinstance(s, tuple) else (s,), "Shape") if isinstance(s, tuple) else f"cute::Int<{s}>"
        dt = _cute_type(d if isinstance(d, tuple) else (d,), "Stride") if isinstance(d, tuple) else f"cute::Int<{d}>"
        lines.append(f"using {name}_t = cute::Layout<{st}, {dt}>;")
    args = ", ".join(f"int64_t {x}" for x in syms)
    lines.append(f"inline auto {name}({args}) {{")
    lines.append(f"    return cute::make_layout({shape}, {stride});")
    lines.append("}")
    return "\n".join(lines)


# ---------------------------------------------------------------- counting
_OPS = re.compile(r"<<|>>|[-+*/%&|^~]")


def count_ops(source: str) -> int:
    """Arithmetic and bitwise operators in the body of emitted C (or CUDA) code.

    Comments, the signature and the sign of a negative literal are not counted.

    >>> count_ops("int f(int i) { /* a + b */ return ((i << 5) & 96) + (i >> 2) - (-8); }")
    5
    """
    src = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    src = re.sub(r"//[^\n]*", " ", src)
    body = src[src.index("{") + 1: src.rindex("}")] if "{" in src else src
    body = re.sub(r"(?<=[(,=])\s*-\s*(?=\d)", " ", body)
    body = re.sub(r"\breturn\s*-\s*(?=\d)", "return ", body)
    return len(_OPS.findall(body))


def _atom_cost(x: Any) -> int:
    """Operations to compute a dynamic value in C (0 for a constant or a symbol)."""
    if type(x) is int:
        return 0
    e = sympy.sympify(x)
    if e.is_Integer or e.is_Symbol:
        return 0
    roots, dag = lower(e, {})
    return _Printer(roots, "c", "t").ops


def canonical_op_count(layout: Layout, atoms: bool = True) -> int:
    """Operations of the coalesced canonical form of ``layout``'s offset.

    Per non-zero-stride mode ``k`` of the coalesced layout: a division if
    ``k > 0``, a modulo unless ``k`` is the last mode, a multiplication unless
    the stride is 1; plus the additions between the terms. With
    ``atoms=False`` a composite dynamic stride or divisor (``4*M``) also
    costs the operations that compute it, once each, as written in C.

    >>> from cute_sym.notation import parse
    >>> canonical_op_count(parse("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))"))
    12
    >>> canonical_op_count(parse("(_4,M,N):(_1,_4,4*M)"), atoms=False)
    6
    """
    lay = coalesce(layout)
    S = list(iter_leaves(lay._shape))
    D = list(iter_leaves(lay._stride))
    n = len(S)
    ops = 0
    terms = 0
    composite: set[Any] = set()
    P: Any = 1
    for k in range(n):
        dk = D[k]
        if not (dk == 0):
            terms += 1
            if k > 0:
                ops += 1
                composite.add(P)
            if k < n - 1:
                ops += 1
                composite.add(S[k])
            if not (dk == 1):
                ops += 1
                composite.add(dk)
        P = P * S[k]
    ops += max(terms - 1, 0)
    if not atoms:
        ops += sum(_atom_cost(x) for x in composite)
    return ops


Emittable = Union[Layout, sympy.Expr, tuple[Any, ...]]
