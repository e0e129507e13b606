"""Time cute_sym.analysis (bank conflicts, vector width, coalescing, proposals) now and at an
older commit, on the SM80 GEMM tile of docs/analysis.md and a few more.

    python3 benchmarks/bench_analysis.py                  # this checkout against d4e1833 (before the integer hot path)
    python3 benchmarks/bench_analysis.py --baseline REV   # against another commit
    python3 benchmarks/bench_analysis.py --no-baseline    # this checkout only
    python3 benchmarks/bench_analysis.py --json out.json

Each figure is the least of ``--repeat`` timed calls (CPU-shared machines: the least is the
one least disturbed), milliseconds. The baseline runs in a subprocess over ``git archive REV``
of the package; its answers are compared with this checkout's (printed text, every field).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = "d4e1833"


def _cases() -> list[tuple[str, Callable[[], Any], int]]:
    from cute_sym import Copy_Atom, make_tiled_copy, make_tiled_copy_A, make_tiled_mma
    from cute_sym.analysis import bank_conflicts, coalescing, vector_width
    from cute_sym.core.integers import Dyn
    from cute_sym.layout import make_layout
    from cute_sym.notation import parse
    mma = make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", (2, 2, 1), (32, 32, 16))
    ldsm = make_tiled_copy_A(Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), mma)
    g128 = make_tiled_copy(Copy_Atom("UniversalCopy<uint128_t>", "half_t"), parse("(_16,_8):(_8,_1)"), parse("(_1,_8)"))
    sw = parse("Sw<3,3,3> o _0 o (_128,_32):(_32,_1)")
    plain = parse("(_128,_32):(_32,_1)")
    K = Dyn("K", min=32)
    N = Dyn("N", min=64, divisible_by=8)
    tv = parse("((_8,_16),_8):((_512,_1),_64)")
    out: list[tuple[str, Callable[[], Any], int]] = [
        ("bank_conflicts ldsm.x4, Sw<3,3,3> o (128,32):(32,1)", lambda: bank_conflicts(ldsm, sw), 50),
        ("bank_conflicts ldsm.x4, (128,32):(32,1)", lambda: bank_conflicts(ldsm, plain), 50),
        ("bank_conflicts ldsm.x4, (128,32):(K,1), K >= 32", lambda: bank_conflicts(ldsm, make_layout((128, 32), (K, 1))), 5),
        ("bank_conflicts ldsm.x4, Sw<3,3,3> o (128,32):(K,1)",
         lambda: bank_conflicts(ldsm, parse("Sw<3,3,3> o _0 o (_128,_32):(K,_1)")), 3),
        ("vector_width ldsm.x4, Sw<3,3,3> o (128,32):(32,1)", lambda: vector_width(ldsm, sw), 50),
        ("coalescing 128-bit copy, (64,64):(64,1), warp 1", lambda: coalescing(g128, parse("(_64,_64):(_64,_1)"), warp=1), 50),
        ("coalescing TV, (64,64):(N,1), N % 8 == 0", lambda: coalescing(tv, make_layout((64, 64), (N, 1)), 16), 5),
    ]
    try:
        from cute_sym.analysis import propose_smem_layout
        out.append(("propose_smem_layout SM80 A 128x32 half (cp.async + ldsm)",
                    lambda: propose_smem_layout(writers=[g128], readers=[ldsm], dtype="half_t", tile_shape=(128, 32)), 3))
    except ImportError:
        pass
    return out


def _stated(r: Any) -> str:
    parts = [str(r)]
    for c in getattr(r, "cases", ()):
        parts.append(repr(c[1].key()) if hasattr(c[1], "key") else str(c[1]))
    if hasattr(r, "detail"):
        parts.append(r.detail())
    return "\n".join(parts)


def measure(repeat_scale: float) -> list[dict[str, Any]]:
    rows = []
    for name, fn, n in _cases():
        r = fn()                                   # warm: sympy's caches, the copy's index table
        n = max(1, int(n * repeat_scale))
        best = float("inf")
        for _ in range(n):
            t0 = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - t0)
        rows.append({"case": name, "ms": best * 1e3, "answer": _stated(r)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument("--repeat", type=float, default=1.0, help="scale the number of timed calls")
    ap.add_argument("--json")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        json.dump(measure(a.repeat), sys.stdout)
        return
    sys.path.insert(0, ROOT)
    new = measure(a.repeat)
    old: dict[str, dict[str, Any]] = {}
    if not a.no_baseline:
        with tempfile.TemporaryDirectory() as d:
            arch = subprocess.run(["git", "-C", ROOT, "archive", a.baseline, "cute_sym"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", d], input=arch.stdout, check=True)
            env = dict(os.environ, PYTHONPATH=d)
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", "--repeat", str(a.repeat)],
                                 capture_output=True, text=True, env=env, cwd=d)
            if out.returncode:
                sys.exit(out.stderr)
            old = {r["case"]: r for r in json.loads(out.stdout)}
    print(f"{'case':62} {'before ms':>10} {'now ms':>9} {'speed-up':>9}  same answer")
    for r in new:
        o = old.get(r["case"])
        if o is None:
            print(f"{r['case']:62} {'-':>10} {r['ms']:9.2f} {'-':>9}  -")
            continue
        same = "yes" if o["answer"] == r["answer"] else "NO"
        print(f"{r['case']:62} {o['ms']:10.2f} {r['ms']:9.2f} {o['ms'] / r['ms']:8.1f}x  {same}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"now": new, "baseline": list(old.values())}, f, indent=1)


if __name__ == "__main__":
    main()
