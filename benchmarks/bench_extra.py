"""The parts of bench_algebra.py beyond the shared benchmark set.

* **import**: CPU time of ``import cute_sym`` and of the CLI's static job, each in
  a fresh interpreter (median of a few), and whether sympy was imported;
* **symbolic tilings**: realistic calls on dynamic extents, cute_sym against
  legacy pycute fed the same sympy symbols, warm (sympy's cache kept, cute_sym's
  memo caches cleared) and cold (sympy's cache cleared too);
* **rank scaling**: each operation on a symbolic compact layout of rank 1..8.

Times are the calling thread's CPU time (``time.thread_time_ns``): on a shared
machine, wall time also counts the time other processes held the core.
"""
from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Optional

CLOCK = time.thread_time_ns


# ----------------------------------------------------------------- import
def _env(root: str, pycache: Optional[str] = None) -> dict[str, str]:
    """The child's environment: the checkout first on the path; with ``pycache``, bytecode is
    cached there (as an installed package has it), else whatever this shell says."""
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    return env


def _child_cpu(code: str, root: str, pycache: Optional[str] = None) -> tuple[float, bool]:
    probe = ("import time, sys\nt0 = time.process_time()\n" + code +
             "\nprint('@@', time.process_time() - t0, 'sympy' in sys.modules)")
    env = _env(root, pycache)
    p = subprocess.run([sys.executable, "-c", probe], cwd=root, env=env, capture_output=True, text=True, timeout=120)
    line = [x for x in p.stdout.splitlines() if x.startswith("@@")][-1].split()
    return float(line[1]), line[2] == "True"


def _child_total(code: str, root: str) -> float:
    """CPU seconds of a whole fresh interpreter running ``code`` (start-up included)."""
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    before = os.times()
    subprocess.run([sys.executable, "-c", code], cwd=root, env=env, capture_output=True, timeout=120)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def _importtime_us(root: str, pycache: Optional[str]) -> int:
    """``python -X importtime -c "import cute_sym"``: the cumulative microseconds of cute_sym."""
    p = subprocess.run([sys.executable, "-X", "importtime", "-c", "import cute_sym"], cwd=root,
                       env=_env(root, pycache), capture_output=True, text=True, timeout=120)
    last = [x for x in p.stderr.splitlines() if x.rstrip().endswith("| cute_sym")][-1]
    return int(last.split("|")[1])


def import_report(root: str, repeat: int = 5) -> dict[str, Any]:
    import tempfile
    cli = ("import contextlib, io\nfrom cute_sym.cli import main\n"
           "with contextlib.redirect_stdout(io.StringIO()):\n    main(['logical_divide(_24:_2, _4:_2)'])")
    with tempfile.TemporaryDirectory() as cache:
        _child_cpu("import cute_sym", root, cache)          # writes the bytecode cache
        cached = [_child_cpu("import cute_sym", root, cache)[0] for _ in range(repeat)]
        itime_cached = [_importtime_us(root, cache) for _ in range(repeat)]
    itime = [_importtime_us(root, None) for _ in range(repeat)]
    imp = [_child_cpu("import cute_sym", root) for _ in range(repeat)]
    job = [_child_cpu(cli, root) for _ in range(repeat)]
    bare = [_child_total("pass", root) for _ in range(repeat)]
    whole = [_child_total(cli, root) for _ in range(repeat)]
    try:
        pyc: list[tuple[float, bool]] = [_child_cpu("import pycute", root) for _ in range(repeat)]
    except IndexError:      # pycute not installed: the child failed before printing
        pyc = [(float("nan"), False)]
    sym = [_child_cpu("import sympy", root)]     # slow: once
    out = {
        "import_cute_sym_s": statistics.median(t for t, _ in imp), "import_imports_sympy": any(s for _, s in imp),
        "cli_static_job_s": statistics.median(t for t, _ in job), "cli_imports_sympy": any(s for _, s in job),
        "interpreter_start_s": statistics.median(bare), "cli_whole_process_s": statistics.median(whole),
        "import_pycute_s": statistics.median(t for t, _ in pyc), "import_sympy_s": statistics.median(t for t, _ in sym),
        "import_cute_sym_bytecode_s": statistics.median(cached),
        "importtime_us": statistics.median(itime), "importtime_bytecode_us": statistics.median(itime_cached),
        "dont_write_bytecode": bool(os.environ.get("PYTHONDONTWRITEBYTECODE")),
    }
    print("import (CPU seconds in a fresh interpreter, median of %d):" % repeat)
    print(f"  import cute_sym                    {out['import_cute_sym_s']:.3f} s  (sympy imported: "
          f"{out['import_imports_sympy']}; target < 0.15 s)")
    print(f"  import cute_sym, bytecode cached   {out['import_cute_sym_bytecode_s']:.3f} s  (as `pip install` "
          "leaves it; the line above compiles from source"
          + (": PYTHONDONTWRITEBYTECODE is set here)" if out["dont_write_bytecode"] else ")"))
    print(f"  python -X importtime, cute_sym     {out['importtime_us'] / 1e6:.3f} s wall from source, "
          f"{out['importtime_bytecode_us'] / 1e6:.3f} s with bytecode (target < 0.15 s)")
    print(f"  CLI static job (import + main)     {out['cli_static_job_s']:.3f} s  (sympy imported: "
          f"{out['cli_imports_sympy']})")
    print(f"  CLI whole process                  {out['cli_whole_process_s']:.3f} s  (interpreter start alone "
          f"{out['interpreter_start_s']:.3f} s; target < 0.3 s)")
    print(f"  for scale: import pycute {out['import_pycute_s']:.3f} s, import sympy {out['import_sympy_s']:.3f} s")
    return out


# ----------------------------------------------------------------- symbolic tilings
def _symbols(cs: Any) -> dict[str, Any]:
    return {"M": cs.Dyn("M", divisible_by=128), "N": cs.Dyn("N", divisible_by=64), "K": cs.Dyn("K", divisible_by=32)}


def tiling_calls(cs: Any, pycute: Any) -> list[tuple[str, Callable[[], Any], Optional[Callable[[], Any]]]]:
    """(label, cute_sym call, pycute call or None): each builds fresh inputs and runs."""
    S = _symbols(cs)
    M, N, K = S["M"], S["N"], S["K"]
    P = (lambda t: cs.parse(t, S))

    def py(f: Callable[[], Any]) -> Optional[Callable[[], Any]]:
        return f if pycute is not None else None
    L = pycute.Layout if pycute is not None else None
    return [
        ("zipped_divide((M,N):(_1,M), (_128,_64))",
         lambda: (cs.zipped_divide, [P("(M,N):(_1,M)"), P("(_128,_64)")]),
         py(lambda: (pycute.zipped_divide, [L((M, N), (1, M)), (L(128), L(64))]))),
        ("logical_divide((M,N):(_1,M), (_128,_64))",
         lambda: (cs.logical_divide, [P("(M,N):(_1,M)"), P("(_128,_64)")]),
         py(lambda: (pycute.logical_divide, [L((M, N), (1, M)), (L(128), L(64))]))),
        ("tiled_divide((M,N,K):(_1,M,M*N), (_128,_64,_32))",
         lambda: (cs.tiled_divide, [P("(M,N,K):(_1,M,M*N)"), P("(_128,_64,_32)")]),
         py(lambda: (pycute.tiled_divide, [L((M, N, K), (1, M, M * N)), (L(128), L(64), L(32))]))),
        ("complement(_32:_1, M*N)",
         lambda: (cs.complement, [P("_32:_1"), M * N]),
         py(lambda: (pycute.complement, [L(32, 1), M * N]))),
        ("complement((_4,_8):(_1,_128), M)",
         lambda: (cs.complement, [P("(_4,_8):(_1,_128)"), M * 8]),
         py(lambda: (pycute.complement, [L((4, 8), (1, 128)), M * 8]))),
        ("right_inverse((M,N):(_1,M))",
         lambda: (cs.right_inverse, [P("(M,N):(_1,M)")]),
         py(lambda: (pycute.right_inverse, [L((M, N), (1, M))]))),
        ("left_inverse((M,N):(_1,M))",
         lambda: (cs.left_inverse, [P("(M,N):(_1,M)")]),
         py(lambda: (pycute.left_inverse, [L((M, N), (1, M))]))),
        ("coalesce((_16,N):(_1,_16))",
         lambda: (cs.coalesce, [P("(_16,N):(_1,_16)")]),
         py(lambda: (pycute.coalesce, [L((16, N), (1, 16))]))),
        ("coalesce((M,N):(_1,M))",
         lambda: (cs.coalesce, [P("(M,N):(_1,M)")]),
         py(lambda: (pycute.coalesce, [L((M, N), (1, M))]))),
        ("composition((M,N):(_1,M), (_4,_8):(_1,_4))",
         lambda: (cs.composition, [P("(M,N):(_1,M)"), P("(_4,_8):(_1,_4)")]),
         py(lambda: (pycute.composition, [L((M, N), (1, M)), L((4, 8), (1, 4))]))),
        ("zipped_divide((M,K):(K,_1), (_128,_32))",
         lambda: (cs.zipped_divide, [P("(M,K):(K,_1)"), P("(_128,_32)")]),
         py(lambda: (pycute.zipped_divide, [L((M, K), (K, 1)), (L(128), L(32))]))),
        ("logical_product((_4,_8):(_1,_4), (M,N):(_1,M))",
         lambda: (cs.logical_product, [P("(_4,_8):(_1,_4)"), P("(M,N):(_1,M)")]),
         py(lambda: (pycute.logical_product, [L((4, 8), (1, 4)), L((M, N), (1, M))]))),
    ]


def _clear(cold: bool) -> None:
    from cute_sym.core import decide
    decide.clear_caches(symbols=cold)
    if cold:
        from sympy.core.cache import clear_cache
        clear_cache()


def _time_call(make: Callable[[], Any], cold: bool, rounds: int) -> tuple[Optional[float], str]:
    """Median ns of one call (fresh inputs, caches cleared before each); None and the error if it raises."""
    times = []
    for _ in range(rounds):
        fn, args = make()
        _clear(cold)
        gc.disable()
        t0 = CLOCK()
        try:
            fn(*args)
        except Exception as e:  # noqa: BLE001 - reported, not timed
            gc.enable()
            return None, f"{type(e).__name__}: {str(e)[:70]}"
        times.append(CLOCK() - t0)
        gc.enable()
    return statistics.median(times), ""


def tilings_report(cs: Any, pycute: Any, rounds: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    print("\nsymbolic tilings (M, N, K = Dyn(divisible_by=128, 64, 32)); median CPU us per call, "
          f"{rounds} runs each; warm: sympy's cache kept; cold: sympy's cache cleared before each call")
    print(f"  {'call':<52} {'cs warm':>8} {'py warm':>8} {'cs cold':>8} {'py cold':>8}")
    for label, mk_cs, mk_py in tiling_calls(cs, pycute):
        row: dict[str, Any] = {}
        for kind, cold in (("warm", False), ("cold", True)):
            r = max(rounds // (4 if cold else 1), 3)
            row[f"cs_{kind}"], err_cs = _time_call(mk_cs, cold, r)
            row[f"py_{kind}"], err_py = _time_call(mk_py, cold, r) if mk_py else (None, "no pycute")
            row["cs_error"], row["py_error"] = err_cs or row.get("cs_error", ""), err_py or row.get("py_error", "")

        def f(x: Optional[float]) -> str:
            return "-" if x is None else f"{x / 1000:.0f}"
        note = ""
        if row["cs_error"]:
            note += f"  cute_sym: {row['cs_error']}"
        if row["py_error"] and row["py_error"] != "no pycute":
            note += f"  pycute: {row['py_error']}"
        print(f"  {label:<52} {f(row['cs_warm']):>8} {f(row['py_warm']):>8} {f(row['cs_cold']):>8} "
              f"{f(row['py_cold']):>8}{note}")
        out[label] = row
    ok = [r for r in out.values() if r["cs_warm"] is not None]
    if ok:
        print(f"  cute_sym: max warm {max(r['cs_warm'] for r in ok) / 1000:.0f} us (target < 100), "
              f"max cold {max(r['cs_cold'] for r in ok if r['cs_cold'] is not None) / 1000:.0f} us (target < 1000)")
        both = [r for r in ok if r["py_warm"] is not None]
        faster = sum(1 for r in both if r["cs_warm"] < r["py_warm"])
        print(f"  faster than pycute (warm) on {faster}/{len(both)} calls both run")
    return out


# ----------------------------------------------------------------- rank scaling
def rank_report(cs: Any, rounds: int, max_rank: int = 8) -> dict[str, Any]:
    """Each operation on (S1,...,Sr):(1,S1,S1*S2,...) with Si = Dyn(divisible_by=4), r = 1..max_rank."""
    def layout(r: int) -> Any:
        S = [cs.Dyn(f"S{i}", divisible_by=4) for i in range(r)]
        strides, p = [], 1
        for s in S:
            strides.append(p)
            p = p * s
        return cs.make_layout(tuple(S), tuple(strides)) if r > 1 else cs.make_layout(S[0], 1), p

    ops: list[tuple[str, Callable[[Any, Any, int], Any]]] = [
        ("coalesce", lambda L, p, r: cs.coalesce(L)),
        ("complement", lambda L, p, r: cs.complement(L, 2 * p)),
        ("right_inverse", lambda L, p, r: cs.right_inverse(L)),
        ("left_inverse", lambda L, p, r: cs.left_inverse(L)),
        ("composition", lambda L, p, r: cs.composition(L, cs.make_layout(4, 1))),
        ("logical_divide", lambda L, p, r: cs.logical_divide(L, tuple([2] * r) if r > 1 else 2)),
        ("logical_product", lambda L, p, r: cs.logical_product(L, cs.make_layout(2, 1))),
    ]
    out: dict[str, Any] = {}
    print(f"\nrank scaling: op on (S1..Sr):(_1,S1,S1*S2,..), Si = Dyn(divisible_by=4); median warm CPU us per call")
    print(f"  {'op':<16}" + "".join(f"{'r=' + str(r):>8}" for r in range(1, max_rank + 1))
          + "   t(8)/t(4)  (2 when linear, 4 when quadratic)")
    for name, fn in ops:
        row = []
        for r in range(1, max_rank + 1):
            L, p = layout(r)
            t, err = _time_call(lambda: (fn, [L, p, r]), False, rounds)
            row.append(t)
        out[name] = row
        cells = "".join(f"{'-' if t is None else f'{t / 1000:.0f}':>8}" for t in row)
        half = row[max_rank // 2 - 1]
        ratio = f"{row[-1] / half:.1f}" if half and row[-1] else "-"
        print(f"  {name:<16}{cells}   {ratio}")
    return out
