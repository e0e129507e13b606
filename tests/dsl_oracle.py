"""The CuTe DSL as an oracle: corpus cases computed by ``cutlass.cute`` inside one ``@cute.jit``
(traced on the CPU), in a subprocess, so that a DSL call that kills the process (SIGFPE,
SIGSEGV) is recorded as a crash of that case and the rest still run.

    python3 tests/dsl_oracle.py JOBS.json     # (the child; the parent is run_jobs)

A job is ``{"id", "op", "args", "bind"?}`` (a corpus case: the op computed by the DSL on
``to_dsl`` of the parsed arguments) or ``{"id", "rt": text, "bind"?}`` (a round trip of one
value). The child prints one line per job, ``@@DSL@@ {json}``, after a ``@@START@@ id`` line.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
from typing import Any, Iterable

ROOT = pathlib.Path(__file__).resolve().parent.parent
START, RESULT = "@@START@@ ", "@@DSL@@ "

#: The DSL's functions for corpus ops whose arguments differ from CuTe C++'s (the others are
#: ``getattr(cute, op)(*args)``).
SPECIAL = {
    "complement": lambda cute, a: cute.complement(a[0], a[1] if len(a) > 1 else cute.cosize(a[0])),
    "coalesce": lambda cute, a: cute.coalesce(a[0], target_profile=a[1]) if len(a) > 1 else cute.coalesce(a[0]),
    "recast_layout": lambda cute, a: cute.recast_layout(a[2], a[1], a[0]),
    "slice": lambda cute, a: cute.slice_(a[1], a[0]),
    "dice": lambda cute, a: cute.dice(a[1], a[0]),
    # CuTe C++'s default order is the column-major one (GenColMajor); the DSL wants it spelled out
    "tile_to_shape": lambda cute, a: cute.tile_to_shape(a[0], a[1], a[2] if len(a) > 2 else _colmajor(a[1])),
}


def _colmajor(shape: Any) -> Any:
    import cutlass.cute as cute
    return tuple(range(len(shape))) if isinstance(shape, tuple) else 0
#: Ops of the corpora the DSL has no function for.
ABSENT = ("print_layout", "upcast", "downcast", "coshape")


def _child(path: str) -> None:
    """Import once, then run the jobs in forked workers: a worker that dies (SIGFPE, SIGSEGV) is
    recorded as the crash of the job it was on, and a fresh fork of the warm process goes on
    with the next job (no second import of the DSL, which takes seconds)."""
    import cutlass
    import cutlass.cute as cute
    sys.path.insert(0, str(ROOT))
    import cute_sym as cs
    from cute_sym.dsl import from_dsl, to_dsl
    from cute_sym.dsl.values import dsl_text
    cs.parse("(a,_2):(_1,a)")       # (sympy loaded before the forks)

    jobs = json.loads(pathlib.Path(path).read_text())

    def values(bind: dict[str, int]) -> dict[str, Any]:
        return {k: cutlass.Int32(v) for k, v in bind.items()}

    def one(job: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"id": job["id"]}
        try:
            if "expr" in job:       # (the test's own expressions: an error path)
                out["value"] = str(eval(job["expr"], {**space, "cs": cs, "from_dsl": from_dsl, "to_dsl": to_dsl}))
            elif "emit" in job:
                out.update(_emit_job(job))
            elif "atom" in job:
                out.update(_atom_job(job["atom"]))
            elif "rt" in job:
                x = cs.parse(job["rt"])
                d = to_dsl(x, values(job.get("bind", {})))
                out["dsl"] = dsl_text(d)
                y = from_dsl(d)
                out["back"] = str(y)
                names = [f"d{i}" for i in range(out["dsl"].count("?"))]
                out["again"] = dsl_text(to_dsl(y, {n: cutlass.Int32(1) for n in names}))
            else:
                args = [to_dsl(cs.parse(a), values(job.get("bind", {}))) for a in job["args"]]
                fn = SPECIAL.get(job["op"])
                r = fn(cute, args) if fn else getattr(cute, job["op"])(*args)
                out["dsl"] = dsl_text(r)
                out["back"] = str(from_dsl(r))
        except Exception as e:  # noqa: BLE001 - every refusal is recorded
            msg = str(e).strip()
            out["err"] = f"{type(e).__name__}: {msg.splitlines()[-1] if msg else ''}"[:300]
        return out

    from cutlass.cute.nvgpu import cpasync, warp, warpgroup, tcgen05  # noqa: F401
    import cutlass.cute.nvgpu as nv
    from cute_sym.dsl import dsl_atom_name
    space = {"cutlass": cutlass, "cute": cute, "warp": warp, "warpgroup": warpgroup, "tcgen05": tcgen05,
             "cpasync": cpasync, "nv": nv}

    def _atom_job(expr: str) -> dict[str, Any]:
        a = eval(expr, space)       # (the test's own expressions)
        out: dict[str, Any] = {}
        try:
            out["name"] = dsl_atom_name(a)
            x = from_dsl(a)
        except cs.LayoutError as e:
            out["refused"] = str(e)
            return out
        kind = type(a).__name__
        if kind.endswith("Op"):
            return out
        if kind == "MmaAtom":
            out["dsl"] = [dsl_text(v) for v in (a.thr_id, a.shape_mnk, a.tv_layout_A, a.tv_layout_B, a.tv_layout_C)]
            out["ours"] = [str(v) for v in (x.ThrID, x.Shape_MNK, x.LayoutA_TV, x.LayoutB_TV, x.LayoutC_TV)]
            b = to_dsl(x)
            out["again"] = [dsl_text(v) for v in (b.thr_id, b.shape_mnk, b.tv_layout_A, b.tv_layout_B, b.tv_layout_C)]
        elif kind == "TiledMma":
            out["dsl"] = [dsl_text(v) for v in (a.thr_layout_vmnk, a.tv_layout_A_tiled, a.tv_layout_B_tiled,
                                                a.tv_layout_C_tiled)]
            out["ours"] = [str(v) for v in (x.thr_layout_vmnk, x.get_layoutA_TV(), x.get_layoutB_TV(),
                                            x.get_layoutC_TV())]
            b = to_dsl(x)
            out["again"] = [dsl_text(v) for v in (b.thr_layout_vmnk, b.tv_layout_A_tiled, b.tv_layout_B_tiled,
                                                  b.tv_layout_C_tiled)]
        elif kind == "CopyAtom":
            out["dsl"] = [dsl_text(v) for v in (a.thr_id, a.layout_src_tv, a.layout_dst_tv)]
            out["ours"] = [str(v) for v in (x.ThrID, x.ValLayoutSrc, x.ValLayoutDst)]
            b = to_dsl(x)
            out["again"] = [dsl_text(v) for v in (b.thr_id, b.layout_src_tv, b.layout_dst_tv)]
        elif kind == "TiledCopy":
            out["dsl"] = [dsl_text(v) for v in (a.layout_tv_tiled, tuple(a.tiler_mn))]
            out["ours"] = [str(x.TiledLayout_TV), "(" + ",".join(str(cs.make_layout(t)) for t in x.Tiler_MN) + ")"]
            b = to_dsl(x)
            out["again"] = [dsl_text(v) for v in (b.layout_tv_tiled, tuple(b.tiler_mn))]
        return out

    def _emit_job(job: dict[str, Any]) -> dict[str, Any]:
        """The emitted function run under the DSL, beside to_dsl of the same cute_sym value."""
        x = eval(job["emit"], {"cs": cs, "parse": cs.parse, "Dyn": cs.Dyn})     # (the test's own expressions)
        src = cs.emit(x, "dsl", name="build")
        ns: dict[str, Any] = {}
        exec(src, ns)       # (cute_sym's own output, run as a user would)
        vals = {k: cutlass.Int32(v) for k, v in job.get("bind", {}).items()}
        made = ns["build"](*[vals[k] for k in sorted(vals)])
        part = job.get("partition")
        if part:
            shape = tuple(job["shape"])
            if job.get("smem"):     # a tensor in shared memory: the partitions' layouts compared
                ptr = cute.make_ptr(cutlass.Float16, 0, cute.AddressSpace.smem, assumed_align=16)
                made = getattr(made, "partition_" + part)(cute.make_tensor(ptr, cute.make_layout(shape)))
                ours = getattr(x, "partition_" + part)(cs.make_tensor(cs.make_smem_ptr("s", "half_t"),
                                                                       cs.make_layout(shape)))
                return {"dsl": dsl_text(made.layout), "back": str(from_dsl(made.layout)), "ours": str(ours.layout)}
            made = getattr(made, "partition_" + part)(cute.make_identity_tensor(shape))
            out = {"dsl": dsl_text(made), "back": str(from_dsl(made))}
            ours = getattr(x, "partition_" + part)(cs.make_identity_tensor(shape))
            out["ours"] = str(ours)
            return out
        ref = to_dsl(x, vals)
        return {"dsl": dsl_text(made), "ref": dsl_text(ref), "src": src}

    results: list[str] = []
    i = 0
    while i < len(jobs):
        fd, log = tempfile.mkstemp(suffix=".jsonl")
        os.close(fd)
        arch = jobs[i].get("arch")
        group = [j for j in jobs[i:]]
        for k, j in enumerate(group):
            if j.get("arch") != arch:
                group = group[:k]
                break
        pid = os.fork()
        if pid == 0:        # the worker (one target architecture: warpgroup MMAs need sm_90a)
            if arch:        # (the DSL reads its target once: set it on the DSL's own settings)
                from cutlass.base_dsl.dsl import BaseDSL
                os.environ["CUTE_DSL_ARCH"] = arch
                BaseDSL._get_dsl().envar.arch = arch
            with open(log, "w") as fh:
                def body() -> None:
                    for job in group:
                        fh.write(START + job["id"] + "\n")
                        fh.flush()
                        fh.write(RESULT + json.dumps(one(job)) + "\n")
                        fh.flush()

                @cute.jit
                def run() -> None:
                    body()      # (a plain function: the DSL's preprocessor rewrites only the jit function's code)

                run()
            os._exit(0)
        _, status = os.waitpid(pid, 0)
        started = None
        with open(log) as fh:
            for line in fh:
                if line.startswith(START):
                    started = line[len(START):].strip()
                elif line.startswith(RESULT) and line.endswith("\n"):
                    results.append(line.strip())
                    started = None
                    i += 1
        os.unlink(log)
        if started is not None:
            sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
            results.append(RESULT + json.dumps({"id": started, "crash": sig}))
            i += 1
        elif i < len(jobs) and jobs[i - 1]["id"] != group[-1]["id"]:
            raise RuntimeError(f"the DSL worker stopped before {jobs[i]['id']} (status {status})")
    sys.stdout.write("\n".join(results) + "\n")


def run_jobs(jobs: list[dict[str, Any]], timeout: float = 900) -> dict[str, dict[str, Any]]:
    """Each job's answer by id; a job during which the DSL killed its process is
    ``{"id", "crash": signal}``. A job's ``arch`` is the DSL's target (``sm_90a`` for warpgroup
    MMAs; else the DSL's default)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
        json.dump(jobs, fh)
    try:
        p = subprocess.run([sys.executable, __file__, fh.name], capture_output=True, text=True,
                           timeout=timeout, env=env, cwd=ROOT)
    finally:
        os.unlink(fh.name)
    if p.returncode != 0:
        raise RuntimeError(f"the DSL child failed (status {p.returncode}): {p.stderr[-3000:]}")
    results = {}
    for line in p.stdout.splitlines():
        if line.startswith(RESULT):
            r = json.loads(line[len(RESULT):])
            results[r["id"]] = r
    missing = [j["id"] for j in jobs if j["id"] not in results]
    if missing:
        raise RuntimeError(f"the DSL child did not answer {missing[:5]}: {p.stderr[-3000:]}")
    return results


def corpus_cases(paths: Iterable[pathlib.Path]) -> list[dict[str, Any]]:
    out = []
    for path in paths:
        if "unsupported" in path.name:
            continue
        for line in path.read_text().splitlines():
            if line.strip():
                out.append(json.loads(line))
    return out


if __name__ == "__main__":
    _child(sys.argv[1])


# ---------------------------------------------------------------- judging (the parent's side)
#: The corpora's op names that are cute_sym's under another name.
OPMAP = {"slice": "slice_"}


def ours(cs: Any, case: dict[str, Any]) -> tuple[str, Any]:
    """cute_sym's answer: ``("ok", value)``, ``("error", message)`` or ``("undecided", message)``."""
    try:
        args = [cs.parse(a) for a in case["args"]]
        return "ok", getattr(cs, OPMAP.get(case["op"], case["op"]))(*args)
    except cs.UndecidableError as e:
        return "undecided", str(e)
    except cs.LayoutError as e:
        return "error", str(e)


def pattern(x: Any) -> Any:
    """The structure of a value with each static leaf its value and each dynamic leaf ``"?"``:
    what the DSL's text can be compared on (its run-time values print ``?``)."""
    from cute_sym import ComposedLayout, Layout, Swizzle
    if isinstance(x, Layout):
        return ("L", pattern(x.shape), pattern(x.stride))
    if isinstance(x, ComposedLayout):
        return ("C", pattern(x.layout_a), pattern(x.offset), pattern(x.layout_b))
    if isinstance(x, Swizzle):
        return ("S", x.bits, x.base, x.shift)
    if isinstance(x, tuple):
        return tuple(pattern(e) for e in x)
    if type(x).__name__ == "Underscore":
        return "_"
    if isinstance(x, int) and type(x).__module__ != "sympy.core.numbers":
        return int(x)
    return "?"


def _same_function(cs: Any, a: Any, b: Any) -> bool:
    """Two static layouts with the same size and the same offset at every index (CuTe's
    functional equality: the nesting may differ)."""
    from cute_sym import Layout
    if not (isinstance(a, Layout) and isinstance(b, Layout) and cs.is_static(a) and cs.is_static(b)):
        return False
    n = int(cs.size(a))
    return n == int(cs.size(b)) and n <= 1 << 16 and all(int(a(i)) == int(b(i)) for i in range(n))


def classify(cs: Any, case: dict[str, Any], dsl: dict[str, Any]) -> tuple[str, str]:
    """(class, detail) of the DSL's answer against CuTe C++'s (the corpus's): ``agree``, or
    ``crash``, ``dsl-rejects`` (C++ answers), ``dsl-answers`` (C++ rejects), ``dsl-profile``
    (the same function, other nesting), ``dsl-differs`` (another answer); and where cute_sym
    itself differs from C++ on a static case, ``ours-differs`` (the corpus runner's business).
    A dynamic answer is compared on its pattern: static leaves by value, run-time ones as ``?``
    (the DSL prints no run-time value)."""
    expect = case["expect"]
    cpp_rejects = isinstance(expect, dict)
    if "bind" not in case:
        kind, value = ours(cs, case)
        if (kind == "ok") == cpp_rejects or (kind == "ok" and str(value) != expect):
            return "ours-differs", f"cute_sym {value}, C++ {expect}"
    if "crash" in dsl:
        return "crash", f"signal {dsl['crash']}"
    if "err" in dsl:
        return ("agree", "") if cpp_rejects else ("dsl-rejects", dsl["err"])
    if cpp_rejects:
        return "dsl-answers", f"DSL {dsl['dsl']}, C++ rejects: {expect.get('error', '')}"
    try:
        got, want = cs.parse(dsl["back"]), cs.parse(expect)
    except cs.LayoutError:      # CuTe's answer breaks a layout's rules (a negative extent): as text
        return ("agree", "") if dsl["back"] == expect else ("dsl-differs", f"DSL {dsl['dsl']}, C++ {expect}")
    if pattern(got) == pattern(want):
        return "agree", ""
    if _same_function(cs, got, want):
        return "dsl-profile", f"DSL {dsl['dsl']}, C++ {expect}"
    return "dsl-differs", f"DSL {dsl['dsl']}, C++ {expect}"


def atom_jobs() -> list[dict[str, Any]]:
    """Every MMA and copy atom the DSL offers that CuTe C++ (and cute_sym) has: the warp and
    warpgroup MMAs of each type, shape, operand source and major; universal, cp.async, ldmatrix
    and stmatrix copies of each width; and a few tiled MMAs and copies."""
    ex: list[str] = []
    for ab in ("Float16", "BFloat16"):
        for acc in (("Float16", "Float32") if ab == "Float16" else ("Float32",)):
            for k in (8, 16):
                ex.append(f"cute.make_mma_atom(warp.MmaF16BF16Op(cutlass.{ab}, cutlass.{acc}, (16,8,{k})))")
    ex.append("cute.make_mma_atom(warp.MmaTF32Op((16,8,8)))")
    for ab in ("Float8E4M3FN", "Float8E5M2"):
        for acc in ("Float16", "Float32"):
            ex.append(f"cute.make_mma_atom(warp.MmaFP8Op(cutlass.{ab}, cutlass.{acc}, (16,8,32)))")
    for n in range(8, 257, 8):
        for src in ("SMEM", "RMEM"):
            for ab, acc in (("Float16", "Float16"), ("Float16", "Float32"), ("BFloat16", "Float32")):
                for am, bm in (("K", "K"), ("MN", "K"), ("K", "MN"), ("MN", "MN")):
                    if src == "RMEM" and am == "MN":
                        continue
                    ex.append(f"cute.make_mma_atom(warpgroup.MmaF16BF16Op(cutlass.{ab}, cutlass.{acc}, (64,{n},16), "
                              f"warpgroup.OperandSource.{src}, nv.OperandMajorMode.{am}, nv.OperandMajorMode.{bm}))")
            if n in (8, 16, 24) or n % 32 == 0:
                for a, b in (("Int8", "Int8"), ("Uint8", "Int8")):
                    ex.append(f"cute.make_mma_atom(warpgroup.MmaI8Op(cutlass.{a}, cutlass.{b}, cutlass.Int32, "
                              f"(64,{n},32), warpgroup.OperandSource.{src}, nv.OperandMajorMode.K, nv.OperandMajorMode.K))")
            if n % 16 == 0 or n <= 24:
                for a, b in (("Float8E4M3FN", "Float8E4M3FN"), ("Float8E5M2", "Float8E4M3FN")):
                    ex.append(f"cute.make_mma_atom(warpgroup.MmaF8Op(cutlass.{a}, cutlass.{b}, cutlass.Float32, "
                              f"(64,{n},32), warpgroup.OperandSource.{src}, nv.OperandMajorMode.K, nv.OperandMajorMode.K))")
    for dt, bits in (("Float16", (16, 32, 64, 128)), ("Float32", (32, 64, 128)), ("Int8", (8, 16, 32, 64, 128))):
        for b in bits:
            ex.append(f"cute.make_copy_atom(nv.CopyUniversalOp(), cutlass.{dt}, num_bits_per_copy={b})")
        for b in (32, 64, 128):
            if b in bits:
                ex.append(f"cute.make_copy_atom(cpasync.CopyG2SOp(), cutlass.{dt}, num_bits_per_copy={b})")
        ex.append(f"cute.make_copy_atom(cpasync.CopyG2SOp(nv.LoadCacheMode.GLOBAL), cutlass.{dt}, num_bits_per_copy=128)")
    for op in ("LdMatrix8x8x16bOp", "StMatrix8x8x16bOp"):
        for t in (False, True):
            for n in (1, 2, 4):
                ex.append(f"cute.make_copy_atom(warp.{op}({t}, {n}), cutlass.Float16)")
    for op, ns in (("LdMatrix16x8x8bOp", (2, 4)), ("StMatrix16x8x8bOp", (1, 2, 4))):
        for n in ns:
            ex.append(f"cute.make_copy_atom(warp.{op}(True, {n}), cutlass.Uint8)")
    ex += [
        "cute.make_tiled_mma(warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16,8,16)), (2,2,1))",
        "cute.make_tiled_mma(warp.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (16,8,8)), (1,4,1))",
        "cute.make_tiled_mma(warpgroup.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (64,128,16), "
        "warpgroup.OperandSource.SMEM, nv.OperandMajorMode.K, nv.OperandMajorMode.K), (2,1,1))",
        "cute.make_tiled_copy_tv(cute.make_copy_atom(cpasync.CopyG2SOp(), cutlass.Float16, num_bits_per_copy=128), "
        "cute.make_layout((16,8), stride=(8,1)), cute.make_layout((1,8)))",
        "cute.make_tiled_copy_tv(cute.make_copy_atom(nv.CopyUniversalOp(), cutlass.Float32, num_bits_per_copy=32), "
        "cute.make_layout((32,4)), cute.make_layout((4,1)))",
    ]
    return [{"id": f"atom{i}", "atom": e, "arch": "sm_90a"} for i, e in enumerate(ex)]


def tcgen05_jobs() -> list[dict[str, Any]]:
    """The DSL's tcgen05 MMAs (each family: types, 1- and 2-CTA M, N, A source, majors) and
    TMEM loads/stores (each shape, repetition CuTe defines, packing), a few tiled MMAs over them,
    and the ops CuTe does not define (``refuse``: the words of the LayoutError)."""
    t = "tcgen05."
    cta_m = ((t + "CtaGroup.ONE", 64), (t + "CtaGroup.ONE", 128), (t + "CtaGroup.TWO", 128), (t + "CtaGroup.TWO", 256))
    majors = {"SMEM": (("K", "K"), ("MN", "K"), ("K", "MN"), ("MN", "MN")), "TMEM": (("K", "K"), ("K", "MN"))}

    def umma(cls: str, pre: str, k: int, ms: Any = cta_m, ns: tuple[int, ...] = (32, 256),
             mjs: Any = majors, srcs: tuple[str, ...] = ("SMEM", "TMEM")) -> list[str]:
        out = []
        for cta, m in ms:
            for n in ns:
                for src in srcs:
                    for am, bm in mjs[src]:
                        out.append(f"cute.make_mma_atom({t}{cls}({pre}({m},{n},{k}), {cta}, {t}OperandSource.{src}"
                                   + (f", nv.OperandMajorMode.{am}, nv.OperandMajorMode.{bm}))" if am else "))"))
        return out

    kk = {"SMEM": (("K", "K"),), "TMEM": (("K", "K"),)}
    ex: list[str] = []
    for ab, acc in (("Float16", "Float16"), ("Float16", "Float32"), ("BFloat16", "Float32")):
        ex += umma("MmaF16BF16Op", f"cutlass.{ab}, cutlass.{acc}, ", 16, ns=(32, 96, 256))
    ex += umma("MmaF16BF16Op", "cutlass.Float16, cutlass.Float32, ", 16, ms=cta_m[:2], ns=(8,), srcs=("SMEM",))
    ex += umma("MmaTF32Op", "", 8)
    for ab in ("Int8", "Uint8"):
        ex += umma("MmaI8Op", f"cutlass.{ab}, ", 32, mjs=kk)
    for a, b, acc in (("Float8E4M3FN", "Float8E4M3FN", "Float32"), ("Float8E5M2", "Float8E4M3FN", "Float16"),
                      ("Float6E2M3FN", "Float4E2M1FN", "Float32"), ("Float4E2M1FN", "Float6E3M2FN", "Float32")):
        ex += umma("MmaF8F6F4Op", f"cutlass.{a}, cutlass.{b}, cutlass.{acc}, ", 32,
                   mjs=majors if "8" in a[5:7] and "8" in b[5:7] else kk)
    ex += umma("MmaFP8Op", "cutlass.Float8E5M2, cutlass.Float32, ", 32, ms=cta_m[1:3], ns=(64,))
    mx_m = ((t + "CtaGroup.ONE", 128), (t + "CtaGroup.TWO", 256))
    for a, b in (("Float8E4M3FN", "Float8E5M2"), ("Float6E2M3FN", "Float8E4M3FN"), ("Float4E2M1FN", "Float4E2M1FN")):
        ex += umma("MmaMXF8F6F4Op", f"cutlass.{a}, cutlass.{b}, ", 32, ms=mx_m, ns=(64, 256), srcs=("SMEM",), mjs=kk)
    ex += umma("MmaMXF8Op", "cutlass.Float8E4M3FN, ", 32, ms=mx_m, ns=(128,), srcs=("SMEM",), mjs=kk)
    f4 = {"SMEM": (("", ""),)}
    ex += umma("MmaMXF4Op", "", 64, ms=mx_m + ((t + "CtaGroup.TWO", 128),), ns=(64, 256), srcs=("SMEM",), mjs=f4)
    for sf in ("Float8E8M0FNU", "Float8E4M3FN"):
        ex += umma("MmaMXF4NVF4Op", f"cutlass.{sf}, ", 64, ms=mx_m, ns=(128,), srcs=("SMEM",), mjs=f4)
    reps = {"32x32b": 128, "16x64b": 128, "16x32bx2": 128, "16x128b": 64, "16x256b": 32}
    for shape, top in reps.items():
        for r in (1, 2, 4, 8, 16, 32, 64, 128):
            if r <= top:
                for pk in ("NONE", "PACK_16b_IN_32b"):
                    ex.append(f"cute.make_copy_atom({t}Ld{shape}Op({t}Repetition.x{r}, {t}Pack.{pk}), cutlass.Float32)")
                    un = "NONE" if pk == "NONE" else "UNPACK_32b_IN_16b"
                    ex.append(f"cute.make_copy_atom({t}St{shape}Op({t}Repetition.x{r}, {t}Unpack.{un}), cutlass.Float32)")
    ex += [f"cute.make_copy_atom({t}Ld16x64bOp({t}Repetition.x2, {t}Pack.PACK_16b_IN_32b), cutlass.Float16)",
           f"cute.make_copy_atom({t}St32x32bOp({t}Repetition.x8), cutlass.BFloat16)"]
    f16 = (f"{t}MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (256,128,16), {t}CtaGroup.TWO, "
           f"{t}OperandSource.SMEM, nv.OperandMajorMode.K, nv.OperandMajorMode.MN)")
    ex += [f"cute.make_tiled_mma({f16}, (1,2,1))", f"cute.make_tiled_mma({f16}, (2,1,1))",
           f"cute.make_tiled_mma({t}MmaTF32Op((128,64,8), {t}CtaGroup.ONE, {t}OperandSource.TMEM, "
           "nv.OperandMajorMode.K, nv.OperandMajorMode.K), (2,2,1))"]
    refuse = [
        (f"{t}MmaMXF8Op(cutlass.Float8E4M3FN, (128,128,32), {t}CtaGroup.ONE, {t}OperandSource.TMEM, "
         "nv.OperandMajorMode.K, nv.OperandMajorMode.K)", "no MMA atom named 'SM100_MMA_MXF8F6F4_TS<"),
        (f"{t}MmaMXF8F6F4Op(cutlass.Float8E4M3FN, cutlass.Float8E4M3FN, (128,128,32), {t}CtaGroup.TWO, "
         f"{t}OperandSource.SMEM, nv.OperandMajorMode.K, nv.OperandMajorMode.K)", "M-mode size should be 256"),
        (f"{t}MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (128,64,16), {t}CtaGroup.ONE, "
         f"{t}OperandSource.TMEM, nv.OperandMajorMode.MN, nv.OperandMajorMode.K)", "A from TMEM can't be transposed"),
        (f"{t}MmaF16BF16SparseOp(cutlass.Float16, cutlass.Float32, (128,64,32), {t}CtaGroup.ONE, "
         f"{t}OperandSource.SMEM, nv.OperandMajorMode.K, nv.OperandMajorMode.K, {t}SparseMetadataFormat.TID)",
         "no CuTe MMA atom recorded"),
        (f"cute.make_copy_atom({t}LdRed32x32bOp({t}Repetition.x2), cutlass.Float32)", "no CuTe copy operation recorded"),
    ]
    return ([{"id": f"umma{i}", "atom": e, "arch": "sm_100a"} for i, e in enumerate(ex)]
            + [{"id": f"umma-refused{i}", "atom": e, "arch": "sm_100a", "refuse": w} for i, (e, w) in enumerate(refuse)])


def atom_failure(cs: Any, expr: str, r: dict[str, Any], refuse: str | None = None) -> str | None:
    """Why the atom of ``expr`` does not come across, or None: cute_sym's atom has the DSL's
    thread and value layouts (read in the DSL's notation), and ``to_dsl`` gives them back; an op
    CuTe does not define is refused (a LayoutError with the words ``refuse``, naming CuTe's atom
    where the DSL's op has a CuTe name)."""
    if "crash" in r or "err" in r:
        return f"{expr}: {r.get('err') or 'crash ' + str(r.get('crash'))}"
    if refuse is not None or "refused" in r:
        ok = refuse is not None and refuse in r.get("refused", "") and r.get("name", "") in r["refused"]
        return None if ok else f"{expr}: expected a refusal with {refuse!r}, got {r}"
    if "dsl" not in r:
        return None         # (an op: named, and taken into cute_sym)
    for d, o, again in zip(r["dsl"], r["ours"], r["again"]):
        x, y = cs.parse(d, dialect="dsl"), cs.parse(o)
        # (the DSL drops a size-1 mode CuTe C++ keeps, as in GMMA's 64x8 C layout: the same function)
        if (x != y and not _same_function(cs, x, y)) or again != d:
            return f"{expr} ({r['name']}): DSL {d}, cute_sym {o}, back {again}"
    return None


def round_trip_failure(cs: Any, text: str, r: dict[str, Any]) -> str | None:
    """Why the round trip of ``text`` failed, or None: ``from_dsl(to_dsl(x)) == x`` (a symbol of
    ``x`` is the fresh ``d_k`` in the DSL's text at its place: equal after renaming them) and
    ``to_dsl(from_dsl(y))`` prints as ``y``."""
    import re
    if "crash" in r or "err" in r:
        return f"{text}: {r.get('err') or 'crash ' + str(r.get('crash'))}"
    if r["again"] != r["dsl"]:
        return f"{text}: the DSL printed {r['dsl']}, then {r['again']} after from_dsl"
    x = cs.parse(text)
    names = [n for n in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", cs.to_str(x)) if n not in ("o", "Sw", "_")
             and not n.startswith("_")]
    back = r["back"]
    if isinstance(x, cs.ComposedLayout) and isinstance(x.layout_a, cs.Swizzle) and x.layout_a.bits == 0 \
            and x.offset == 0 and "S<" not in r["dsl"]:
        x = x.layout_b      # the DSL drops the identity swizzle Sw<0,M,S> (the same function)
    fresh = re.findall(r"\bd\d+\b", back)
    if len(fresh) != len(names):
        return f"{text}: the DSL's {r['dsl']} has {len(fresh)} run-time leaves where the value has {len(names)} symbols"
    renamed = re.sub(r"\bd(\d+)\b", lambda m: names[int(m.group(1))], back)
    y = cs.parse(renamed)
    if y != x or str(y) != str(x):
        return f"{text}: back as {back} ({renamed} renamed)"
    return None


def case_jobs(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The DSL's jobs of corpus cases."""
    return [{"id": c["id"], "op": c["op"], "args": c["args"], **({"bind": c["bind"]} if "bind" in c else {})}
            for c in cases]


def layout_arguments(cases: list[dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Every distinct layout, swizzled layout or tiler argument of ``cases``, with the values of
    its identifiers."""
    out: dict[str, dict[str, int]] = {}
    for c in cases:
        for a in c["args"]:
            if (":" in a or "Sw<" in a) and a not in out:
                out[a] = {k: v for k, v in c.get("bind", {}).items() if k in a}
    return out


def emit_jobs() -> list[dict[str, Any]]:
    """Values whose ``emit(x, "dsl")`` code is run under the DSL (``bind``: the run-time values
    given to its parameters)."""
    items: list[tuple[str, dict[str, int], dict[str, Any]]] = [
        ('parse("(_4,_8):(_8,_1)")', {}, {}),
        ('parse("((_2,_4),(_3,_5)):((_1,_30),(_2,_6))")', {}, {}),
        ('parse("(_4,(M,_2)):(_1,(_4,4*M))")', {"M": 6}, {}),
        ('parse("(M,N):(_1,M)", {"M": Dyn("M", divisible_by=16)})', {"M": 32, "N": 8}, {}),
        ('parse("(ceil_div(M,_128),_128):(_128,_1)")', {"M": 300}, {}),
        ('parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)")', {}, {}),
        ('parse("Sw<2,3,3> o _0 o ((_8,_2),_32):((_32,_256),_1)")', {}, {}),
        ('parse("(_2,(_3,M))")', {"M": 5}, {}),
        ('cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))', {}, {}),
        ('cs.make_tiled_copy(cs.Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"), '
         'parse("(_16,_8):(_8,_1)"), parse("(_1,_8)"))', {}, {}),
        ('cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)).get_slice(37)', {},
         {"partition": "C", "shape": [64, 64], "smem": True}),
        ('cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1)).get_slice(5)', {},
         {"partition": "A", "shape": [32, 32], "smem": True}),
        ('cs.make_tiled_copy(cs.Copy_Atom("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t"), '
         'parse("(_16,_8):(_8,_1)"), parse("(_1,_8)")).get_slice(9)', {}, {"partition": "S", "shape": [32, 64]}),
        ('cs.make_tiled_mma("SM100_MMA_F16BF16_2x1SM_TS<bfloat16_t, bfloat16_t, float, 256, 128, UMMA::Major::K, '
         'UMMA::Major::MN>", (1, 2, 1))', {}, {"arch": "sm_100a"}),
        ('cs.make_tiled_mma("SM100_MMA_MXF4_SS<float_e2m1_t, float_e2m1_t, float, float_ue4m3_t, 128, 64, 16, '
         'UMMA::Major::K, UMMA::Major::K>", (2, 1, 1))', {}, {"arch": "sm_100a"}),
    ]
    return [{"id": f"emit{i}", "emit": e, "bind": b, **extra} for i, (e, b, extra) in enumerate(items)]


def emit_failure(cs: Any, job: dict[str, Any], r: dict[str, Any]) -> str | None:
    """Why the emitted code did not build the value, or None: the DSL value it builds prints as
    ``to_dsl``'s (for a thread's partition: reads back as cute_sym's partition)."""
    if "crash" in r or "err" in r:
        return f"{job['emit']}: {r.get('err') or 'crash ' + str(r.get('crash'))}"
    if "ours" in r:
        return None if r["back"] == r["ours"] else f"{job['emit']}: the DSL's partition {r['dsl']}, cute_sym's {r['ours']}"
    return None if r["dsl"] == r["ref"] else f"{job['emit']}: built {r['dsl']}, to_dsl gives {r['ref']}:\n{r['src']}"
