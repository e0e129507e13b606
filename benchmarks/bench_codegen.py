"""Operation counts and times of index expressions: naive, sympy.simplify, Inductor, cute_sym.

For each layout: the naive expansion ``sum_k Mod(floor(i/P_k), S_k) * D_k`` over
the flattened (uncoalesced) modes, ``sympy.simplify`` of it, PyTorch Inductor's
``simplify_with_ranges`` (when torch imports; skipped otherwise), and
``cute_sym.codegen.expr.index_expr`` with its emitted C body. Operation counts are
arithmetic/bitwise operators with common subexpressions counted once; the
``canon`` column is the coalesced canonical form's count (the bar); ``C`` is
the count of the body :func:`cute_sym.codegen.emit` writes.

Times: median wall time per expression; cute_sym is shown warm (sympy's
cache as it is after earlier calls) and cold (``sympy.core.cache.clear_cache()``
before each call, plus the time to emit the C).

    python benchmarks/bench_codegen.py
"""
from __future__ import annotations

import statistics
import sys
import time
from typing import Any, Callable

import os

import sympy

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout's cute_sym

import cute_sym as cs
from cute_sym.codegen import canonical_op_count, count_ops, emit
from cute_sym.codegen.expr import FloorDiv, IMod, index_expr
from cute_sym.core.int_tuple import iter_leaves
from cute_sym.layout import Layout

try:
    import torch  # noqa: F401
    from torch._inductor.sizevars import SizeVarAllocator
    from torch.utils._sympy.functions import FloorDiv as TFloorDiv, ModularIndexing
    HAVE_TORCH = True
except Exception:  # pragma: no cover
    HAVE_TORCH = False

M, N, K = cs.Dyn("M"), cs.Dyn("N"), cs.Dyn("K")
SYM = {"M": M, "N": N, "K": K}


def P(t: str) -> Layout:
    return cs.parse(t, SYM)


LAYOUTS: list[tuple[str, Layout]] = [
    ("gemm tile row", P("(_128,_32):(_32,_1)")),
    ("gemm tile col", P("(_128,_32):(_1,_128)")),
    ("mma C TV 16x8", P("((_4,_8),(_2,_2)):((_32,_1),(_16,_8))")),
    ("mma A TV 16x8x16", P("((_4,_8),(_2,_2,_2)):((_32,_1),(_16,_8,_128))")),
    ("mma B TV 16x8x16", P("((_4,_8),(_2,_2)):((_16,_1),(_8,_64))")),
    ("zipped_divide", cs.zipped_divide(P("(_64,_64):(_64,_1)"), P("(_16,_8)"))),
    ("logical_product", cs.logical_product(P("(_2,_2):(_1,_2)"), P("(_3,_4):(_4,_1)"))),
    ("raked_product", cs.raked_product(P("(_2,_4):(_4,_1)"), P("(_3,_2):(_1,_3)"))),
    ("composition", cs.composition(P("(_12,_8):(_8,_1)"), P("(_6,_2):(_2,_1)"))),
    ("3-D non-pow2", P("(_3,_5,_7):(_35,_7,_1)")),
    ("dyn (4,M):(M,1)", P("(_4,M):(M,_1)")),
    ("dyn (M,N,K) row", P("(M,N,K):(N*K,K,_1)")),
    ("dyn tile in K-ld", P("((_16,_8),(M,N)):((_1,K),(_16,8*K))")),
]


def flat(L: Layout) -> tuple[list[Any], list[Any]]:
    return list(iter_leaves(L.shape)), list(iter_leaves(L.stride))


def naive(L: Layout, i: Any) -> Any:
    S, D = flat(L)
    terms, Pk = [], sympy.Integer(1)
    for s, d in zip(S, D):
        terms.append(sympy.Mod(sympy.floor(i / Pk), s) * d)
        Pk = Pk * s
    return sympy.Add(*terms)


def inductor_form(L: Layout, i: Any) -> Any:
    S, D = flat(L)
    terms, Pk = [], sympy.Integer(1)
    for k, (s, d) in enumerate(zip(S, D)):
        if k == len(S) - 1:
            terms.append(TFloorDiv(i, Pk) * d)
        else:
            terms.append(ModularIndexing(i, Pk, s) * d)
        Pk = Pk * s
    return sympy.Add(*terms)


def ops(e: Any) -> int:
    """Operators of a sympy index expression, each distinct subexpression once."""
    seen: set[Any] = set()

    def go(x: Any) -> int:
        if x.is_Atom or x in seen:
            return 0
        seen.add(x)
        n = sum(go(a) for a in x.args)
        if x.is_Add:
            return n + len(x.args) - 1
        if x.is_Mul:
            c, _ = x.as_coeff_Mul()
            return n + len(x.args) - 1 - (1 if c in (1, -1) and len(x.args) > 1 and c == -1 else 0)
        if x.is_Pow:
            if x.exp == -1:      # inside floor(a/b): the division is counted by floor
                return n
            return n + (int(x.exp) - 1 if x.exp.is_Integer and x.exp > 0 else 1)
        if isinstance(x, sympy.floor):
            return n + 1
        if isinstance(x, (sympy.Mod, FloorDiv, IMod)):
            return n + 1
        if HAVE_TORCH and isinstance(x, ModularIndexing):
            return n + (1 if x.args[1] == 1 else 2)
        if HAVE_TORCH and isinstance(x, TFloorDiv):
            return n + 1
        return n + 1
    return go(e)


def timed(f: Callable[[], Any], reps: int) -> tuple[float, Any]:
    ts, out = [], None
    for _ in range(reps):
        t = time.perf_counter()
        out = f()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), out


def main() -> None:
    rows = []
    for name, L in LAYOUTS:
        size = cs.size(L)
        i = sympy.Symbol("i", integer=True, nonnegative=True)
        t_naive, e_naive = timed(lambda: naive(L, i), 5)
        t_simp, e_simp = timed(lambda: sympy.simplify(e_naive), 1)
        if HAVE_TORCH:
            sv = SizeVarAllocator()
            rng = {i: sympy.sympify(size)}
            t_ind, e_ind = timed(lambda: sv.simplify_with_ranges(inductor_form(L, i), rng), 3)
            ind = f"{ops(e_ind):>4} {t_ind * 1e3:7.2f}"
        else:
            ind = "   -       -"
        t_warm, e_ours = timed(lambda: index_expr(L), 20)

        def cold() -> Any:
            sympy.core.cache.clear_cache()
            t = time.perf_counter()
            e = index_expr(L)
            src = emit(L, "c")
            return time.perf_counter() - t, e, src
        colds = [cold() for _ in range(5)]
        t_cold = statistics.median(c[0] for c in colds)
        c_ops = count_ops(colds[0][2])
        rows.append((name, ops(e_naive), t_naive, ops(e_simp), t_simp, ind, canonical_op_count(L),
                     ops(e_ours), c_ops, t_warm, t_cold))
    hdr = (f"{'layout':18s} | {'naive':>4s} {'ms':>6s} | {'simplify':>4s} {'ms':>7s} | {'inductor':>4s} {'ms':>7s}"
           f" | {'canon':>5s} | {'ours':>4s} {'C':>3s} {'warm ms':>7s} {'cold+emit':>9s}")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        print(f"{r[0]:18s} | {r[1]:>5} {r[2]*1e3:6.2f} | {r[3]:>8} {r[4]*1e3:7.1f} | {r[5]:>16s} | {r[6]:>5} | "
              f"{r[7]:>4} {r[8]:>3} {r[9]*1e3:7.3f} {r[10]*1e3:9.3f}")
    minimal = sum(1 for r in rows if r[8] <= r[6])
    fewer = sum(1 for r in rows if r[8] < r[6])
    print(f"\nC body <= canonical on {minimal}/{len(rows)} layouts, fewer on {fewer}; "
          f"torch {'present' if HAVE_TORCH else 'absent (Inductor skipped)'}; python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
