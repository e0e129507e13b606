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
    assert out[0] == "_5:_2" and out[2] == "_5:_2"      # the table's header is the layout, not a padded one
    assert _table_rows(out) == [[v] for v in (0, 2, 4, 6, 8)]


# ---------------------------------------------------------------- issue 16: a CLI that reads well
@pytest.mark.parametrize("expr", ["(_4,_8):(_8,_1)(_,1)", "(_4,_8):(_8,_1)(_,_1)", "slice_((_,1), (_4,_8):(_8,_1))",
                                  " (_4,_8):(_8,_1) (_, 1)"])
def test_cli_slices(expr: str, capsys: Any) -> None:
    assert main([expr]) == 0
    out = capsys.readouterr().out.splitlines()
    L = cs.parse("(_4,_8):(_8,_1)")
    S = L(cs._, 1)
    assert out[0] == str(S) == "(_4):(_8)"
    assert _table_rows(out) == [[pc.f(L, (i, 1)) - pc.f(L, (0, 1)) + pc.f(S, 0)] for i in range(4)]


def test_cli_calls_a_layout_with_a_coordinate() -> None:
    L = cs.parse("(_4,_8):(_8,_1)")
    for i in range(4):
        for j in range(8):
            assert int(evaluate_call(f"(_4,_8):(_8,_1)({i},{j})")) == pc.f(L, (i, j))
    assert str(evaluate_call("_8:_2(_3)")) == "_6"
    with pytest.raises(cs.LayoutError):
        evaluate_call("(_4,_8)(_1)")        # a tuple cannot be called


@pytest.mark.parametrize("expr, want", [("-3", "-3"), ("-M+4", "4 - M"), ("-_2", "_-2")])
def test_cli_takes_a_negative_expression_without_dashes(expr: str, want: str, capsys: Any) -> None:
    assert main([expr]) == 0
    assert capsys.readouterr().out.replace(" ", "").startswith(want.replace(" ", ""))


def test_cli_takes_an_mma_atom_by_name() -> None:
    mma = evaluate_call("make_tiled_mma(SM80_16x8x8_F16F16F16F16_TN, (_2,_2))")
    assert str(mma.tile_shape()) == "(_32,_16,_8)"


def test_cli_still_refuses_an_unknown_option() -> None:
    with pytest.raises(SystemExit) as e:
        main(["--no-such-option", "_4:_1"])
    assert e.value.code == 2


def test_cli_caps_a_big_table(capsys: Any) -> None:
    from cute_sym.cli import TABLE_COLS, TABLE_LIMIT
    assert main(["(_64,_64):(_64,_1)"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = _table_rows(out)
    keep = TABLE_LIMIT // TABLE_COLS        # rows and columns both capped
    assert len(rows) == keep and rows == [[64 * i + j for j in range(TABLE_COLS)] for i in range(keep)]
    assert out[-2].strip() == f"... {64 - keep} more rows ({(64 - keep) * 64} entries) left out; --full shows all"
    assert out[-1].strip() == f"... {64 - TABLE_COLS} more columns (columns {TABLE_COLS}..63) left out; --full shows all"
    assert main(["--full", "(_64,_64):(_64,_1)"]) == 0
    rows = _table_rows(capsys.readouterr().out.splitlines())
    assert rows == [[64 * i + j for j in range(64)] for i in range(64)]
    assert main(["(_8,_8):(_8,_1)"]) == 0                    # a small table is whole
    assert "left out" not in capsys.readouterr().out


@pytest.mark.parametrize("expr, bad", [("logical_divide(_24:_2, (_4,,_2))", ","), ("(_4,_8):(_1,_4))", ")"),
                                       ("composition(_4:_1, $)", "$"), ("  (_4,@)", "@"),
                                       # an unclosed call: its "(" (not an argument silently dropped)
                                       ("composition(_4:_1, (_4,x)", "("), ("size(_4:_1))", ")")])
def test_cli_points_at_the_syntax_error(expr: str, bad: str, capsys: Any) -> None:
    assert main([expr]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("cute-sym: error:")
    assert err[1] == "  " + expr
    col = err[2].index("^") - 2
    assert expr[col] == bad and err[2].strip() == "^"


def test_cli_answers_a_static_expression_quickly() -> None:
    import time
    t = time.process_time()
    for _ in range(50):
        evaluate_call("logical_divide((_64,_64):(_64,_1), (_8,_8))")
    assert time.process_time() - t < 2.0
    p = subprocess.run([sys.executable, "-c", "import time; t = time.process_time(); import cute_sym.cli as c; "
                        "c.main(['_8:_1', '--no-table']); print(time.process_time() - t)"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.splitlines()[0] == "_8:_1"
    assert float(p.stdout.splitlines()[-1]) < 5.0           # CPU seconds, import included


def test_cli_errors(capsys: Any) -> None:
    assert main(["complement((_2,_2):(_1,_1), _8)"]) == 2
    err = capsys.readouterr().err
    assert "error" in err and "njective" in err
    assert main(["no_such_op(_4:_1)"]) == 2
    assert "unknown operation" in capsys.readouterr().err
    assert main(["(_4,_8"]) == 2


def test_cli_tags_and_one_name_across_arguments() -> None:
    assert str(evaluate_call("make_layout((M,N), LayoutRight)")) == "(M,N):(N,_1)"
    assert str(evaluate_call("make_layout((_4,_8), LayoutLeft)")) == "(_4,_8):(_1,_4)"
    # the stride M of the second argument is the first argument's extent M: one positive integer
    r = evaluate_call("composition((M,N):(_1,M), _4:M)")
    d = r.stride
    assert d.is_positive and d == r.stride.free_symbols.pop()
    for m in (1, 2, 5):
        A, B, R = (cs.subs(x, {"M": m, "N": 3}) for x in (cs.parse("(M,N):(_1,M)"), cs.parse("_4:M"), r))
        assert all(int(R(i)) == int(A(B(i))) for i in range(4))


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


def test_cli_rejects_a_binding_of_no_symbol(capsys: Any) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--bind", "Q=4", "(M,_8):(_1,M)"])        # a typo for M: not silently ignored
    assert e.value.code == 2 and "has no symbol 'Q'" in capsys.readouterr().err
    assert main(["--bind", "M=4", "(M,_8):(_1,M)"]) == 0
    assert "(4,_8):(_1,4)" in capsys.readouterr().out


def test_a_symbolic_layout_without_values_says_how_to_give_them(capsys: Any) -> None:
    assert main(["(M,_4):(_1,M)"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("(M,_4):(_1,M)") and "--bind NAME=VALUE" in out and "subs" not in out


# ---------------------------------------------------------------- issue 33: every picture and table is capped
@pytest.mark.parametrize("fmt", ["svg", "html", "latex"])
def test_cli_caps_a_big_picture(fmt: str, capsys: Any) -> None:
    from cute_sym.cli import PICTURE_LIMIT
    import time
    t0 = time.perf_counter()
    assert main(["--format", fmt, "(_4096,_4096):(_4096,_1)"]) == 0
    out = capsys.readouterr().out
    assert time.perf_counter() - t0 < 30 and len(out) < 3_000_000      # was 943 MB in 42 s
    assert f"showing the first {PICTURE_LIMIT}x{PICTURE_LIMIT} cells of 4096x4096" in out
    assert f"rows {PICTURE_LIMIT}..4095 and columns {PICTURE_LIMIT}..4095 left out" in out
    # a small picture is whole and --full lifts the cap (a picture just past it, to stay fast)
    assert main(["--format", fmt, "(_8,_8):(_8,_1)"]) == 0
    assert "left out" not in capsys.readouterr().out
    assert main(["--format", fmt, "--full", f"(_{PICTURE_LIMIT + 2},_2):(_2,_1)"]) == 0
    assert "left out" not in capsys.readouterr().out


def test_cli_caps_the_columns_of_a_table(capsys: Any) -> None:
    from cute_sym.cli import TABLE_COLS
    assert main(["(_2,_1048576):(_1048576,_1)"]) == 0
    out = capsys.readouterr().out
    assert len(out) < 100_000
    rows = _table_rows(out.splitlines())
    assert rows == [[1048576 * i + j for j in range(TABLE_COLS)] for i in range(2)]
    assert f"1048576 more columns" not in out and f"columns {TABLE_COLS}..1048575) left out" in out


def test_cli_says_why_a_rank_3_layout_has_no_table(capsys: Any) -> None:
    assert main(["(_2,_2,_2):(_1,_2,_4)"]) == 0
    out = capsys.readouterr().out
    assert "(no table: print_layout draws a rank-1 or rank-2 layout; this one has rank 3" in out


def test_cli_names_copy_atoms_and_element_types(capsys: Any) -> None:
    assert main(["Copy_Atom(SM75_U32x4_LDSM_N, half_t)"]) == 0
    out = capsys.readouterr().out
    assert str(cs.Copy_Atom("SM75_U32x4_LDSM_N", "half_t")).strip() in out
    assert main(["make_tiled_copy(Copy_Atom(UniversalCopy<uint128_t>, half_t), (_32,_4):(_1,_32), (_1,_8))"]) == 0
    tc = cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint128_t>", "half_t"), cs.parse("(_32,_4):(_1,_32)"),
                            cs.parse("(_1,_8)"))
    assert str(tc.TiledLayout_TV) in capsys.readouterr().out
    assert main(["Copy_Atom(SM75_U32x4_LDSM, half_t)"]) == 2
    assert "close names: SM75_U32x4_LDSM_N" in capsys.readouterr().err
    assert main(["Copy_Atom(SM75_U32x4_LDSM_N, halfx)"]) == 2
    assert "unknown element type 'halfx'" in capsys.readouterr().err


def test_cli_help_lists_analyze_in_plain_text(capsys: Any) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "cute-sym analyze" in out and "``" not in out and ":func:" not in out
    for finding in ("vector width", "bank conflicts", "coalescing", "copy/MMA fit"):
        assert finding in out


def test_cli_analyze_warp_past_the_threads_exits_non_zero(capsys: Any) -> None:
    args = ["analyze", "--smem", "(_128,_64):(_64,_1)", "--copy", "UniversalCopy<uint128_t>",
            "--thr", "(_16,_8):(_8,_1)", "--val", "(_1,_8)"]
    assert main(args + ["--warp", "7"]) == 2
    assert "warp 7 is not among the 128 threads" in capsys.readouterr().err
    for w in range(4):
        assert main(args + ["--warp", str(w)]) == 0
        assert f"warp {w}" in capsys.readouterr().out
