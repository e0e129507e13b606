"""The ``cute-sym`` command (issue 2, item 2)."""
from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import cute_sym as cs
from cute_sym.cli import evaluate_call, main

import postconditions as pc


def _table_rows(lines: list[str]) -> list[list[int]]:
    return [[int(x) for x in ln.split("|")[1:-1]] for ln in lines if ln.strip().startswith(tuple("0123456789"))
            and "|" in ln]


def _check_output(out: str, expr_result: str) -> None:
    lines = out.splitlines()
    assert lines[0] == expr_result
    assert lines[1] == ""
    assert lines[2] == expr_result          # print_layout repeats the layout
    L = cs.parse(expr_result)
    rows = _table_rows(lines[3:])
    m, n = int(cs.size(L[0])), int(cs.size(L[1]))
    assert len(rows) == m and all(len(r) == n for r in rows)
    assert rows == [[pc.f(L, (i, j)) for j in range(n)] for i in range(m)]
    assert sum(1 for ln in lines if ln.strip().startswith("+-")) == m + 1


def test_cli_subprocess() -> None:
    p = subprocess.run([sys.executable, "-m", "cute_sym.cli", "logical_divide(_24:_2, _4:_2)"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    _check_output(p.stdout, "(_4,(_2,_3)):(_4,(_2,_16))")
    R = cs.parse("(_4,(_2,_3)):(_4,(_2,_16))")
    pc.check_logical_divide(cs.parse("_24:_2"), cs.parse("_4:_2"), R)


def test_cli_in_process(capsys: Any) -> None:
    assert main(["composition((_6,_2):(_8,_2), (_4,_3):(_3,_1))"]) == 0
    out = capsys.readouterr().out
    _check_output(out, "((_2,_2),_3):((_24,_2),_8)")


def test_cli_no_table_and_bind(capsys: Any) -> None:
    assert main(["coalesce((_16,N):(_1,_16))", "--no-table"]) == 0
    assert capsys.readouterr().out.strip() == "16*N:_1"
    assert main(["logical_divide((M,_8):(_1,M), (_2,_4))", "--bind", "M=4"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("(")
    rows = _table_rows(out)
    assert len(rows) == 4 and all(len(r) == 8 for r in rows)


def test_cli_rank1_result_prints_a_table(capsys: Any) -> None:
    assert main(["composition(_20:_2, _5:_1)"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "_5:_2"
    assert _table_rows(out) == [[0, 2, 4, 6, 8]] or _table_rows(out) == [[v] for v in (0, 2, 4, 6, 8)]


def test_cli_errors(capsys: Any) -> None:
    assert main(["complement((_2,_2):(_1,_1), _8)"]) == 2
    err = capsys.readouterr().err
    assert "error" in err and "njective" in err
    assert main(["no_such_op(_4:_1)"]) == 2
    assert "unknown operation" in capsys.readouterr().err
    assert main(["(_4,_8"]) == 2


def test_evaluate_call() -> None:
    assert str(evaluate_call("logical_divide(_24:_2, _4:_2)")) == "(_4,(_2,_3)):(_4,(_2,_16))"
    assert str(evaluate_call("(_4,_8):(_1,_4)")) == "(_4,_8):(_1,_4)"
    assert str(evaluate_call("size((_4,_8):(_1,_4))")) == "_32"
    with pytest.raises(cs.LayoutError):
        evaluate_call("_private(_4)")


def test_cli_guards_prints_the_assumed_facts(capsys: Any) -> None:
    assert main(["shape_div(M, _4)"]) == 2                    # undecided without guards
    assert "M % 4 == 0 or 4 % M == 0" in capsys.readouterr().err
    assert main(["--guards", "--bind", "M=6", "shape_div(M, _4)"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ceil_div(M,4)"
    assert out[1] == "  if M % 4 == 0 or 4 % M == 0"
    assert "do not hold" in out[2]                            # 6 is not a multiple of 4, nor 4 of 6


def test_cli_rejects_a_bad_binding() -> None:
    with pytest.raises(SystemExit) as e:
        main(["--bind", "M=x", "size(M)"])
    assert e.value.code == 2
