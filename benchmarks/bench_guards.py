#!/usr/bin/env python3
"""Guard mode's time: every dynamic case of the conformance corpora, run plainly and under
``collect_guards()``, in one process.

    python benchmarks/bench_guards.py                 # the main and fuzzed corpora, ~30 s on 2 cores
    python benchmarks/bench_guards.py --unsupported   # also the cases CuTe itself cannot run
    python benchmarks/bench_guards.py --top 15 --json out.json

A dynamic case's first argument holds symbols (``M``, ``a``, ...); plainly, a question the
decision procedure cannot decide raises, while under ``collect_guards()`` the operation goes on,
assuming the usual branch and recording it, so it builds larger formulas and asks more
questions: that is where symbolic calls took longest. Each case runs once per mode (the
decision procedure's memos cleared before it, sympy's cache kept as a session keeps it), and
the printing of its guards is timed too (``str(guards)``, what a user reads); the first case runs
once untimed, so no time counts the import of sympy. Printed: per mode,
the median, 90th percentile, maximum and total of the call times, how many took over 10 ms and
over 100 ms, and the slowest cases.
"""
from __future__ import annotations

import argparse
import gc
import glob
import json
import os
import statistics
import sys
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import cute_sym as cs  # noqa: E402
from cute_sym.core import decide  # noqa: E402

CORPUS = os.path.join(ROOT, "..", "shared", "conformance")


def cases(unsupported: bool) -> list[dict[str, Any]]:
    out = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.jsonl")) + glob.glob(os.path.join(CORPUS, "fuzz", "*.jsonl"))):
        if "unsupported" in os.path.basename(path) and not unsupported:
            continue
        for line in open(path):
            case = json.loads(line)
            if "bind" in case and case["op"] != "print_layout":
                out.append(case)
    return out


def call(case: dict[str, Any]) -> Any:
    args = [cs.parse(a) for a in case["args"]]
    return getattr(cs, {"slice": "slice_"}.get(case["op"], case["op"]))(*args)


def timed(case: dict[str, Any], guards: bool) -> tuple[float, float, str]:
    """(call seconds, printing seconds, outcome)."""
    decide.clear_caches()
    gc.disable()
    t0 = time.perf_counter()
    text_time = 0.0
    try:
        if guards:
            with cs.collect_guards() as g:
                call(case)
            t1 = time.perf_counter()
            str(g)
            text_time = time.perf_counter() - t1
            return t1 - t0, text_time, "ok"
        call(case)
        outcome = "ok"
    except cs.LayoutError as e:
        outcome = type(e).__name__
    finally:
        gc.enable()
    return time.perf_counter() - t0 - text_time, text_time, outcome


def summary(name: str, ts: list[float]) -> str:
    ts = sorted(ts)
    p90 = ts[int(0.9 * (len(ts) - 1))]
    return (f"{name:22s} {len(ts):6d} {statistics.median(ts) * 1e3:9.2f} {p90 * 1e3:9.2f} {ts[-1] * 1e3:9.1f} "
            f"{sum(ts):9.2f} {sum(t > 0.01 for t in ts):6d} {sum(t > 0.1 for t in ts):6d}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--unsupported", action="store_true", help="also the cases CuTe cannot run (huge, fully dynamic)")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    todo = cases(a.unsupported)
    rows = []
    t_start = time.perf_counter()
    if todo:
        # untimed: the first dynamic call imports sympy and builds its caches, once per session
        timed(todo[0], False)
        timed(todo[0], True)
    for case in todo:
        plain, _, out_plain = timed(case, False)
        guarded, text, out_guards = timed(case, True)
        rows.append({"id": case["id"], "plain": plain, "guards": guarded, "text": text,
                     "outcome": out_plain, "guard_outcome": out_guards})
    wall = time.perf_counter() - t_start
    print(f"{len(todo)} dynamic cases, {wall:.1f} s in all (cute_sym {getattr(cs, '__version__', '?')})")
    print(f"{'mode':22s} {'calls':>6s} {'median ms':>9s} {'p90 ms':>9s} {'max ms':>9s} {'total s':>9s} "
          f"{'>10ms':>6s} {'>100ms':>6s}")
    print(summary("plain", [r["plain"] for r in rows]))
    print(summary("collect_guards", [r["guards"] for r in rows]))
    print(summary("str(guards)", [r["text"] for r in rows if r["guard_outcome"] == "ok"]))
    print(f"\nslowest under collect_guards (call + printing):")
    for r in sorted(rows, key=lambda r: -(r["guards"] + r["text"]))[:a.top]:
        print(f"  {r['id']:28s} {r['guards'] * 1e3:9.1f} ms + {r['text'] * 1e3:8.1f} ms printing   "
              f"plainly {r['plain'] * 1e3:8.2f} ms ({r['outcome']})")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
