"""The layout algebra against CuTe compiled here: 906 static cases drawn at random by
scripts/algebra_oracle.py --n 1000 --seed 2 (nested layouts, zero and negative strides, tilers; every op of
the algebra), each answered by CuTe itself (host g++). A case CuTe does not compile must
raise; a case whose CuTe answer breaks its operation's contract (``cute_contract``, as the
fuzzed corpus's semantics judge it) must raise too, except a divide by a tiler that repeats
values, where cute_sym keeps CuTe's answer as the main corpus expects it (logical_divide/0183)."""
from __future__ import annotations

import collections
import json
import os
from typing import Any

import pytest

import cute_sym as cs

HERE = os.path.dirname(os.path.abspath(__file__))
DIVIDES = ("logical_divide", "zipped_divide", "tiled_divide", "flat_divide")


def _rows() -> list[dict[str, Any]]:
    with open(os.path.join(HERE, "data", "algebra_oracle.jsonl")) as fh:
        return [json.loads(line) for line in fh]


def _by_op() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = collections.defaultdict(list)
    for r in _rows():
        out[r["op"]].append(r)
    return out


def _kept(r: dict[str, Any]) -> bool:
    """A contract-breaking CuTe answer that cute_sym keeps: a divide by a non-injective tiler."""
    return r["op"] in DIVIDES and "not injective" in r["cute_contract"]


@pytest.mark.parametrize("op", sorted(_by_op()))
def test_cute_answers(op: str) -> None:
    wrong = []
    for r in _by_op()[op]:
        args = [cs.parse(a) for a in r["args"]]
        must_raise = isinstance(r["expect"], dict) or ("cute_contract" in r and not _kept(r))
        try:
            got = str(getattr(cs, op)(*args))
        except cs.LayoutError as e:
            if not must_raise:
                wrong.append((r["cpp"], f"raised {e}", r["expect"]))
            continue
        if must_raise or got != r["expect"]:
            wrong.append((r["cpp"], got, r["expect"]))
    assert not wrong, wrong[:5]


def test_the_cases_cover_the_algebra() -> None:
    rows = _rows()
    assert len(_by_op()) == 17 and len(rows) > 800
    assert sum(isinstance(r["expect"], dict) for r in rows) > 10          # CuTe's compile-time refusals
    assert sum("cute_contract" in r and not _kept(r) for r in rows) >= 10  # CuTe's contract-breaking answers
