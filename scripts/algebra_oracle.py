#!/usr/bin/env python3
"""A differential fuzz of the layout algebra against CuTe compiled here (host g++).

Draws random layouts (nested, zero and negative strides, static and dynamic leaves), applies
CuTe's operations, has CuTe print each answer, and writes the cases in the conformance corpus's
format (``../shared/conformance/FORMAT.md``: dynamic cases with their ``bind`` values, CuTe's
refusals as ``{"error": ...}``), so the corpus's own runners judge cute_sym on them:

    python3 scripts/algebra_oracle.py --n 3000 --seed 1 --out /tmp/algebra_fuzz
    python3 ../shared/conformance/fuzz/check.py --cases /tmp/algebra_fuzz

``--tests tests/data/algebra_oracle.jsonl`` also writes the static cases for the test suite
(tests/test_algebra_oracle.py; ``--n 1000 --seed 2`` made the file there).

A static case that cute_sym refuses is kept only when CuTe compiles it (``--refused``): CuTe
refuses most of them at compile time, and one refusal costs one compile. A dynamic case where
CuTe stops at run time (an assert) is left out, as the corpus leaves it out. Where the fuzzed
corpus's contracts are at hand (``--semantics``, ``../shared/conformance/fuzz``), a case whose
CuTe answer breaks its operation's contract is marked ``cute_contract``, as the corpus marks it.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from typing import Any, Optional, Union

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

import cute_sym as cs  # noqa: E402
from cute_host import build, default_include  # noqa: E402


# ---------------------------------------------------------------- values with both spellings
class I:
    """An integer leaf: static (``_4``, ``Int<4>{}``) or dynamic (an identifier bound to its value)."""
    __slots__ = ("v", "name")

    def __init__(self, v: int, name: Optional[str] = None) -> None:
        self.v, self.name = v, name

    def text(self) -> str:
        return self.name if self.name else f"_{self.v}"

    def cpp(self) -> str:
        return f"{self.name}" if self.name else f"Int<{self.v}>{{}}"


class L:
    __slots__ = ("shape", "stride")

    def __init__(self, shape: Any, stride: Any) -> None:
        self.shape, self.stride = shape, stride


class Sw:
    """A swizzle ``Sw<B,M,S>``."""
    __slots__ = ("b", "m", "s")

    def __init__(self, b: int, m: int, s: int) -> None:
        self.b, self.m, self.s = b, m, s


class C:
    """A composed layout ``Sw<B,M,S> o _0 o layout``."""
    __slots__ = ("sw", "lay")

    def __init__(self, sw: Sw, lay: L) -> None:
        self.sw, self.lay = sw, lay


Node = Union[I, L, Sw, C, tuple]


def text(x: Any) -> str:
    if isinstance(x, I):
        return x.text()
    if isinstance(x, Sw):
        return f"Sw<{x.b},{x.m},{x.s}>"
    if isinstance(x, C):
        return f"{text(x.sw)} o _0 o {text(x.lay)}"
    if isinstance(x, L):
        return f"{text(x.shape)}:{text(x.stride)}"
    return "(" + ",".join(text(e) for e in x) + ")"


def cpp(x: Any, maker: str = "make_shape") -> str:
    if isinstance(x, I):
        return x.cpp()
    if isinstance(x, Sw):
        return f"Swizzle<{x.b},{x.m},{x.s}>{{}}"
    if isinstance(x, C):
        return f"make_composed_layout({cpp(x.sw)}, Int<0>{{}}, {cpp(x.lay)})"
    if isinstance(x, L):
        return f"make_layout({cpp(x.shape, 'make_shape')}, {cpp(x.stride, 'make_stride')})"
    inner = ", ".join(cpp(e, maker) for e in x)
    if any(isinstance(e, L) for e in x):
        return f"make_tile({inner})"
    return f"{maker}({inner})"


def leaves(x: Any) -> list[I]:
    if isinstance(x, I):
        return [x]
    if isinstance(x, Sw):
        return []
    if isinstance(x, C):
        return leaves(x.lay)
    if isinstance(x, L):
        return leaves(x.shape) + leaves(x.stride)
    return [y for e in x for y in leaves(e)]


# ---------------------------------------------------------------- random layouts
SHAPES = (1, 2, 2, 2, 3, 4, 4, 4, 6, 8, 8, 16, 32)


def rand_shape(rng: random.Random, depth: int) -> Any:
    if depth == 0 or rng.random() < 0.55:
        return rng.choice(SHAPES)
    return tuple(rand_shape(rng, depth - 1) for _ in range(rng.choice((1, 2, 2, 3))))


def _flat(t: Any) -> list[int]:
    return [t] if isinstance(t, int) else [y for e in t for y in _flat(e)]


def _like(t: Any, vals: list[int]) -> Any:
    if isinstance(t, int):
        return vals.pop(0)
    return tuple(_like(e, vals) for e in t)


def rand_layout(rng: random.Random, depth: int = 2, compact: Optional[bool] = None) -> tuple[Any, Any]:
    """(shape, stride) as plain nested ints: compact (a permuted column-major, maybe padded or with
    a broadcast mode) or free-form strides."""
    shape = rand_shape(rng, depth)
    if isinstance(shape, int) and rng.random() < 0.5:
        shape = (shape,) if rng.random() < 0.3 else shape
    flat = _flat(shape)
    compact = rng.random() < 0.6 if compact is None else compact
    if compact:
        order = list(range(len(flat)))
        if rng.random() < 0.5:
            rng.shuffle(order)
        strides = [0] * len(flat)
        run = 1
        for k in order:
            strides[k] = run
            run *= flat[k] * (rng.choice((1, 1, 1, 2)))
        if rng.random() < 0.15:
            strides[rng.randrange(len(flat))] = 0
    else:
        strides = [rng.choice((0, 1, 1, 2, 3, 4, 8, 16, 32, 64, -1, -2)) for _ in flat]
    return shape, _like(shape, strides)


def dyn(t: Any, rng: random.Random, names: list[str], p: float) -> Any:
    """Plain ints -> I leaves, each dynamic with probability ``p`` (named a, b, ...)."""
    if isinstance(t, int):
        if rng.random() < p:
            name = _name(len(names))
            names.append(name)
            return I(t, name)
        return I(t)
    return tuple(dyn(e, rng, names, p) for e in t)


def _name(k: int) -> str:
    letters = "abcdefghjkmnpqrstuvwxyz"
    return letters[k] if k < len(letters) else letters[k // len(letters) - 1] + letters[k % len(letters)]


UNARY = ("coalesce", "right_inverse", "left_inverse", "nullspace", "make_layout_like", "coshape")
BINARY = ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
          "blocked_product", "raked_product", "zipped_product", "tiled_product", "flat_product",
          "max_common_vector", "max_common_layout")
CASTS = ("upcast", "downcast")
# with --swizzle: the first argument a composed layout Sw o _0 o L (composition: a bare swizzle too)
SWIZZLED = ("composition", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
            "blocked_product", "raked_product", "zipped_product", "tile_to_shape", "coalesce")
OPS = UNARY + BINARY + CASTS + ("complement", "tile_to_shape")


def rand_case(rng: random.Random, op: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """(plain args, kinds): each arg a (shape, stride) pair, an int, or a tiler (tuple of pairs/ints)."""
    a = rand_layout(rng)
    if op in UNARY:
        return (a,), ("L",)
    if op in CASTS:
        return (a, rng.choice((2, 4, 8))), ("L", "N")
    if op == "tile_to_shape":
        block = rand_layout(rng, 1, compact=rng.random() < 0.8)
        bs = block[0] if isinstance(block[0], tuple) else (block[0],)
        flat_bs = [_size(x) for x in bs]
        rank = max(len(flat_bs), rng.choice((1, 2, 3)))
        trg = [(flat_bs[k] if k < len(flat_bs) else 1) * rng.choice((1, 1, 2, 3, 4)) for k in range(rank)]
        if rng.random() < 0.1:
            trg[0] += 1         # a target the block does not divide: CuTe's static_assert
        order = list(range(rank))
        rng.shuffle(order)
        return (block, tuple(trg), tuple(order)), ("L", "I", "S")
    if op == "complement":
        if rng.random() < 0.3:
            return (a,), ("L",)
        lay = cs.make_layout(*a)
        return (a, max(1, int(cs.cosize(lay))) * rng.choice((1, 1, 2, 3, 4))), ("L", "I")
    if op in ("max_common_vector", "max_common_layout"):
        shape = a[0]
        b = rand_layout(rng)
        if rng.random() < 0.35:       # the same shape, other strides
            b = (shape, _like(shape, [rng.choice((0, 1, 2, 4, 8)) for _ in _flat(shape)]))
        elif rng.random() < 0.5:
            b = (shape, _compact_strides(shape, rng))
        return (a, b), ("L", "L")
    if op.endswith("divide") or op == "composition":
        if rng.random() < 0.35:       # a tiler: one layout or int per mode of a
            modes = a[0] if isinstance(a[0], tuple) else (a[0],)
            til = tuple(rand_layout(rng, 1) if rng.random() < 0.6 else rng.choice((1, 2, 4)) for _ in modes[:rng.randint(1, len(modes))])
            return (a, til), ("L", "T")
        b = rand_layout(rng, 1)
        return (a, b), ("L", "L")
    b = rand_layout(rng, 1)
    return (a, b), ("L", "L")


def _size(t: Any) -> int:
    out = 1
    for x in _flat(t):
        out *= x
    return out


def _compact_strides(shape: Any, rng: random.Random) -> Any:
    flat = _flat(shape)
    order = list(range(len(flat)))
    rng.shuffle(order)
    strides = [0] * len(flat)
    run = 1
    for k in order:
        strides[k] = run
        run *= flat[k]
    return _like(shape, strides)


def to_nodes(args: tuple[Any, ...], kinds: tuple[str, ...], rng: random.Random, p: float) -> tuple[list[Any], list[str]]:
    names: list[str] = []
    out: list[Any] = []
    for a, k in zip(args, kinds):
        if k == "L":
            out.append(L(dyn(a[0], rng, names, p), dyn(a[1], rng, names, p)))
        elif k == "I":
            out.append(dyn(a, rng, names, p))
        elif k in ("N", "S"):         # a template argument, an order: static always
            out.append(dyn(a, rng, names, 0.0))
        elif k == "W":
            out.append(Sw(*a))
        elif k == "C":
            (b, m, sh), lay = a
            out.append(C(Sw(b, m, sh), L(dyn(lay[0], rng, names, p), dyn(lay[1], rng, names, p))))
        else:
            out.append(tuple(L(dyn(m[0], rng, names, p), dyn(m[1], rng, names, p)) if isinstance(m, tuple)
                             else dyn(m, rng, names, p) for m in a))
    return out, names


def swizzled_case(rng: random.Random, op: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """``op``'s case with its first argument composed with a random swizzle (|S| >= B)."""
    b = rng.choice((1, 2, 3))
    sw = (b, rng.choice((0, 1, 2, 3, 4)), rng.choice((b, 3, 4)) * rng.choice((1, 1, 1, -1)))
    args, kinds = rand_case(rng, op)
    if op == "composition" and rng.random() < 0.3:
        return (sw, args[1]), ("W", kinds[1])
    return ((sw, args[0]),) + args[1:], ("C",) + kinds[1:]


def call_cpp(op: str, nodes: list[Any]) -> str:
    if op in CASTS:        # upcast<N>(layout)
        return f"{op}<{nodes[1].v}>({cpp(nodes[0])})"
    return f"{op}({', '.join(cpp(n) for n in nodes)})"


def ours_static(op: str, nodes: list[Any]) -> Optional[str]:
    """cute_sym's static answer, or None when it refuses."""
    try:
        r = getattr(cs, op)(*[cs.parse(text(n)) for n in nodes])
    except cs.LayoutError:
        return None
    return str(r)


# ---------------------------------------------------------------- CuTe
def program(group: list[tuple[int, dict[str, Any]]]) -> str:
    lines = ["#include <cute/tensor.hpp>", "#include <cstdlib>", "using namespace cute;",
             "int main(int argc, char** argv) {", "  int start = argc > 1 ? atoi(argv[1]) : 0;"]
    for i, c in group:
        decl = "".join(f" int {n} = {v};" for n, v in c["bind"].items())
        lines.append(f"  if (start <= {i}) {{{decl} printf(\"{i}\\t\"); print({c['cpp']}); printf(\"\\n\"); fflush(stdout); }}")
    lines.append("}")
    return "\n".join(lines) + "\n"




def answers(group: list[tuple[int, dict[str, Any]]], inc: str, cuda: str, work: str, tag: str) -> dict[int, Any]:
    """CuTe's answer per case: text, ``{"error": ...}`` (it does not compile), or None (it stops at run time)."""
    if not group:
        return {}
    exe = build(program(group), inc, cuda, work, tag)
    if exe is None:
        if len(group) == 1:
            return {group[0][0]: {"error": "CuTe does not compile it (a static_assert)"}}
        h = len(group) // 2
        return {**answers(group[:h], inc, cuda, work, tag + "a"), **answers(group[h:], inc, cuda, work, tag + "b")}
    out: dict[int, Any] = {}
    ids = [i for i, _ in group]
    start = ids[0]
    while True:
        r = subprocess.run([exe, str(start)], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            k, _, val = line.partition("\t")
            if val:
                out[int(k)] = val
        if r.returncode == 0:
            break
        # it stopped at the first case that printed no answer: leave that one out, go on after it
        missing = [i for i in ids if i >= start and i not in out]
        if not missing:
            break
        out[missing[0]] = None
        later = [i for i in ids if i > missing[0]]
        if not later:
            break
        start = later[0]
    return out


_DISPUTED = ("!= rank(profile)", "< cotarget size", "unchecked")


def _contract_checker(folder: str) -> Any:
    """A function: case -> why CuTe's answer breaks the contract (None: it keeps it); None when the
    fuzzed corpus's semantics are not at hand."""
    if not os.path.exists(os.path.join(folder, "semantics.py")):
        return None
    sys.path.insert(0, folder)
    import semantics  # type: ignore[import-not-found]
    from notation import read  # type: ignore[import-not-found]

    def subst(t: str, bind: dict[str, int]) -> str:
        for k, v in bind.items():
            t = re.sub(rf"\b{k}\b", f"_{v}", t)
        return t

    def broken(row: dict[str, Any]) -> Optional[str]:
        bind = row.get("bind", {})
        try:
            args = [read(subst(a, bind)) for a in row["args"]]
            why: Optional[str] = semantics.check(row["op"], args, read(subst(row["expect"], bind)))
        except Exception:  # noqa: BLE001 - an answer the checker cannot read is not marked
            return None
        # the reasons the corpus's own runner does not hold against an answer (check.py's DISPUTED)
        return None if why is None or any(d in why for d in _DISPUTED) else why
    return broken


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="static cases drawn (each with a dynamic twin)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--refused", type=int, default=40, help="static cases cute_sym refuses, tried on CuTe")
    ap.add_argument("--chunk", type=int, default=60)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--include", default=None)
    ap.add_argument("--cuda", default="/usr/local/cuda")
    ap.add_argument("--out", default="/tmp/algebra_fuzz")
    ap.add_argument("--op", action="append", help="only this op (repeatable)")
    ap.add_argument("--swizzle", action="store_true", help="the first argument composed with a swizzle")
    ap.add_argument("--tests", help="also write the static cases here (the test suite's copy)")
    ap.add_argument("--semantics", default=os.path.join(ROOT, "..", "shared", "conformance", "fuzz"),
                    help="the fuzzed corpus's folder (semantics.py, notation.py) to mark cute_contract")
    o = ap.parse_args()
    if o.include is None:
        o.include = default_include()
    rng = random.Random(o.seed)
    cases: list[dict[str, Any]] = []
    refused = 0
    ops = tuple(o.op) if o.op else SWIZZLED if o.swizzle else OPS
    for k in range(o.n):
        op = ops[k % len(ops)]
        args, kinds = swizzled_case(rng, op) if o.swizzle else rand_case(rng, op)
        nodes, _ = to_nodes(args, kinds, rng, 0.0)
        ok = ours_static(op, nodes)
        if ok is None:
            if refused >= o.refused:
                continue
            refused += 1
        for p, tag in ((0.0, "static"), (0.6, "dynamic")):
            nodes, names = to_nodes(args, kinds, random.Random(rng.random()), p)
            if tag == "dynamic" and not names:
                continue
            bind = {lf.name: lf.v for n in nodes for lf in leaves(n) if lf.name}
            cases.append({"op": op, "args": [text(n) for n in nodes], "bind": bind, "tags": [tag, "algebra-oracle"],
                          "cpp": call_cpp(op, nodes)})
            if ok is None:
                break       # a refused static case: its dynamic twin is not tried
    numbered = list(enumerate(cases))
    groups = [numbered[k:k + o.chunk] for k in range(0, len(numbered), o.chunk)]
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(o.jobs) as ex:
        parts = list(ex.map(lambda kg: answers(kg[1], o.include, o.cuda, work, f"g{kg[0]}"), enumerate(groups)))
    got: dict[int, Any] = {}
    for part in parts:
        got.update(part)
    check = _contract_checker(o.semantics)
    os.makedirs(o.out, exist_ok=True)
    by_op: dict[str, list[str]] = {}
    kept = stopped = 0
    for i, c in enumerate(cases):
        want = got.get(i)
        if want is None:
            stopped += 1
            continue
        row = {"id": f"{c['op']}/9{i:05d}", "op": c["op"], "args": c["args"], "expect": want, "source": "diff-fuzz",
               "tags": c["tags"], "cpp": c["cpp"]}
        if c["bind"]:
            row["bind"] = c["bind"]
        broken = check(row) if check and isinstance(want, str) else None
        if broken:
            row["cute_contract"] = broken
        by_op.setdefault(c["op"], []).append(json.dumps(row))
        kept += 1
    for op, rows in by_op.items():
        with open(os.path.join(o.out, f"{op}.jsonl"), "w") as fh:
            fh.write("\n".join(rows) + "\n")
    if o.tests:
        keep = ("op", "args", "expect", "cpp", "cute_contract")
        static = [json.loads(r) for op in sorted(by_op) for r in by_op[op]]
        with open(o.tests, "w") as fh:
            fh.write("\n".join(json.dumps({k: r[k] for k in keep if k in r}) for r in static if "bind" not in r) + "\n")
    print(f"{len(cases)} cases drawn, {kept} answered by CuTe ({stopped} stopped at run time) -> {o.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
