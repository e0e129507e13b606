#!/usr/bin/env python3
"""Time cute_sym's layout algebra against legacy pycute on the shared benchmark set.

    python benchmarks/bench_algebra.py                  # default: about a minute on 2 cores
    python benchmarks/bench_algebra.py --quick          # fewer rounds, a few seconds
    python benchmarks/bench_algebra.py --json out.json  # also write every number as JSON

The calls come from ``../shared/bench/cases.jsonl`` (``--cases`` to point
elsewhere): one layout-algebra call a line, arguments in CuTe notation, with the
CuTe DSL's answer ``expect_dsl``. pycute ships in
``pip install --no-deps nvidia-cutlass==4.2.0.0``; without it the script still
runs cute_sym's passes and says that the comparison was skipped.

Method
------
1. **Correctness gate.** Every call runs once per implementation; the result is
   read back from its CuTe notation (cute_sym) or its ``shape``/``stride``
   (pycute) and compared with ``expect_dsl`` *as a function, mode by mode*: the
   same rank, and for every top-level mode the same size and the same offset at
   every 1-D index (this script evaluates both layouts itself; the DSL nests
   size-1 modes differently from CuTe C++). A cute_sym call that fails the gate
   is listed and left out of the timing; a pycute mismatch is reported and the
   call is still timed (an exception leaves it out).
2. **Static pass.** cute_sym and pycute in one process, interleaved per call as
   A B B A in every round, with gc disabled while timing. Each timed batch runs
   ``n`` calls on ``n`` freshly built inputs (cute_sym: ``cute_sym.parse`` of the
   argument text; pycute: new ``pycute.Layout`` objects built from the same
   text), so no result cached on an input object is reused; input building is
   outside the timed region. ``n`` is calibrated per call and implementation so
   that a batch lasts at least 200 us. cute_sym's memo caches
   (``cute_sym.core.decide._prove_sym`` / ``_bounds``, when present) are cleared
   before every batch. The time of a call is the median over its batches; a
   total is the sum of those per-call medians.
3. **Symbolic pass** (cute_sym only). The same calls with every shape leaf of
   the first argument other than 1 replaced by a dynamic integer
   ``cute_sym.Dyn(name, divisible_by=<the static value>)`` (an extent that is a
   multiple of the static one; strides and the other arguments stay static).
   A call either gives a result -- checked by substituting the static values
   back and comparing with ``expect_dsl`` as above -- or raises
   ``UndecidableError`` (counted as undecided) or another error (listed). Each
   call is timed on its own (fresh inputs, cute_sym's memo caches cleared before
   it, outside the timed region) and its times are summed into batches of at
   least 200 us; ``--cold-sympy`` also clears sympy's global cache before every
   call.

Targets (issue 15): static pass, cute_sym at least 5x faster than pycute (sum of per-call
medians over the calls both run); symbolic pass, median per call well under 1 ms.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import re
import statistics
import sys
import time
from typing import Any, Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)  # the checkout's cute_sym, even when another copy is installed
sys.path.insert(0, HERE)

import cute_sym as cs  # noqa: E402
import bench_extra  # noqa: E402 - the import, symbolic-tiling and rank-scaling sections

try:
    import pycute  # type: ignore[import-untyped]
    PYCUTE_ERROR: Optional[str] = None
except Exception as _e:  # noqa: BLE001 - any import failure means "no pycute"
    pycute = None
    PYCUTE_ERROR = f"{type(_e).__name__}: {_e}"

DEFAULT_CASES = os.path.join(os.path.dirname(ROOT), "shared", "bench", "cases.jsonl")
BATCH_NS = 200_000          # a timed batch lasts at least this long
PYCUTE_OPS = {"composition", "complement", "coalesce", "logical_divide", "zipped_divide",
              "tiled_divide", "logical_product", "left_inverse", "right_inverse"}


# ----------------------------------------------------------------- CuTe notation
class Lay:
    """A layout read from CuTe notation: shape and stride as nested ints (or names)."""

    def __init__(self, shape: Any, stride: Any) -> None:
        self.shape, self.stride = shape, stride

    def __repr__(self) -> str:
        return f"{fmt(self.shape)}:{fmt(self.stride)}"


class Composed:
    """``Sw<B,M,S> o offset o inner``."""

    def __init__(self, swizzle: str, offset: Any, inner: Any) -> None:
        self.swizzle, self.offset, self.inner = swizzle, offset, inner

    def __repr__(self) -> str:
        return f"{self.swizzle} o {fmt(self.offset)} o {self.inner!r}"


class Static(int):
    """An integer printed static (``_N``)."""


TOKEN = re.compile(r"\s*(Sw<-?\d+,-?\d+,-?\d+>|_-?\d+|-?\d+|[A-Za-z][A-Za-z0-9_]*|[(),:_])")


def tokenize(text: str) -> list[str]:
    pos, out = 0, []
    while pos < len(text):
        if text.startswith(" o ", pos):
            out.append(" o ")
            pos += 3
            continue
        m = TOKEN.match(text, pos)
        if not m:
            raise ValueError(f"cannot read {text!r} at {pos}")
        out.append(m.group(1))
        pos = m.end()
    return out


class Reader:
    def __init__(self, text: str) -> None:
        self.toks, self.i, self.text = tokenize(text), 0, text

    def peek(self) -> Optional[str]:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, want: Optional[str] = None) -> str:
        tok = self.peek()
        if tok is None or (want is not None and tok != want):
            raise ValueError(f"expected {want!r} in {self.text!r}")
        self.i += 1
        return tok

    def leaf(self) -> Any:
        tok = self.take()
        if tok == "_":
            return None
        if re.fullmatch(r"_-?\d+", tok):
            return Static(int(tok[1:]))
        if re.fullmatch(r"-?\d+", tok):
            return int(tok)
        if re.fullmatch(r"[A-Za-z]\w*", tok):
            return tok  # an identifier (only in texts this script writes itself)
        raise ValueError(f"unexpected {tok!r} in {self.text!r}")

    def tup(self) -> Any:
        if self.peek() == "(":
            self.take("(")
            items = []
            while self.peek() != ")":
                items.append(self.elem())
                if self.peek() == ",":
                    self.take(",")
            self.take(")")
            return tuple(items)
        return self.leaf()

    def elem(self) -> Any:
        tok = self.peek()
        if tok is not None and tok.startswith("Sw<"):
            sw = self.take()
            self.take(" o ")
            off = self.leaf()
            self.take(" o ")
            return Composed(sw, off, self.elem())
        shape = self.tup()
        if self.peek() == ":":
            self.take(":")
            return Lay(shape, self.tup())
        return shape

    def whole(self) -> Any:
        obj = self.elem()
        if self.peek() is not None:
            raise ValueError(f"trailing text in {self.text!r}")
        return obj


def read(text: str) -> Any:
    return Reader(text).whole()


def fmt(x: Any) -> str:
    if isinstance(x, tuple):
        return "(" + ",".join(fmt(e) for e in x) + ")"
    if x is None:
        return "_"
    if isinstance(x, Lay):
        return repr(x)
    if isinstance(x, str):
        return x
    return f"_{int(x)}" if isinstance(x, Static) else str(int(x))


# ----------------------------------------------------------------- evaluation
def product(s: Any) -> int:
    if isinstance(s, tuple):
        p = 1
        for e in s:
            p *= product(e)
        return p
    return int(s)


def offset(shape: Any, stride: Any, i: int) -> int:
    """CuTe's 1-D (colexicographic) index -> offset; the last mode takes the rest."""
    if isinstance(shape, tuple):
        total, rest = 0, i
        for k, (s, d) in enumerate(zip(shape, stride)):
            n = product(s)
            total += offset(s, d, rest if k == len(shape) - 1 else rest % n)
            rest //= n
        return total
    return i * int(stride)


def modes(lay: Lay) -> list[tuple[Any, Any]]:
    if isinstance(lay.shape, tuple):
        return list(zip(lay.shape, lay.stride))
    return [(lay.shape, lay.stride)]


def same_function(got: Any, want: Any) -> Optional[str]:
    """None when ``got`` and ``want`` are the same function mode by mode; else why not."""
    if isinstance(want, Composed):
        if not isinstance(got, Composed):
            return "expected a swizzled (composed) layout"
        if got.swizzle != want.swizzle or int(got.offset) != int(want.offset):
            return f"swizzle/offset {got.swizzle} o {got.offset} != {want.swizzle} o {want.offset}"
        return same_function(got.inner, want.inner)
    if not (isinstance(got, Lay) and isinstance(want, Lay)):
        return f"not a layout: {got!r}"
    a, b = modes(got), modes(want)
    if len(a) != len(b):
        return f"rank {len(a)} != {len(b)}"
    for k, ((sa, da), (sb, db)) in enumerate(zip(a, b)):
        na, nb = product(sa), product(sb)
        if na != nb:
            return f"mode {k}: size {na} != {nb}"
        for i in range(na):
            if offset(sa, da, i) != offset(sb, db, i):
                return f"mode {k}: offset at index {i} differs"
    return None


def size_of(lay: Lay) -> int:
    return product(lay.shape)


def at(lay: Lay, i: int) -> int:
    return offset(lay.shape, lay.stride, i)


def same_1d(got: Lay, want: Lay) -> Optional[str]:
    """None when the two layouts are the same function of the 1-D index (any nesting)."""
    n = size_of(want)
    if size_of(got) != n:
        return f"size {size_of(got)} != {n}"
    for i in range(n):
        if at(got, i) != at(want, i):
            return f"offset at index {i} differs"
    return None


def inverse_check(op: str, arg: Lay, inv: Lay) -> Optional[str]:
    """None when ``inv`` is a right (left) inverse of ``arg`` on its whole domain."""
    if op == "right_inverse":
        for i in range(size_of(inv)):
            if at(arg, at(inv, i)) != i:
                return f"L(R({i})) != {i}"
        return None
    for i in range(size_of(arg)):
        if at(inv, at(arg, i)) != i:
            return f"R(L({i})) != {i}"
    return None


def symbolic_check(op: str, first_static: Any, n_args: int, got: Any, want: Any) -> tuple[str, str]:
    """Judge a symbolic result after substituting the static values back.

    ``decided`` when it is the static answer mode by mode; ``decided-weaker`` when it is
    a valid answer that CuTe would also give with dynamic integers (a coalesce that
    cannot merge across a symbol, a smaller right inverse, a complement with a
    size-1 mode); ``mismatch`` otherwise.
    """
    why = same_function(got, want)
    if why is None:
        return "decided", ""
    if isinstance(got, Lay) and isinstance(want, Lay):
        if (op == "coalesce" and n_args == 1) or op == "complement":
            if same_1d(got, want) is None:
                return "decided-weaker", f"same 1-D function, other modes: {why}"
        if op in ("right_inverse", "left_inverse") and isinstance(first_static, Lay):
            bad = inverse_check(op, first_static, got)
            if bad is None:
                return "decided-weaker", f"a valid {op.replace('_', ' ')}, not the static one: {why}"
            why += f"; not a {op.replace('_', ' ')}: {bad}"
        if op == "coalesce" and n_args == 2:
            a, b = modes(got), modes(want)
            if len(a) == len(b) and all(same_1d(Lay(*x), Lay(*y)) is None for x, y in zip(a, b)):
                return "decided-weaker", f"same function by mode, other nesting: {why}"
    return "mismatch", why


# ----------------------------------------------------------------- inputs
def to_pycute(x: Any) -> Any:
    """A node read from CuTe notation -> pycute's argument form (fresh objects)."""
    if isinstance(x, Lay):
        return pycute.Layout(_ints(x.shape), _ints(x.stride))
    if isinstance(x, tuple):  # a tiler by mode (or a coalesce profile / cotarget tuple)
        return tuple(to_pycute_mode(e) for e in x)
    if x is None:
        return None
    return int(x)


def to_pycute_mode(x: Any) -> Any:
    if isinstance(x, Lay):
        return pycute.Layout(_ints(x.shape), _ints(x.stride))
    if isinstance(x, tuple):  # a nested tuple inside a tiler is a by-mode tiler again
        return tuple(to_pycute_mode(e) for e in x)
    if x is None:
        return None
    return pycute.Layout(int(x))  # an int tiler mode is the layout n:1 (pycute's own reading)


def _ints(t: Any) -> Any:
    return tuple(_ints(e) for e in t) if isinstance(t, tuple) else int(t)


def pycute_result(r: Any) -> Any:
    if pycute is not None and isinstance(r, pycute.Layout):
        return Lay(r.shape, r.stride)
    return r


def symbolic_first_arg(node: Any) -> tuple[str, dict[str, int]]:
    """The first argument's text with every shape leaf != 1 replaced by a name."""
    values: dict[str, int] = {}

    def shape(s: Any) -> Any:
        if isinstance(s, tuple):
            return tuple(shape(e) for e in s)
        if s is None or int(s) == 1:
            return s
        name = f"S{len(values)}"
        values[name] = int(s)
        return name

    def go(n: Any) -> str:
        if isinstance(n, Composed):
            return f"{n.swizzle} o {fmt(n.offset)} o {go(n.inner)}"
        if isinstance(n, Lay):
            return f"{fmt(shape(n.shape))}:{fmt(n.stride)}"
        return fmt(shape(n))

    return go(node), values


# ----------------------------------------------------------------- the calls
class Call:
    def __init__(self, case: dict[str, Any]) -> None:
        self.id: str = case["id"]
        self.op: str = case["op"]
        self.args: list[str] = case["args"]
        self.expect_text: str = case["expect_dsl"]
        self.expect = read(self.expect_text)
        self.nodes = [read(a) for a in self.args]
        self.swizzled = any("Sw<" in a for a in self.args)
        self.cs_fn: Callable[..., Any] = getattr(cs, self.op)
        self.py_fn: Optional[Callable[..., Any]] = None
        self.py_skip = ""
        if pycute is None:
            self.py_skip = "pycute not importable"
        elif self.swizzled:
            self.py_skip = "swizzled (composed) layout"
        elif self.op not in PYCUTE_OPS or not hasattr(pycute, self.op):
            self.py_skip = f"pycute has no {self.op}"
        else:
            self.py_fn = getattr(pycute, self.op)
        self.cs_status = self.py_status = self.sym_status = ""
        self.cs_note = self.py_note = self.sym_note = ""
        self.cs_times: list[float] = []   # ns per call, one entry per batch
        self.py_times: list[float] = []
        self.sym_times: list[float] = []
        self.pysym_times: list[float] = []     # pycute fed the same sympy symbols (symbolic pass)
        self.pysym_ok = False
        self.cs_n = self.py_n = self.sym_n = 1
        sym_text, self.sym_values = symbolic_first_arg(self.nodes[0])
        self.sym_args = [sym_text] + self.args[1:]
        self.sym_symbols = {k: cs.Dyn(k, divisible_by=v) for k, v in self.sym_values.items()}

    # fresh inputs
    def cs_inputs(self) -> list[Any]:
        return [cs.parse(a) for a in self.args]

    def py_inputs(self) -> list[Any]:
        return [to_pycute(n) for n in self.nodes]

    def sym_inputs(self) -> list[Any]:
        return [cs.parse(self.sym_args[0], self.sym_symbols)] + [cs.parse(a) for a in self.args[1:]]

    def pysym_inputs(self) -> list[Any]:
        """pycute's arguments with the first layout's extents the same sympy symbols as cute_sym's."""
        first = cs.parse(self.sym_args[0], self.sym_symbols)
        return [pycute.Layout(_plain(first.shape), _plain(first.stride))] + [to_pycute(n) for n in self.nodes[1:]]


def _plain(t: Any) -> Any:
    """A cute_sym IntTuple as plain tuples of ints and sympy expressions (what pycute takes)."""
    if isinstance(t, tuple):
        return tuple(_plain(e) for e in t)
    return int(t) if isinstance(t, int) else t


def clear_caches(cold_sympy: bool = False) -> None:
    from cute_sym.core import decide
    try:
        decide.clear_caches(symbols=cold_sympy)
    except TypeError:       # an older cute_sym
        decide.clear_caches()
    if cold_sympy:
        from sympy.core.cache import clear_cache
        clear_cache()


def cache_size() -> int:
    from cute_sym.core.decide.prove import _prove_sym
    from cute_sym.core.decide.reason import _bounds
    total = 0
    for fn in (_prove_sym, _bounds):
        if fn is not None and hasattr(fn, "cache_info"):
            total += fn.cache_info().currsize
    return total


def short(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return text if len(text) < 160 else text[:157] + "..."


def gate(calls: list[Call]) -> None:
    for c in calls:
        clear_caches()
        try:
            r = c.cs_fn(*c.cs_inputs())
            why = same_function(read(str(r)), c.expect)
            c.cs_status, c.cs_note = ("ok", "") if why is None else ("mismatch", f"{why}: got {r}")
        except Exception as e:  # noqa: BLE001 - every failure is reported, none aborts
            unsupported = "not yet supported" in str(e) or isinstance(e, NotImplementedError)
            c.cs_status, c.cs_note = ("unsupported" if unsupported else "error"), short(e)
        if c.py_fn is None:
            c.py_status, c.py_note = "skip", c.py_skip
        else:
            try:
                r = pycute_result(c.py_fn(*c.py_inputs()))
                why = same_function(r, c.expect)
                c.py_status, c.py_note = ("ok", "") if why is None else ("mismatch", f"{why}: got {r!r}")
                if why and c.op in ("left_inverse", "right_inverse") and isinstance(r, Lay):
                    bad = inverse_check(c.op, c.nodes[0], r)
                    c.py_note += (f" (a valid {c.op.replace('_', ' ')}, but not CuTe's)" if bad is None
                                  else f" (not a {c.op.replace('_', ' ')}: {bad})")
            except Exception as e:  # noqa: BLE001
                c.py_status, c.py_note = "error", short(e)


def gate_symbolic(calls: list[Call], cold_sympy: bool) -> None:
    undecidable = getattr(cs, "UndecidableError", None)
    for c in calls:
        if c.cs_status != "ok":
            c.sym_status, c.sym_note = "skip", f"static call {c.cs_status}"
            continue
        clear_caches(cold_sympy)
        try:
            r = c.cs_fn(*c.sym_inputs())
        except Exception as e:  # noqa: BLE001
            if undecidable is not None and isinstance(e, undecidable):
                c.sym_status, c.sym_note = "undecided", short(e)
            else:
                c.sym_status, c.sym_note = "error", short(e)
            continue
        try:
            back = read(str(cs.subs(r, c.sym_values)))
            c.sym_status, why = symbolic_check(c.op, c.nodes[0], len(c.args), back, c.expect)
            c.sym_note = f"{why}: got {r}" if why else ""
        except Exception as e:  # noqa: BLE001
            c.sym_status, c.sym_note = "mismatch", f"checking {r}: {short(e)}"


# ----------------------------------------------------------------- timing
def time_batch(fn: Callable[..., Any], inputs: list[list[Any]]) -> int:
    """ns for running fn over every prepared input list (gc is off; inputs are fresh)."""
    clock = bench_extra.CLOCK     # CPU time of this thread: other processes do not count
    t0 = clock()
    for args in inputs:
        fn(*args)
    return clock() - t0


def calibrate(fn: Callable[..., Any], make: Callable[[], list[Any]]) -> int:
    n = 1
    while True:
        inputs = [make() for _ in range(n)]
        clear_caches()
        t = time_batch(fn, inputs)
        if t >= BATCH_NS or n >= 100_000:
            return n
        n = max(n + 1, math.ceil(n * 1.25 * BATCH_NS / max(t, 1)))


CACHE_TOUCHED: set[str] = set()   # static calls that left entries in cute_sym's memo caches


def one_batch(fn: Callable[..., Any], make: Callable[[], list[Any]], n: int, cid: str = "") -> float:
    inputs = [make() for _ in range(n)]
    clear_caches()
    t = time_batch(fn, inputs) / n
    if cid and cache_size():
        CACHE_TOUCHED.add(cid)
    return t


def static_pass(calls: list[Call], rounds: int, progress: bool) -> None:
    timed = [c for c in calls if c.cs_status == "ok"]
    for c in timed:
        c.cs_n = calibrate(c.cs_fn, c.cs_inputs)
        if c.py_fn is not None and c.py_status in ("ok", "mismatch"):
            c.py_n = calibrate(c.py_fn, c.py_inputs)
    for r in range(rounds):
        gc.collect()
        gc.disable()
        try:
            for c in timed:
                both = c.py_fn is not None and c.py_status in ("ok", "mismatch")
                c.cs_times.append(one_batch(c.cs_fn, c.cs_inputs, c.cs_n, c.id))    # A
                if both:
                    c.py_times.append(one_batch(c.py_fn, c.py_inputs, c.py_n))      # B
                    c.py_times.append(one_batch(c.py_fn, c.py_inputs, c.py_n))      # B
                c.cs_times.append(one_batch(c.cs_fn, c.cs_inputs, c.cs_n, c.id))    # A
        finally:
            gc.enable()
        if progress:
            print(f"  static round {r + 1}/{rounds}", file=sys.stderr, end="\r")
    if progress:
        print(file=sys.stderr)


def symbolic_pass(calls: list[Call], rounds: int, cold_sympy: bool, progress: bool) -> None:
    timed = [c for c in calls if c.sym_status in ("decided", "decided-weaker", "undecided", "mismatch")]
    clock = bench_extra.CLOCK
    for r in range(rounds):
        gc.collect()
        gc.disable()
        try:
            for c in timed:
                total, n = 0, 0
                while total < BATCH_NS or n < 1:
                    args = c.sym_inputs()
                    clear_caches(cold_sympy)
                    t0 = clock()
                    try:
                        c.cs_fn(*args)
                    except Exception:  # noqa: BLE001 - undecided calls are timed too
                        pass
                    total += clock() - t0
                    n += 1
                c.sym_times.append(total / n)
                c.sym_n = max(c.sym_n, n)
                if c.py_fn is not None and (r == 0 or c.pysym_ok):
                    total, n = 0, 0
                    while total < BATCH_NS or n < 1:
                        args = c.pysym_inputs()
                        clear_caches(cold_sympy)
                        t0 = clock()
                        try:
                            c.py_fn(*args)
                            c.pysym_ok = c.pysym_ok or r == 0
                        except Exception:  # noqa: BLE001 - a call pycute cannot run is not compared
                            c.pysym_ok = False
                            break
                        total += clock() - t0
                        n += 1
                    if c.pysym_ok:
                        c.pysym_times.append(total / n)
        finally:
            gc.enable()
        if progress:
            print(f"  symbolic round {r + 1}/{rounds}", file=sys.stderr, end="\r")
    if progress:
        print(file=sys.stderr)


# ----------------------------------------------------------------- report
def med(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def us(ns: float) -> str:
    return "-" if ns != ns else f"{ns / 1000:.2f}"


def ratio(a: float, b: float) -> str:
    return "-" if not (a == a and b == b) or b == 0 else f"{a / b:.2f}x"


def report(calls: list[Call], args: argparse.Namespace) -> dict[str, Any]:
    ops = sorted({c.op for c in calls}, key=lambda o: [c.op for c in calls].index(o))
    out: dict[str, Any] = {"per_op": {}, "calls": []}
    lines = []
    head = (f"{'op':<16}{'calls':>6}{'both':>6}  {'cute_sym us/call':>16}  {'pycute us/call':>14}"
            f"  {'cute_sym sum us':>15}  {'pycute sum us':>13}  {'pycute/cute_sym':>15}")
    lines += [head, "-" * len(head)]
    tot = {"n": 0, "both": 0, "cs": 0.0, "py": 0.0, "cs_all": 0.0, "cs_all_n": 0}
    for op in ops:
        mine = [c for c in calls if c.op == op and c.cs_times]
        both = [c for c in mine if c.py_times]
        cs_meds = [med(c.cs_times) for c in both]
        py_meds = [med(c.py_times) for c in both]
        cs_all = [med(c.cs_times) for c in mine]
        cs_sum, py_sum = sum(cs_meds), sum(py_meds)
        tot["n"] += len(mine)
        tot["both"] += len(both)
        tot["cs"] += cs_sum
        tot["py"] += py_sum
        tot["cs_all"] += sum(cs_all)
        tot["cs_all_n"] += len(cs_all)
        if both:
            lines.append(f"{op:<16}{len(mine):>6}{len(both):>6}  {us(med(cs_meds)):>16}  "
                         f"{us(med(py_meds)):>14}  {us(cs_sum):>15}  {us(py_sum):>13}  "
                         f"{ratio(py_sum, cs_sum):>15}")
        else:
            lines.append(f"{op:<16}{len(mine):>6}{0:>6}  {us(med(cs_all)):>16}  {'-':>14}  "
                         f"{us(sum(cs_all)):>15}  {'-':>13}  {'(cute_sym only)':>15}")
        out["per_op"][op] = {"calls": len(mine), "both": len(both),
                             "cute_sym_median_us": med(cs_meds if both else cs_all) / 1000,
                             "pycute_median_us": med(py_meds) / 1000 if both else None,
                             "cute_sym_sum_us": (cs_sum if both else sum(cs_all)) / 1000,
                             "pycute_sum_us": py_sum / 1000 if both else None,
                             "ratio": py_sum / cs_sum if both and cs_sum else None}
    lines.append("-" * len(head))
    both_all = [c for c in calls if c.cs_times and c.py_times]
    if not both_all:
        lines.append("overall (both): pycute comparison skipped -- "
                     + (f"pycute is not importable ({PYCUTE_ERROR})" if pycute is None
                        else "no call ran in both"))
    else:
        lines.append(f"{'overall (both)':<16}{tot['both']:>6}{tot['both']:>6}  "
                     f"{us(med([med(c.cs_times) for c in both_all])):>16}  "
                     f"{us(med([med(c.py_times) for c in both_all])):>14}  {us(tot['cs']):>15}  "
                     f"{us(tot['py']):>13}  {ratio(tot['py'], tot['cs']):>15}")
    lines.append(f"{'all cute_sym':<16}{tot['cs_all_n']:>6}{'':>6}  "
                 f"{us(med([med(c.cs_times) for c in calls if c.cs_times])):>16}  {'':>14}  "
                 f"{us(tot['cs_all']):>15}")
    print("\n".join(lines))
    r_all = tot["py"] / tot["cs"] if tot["cs"] and tot["both"] else None
    if r_all is not None:
        fam = {}
        for c in calls:
            if c.cs_times and c.py_times:
                f = fam.setdefault(c.op, [0.0, 0.0])
                f[0] += med(c.cs_times)
                f[1] += med(c.py_times)
        low = min(((v[1] / v[0], op) for op, v in fam.items() if v[0]), default=(None, ""))
        verdict = "MET" if r_all >= 5 else "NOT MET"
        print(f"\ntarget: cute_sym >= 5x faster than pycute on the static pass: "
              f"{r_all:.2f}x -> {verdict}")
        if low[0] is not None:
            print(f"target: no family below 3x: lowest {low[1]} {low[0]:.2f}x -> "
                  f"{'MET' if low[0] >= 3 else 'NOT MET'}")
    out["overall"] = {"both": tot["both"], "cute_sym_sum_us": tot["cs"] / 1000,
                      "pycute_sum_us": tot["py"] / 1000, "ratio": r_all,
                      "cute_sym_all_calls": tot["cs_all_n"], "cute_sym_all_sum_us": tot["cs_all"] / 1000}

    # symbolic pass
    sym = [c for c in calls if c.sym_times]
    if sym:
        dec = [c for c in sym if c.sym_status in ("decided", "decided-weaker")]
        weaker = sum(1 for c in sym if c.sym_status == "decided-weaker")
        und = [c for c in sym if c.sym_status == "undecided"]
        meds = [med(c.sym_times) for c in sym]
        dmeds = [med(c.sym_times) for c in dec]
        attempted = sum(1 for c in calls if c.sym_status not in ("", "skip"))
        print(f"\nsymbolic pass (first argument's shape leaves -> Dyn(name, divisible_by=value)"
              f"{', sympy cache cleared per call' if args.cold_sympy else ''}):")
        print(f"  calls {attempted}: decided {len(dec)} (checked against expect_dsl after substituting "
              f"the values back: {len(dec) - weaker} the static answer, {weaker} a valid but weaker "
              f"answer, as CuTe gives with dynamic integers), undecided {len(und)} (UndecidableError), "
              f"wrong {sum(1 for c in calls if c.sym_status == 'mismatch')}, "
              f"error {sum(1 for c in calls if c.sym_status == 'error')}")
        print(f"  median per call: {us(med(meds))} us (all timed), {us(med(dmeds))} us (decided); "
              f"p90 {us(sorted(meds)[int(0.9 * (len(meds) - 1))])} us, max {us(max(meds))} us; "
              f"sum of medians {sum(meds) / 1e6:.2f} ms")
        verdict = "MET" if med(meds) < 1e6 else "NOT MET"
        print(f"  target: median well under 1 ms per call -> {verdict}")
        over = [c for c in sym if med(c.sym_times) > 100_000]
        print(f"  over 100 us: {len(over)} of {len(sym)} ({sum(c.sym_status == 'undecided' for c in over)} of them "
              f"undecided)")
        both = [c for c in sym if c.pysym_times]
        if both:
            faster = [c for c in both if med(c.sym_times) < med(c.pysym_times)]
            bd = [c for c in both if c.sym_status in ("decided", "decided-weaker")]
            print(f"  vs pycute fed the same sympy symbols ({len(both)} calls it runs): cute_sym faster on "
                  f"{len(faster)}; on the decided ones {sum(1 for c in bd if c in faster)} of {len(bd)}; "
                  f"sums {sum(med(c.sym_times) for c in both) / 1e6:.2f} ms vs "
                  f"{sum(med(c.pysym_times) for c in both) / 1e6:.2f} ms")
        per_op_sym = {}
        for op in ops:
            cc = [c for c in sym if c.op == op]
            if cc:
                per_op_sym[op] = {"calls": len(cc), "decided": sum(c.sym_status in ("decided", "decided-weaker") for c in cc),
                                  "median_us": med([med(c.sym_times) for c in cc]) / 1000}
        print("  per op: " + ", ".join(f"{op} {v['median_us']:.0f} us ({v['decided']}/{v['calls']})"
                                       for op, v in per_op_sym.items()))
        out["symbolic"] = {"calls": attempted, "decided": len(dec), "decided_weaker": weaker,
                           "undecided": len(und),
                           "median_us": med(meds) / 1000, "median_decided_us": med(dmeds) / 1000,
                           "cold_sympy": args.cold_sympy, "per_op": per_op_sym}

    # slowest relative to pycute
    rel = sorted((c for c in calls if c.cs_times and c.py_times),
                 key=lambda c: med(c.py_times) / med(c.cs_times))
    if rel:
        print("\nslowest cute_sym calls relative to pycute (pycute/cute_sym, lowest first):")
        for c in rel[:args.top]:
            print(f"  {med(c.py_times) / med(c.cs_times):6.2f}x  cute_sym {us(med(c.cs_times)):>8} us"
                  f"  pycute {us(med(c.py_times)):>8} us  {c.id}")
    slow = sorted((c for c in calls if c.cs_times), key=lambda c: -med(c.cs_times))
    print("\nslowest cute_sym calls (static, absolute):")
    for c in slow[:5]:
        print(f"  cute_sym {us(med(c.cs_times)):>8} us  {c.id}")
    if sym:
        print("\nslowest symbolic calls:")
        for c in sorted(sym, key=lambda c: -med(c.sym_times))[:5]:
            print(f"  {us(med(c.sym_times)):>9} us  {c.sym_status:<9} {c.id}")

    for c in calls:
        out["calls"].append({
            "id": c.id, "op": c.op,
            "cute_sym": {"status": c.cs_status, "note": c.cs_note, "n": c.cs_n,
                         "median_us": med(c.cs_times) / 1000 if c.cs_times else None},
            "pycute": {"status": c.py_status, "note": c.py_note, "n": c.py_n,
                       "median_us": med(c.py_times) / 1000 if c.py_times else None},
            "symbolic": {"status": c.sym_status, "note": c.sym_note,
                         "median_us": med(c.sym_times) / 1000 if c.sym_times else None,
                         "pycute_median_us": med(c.pysym_times) / 1000 if c.pysym_times else None}})
    return out


def print_gate(calls: list[Call]) -> None:
    n = len(calls)
    count = lambda attr, s: sum(1 for c in calls if getattr(c, attr) == s)  # noqa: E731
    print(f"correctness gate ({n} calls, results compared with expect_dsl as functions, mode by mode):")
    print(f"  cute_sym: {count('cs_status', 'ok')} ok, {count('cs_status', 'mismatch')} wrong, "
          f"{count('cs_status', 'error')} error, {count('cs_status', 'unsupported')} not supported")
    if pycute is None:
        print(f"  pycute: SKIPPED -- pycute is not importable ({PYCUTE_ERROR}); "
              "install it with: pip install --no-deps nvidia-cutlass==4.2.0.0")
    else:
        skipped: dict[str, int] = {}
        for c in calls:
            if c.py_status == "skip":
                skipped[c.py_note] = skipped.get(c.py_note, 0) + 1
        print(f"  pycute:   {count('py_status', 'ok')} ok, {count('py_status', 'mismatch')} wrong, "
              f"{count('py_status', 'error')} error, {count('py_status', 'skip')} not run ("
              + "; ".join(f"{v} {k}" for k, v in sorted(skipped.items())) + ")")
    for c in calls:
        if c.cs_status not in ("ok", ""):
            print(f"  cute_sym {c.cs_status}: {c.id}: {c.cs_note}")
    for c in calls:
        if c.py_status in ("mismatch", "error"):
            print(f"  pycute {c.py_status}: {c.id}: {c.py_note}")


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", default=DEFAULT_CASES, help="the benchmark set (JSON lines)")
    ap.add_argument("--quick", action="store_true", help="fewer rounds (a smoke run)")
    ap.add_argument("--rounds", type=int, help="static rounds (default 10, --quick 3)")
    ap.add_argument("--sym-rounds", type=int, help="symbolic rounds (default 5, --quick 1)")
    ap.add_argument("--no-symbolic", action="store_true", help="skip the symbolic pass")
    ap.add_argument("--cold-sympy", action="store_true",
                    help="symbolic pass: also clear sympy's global cache before every call")
    ap.add_argument("--op", action="append", help="only these ops (repeatable)")
    ap.add_argument("--top", type=int, default=10, help="how many slowest-relative calls to list")
    ap.add_argument("--json", metavar="OUT", help="write every number to this JSON file")
    ap.add_argument("--progress", action="store_true", help="print round progress on stderr")
    ap.add_argument("--no-extra", action="store_true",
                    help="skip the import, symbolic-tiling and rank-scaling sections")
    args = ap.parse_args(argv)
    rounds = args.rounds or (3 if args.quick else 10)
    sym_rounds = args.sym_rounds or (1 if args.quick else 5)

    with open(args.cases) as f:
        calls = [Call(json.loads(line)) for line in f if line.strip()]
    if args.op:
        calls = [c for c in calls if c.op in set(args.op)]
    start = time.perf_counter()
    print(f"cute_sym {getattr(cs, '__version__', '?')} from {os.path.dirname(cs.__file__)}; "
          f"pycute {'from ' + os.path.dirname(pycute.__file__) if pycute else 'not importable'}; "
          f"Python {platform.python_version()}, {os.cpu_count()} cpus")
    print(f"cases: {args.cases} ({len(calls)} calls); static rounds {rounds} (A B B A each), "
          f"symbolic rounds {0 if args.no_symbolic else sym_rounds}; batches >= {BATCH_NS // 1000} us\n")

    extra: dict[str, Any] = {}
    if not args.no_extra:
        # first, in a process that has done nothing else (the later passes fill sympy's cache and the heap)
        extra["import"] = bench_extra.import_report(ROOT, repeat=3)
        extra["tilings"] = bench_extra.tilings_report(cs, pycute, 9 if args.quick else 21)
        extra["rank_scaling"] = bench_extra.rank_report(cs, 5 if args.quick else 9)
        print()
    gate(calls)
    if not args.no_symbolic:
        gate_symbolic(calls, args.cold_sympy)
    print_gate(calls)
    print()
    t_static = time.perf_counter()
    static_pass(calls, rounds, args.progress)
    t_sym = time.perf_counter()
    if not args.no_symbolic:
        symbolic_pass(calls, sym_rounds, args.cold_sympy, args.progress)
    t_end = time.perf_counter()
    print("static pass: median time per call (us), medians over batches; sums of per-call medians\n")
    out = report(calls, args)
    if not args.no_symbolic:
        bad = [c for c in calls if c.sym_status in ("mismatch", "error")]
        for c in bad:
            print(f"  symbolic {c.sym_status}: {c.id}: {c.sym_note}")
    if not args.no_extra:
        out["extra"] = extra
    if CACHE_TOUCHED:
        print(f"\nnote: {len(CACHE_TOUCHED)} static calls used cute_sym's sympy memo caches "
              f"(a static call should create no sympy object): {sorted(CACHE_TOUCHED)[:5]}")
    elapsed = time.perf_counter() - start
    print(f"\ntotal wall time {elapsed:.1f} s (gate {t_static - start:.1f} s, static pass "
          f"{t_sym - t_static:.1f} s, symbolic pass {t_end - t_sym:.1f} s)")
    if args.json:
        out["meta"] = {"cases": args.cases, "rounds": rounds, "sym_rounds": sym_rounds,
                       "pycute": pycute is not None, "pycute_error": PYCUTE_ERROR,
                       "python": platform.python_version(), "cpus": os.cpu_count(),
                       "wall_s": elapsed, "batch_ns": BATCH_NS}
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
