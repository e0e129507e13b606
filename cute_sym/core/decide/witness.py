"""Witnesses: a relation seen to hold at one value of its symbols and to fail at another is open.

The procedure is sound: a ``True`` (``False``) answer holds (fails) for every value of the
symbols their facts allow. So when plain evaluation finds one allowed value where ``a rel b``
holds and one where it fails, the procedure's answer is ``None`` whatever reasoning it would
try; :func:`open_by_witnesses` finds such a pair cheaply (Python ints and fractions, no sympy
arithmetic) and says nothing otherwise. Only used with no facts in force: the symbols' own
facts (divisor, bounds) are then all there is, and every value they allow is a real one.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

if TYPE_CHECKING:
    import sympy
else:
    from ..lazy import sympy

from ..integers import PLAIN_ASSUMPTIONS, symbol_facts, symbolic_module
from .base import Rel


# offsets (in multiples of the divisor) from a symbol's least value: the least few, a far one (most
# open questions differ there), then more small values where the edge cases live
_STEPS = (0, 1, 2, 1023, 3, 5, 7, 11, 15, 31, 63)
# for a whole operation, three times the least value second: it breaks the power-of-two
# divisibility CuTe's checks are about (the open calls of the benchmark show both outcomes
# within the first two values in this order, against five in the one above)
_OP_STEPS = (0, 2, 1, 1023, 3, 5, 7, 11, 15, 31, 63)
_MAX_NODES = 12         # larger formulas: not worth evaluating here
_MAX_POINTS = 6
_MAX_SYMBOLS = 2


def _points(cands: list[list[int]], max_points: int = _MAX_POINTS) -> Iterator[tuple[int, ...]]:
    """At most ``max_points`` values: all symbols at their least, then step by step each
    symbol alone (the others at their least) and all of them together."""
    least = tuple([c[0] for c in cands])
    yield least
    count = 1
    for k in range(1, max(map(len, cands))):
        for j, c in enumerate(cands):
            if k < len(c):
                if count >= max_points:
                    return
                count += 1
                yield least[:j] + (c[k],) + least[j + 1:]
        if len(cands) > 1:
            if count >= max_points:
                return
            count += 1
            yield tuple(c[min(k, len(c) - 1)] for c in cands)


class _Undefined(Exception):
    pass




def _candidates(s: Any, steps: tuple[int, ...] = _STEPS) -> Optional[list[int]]:
    """Allowed values of the symbol (multiples of its divisor in its bounds); None for a symbol
    whose facts are not all in ``(divisor, lo, hi)``."""
    if s.is_integer is not True or not (type(s) is sympy.Symbol or isinstance(s, symbolic_module().DynSymbol)):
        return None
    orig = getattr(s, "_assumptions_orig", None)
    if orig is None or not PLAIN_ASSUMPTIONS.issuperset(orig):
        return None
    d, lo, hi = symbol_facts(s)
    if lo is not None:
        base = -((-lo) // d)        # ceil(lo / d): the least allowed value, in multiples of d
    elif hi is not None:
        base = hi // d - _STEPS[-1]
    else:
        base = -3
    if hi is None:
        return [(base + k) * d for k in steps]
    return [v for v in [(base + k) * d for k in steps] if v <= hi]


# instructions of a compiled formula: (op, operand); operands index earlier results
_CONST, _SYM, _ADD, _MUL, _POW, _FLOOR, _CEIL, _MIN, _MAX = range(9)


def _compile(e: Any, prog: list[tuple[int, Any]], index: dict[Any, int], syms: dict[Any, int],
             limit: int = _MAX_NODES) -> Optional[int]:
    """Append the instructions computing ``e`` (shared subexpressions once); its result's index,
    or None for a node not evaluated exactly here or a program longer than ``limit``."""
    i = index.get(e)
    if i is not None:
        return i
    if e.is_Symbol:
        j = syms.get(e)
        if j is None:
            j = syms[e] = len(syms)
        ins: tuple[int, Any] = (_SYM, j)
    elif e.is_Integer:
        ins = (_CONST, (int(e), 1))
    elif e.is_Rational:
        ins = (_CONST, (int(e.p), int(e.q)))
    else:
        if e.is_Add:
            op = _ADD
        elif e.is_Mul:
            op = _MUL
        elif e.is_Pow:
            if not e.exp.is_Integer:
                return None
            k = _compile(e.args[0], prog, index, syms, limit)
            if k is None:
                return None
            ins = (_POW, (k, int(e.exp)))
            op = -1
        else:
            op = _CALL_OPS.get(e.func, -1)
            if op < 0:
                return None
        if op >= 0:
            ks = []
            for t in e.args:
                k = _compile(t, prog, index, syms, limit)
                if k is None:
                    return None
                ks.append(k)
            ins = (op, tuple(ks))
    if len(prog) >= limit:
        return None
    index[e] = len(prog)
    prog.append(ins)
    return len(prog) - 1


def _run(prog: list[tuple[int, Any]], env: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every instruction's exact value as a fraction ``(num, den)``, ``den > 0`` (not reduced:
    plain int arithmetic, no Fraction objects)."""
    vals: list[tuple[int, int]] = []
    for op, x in prog:
        if op == _CONST:
            vals.append(x)
        elif op == _SYM:
            vals.append((env[x], 1))
        elif op == _MUL:
            num, den = 1, 1
            for k in x:
                n, d = vals[k]
                num *= n
                den *= d
            vals.append((num, den))
        elif op == _ADD:
            num, den = 0, 1
            for k in x:
                n, d = vals[k]
                if d == den:
                    num += n
                else:
                    num, den = num * d + n * den, den * d
            vals.append((num, den))
        elif op == _POW:
            (n, d), k = vals[x[0]], x[1]
            if k < 0:
                if n == 0:
                    raise _Undefined
                n, d, k = (d, n, -k) if n > 0 else (-d, -n, -k)
            vals.append((n ** k, d ** k))
        elif op == _FLOOR:
            n, d = vals[x[0]]
            vals.append((n // d, 1))
        elif op == _CEIL:
            n, d = vals[x[0]]
            vals.append((-((-n) // d), 1))
        else:
            best = vals[x[0]]
            for k in x[1:]:
                n, d = vals[k]
                # n/d < best ? (denominators positive)
                if (n * best[1] < best[0] * d) == (op == _MIN):
                    best = (n, d)
            vals.append(best)
    return vals


_CALL_OPS: dict[Any, int] = {}


def _holds(rel: Rel, x: tuple[int, int], y: tuple[int, int]) -> Optional[bool]:
    """``x rel y`` for exact fractions ``(num, den)``, ``den > 0``; None: ``|`` between non-integers."""
    if rel == "|":
        if x[0] % x[1] or y[0] % y[1]:
            return None         # divisibility is a fact about integers: no witness here
        a, b = x[0] // x[1], y[0] // y[1]
        return b == 0 if a == 0 else b % a == 0
    u, v = x[0] * y[1], y[0] * x[1]        # x rel y  <=>  u rel v
    if rel == "==":
        return u == v
    if rel == "!=":
        return u != v
    if rel == "<":
        return u < v
    if rel == "<=":
        return u <= v
    if rel == ">":
        return u > v
    return u >= v


def open_by_witnesses(rel: Rel, a: sympy.Expr, b: sympy.Expr) -> bool:
    """``a rel b`` holds at one allowed value of the symbols and fails at another (no facts in
    force): the answer of any sound procedure is ``None``. False: no such pair found (the
    answer may still be ``None``).

    @pre no facts in force beyond the symbols' own (divisor, bounds, sign).
    @post True only when two allowed values were evaluated exactly with different outcomes.

    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M", divisible_by=4)
    >>> open_by_witnesses("|", M, sympy.Integer(8)), open_by_witnesses("|", M, sympy.Integer(2))
    (True, False)
    """
    if not _CALL_OPS:
        _CALL_OPS.update({sympy.floor: _FLOOR, sympy.ceiling: _CEIL, sympy.Min: _MIN, sympy.Max: _MAX})
    prog: list[tuple[int, Any]] = []
    index: dict[Any, int] = {}
    syms: dict[Any, int] = {}
    ia = _compile(a, prog, index, syms)
    ib = _compile(b, prog, index, syms) if ia is not None else None
    if ia is None or ib is None or not syms or len(syms) > _MAX_SYMBOLS:
        return False
    cands: list[list[int]] = []
    for sym in syms:        # in the order of their indices
        c = _candidates(sym)
        if not c:
            return False
        cands.append(c)
    seen_true = seen_false = False
    for p in _points(cands):
        try:
            vals = _run(prog, p)
        except _Undefined:
            continue
        r = _holds(rel, vals[ia], vals[ib])
        if r is None:
            continue
        if r:
            seen_true = True
        else:
            seen_false = True
        if seen_true and seen_false:
            return True
    return False


def open_divides_int_symbol(a: sympy.Expr, b: sympy.Expr) -> bool:
    """``a | b`` for an integer and a symbol (either way round), no facts in force, seen to hold at
    one allowed value and to fail at another, read off the symbol's facts (no evaluation):
    the answer of any sound procedure is ``None``. False: not such a question, or not open.

    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M", divisible_by=4)
    >>> open_divides_int_symbol(sympy.Integer(8), M), open_divides_int_symbol(M, sympy.Integer(8))
    (True, True)
    >>> open_divides_int_symbol(sympy.Integer(2), M), open_divides_int_symbol(M, sympy.Integer(2))
    (False, False)
    """
    sym, n = (b, a) if a.is_Integer else (a, b)
    if not (sym.is_Symbol and n.is_Integer) or n.p == 0:
        return False
    d, lo, hi = symbol_facts(sym)
    if lo is None or lo < 1 or hi is not None:
        return False
    m = abs(int(n.p))
    k0 = -((-lo) // d)      # the allowed values: d*k for every k >= k0 (no upper bound)
    if sym is b:
        # n | d*k for k a multiple of n/gcd(n, d), not for the k after it: open unless n | d
        seen = d % m != 0
    else:
        # d*k | n for some allowed value (larger ones do not divide n): open; else not seen
        seen = m // d - k0 <= 64 and any(m % (d * k) == 0 for k in range(k0, m // d + 1))
    return seen and _candidates(sym) is not None    # every value d*k allowed (no other assumption)


_LEAF_NODES = 64        # every leaf of an operation's arguments, in one program
# a symbol's values for a whole operation: a property of the symbol alone (its construction), kept
# like sympy keeps its assumptions (forgotten with the interned symbols: clear_caches(symbols=True))
_OP_CANDIDATES: dict[Any, list[int]] = {}
_LEAF_SYMBOLS = 8


def leaf_values(leaves: Sequence[Any], max_points: int) -> Optional[Iterator[tuple[dict[str, int], list[int]]]]:
    """The leaves (ints and sympy integer formulas) evaluated exactly at up to ``max_points``
    allowed values of their symbols (the order of :func:`_points`): ``(values by symbol name,
    the leaves' ints)``, skipping a value where a leaf is undefined or not an integer. None when
    there is no symbol, a symbol carries a fact other than (divisor, bounds, sign), or a leaf
    is not evaluated here.

    @pre no facts in force beyond the symbols' own: then every value yielded is a real one.

    >>> from cute_sym.core.integers import Dyn
    >>> M = Dyn("M", divisible_by=4)
    >>> [v for _, v in leaf_values([2, M, sympy.sympify(M) / 4], 3)]
    [[2, 4, 1], [2, 12, 3], [2, 8, 2]]
    """
    where: list[int] = []       # the formula leaves' places (sympy formulas already)
    exprs: list[Any] = []
    for pos, x in enumerate(leaves):
        if type(x) is not int:
            where.append(pos)
            exprs.append(x)
    f: Optional[Callable[[tuple[int, ...]], list[tuple[int, int]]]] = None
    picks: list[int] = []
    if all(e.is_Symbol for e in exprs):
        # the usual arguments (symbolic extents): each leaf is a symbol's value, nothing to compile
        order: dict[Any, int] = {}
        for e in exprs:
            k = order.get(e)
            if k is None:
                k = order[e] = len(order)
            picks.append(k)
        syms = list(order)
    else:
        ev = evaluator(exprs)
        if ev is None:
            return None
        syms, f = ev
    if not syms or len(syms) > _LEAF_SYMBOLS:
        return None
    cands: list[list[int]] = []
    for sym in syms:        # in the order of their indices
        c = _OP_CANDIDATES.get(sym)
        if c is None:
            c = _candidates(sym, _OP_STEPS)
            if not c:
                return None
            if len(_OP_CANDIDATES) >= 1024:
                _OP_CANDIDATES.clear()
            _OP_CANDIDATES[sym] = c
        cands.append(c)
    names = [sym.name for sym in syms]

    def gen() -> Iterator[tuple[dict[str, int], list[int]]]:
        for p in _points(cands, max_points):
            out = list(leaves)      # (every formula's place is filled below, or the point skipped)
            if f is None:
                for pos, k in zip(where, picks):
                    out[pos] = p[k]
                yield dict(zip(names, p)), out
                continue
            try:
                vals = f(p)
            except _Undefined:
                continue
            for pos, (n, d) in zip(where, vals):
                if n % d:
                    break
                out[pos] = n // d
            else:
                yield dict(zip(names, p)), out
    return gen()


def evaluator(exprs: Sequence[Any]) -> Optional[tuple[list[Any], Callable[[tuple[int, ...]], list[tuple[int, int]]]]]:
    """Compile ``exprs`` (sympy integer formulas) once: ``(symbols, f)`` where ``f(values)`` gives
    each formula's exact value as a fraction ``(num, den)`` at those values of the symbols (in
    their order); None for a formula not evaluated here. Raises ``_Undefined`` on a division
    by zero.

    >>> from cute_sym.core.integers import Dyn
    >>> S = sympy.sympify(Dyn("S"))
    >>> syms, f = evaluator([sympy.ceiling(8 / S), S / 2])
    >>> syms, f((3,))
    ([S], [(3, 1), (3, 2)])
    """
    if not _CALL_OPS:
        _CALL_OPS.update({sympy.floor: _FLOOR, sympy.ceiling: _CEIL, sympy.Min: _MIN, sympy.Max: _MAX})
    prog: list[tuple[int, Any]] = []
    index: dict[Any, int] = {}
    syms: dict[Any, int] = {}
    where: list[int] = []
    for e in exprs:
        k = _compile(e, prog, index, syms, _LEAF_NODES)
        if k is None:
            return None
        where.append(k)

    def f(values: tuple[int, ...]) -> list[tuple[int, int]]:
        vals = _run(prog, values)
        return [vals[k] for k in where]
    return list(syms), f
