#!/usr/bin/env python3
"""Where the time of the slowest symbolic calls goes: how far the decision procedure's memos
could take them, and how much Python they run.

    python benchmarks/symbolic_floor.py                    # the symbolic calls over 100 us alone
    python benchmarks/symbolic_floor.py --id pycute_test_8 --id doc_1d
    python benchmarks/symbolic_floor.py --threshold 60 --runs 500

A diagnosis, not a target: ``bench_algebra.py``'s symbolic pass is the measurement of issue 15.
For each call (the benchmark's symbolic inputs, fresh before every run, gc off) it prints the
median over ``--runs`` runs of one process running that call alone:

* ``alone``: the decision procedure's memos cleared before every run, as the benchmark does;
* ``between others``: the same, with every other symbolic call of the benchmark run (untimed)
  before each run, as the benchmark interleaves them: the CPU's caches hold their code and
  data then, not this call's (``--between-runs`` runs, fewer: each costs the whole set);
* ``memos kept``: nothing cleared, so every question, bound and ``ceil_div`` is answered from
  the previous run's memo: what is left is building the formulas and the control around them,
  the least any cheaper question could reach;
* ``values first``: of ``alone``, the time in the check that tries a long fold at two values
  (``by_values.check_open_at_values``);
* the Python-level calls (functions and builtins) one run makes, in both settings.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time
from typing import Any, Callable

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

import bench_algebra as B  # noqa: E402
from cute_sym.algebra import by_values  # noqa: E402


def _run(c: Any, clear: bool) -> int:
    args = c.sym_inputs()
    if clear:
        B.clear_caches(False)
    t0 = time.perf_counter_ns()
    try:
        c.cs_fn(*args)
    except Exception:  # noqa: BLE001 - undecided calls are timed too
        pass
    return time.perf_counter_ns() - t0


def _median(c: Any, clear: bool, runs: int) -> float:
    for _ in range(20):
        _run(c, clear)
    gc.disable()
    try:
        return statistics.median(_run(c, clear) for _ in range(runs)) / 1000
    finally:
        gc.enable()


def _median_between(c: Any, others: list[Any], runs: int) -> float:
    times = []
    for _ in range(runs):
        for o in others:
            if o is not c:
                _run(o, True)
        gc.disable()
        try:
            times.append(_run(c, True))
        finally:
            gc.enable()
    return statistics.median(times) / 1000


def _calls_per_run(c: Any, clear: bool) -> int:
    _run(c, clear)
    count = [0]

    def prof(frame: Any, event: str, arg: Any) -> None:
        if event in ("call", "c_call"):
            count[0] += 1
    args = c.sym_inputs()
    if clear:
        B.clear_caches(False)
    sys.setprofile(prof)
    try:
        c.cs_fn(*args)
    except Exception:  # noqa: BLE001
        pass
    finally:
        sys.setprofile(None)
    return count[0]


def _values_first_us(c: Any, runs: int) -> float:
    """Median time per run inside the values-first check (0 where the call has none)."""
    inner: list[int] = []
    real = by_values.check_open_at_values

    def timed(*a: Any, **k: Any) -> None:
        t0 = time.perf_counter_ns()
        try:
            real(*a, **k)
        finally:
            inner[-1] += time.perf_counter_ns() - t0
    by_values_users = [m for m in sys.modules.values()
                       if m is not None and getattr(m, "check_open_at_values", None) is real]
    for m in by_values_users:
        setattr(m, "check_open_at_values", timed)
    try:
        for _ in range(runs):
            inner.append(0)
            _run(c, True)
    finally:
        for m in by_values_users:
            setattr(m, "check_open_at_values", real)
    return statistics.median(inner) / 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=B.DEFAULT_CASES)
    ap.add_argument("--id", action="append", help="a call whose id contains this (repeatable)")
    ap.add_argument("--threshold", type=float, default=100.0,
                    help="without --id: the calls whose median alone is above this many us")
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--between-runs", type=int, default=15)
    a = ap.parse_args()
    calls = [B.Call(json.loads(line)) for line in open(a.cases) if line.strip()]
    sym: list[Any] = []
    for c in calls:
        try:
            c.sym_inputs()
        except Exception:  # noqa: BLE001 - no symbolic form of this call
            continue
        sym.append(c)
    if a.id:
        chosen = [c for c in sym if any(i in c.id for i in a.id)]
    else:
        chosen = [c for c in sym if _median(c, True, 30) > a.threshold]
    print(f"{'call':<40}{'alone us':>10}{'between others':>16}{'memos kept':>12}{'values first':>14}"
          f"{'calls alone':>13}{'calls kept':>12}")
    for c in chosen:
        alone, kept = _median(c, True, a.runs), _median(c, False, a.runs)
        between = _median_between(c, sym, a.between_runs)
        vf = _values_first_us(c, a.runs)
        print(f"{c.id:<40}{alone:>10.1f}{between:>16.1f}{kept:>12.1f}{vf:>14.1f}{_calls_per_run(c, True):>13}"
              f"{_calls_per_run(c, False):>12}")


if __name__ == "__main__":
    main()
