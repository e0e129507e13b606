#!/usr/bin/env python3
"""The CuTe DSL beside CuTe C++ on the public corpora, through the cute_sym bridge.

    python3 scripts/dsl_side_by_side.py [--corpus DIR] [--show 3] [--markdown]

Every case of the main and fuzz corpora (not the ``cute-dynamic-unsupported`` ones, which C++
cannot compute) is computed by the DSL inside one ``@cute.jit`` (in forked workers, so a crash
is recorded: see ``tests/dsl_oracle.py``) and judged against C++'s answer: the classes and
their counts, with examples; ``--markdown`` prints the table of ``docs/conformance.md``.
Needs the DSL: ``pip install '.[dsl]'``.
"""
from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))


def main(argv: list[str] | None = None) -> int:
    import cute_sym as cs
    import dsl_oracle as o
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "conformance"))
    ap.add_argument("--show", type=int, default=1)
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args(argv)
    base = pathlib.Path(opts.corpus)
    cases = [c for c in o.corpus_cases(sorted(base.glob("*.jsonl")) + sorted((base / "fuzz").glob("*.jsonl")))
             if c["op"] not in o.ABSENT]
    t = time.time()
    res = o.run_jobs(o.case_jobs(cases))
    print(f"# {len(cases)} cases ({sum('bind' in c for c in cases)} dynamic), DSL in {time.time() - t:.0f} s",
          file=sys.stderr)
    by: dict[tuple[str, str, str], list[tuple[str, str]]] = collections.defaultdict(list)
    for c in cases:
        k, detail = o.classify(cs, c, res[c["id"]])
        by[(k, c["op"], "dynamic" if "bind" in c else "static")].append((c["id"], f"{c['op']}{tuple(c['args'])}: {detail}"))
    total = collections.Counter()
    for (k, _, _), v in by.items():
        total[k] += len(v)
    print("# " + ", ".join(f"{k} {n}" for k, n in total.most_common()), file=sys.stderr)
    if opts.markdown:
        print("| class | op | case | count | example |")
        print("| --- | --- | --- | --- | --- |")
    for key in sorted(by):
        if key[0] == "agree":
            continue
        items = by[key]
        if opts.markdown:
            ex = items[0][1].replace("|", "\\|")
            print(f"| {key[0]} | {key[1]} | {key[2]} | {len(items)} | `{items[0][0]}` {ex[:220]} |")
        else:
            print(f"{key[0]:14} {key[1]:20} {key[2]:8} {len(items):5}")
            for cid, detail in items[:opts.show]:
                print(f"    {cid}: {detail[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
