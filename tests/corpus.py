"""Where the tests find CuTe's answers: ``../shared/`` beside the checkout when it is
there, else the copy in ``tests/data/`` (made by ``scripts/refresh_test_data.py``),
so that a clean clone runs every corpus test too. ``CUTE_SYM_CONFORMANCE`` overrides."""
from __future__ import annotations

import glob
import json
import os
from typing import Any, Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
_SHARED = os.path.join(HERE, "..", "..", "shared")


def _first_dir(*candidates: str) -> str:
    for d in candidates:
        if d and os.path.isdir(d):
            return d
    raise RuntimeError(f"no conformance corpus in {candidates}")


CONFORMANCE = _first_dir(os.environ.get("CUTE_SYM_CONFORMANCE", ""),
                         os.path.join(_SHARED, "conformance"), os.path.join(HERE, "data", "conformance"))
SEEDS = os.path.join(_SHARED, "seeds")


def cases(*ops: str, where: Optional[Callable[[dict[str, Any]], bool]] = None) -> list[dict[str, Any]]:
    """The public cases of ``ops`` (every op when none is named) that satisfy ``where``, in file order."""
    paths = [os.path.join(CONFORMANCE, f"{op}.jsonl") for op in ops] if ops else \
        sorted(glob.glob(os.path.join(CONFORMANCE, "*.jsonl")))
    out: list[dict[str, Any]] = []
    for path in paths:
        if not os.path.exists(path) or os.path.basename(path).startswith("cute-dynamic-unsupported"):
            continue
        with open(path) as fh:
            for line in fh:
                c = json.loads(line)
                if where is None or where(c):
                    out.append(c)
    return out


def swizzled(c: dict[str, Any]) -> bool:
    return any("Sw<" in a for a in c["args"])


def seed_tables() -> list[dict[str, Any]]:
    """The seeds' print_layout tables: read from the seeds, or from the copy."""
    if os.path.isdir(SEEDS):
        import importlib.util
        spec = importlib.util.spec_from_file_location(
            "refresh_test_data", os.path.join(HERE, "..", "scripts", "refresh_test_data.py"))
        assert spec and spec.loader
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod.seed_tables(SEEDS)  # type: ignore[no-any-return]
    with open(os.path.join(HERE, "data", "seed_tables.json")) as fh:
        return json.load(fh)  # type: ignore[no-any-return]
