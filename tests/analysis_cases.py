"""Generated cases for the analysis tests: TV layouts over tiles, shared/global layouts, swizzles."""
from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Iterator, Optional

from cute_sym.layout import Layout, make_layout
from cute_sym.swizzle import ComposedLayout, Swizzle

TYPES = {8: "uint8_t", 16: "half_t", 32: "float", 64: "double", 128: "uint128_t"}


class Case:
    def __init__(self, tv: Layout, layout: Any, bits: int, vector_bits: Optional[int], text: str) -> None:
        self.tv, self.layout, self.bits, self.vector_bits, self.text = tv, layout, bits, vector_bits, text

    def __repr__(self) -> str:
        return self.text


def tv_layout(rng: random.Random, nthr: int = 32) -> tuple[Layout, int, int]:
    """A TV layout (thr, val) -> index of an M x N tile (column-major index), and (M, N)."""
    tm = rng.choice([d for d in (1, 2, 4, 8, 16, 32) if nthr % d == 0 and nthr // d <= 32])
    tn = nthr // tm
    vm, vn = rng.choice([(1, 1), (1, 2), (2, 1), (1, 4), (4, 1), (1, 8), (8, 1), (2, 2), (2, 4), (1, 16), (16, 1)])
    M, N = tm * vm, tn * vn
    thr = ((tm, tn), (vm, M * vn)) if rng.random() < 0.5 else ((tn, tm), (M * vn, vm))
    val = ((vm, vn), (1, M)) if rng.random() < 0.6 else ((vn, vm), (M, 1))
    return make_layout((thr[0], val[0]), (thr[1], val[1])), M, N


def smem_layout(rng: random.Random, M: int, N: int, bits: int) -> Any:
    pad = rng.choice([0, 0, 0, 1, 2, 4, 8, 16])
    if rng.random() < 0.5:
        lay = make_layout((M, N), (N + pad, 1))
    else:
        lay = make_layout((M, N), (1, M + pad))
    if rng.random() < 0.5:
        b = rng.randint(1, 3)
        m = rng.randint(0, 4)
        s = rng.randint(b, 5)
        return ComposedLayout(Swizzle(b, m, s), 0, lay)
    return lay


def generated(n: int, seed: int) -> Iterator[Case]:
    rng = random.Random(seed)
    for _ in range(n):
        tv, M, N = tv_layout(rng)
        bits = rng.choice([8, 16, 32, 64, 128])
        lay = smem_layout(rng, M, N, bits)
        nv = tv[1].size()
        widths = [w for w in (bits, 2 * bits, 4 * bits, 8 * bits, 16 * bits) if w <= 128 and nv % (w // bits) == 0]
        vb = rng.choice(widths + [None])
        yield Case(tv, lay, bits, vb, f"tv={tv} layout={lay} bits={bits} vector={vb}")


def _stated(r: Any) -> Any:
    """All a result states, read off its fields (not its own key, which the grouping uses)."""
    return (str(r),) + tuple(getattr(r, f) for f in type(r).__slots__ if f != "phases")


def check_cases(sym: Any, envs: Iterable[dict[str, int]], concrete: Callable[[dict[str, int]], Any],
                stated: Callable[[Any], Any] = _stated) -> int:
    """Post-condition of a symbolic analysis: at every point ``env``, exactly one of its printed
    conditions holds (they are Python expressions over the symbols' names), and the result
    printed with it is the concrete analysis at that point (``concrete(env)``, None where that
    raises): the same ``stated(result)`` (its text and fields; a reason naming a symbol's formula
    compares less), each phase's counts, and its worst bank where a bank answer names one.
    A point in an undecidable case is skipped; returns the number of points checked."""
    from cute_sym.analysis import Cases
    from cute_sym.core.errors import LayoutError
    checked = 0
    for env in envs:
        try:
            want = concrete(env)
        except LayoutError:
            want = None
        if not isinstance(sym, Cases):
            assert want is not None and stated(want) == stated(sym), (env, str(sym))
            checked += 1
            continue
        names = dict(env)
        hold = [r for c, r in sym.cases if eval(c, {}, names)]     # noqa: S307 - our own condition text
        und = [c for c, _ in sym.undecidable if eval(c, {}, names)]  # noqa: S307
        inv = [c for c, _ in sym.invalid if eval(c, {}, names)]  # noqa: S307
        assert len(hold) + len(und) + len(inv) == 1, (env, str(sym))
        if und:
            continue
        if inv:
            assert want is None, (env, str(sym))
        else:
            got = hold[0]
            assert want is not None and stated(got) == stated(want), (env, str(got), str(want))
            phases, wphases = getattr(got, "phases", ()), getattr(want, "phases", ())
            assert len(phases) == len(wphases), env
            for p, q in zip(phases, wphases):
                assert (p.instruction, p.threads, p.wavefronts, p.ideal) == \
                    (q.instruction, q.threads, q.wavefronts, q.ideal), (env, str(p), str(q))
                assert p.bank is None or (p.bank, len(p.words)) == (q.bank, len(q.words)), (env, str(p), str(q))
        checked += 1
    return checked


def full_statement(r: Any) -> Any:
    """All an analysis answer states, to compare two answers: text, every field, every phase
    with its worst bank's words, and for a :class:`Cases` every case, undecidable and invalid one."""
    from cute_sym.analysis import Cases
    if isinstance(r, Cases):
        return (str(r), [(c, full_statement(x)) for c, x in r.cases], r.undecidable, r.invalid)
    fields = tuple(repr(getattr(r, f)) for f in type(r).__slots__ if f != "phases")
    phases = tuple((p.instruction, p.threads, p.wavefronts, p.ideal, p.bank, tuple((t, str(o)) for t, o in p.words))
                   for p in getattr(r, "phases", ()))
    return (str(r), fields, phases)


def answer_of(fn: Callable[[], Any]) -> Any:
    """:func:`full_statement` of ``fn()``, or the error it raises (LayoutError, UndecidableError:
    the same error with the same words)."""
    try:
        return full_statement(fn())
    except ValueError as e:
        return (type(e).__name__, str(e))
