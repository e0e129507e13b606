"""The analyses' report and the ``cute-sym analyze`` command: every finding, by cases for a
symbolic layout, each phase with ``--detail``; bad arguments are refused by name."""
from __future__ import annotations

import io
from typing import Any

import pytest

import cute_sym as cs
from cute_sym.analysis.report import analysis_report, analyze_main
from cute_sym.cli import main

LDSM = ["--copy", "SM75_U32x4_LDSM_N", "--mma", "SM80_16x8x16_F16F16F16F16_TN", "--atoms", "2,2,1",
        "--tile", "32,32,16"]


def _run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return analyze_main(args, out), out.getvalue()


def test_swizzled_ldmatrix_is_conflict_free_and_fits() -> None:
    rc, text = _run(["--smem", "Sw<3,3,3> o _0 o (_128,_32):(_32,_1)", *LDSM])
    assert rc == 0
    lines = text.splitlines()
    assert lines[0].startswith("access: TiledCopy<SM75_U32x4_LDSM_N")
    assert lines[1].startswith("vector width: 128 bits")
    assert lines[2].startswith("shared memory: conflict-free: 32 wavefronts")
    assert lines[3].startswith("copy/MMA A: fits")


def test_symbolic_leading_dimension_by_cases_and_in_detail() -> None:
    args = ["--smem", "(_128,_32):(K,_1)", *LDSM, "--min", "K=32", "--divisible", "K=8"]
    rc, text = _run(args)
    assert rc == 0 and "shared memory: by cases:" in text
    assert "  8-way bank conflicts: 256 wavefronts, ideal 32 (8 instructions) if K % 64 == 0" in text
    rc, detail = _run(args + ["--detail"])
    # each case with its phases: the 8-way case names its eight threads on one bank
    assert rc == 0 and "  if K % 64 == 0: 8-way bank conflicts" in detail
    assert "    instr 0 threads 0-7: 8 wavefront(s), ideal 1; bank 0 holds 8 words: t0@0, t1@K" in detail


def test_the_report_matches_the_analyses() -> None:
    tv = cs.parse("((_8,_16),_8):((_512,_1),_64)")
    lay = cs.parse("(_64,_64):(_64,_1)")
    text = analysis_report(tv, lay, "global", 16)
    assert f"vector width: {cs.vector_width(tv, lay, 16)}" in text
    assert f"global memory: {cs.coalescing(tv, lay, 16)}" in text


def test_global_memory_from_the_command_line(capsys: Any) -> None:
    rc = main(["analyze", "--gmem", "(_64,_64):(N,_1)", "--copy", "UniversalCopy<uint128_t>", "--type", "half_t",
               "--thr", "(_16,_8):(_8,_1)", "--val", "(_1,_8)", "--min", "N=64", "--warp", "1"])
    out = capsys.readouterr().out
    assert rc == 0 and "global memory: by cases:" in out
    assert "coalesced: 64 sectors in 4 request(s)" in out and "if N % 16 == 0" in out


@pytest.mark.parametrize("args, what", [
    (["--smem", "(_64,_64):(N,_1)", "--tv", "(_32,_8):(_64,_1)", "--bits", "16", "--min", "Q=64"], "does not have"),
    (["--smem", "(_64,_64):(N,_1)", "--tv", "(_32,_8):(_64,_1)", "--bits", "16", "--min", "N=x"], "NAME=INTEGER"),
    (["--smem", "(_64,_64):(_64,_1)"], "give the access"),
    (["--smem", "(_64,_64):(_64,_1)", "--copy", "NO_SUCH_COPY", "--thr", "(_32,_1)", "--val", "(_1,_8)"], "NO_SUCH_COPY"),
])
def test_bad_arguments_are_named(args: list[str], what: str, capsys: Any) -> None:
    rc, _ = _run(args)
    assert rc == 2 and what in capsys.readouterr().err


def test_a_facts_name_keeps_its_sign() -> None:
    # N is an extent (positive): --divisible does not make it an any-sign name (no N == 0 case)
    rc, text = _run(["--gmem", "(N,_64):(_64,_1)", "--tv", "(_32,_8):(_8,_256)", "--bits", "16",
                     "--divisible", "N=8"])
    assert rc == 0 and "N == 0" not in text and "N <= -" not in text


def test_a_symbolic_number_of_tiles_says_what_to_do() -> None:
    rc, text = _run(["--gmem", "(M,_64):(_64,_1)", "--copy", "UniversalCopy<uint128_t>", "--type", "half_t",
                     "--thr", "(_16,_8):(_8,_1)", "--val", "(_1,_8)"])
    assert rc == 0 and "in ceil_div(M,16) tiles of (_16,_64), a symbolic number: analyze one tile" in text
    rc, text = _run(["--gmem", "(_16,_64):(_64,_1)", "--copy", "UniversalCopy<uint128_t>", "--type", "half_t",
                     "--thr", "(_16,_8):(_8,_1)", "--val", "(_1,_8)"])
    assert rc == 0 and "global memory: coalesced" in text
