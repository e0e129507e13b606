#!/usr/bin/env python3
"""Copy the public conformance cases and the seeds' print_layout tables into tests/data/.

The tests read ``../shared/`` when it is there (a checkout beside the shared
folder) and this copy otherwise (a clean clone, CI), so that no test silently
disappears. Run after the shared corpus or seeds change.
"""
from __future__ import annotations

import glob
import json
import os
import re
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SHARED = os.path.join(ROOT, "..", "shared")
DATA = os.path.join(ROOT, "tests", "data")


def seed_tables(seeds: str) -> list[dict[str, object]]:
    """(layout text, table lines) for each table printed in the seeds after its layout line."""
    out: list[dict[str, object]] = []
    for path in sorted(glob.glob(os.path.join(seeds, "*.txt"))):
        lines = open(path, encoding="utf-8").read().splitlines()
        for i, line in enumerate(lines):
            if re.fullmatch(r"\s*\([^ ]*\):\([^ ]*\)\s*", line) and i + 2 < len(lines) and \
                    lines[i + 2].strip().startswith("+--"):
                j = i + 1
                block = []
                while j < len(lines) and (lines[j].strip().startswith(("+", "|")) or
                                          re.match(r"^\s*\d+\s+(\||\d)", lines[j]) or j == i + 1):
                    block.append(lines[j])
                    j += 1
                out.append({"id": f"{os.path.basename(path)}:{i + 1}", "layout": line.strip(), "table": block})
    return out


def main() -> None:
    dst = os.path.join(DATA, "conformance")
    os.makedirs(dst, exist_ok=True)
    for path in glob.glob(os.path.join(SHARED, "conformance", "*.jsonl")):
        if not os.path.basename(path).startswith("cute-dynamic-unsupported"):
            shutil.copy(path, dst)
    # tensors, partitions and atoms (the pictures are checked by their digests: tests/data/picture_digests.json)
    views = os.path.join(dst, "views")
    os.makedirs(views, exist_ok=True)
    for path in glob.glob(os.path.join(SHARED, "conformance", "views", "*.jsonl")):
        if not os.path.basename(path).startswith("print_"):
            shutil.copy(path, views)
    with open(os.path.join(DATA, "seed_tables.json"), "w") as fh:
        json.dump(seed_tables(os.path.join(SHARED, "seeds")), fh, indent=1)


if __name__ == "__main__":
    main()
