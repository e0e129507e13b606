#!/usr/bin/env python3
"""Guard mode over the dynamic conformance cases (issue: symbolic layouts that decide).

For every dynamic case: compute inside ``collect_guards()``; count it decided
when no error escapes; check that the recorded guards hold for the case's
``bind`` values; and, when they hold, that the result equals CuTe's answer as
FORMAT.md defines it (the runner's own judge is reused).

    python scripts/guard_conformance.py [--corpus ../shared/conformance] [--show 5]
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import sys
import time
from collections import Counter, defaultdict
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(HERE, "..", "..", "shared", "conformance"))
    ap.add_argument("--show", type=int, default=5)
    ap.add_argument("--op", action="append", help="only these ops (repeatable)")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per case")
    opts = ap.parse_args()
    t_start = time.perf_counter()
    spec = importlib.util.spec_from_file_location("runner", os.path.join(opts.corpus, "run.py"))
    assert spec and spec.loader
    runner = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(runner)
    import cute_sym as cs

    signal.signal(signal.SIGALRM, _alarm)
    slowest: list[tuple[float, str]] = []
    table: dict[str, Counter[str]] = defaultdict(Counter)
    shown = 0
    for case in runner.load(opts.corpus, set(opts.op) if opts.op else None):
        if "bind" not in case or isinstance(case["expect"], dict):
            continue
        op = case["op"]
        t0 = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, opts.timeout)
        try:
            with cs.collect_guards() as g:
                args = [cs.parse(a) for a in case["args"]]
                result = getattr(cs, op)(*args)
        except _Timeout:
            table[op]["timeout"] += 1
            print(f"timeout {case['id']} {op}{tuple(case['args'])}")
            continue
        except cs.LayoutError as e:
            table[op]["undecided" if isinstance(e, cs.UndecidableError) else "error"] += 1
            continue
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        slowest.append((time.perf_counter() - t0, case["id"]))
        table[op]["decided"] += 1
        if g.conditions:
            table[op]["guarded"] += 1
        if not g.holds(case["bind"]):
            table[op]["guard_false"] += 1
            if shown < opts.show:
                shown += 1
                conds = ", ".join(str(c) for c in g.conditions)
                print(f"guard false {case['id']} {op}{tuple(case['args'])} bind={case['bind']}: "
                      f"[{conds if len(conds) < 400 else conds[:400] + ' ...'}]")
            continue
        outcome, why = runner.judge_dynamic(cs, case, result)
        table[op]["pass" if outcome == "pass" else "fail"] += 1
        if outcome != "pass" and shown < opts.show:
            shown += 1
            print(f"{outcome} {case['id']}: {why}")
    cols = ("decided", "undecided", "error", "timeout", "guarded", "guard_false", "pass", "fail")
    print(f"{'op':20s}" + "".join(f"{c:>12s}" for c in cols))
    total: Counter[str] = Counter()
    for op in sorted(table):
        total.update(table[op])
        print(f"{op:20s}" + "".join(f"{table[op][c]:12d}" for c in cols))
    print(f"{'all':20s}" + "".join(f"{total[c]:12d}" for c in cols))
    n = total["decided"] + total["undecided"] + total["error"] + total["timeout"]
    slowest.sort(reverse=True)
    print("slowest: " + ", ".join(f"{cid} {t * 1000:.0f} ms" for t, cid in slowest[:3]))
    held = total["decided"] - total["guard_false"]
    print(f"decided under guards: {total['decided']}/{n}; guards hold for CuTe's values: {held}/{total['decided']} "
          f"({100.0 * held / max(1, total['decided']):.1f}%); equal to CuTe where they hold: "
          f"{total['pass']}/{held}; {time.perf_counter() - t_start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
