"""The CuTe DSL bridge (cute_sym.dsl) checked against NVIDIA's CuTe DSL itself.

Needs ``nvidia-cutlass-dsl`` (``pip install '.[dsl]'``); skipped with a message without it.
The DSL runs in one subprocess per module (``tests/dsl_oracle.py``: forked workers, so a DSL
call that kills its process is recorded as a crash, not fatal), traced on the CPU.

* round trips: every layout argument of the public corpora (main and fuzz):
  ``from_dsl(to_dsl(x)) == x`` (symbols equal after naming the DSL's ``?`` as they were) and
  ``to_dsl(from_dsl(y))`` prints as ``y``;
* atoms: every warp and warpgroup MMA and every universal, cp.async, ldmatrix and stmatrix copy
  the DSL offers comes across with the DSL's thread and value layouts, and goes back; so do the
  tcgen05 MMAs of every family (1- and 2-CTA, SS and TS, each major) and every TMEM load and
  store (each shape, repetition and packing), and the tcgen05 ops CuTe does not define are
  refused naming why;
* code: ``emit(x, "dsl")`` of layouts (static, symbolic with divisors and formulas), swizzled
  layouts, tiled MMAs and copies runs under the DSL and builds what ``to_dsl(x)`` builds; a
  thread's slice partitions a tensor as cute_sym's does;
* side by side: the corpora's cases computed by the DSL agree with CuTe C++ (and cute_sym),
  except in the classes listed in docs/conformance.md ("The CuTe DSL beside CuTe C++").

By default a deterministic share of the corpus cases and arguments runs (every ``SAMPLE``-th);
``CUTE_SYM_DSL_FULL=1`` runs them all (CI does).
"""
from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import sys
from typing import Any

import pytest

if importlib.util.find_spec("cutlass") is None:
    pytest.skip("the CuTe DSL is not installed (pip install '.[dsl]', nvidia-cutlass-dsl): "
                "the DSL bridge is not checked", allow_module_level=True)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import dsl_oracle as oracle  # noqa: E402

import cute_sym as cs  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
from corpus import CONFORMANCE  # noqa: E402  (../shared/conformance, else the copy in tests/data)

CORPUS = pathlib.Path(CONFORMANCE)
FULL = os.environ.get("CUTE_SYM_DSL_FULL") == "1"
SAMPLE = 1 if FULL else 7
ATOM_SAMPLE = 1 if FULL else 3


def _cases() -> list[dict[str, Any]]:
    paths = sorted(CORPUS.glob("*.jsonl")) + sorted((CORPUS / "fuzz").glob("*.jsonl"))
    return [c for c in oracle.corpus_cases(paths) if c["op"] not in oracle.ABSENT]


@pytest.fixture(scope="module")
def answers() -> dict[str, Any]:
    """The DSL's answers to every job of this module, computed once."""
    cases = _cases()
    if not cases:
        pytest.skip(f"no conformance corpus at {CORPUS} (set CUTE_SYM_CONFORMANCE)")
    picked = cases[::SAMPLE]
    args = list(oracle.layout_arguments(cases).items())[::SAMPLE]
    rt_jobs = [{"id": f"rt{i}", "rt": a, "bind": b} for i, (a, b) in enumerate(args)]
    atoms = oracle.atom_jobs()
    umma = oracle.tcgen05_jobs()
    atom_jobs = atoms[:-5][::ATOM_SAMPLE] + atoms[-5:] + umma
    crash = [{"id": "boom", "op": "composition", "args": ["(_4,_4):(_4,_1)", "Sw<2,0,2>"]},
             {"id": "after", "op": "coalesce", "args": ["(_2,(_1,_6)):(_1,(_6,_2))"]}]
    emit_jobs = oracle.emit_jobs()
    res = oracle.run_jobs(crash + oracle.case_jobs(picked) + rt_jobs + atom_jobs + emit_jobs + ERROR_JOBS)
    return {"cases": picked, "rt": rt_jobs, "atoms": atom_jobs, "emit": emit_jobs, "res": res}


def test_round_trips_of_every_layout_argument(answers: dict[str, Any]) -> None:
    bad = [f for j in answers["rt"] if (f := oracle.round_trip_failure(cs, j["rt"], answers["res"][j["id"]]))]
    assert len(answers["rt"]) > 500
    assert not bad, f"{len(bad)} of {len(answers['rt'])} round trips fail:\n" + "\n".join(bad[:20])


def test_every_atom_comes_across_with_the_dsls_layouts(answers: dict[str, Any]) -> None:
    bad = [f for j in answers["atoms"]
           if (f := oracle.atom_failure(cs, j["atom"], answers["res"][j["id"]], j.get("refuse")))]
    assert len(answers["atoms"]) > 100
    assert not bad, f"{len(bad)} of {len(answers['atoms'])} atoms fail:\n" + "\n".join(bad[:20])


def _documented() -> set[tuple[str, str, str]]:
    """The (class, op, static|dynamic) rows of docs/conformance.md's DSL section."""
    text = (ROOT / "docs" / "conformance.md").read_text()
    section = text[text.index("## The CuTe DSL beside CuTe C++"):]
    return {(m.group(1), m.group(2), m.group(3))
            for m in re.finditer(r"^\| (crash|dsl-[a-z]+|ours-differs) \| (\w+) \| (static|dynamic) \|", section, re.M)}


def test_side_by_side_the_dsl_agrees_with_cpp_but_in_the_documented_classes(answers: dict[str, Any]) -> None:
    documented = _documented()
    undocumented, agree = [], 0
    for c in answers["cases"]:
        k, detail = oracle.classify(cs, c, answers["res"][c["id"]])
        if k == "agree":
            agree += 1
            continue
        key = (k, c["op"], "dynamic" if "bind" in c else "static")
        if key not in documented:
            undocumented.append(f"{key}: {c['id']} {c['args']}: {detail}")
    assert agree > 0.7 * len(answers["cases"]), f"only {agree} of {len(answers['cases'])} agree"
    assert not undocumented, "classes not listed in docs/conformance.md:\n" + "\n".join(undocumented[:20])


def test_a_dsl_crash_is_recorded_not_fatal(answers: dict[str, Any]) -> None:
    """composition(layout, swizzle) kills the DSL's process (SIGSEGV): one job's crash, the next
    job still answers."""
    res = answers["res"]
    assert res["boom"].get("crash") in (8, 11), res["boom"]
    assert res["after"]["back"] == str(cs.coalesce(cs.parse("(_2,(_1,_6)):(_1,(_6,_2))")))


def test_emitted_dsl_code_builds_the_same_value(answers: dict[str, Any]) -> None:
    bad = [f for j in answers["emit"] if (f := oracle.emit_failure(cs, j, answers["res"][j["id"]]))]
    assert not bad, "\n".join(bad)


#: Misuse: (expression run inside the trace, the LayoutError's words).
ERRORS = [
    ('to_dsl(cs.parse("(M,_8):(_1,M)"))', "LayoutError: to_dsl: no DSL value for the symbol M"),
    ('from_dsl("(4,8):(8,1)")', "LayoutError: from_dsl takes a DSL value"),
    ('from_dsl(cute.complement(cute.make_layout((4,1), stride=(cutlass.Int32(16),0)), 49))',
     "NotationError: the DSL printed the name 'x'"),
    ('to_dsl(cs.ComposedLayout(cs.parse("_4:_2"), 0, cs.parse("_8:_1")))', "LayoutError: to_dsl: the DSL composes a swizzle"),
    ('to_dsl(cs.make_tensor(cs.make_smem_ptr("s", "half_t"), cs.parse("_8:_1")))',
     "LayoutError: to_dsl: only a coordinate tensor"),
    ("from_dsl(cute.make_mma_atom(warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16,8,16)))).name",
     "SM80_16x8x16_F32F16F16F32_TN"),
    # a tcgen05 atom the DSL has no op for: negated operands, a sparse A
    ('to_dsl(cs.MMA_Atom("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K, '
     'UMMA::ScaleIn::Neg>"))', "LayoutError: to_dsl: no DSL op recorded for CuTe's MMA atom SM100_MMA_F16BF16_SS<"),
    ('to_dsl(cs.MMA_Atom("SM100_MMA_F16BF16_SS_SPARSE<half_t, half_t, float, 128, 64, UMMA::Major::K, UMMA::Major::K>"))',
     "LayoutError: to_dsl: no DSL op recorded for CuTe's MMA atom SM100_MMA_F16BF16_SS_SPARSE<"),
    # (not misuse: a memory tensor comes across as a tensor over a pointer of its element type)
    ('from_dsl(cute.make_tensor(cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem, assumed_align=16), '
     'cute.make_composed_layout(cute.make_swizzle(3,3,3), 0, cute.make_layout((64,64), stride=(64,1)))))',
     "smem_ptr[half_t](t) o Sw<3,3,3> o _0 o (_64,_64):(_64,_1)"),
]
ERROR_JOBS = [{"id": f"err{i}", "expr": e} for i, (e, _) in enumerate(ERRORS)]


def test_misuse_is_a_layout_error_in_words(answers: dict[str, Any]) -> None:
    for job, (expr, words) in zip(ERROR_JOBS, ERRORS):
        r = answers["res"][job["id"]]
        got = r.get("err") or r.get("value", "")
        assert words in got, (expr, r)
