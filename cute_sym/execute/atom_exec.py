"""What one copy or MMA instruction does, read off its atom's layouts (no table per atom).

A copy atom: the source value ``(lane, v)`` is element ``ValLayoutSrc(lane, v)`` of the atom's
reference tile, the destination value ``(lane', v')`` element ``ValLayoutDst(lane', v')``;
the instruction moves each element from its source value to its destination value. The same
rule runs ``UniversalCopy`` (one lane, the identity), ``cp.async``, ``ldmatrix`` and ``stmatrix``
(the transposing ones too) and the warp shuffles. Where several source values name one element
(ldmatrix's ``.x1``/``.x2`` rows given by lanes 0-7 or 0-15), the lowest lane's is read.

An MMA atom: lane ``l``'s A value ``v`` is the element ``ALayout(l, v)`` of the M x K tile
(column-major), B's ``BLayout(l, v)`` of N x K and C's ``CLayout(l, v)`` of M x N; the
instruction computes ``D = C + A B^T`` with A and B rounded to ``ValTypeA``/``ValTypeB``, the
products summed exactly and the sum rounded once to ``ValTypeD`` (an integer result wraps,
or saturates for a ``_SATURATE`` atom).

>>> from cute_sym.tensor.atoms.copy_atom import Copy_Atom
>>> plan = copy_plan(Copy_Atom("SM75_U32x1_LDSM_N", "half_t"))
>>> plan.nthr, plan.nvs, plan.nvd
(32, 8, 2)
>>> [(int(plan.src_lane[t, v]), int(plan.src_val[t, v])) for t, v in ((0, 0), (0, 1), (1, 0), (4, 0))]
[(0, 0), (0, 1), (0, 2), (1, 0)]
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, NamedTuple, Sequence

from ..core.errors import LayoutError
from ..layout import Layout, size
from ..tensor.atoms.copy_atom import Copy_Atom
from ..tensor.atoms.mma_traits import MMA_Traits
from ..tensor.numeric import compute_dtype, encode, decode, numpy, round_to
from .offsets import layout_offsets, move

__all__ = ["CopyPlan", "copy_plan", "MMAPlan", "mma_plan", "run_copy", "run_mma"]


def _int(x: Any, what: str) -> int:
    if type(x) is not int:
        raise LayoutError(f"{what} is not static: {x}")
    return x


def _table(layout: Layout, nthr: int, nval: int) -> Any:
    """``layout(t, v)`` as an (nthr, nval) array."""
    flat = layout_offsets(layout)          # colex: index t + nthr * v
    return flat.reshape((nval, nthr)).T


def _owners(table: Any, n_elems: int, what: str) -> tuple[Any, Any]:
    """For each element ``r`` of the tile, the first (lowest lane, then value) ``(t, v)`` naming it."""
    np = numpy()
    nthr, nval = table.shape
    lane = np.full(n_elems, -1, dtype=np.int64)
    val = np.full(n_elems, -1, dtype=np.int64)
    for t in range(nthr - 1, -1, -1):       # the lowest lane last: it wins
        for v in range(nval - 1, -1, -1):
            r = int(table[t, v])
            if 0 <= r < n_elems:
                lane[r], val[r] = t, v
    return lane, val


class CopyPlan(NamedTuple):
    nthr: int
    nvs: int
    nvd: int
    src_lane: Any        # (nthr, nvd): the lane whose source value lands in dst (lane, v)
    src_val: Any         # (nthr, nvd): that source value
    used: Any            # (nthr, nvs) bool: the source values some destination reads
    identity: bool       # one lane, each value to itself: the plain copy


def copy_plan(atom: Copy_Atom) -> CopyPlan:
    """The element moves of one instruction of ``atom`` (a copy atom, or a tiled copy of it).

    @post ``ValLayoutSrc(src_lane[t,v], src_val[t,v]) == ValLayoutDst(t, v)`` for every destination value.
    """
    return _copy_plan(atom.Traits, atom.ValType)


@lru_cache(maxsize=256)
def _copy_plan(traits: Any, val_type: str) -> CopyPlan:
    np = numpy()
    atom = Copy_Atom(traits, val_type)
    nthr = _int(size(atom.ValLayoutRef[0]), "the atom's thread count")
    nvs, nvd = atom.NumValSrc, atom.NumValDst
    src = _table(atom.ValLayoutSrc, nthr, nvs)
    dst = _table(atom.ValLayoutDst, nthr, nvd)
    n = int(max(src.max(), dst.max())) + 1
    lane, val = _owners(src, n, "source")
    sl, sv = lane[dst], val[dst]
    if (sl < 0).any():
        raise LayoutError(f"{atom!r}: a destination value has no source value (the atom's layouts disagree)")
    used = np.zeros((nthr, nvs), dtype=bool)
    used[sl, sv] = True
    identity = nthr == 1 and nvs == nvd and bool((sv[0] == np.arange(nvd)).all())
    return CopyPlan(nthr, nvs, nvd, sl, sv, used, identity)


def run_copy(plan: CopyPlan, lanes: Sequence[Any], what: str = "copy") -> None:
    """One lane's (src tensor, dst tensor) per lane (None for an absent lane): every instruction
    the tensors hold, in the order of their 1-D index (``nvs`` source values an instruction).

    @pre each lane's src has ``n * nvs`` elements and its dst ``n * nvd``, the same ``n`` for all.
    """
    from .context import current
    np = numpy()
    if plan.identity:
        s, d = lanes[0]
        so, do = layout_offsets(s.layout), layout_offsets(d.layout)
        if so.size != do.size or so.size % plan.nvs:
            raise LayoutError(f"{what}: the source has {so.size} and the destination {do.size} elements; the "
                              f"atom moves {plan.nvs} an instruction")
        move(s.engine, so, d.engine, do)
        return
    present = [l for l, x in enumerate(lanes) if x is not None]
    if not present:
        return
    n_instr = None
    for l in present:
        s, d = lanes[l]
        ns, nd = len(s), len(d)
        if ns % plan.nvs or nd % plan.nvd or ns // plan.nvs != nd // plan.nvd:
            raise LayoutError(f"{what}: lane {l} moves {ns} source and {nd} destination values; the atom "
                              f"moves {plan.nvs} and {plan.nvd} an instruction")
        if n_instr is None:
            n_instr = ns // plan.nvs
        elif ns // plan.nvs != n_instr:
            raise LayoutError(f"{what}: the lanes hold different numbers of instructions")
    assert n_instr is not None
    need = np.zeros(plan.nthr, dtype=bool)
    for l in present:
        need[np.unique(plan.src_lane[l])] = True
    missing = [l for l in np.nonzero(need)[0].tolist() if l >= len(lanes) or lanes[l] is None]
    if missing:
        raise LayoutError(f"{what}: the instruction reads lanes {missing}, which do not take part")
    ctx = current()
    vals: Any = None
    types = {x.engine.dtype for l in present for x in lanes[l]}
    raw = len(types) == 1 and None not in types          # one element type: the bits move
    for l in np.nonzero(need)[0].tolist():
        s = lanes[l][0]
        cols = np.nonzero(plan.used[l])[0]
        with _acting(ctx, l):            # (a swizzled offset may be a formula of the lane's thread index)
            off = layout_offsets(s.layout).reshape((n_instr, plan.nvs))
            got = s.engine.load_raw(off[:, cols]) if raw else s.engine.load(off[:, cols])
        if vals is None:
            vals = np.zeros((plan.nthr, n_instr, plan.nvs), dtype=got.dtype)
        vals[l][:, cols] = got
    for l in present:
        d = lanes[l][1]
        out = vals[plan.src_lane[l], :, plan.src_val[l]].T        # (n_instr, nvd)
        with _acting(ctx, l):
            off = layout_offsets(d.layout).reshape((n_instr, plan.nvd))
            if raw:
                d.engine.store_raw(off, out)
            else:
                d.engine.store(off, out)


class _acting:
    """Accesses inside count as lane ``l``'s thread's (a collective runs in one thread)."""

    def __init__(self, ctx: Any, lane: int) -> None:
        self.ctx, self.lane = ctx, lane

    def __enter__(self) -> None:
        if self.ctx is not None:
            self.ctx.act_as_lane(self.lane)

    def __exit__(self, kind: Any, err: Any, tb: Any) -> None:
        if self.ctx is not None:
            if err is not None and not hasattr(err, "thread"):
                err.thread = self.ctx.acting_tid          # the lane's thread made the faulting access
            self.ctx.act_as_lane(None)


class MMAPlan(NamedTuple):
    nthr: int
    M: int
    N: int
    K: int
    a: tuple[Any, Any, Any]      # (table (nthr, V), owner lane, owner value) of A's M*K elements
    b: tuple[Any, Any, Any]
    c: tuple[Any, Any, Any]
    types: tuple[str, str, str, str]     # D, A, B, C
    saturate: bool


@lru_cache(maxsize=256)
def mma_plan(atom: MMA_Traits) -> MMAPlan:
    """The element map of one instruction of the MMA ``atom``.

    @pre the atom's values are types NumPy can hold (not the sub-byte and 1-bit ones).
    """
    nthr = _int(size(atom.ThrID), "the atom's thread count")
    M, N, K = (_int(x, "Shape_MNK") for x in atom.Shape_MNK)
    types = (atom.ValTypeD, atom.ValTypeA, atom.ValTypeB, atom.ValTypeC)
    for t in types:
        if t in ("int4b_t", "uint4b_t", "uint1b_t", "GaussComplex"):
            raise LayoutError(f"{atom.name}: elements of {t} are not simulated (no NumPy storage)")
    parts = []
    for lay, n in ((atom.ALayout, M * K), (atom.BLayout, N * K), (atom.CLayout, M * N)):
        nv = _int(size(lay[1]), "the atom's value count")
        table = _table(lay, nthr, nv)
        lane, val = _owners(table, n, "")
        if (lane < 0).any():
            raise LayoutError(f"{atom.name}: its layouts do not cover the tile")
        parts.append((table, lane, val))
    return MMAPlan(nthr, M, N, K, parts[0], parts[1], parts[2], types, "SATURATE" in atom.name)


def _gather(part: tuple[Any, Any, Any], frags: Sequence[Any], shape: tuple[int, int]) -> Any:
    """The atoms' tiles from the lanes' fragments (V, R1, R2): an array (R1, R2, rows, cols)."""
    np = numpy()
    _table_, lane, val = part
    template = next(f for f in frags if f is not None)
    stack = np.stack([f if f is not None else np.zeros_like(template) for f in frags])
    tiles = stack[lane, val]                               # (rows*cols, R1, R2), element r = row + rows*col
    rows, cols = shape
    tiles = tiles.reshape((cols, rows) + tiles.shape[1:])
    return np.transpose(tiles, (2, 3, 1, 0))


def run_mma(plan: MMAPlan, lanes: Sequence[Any], what: str = "gemm") -> None:
    """Each lane's (D, A, B, C) fragments ``(V,M,K)``, ``(V,N,K)``, ``(V,M,N)`` (lower ranks are padded
    with extent-1 modes): for each k, then each (m, n), ``D(m,n) = C(m,n) + A(m,k) B(n,k)`` by the atom.
    """
    from .context import current
    np = numpy()
    ctx = current()
    present = [l for l, x in enumerate(lanes) if x is not None]
    if len(present) != plan.nthr:
        raise LayoutError(f"{what}: the MMA takes {plan.nthr} lanes, {len(present)} take part")
    tD, tA, tB, tC = plan.types
    dims = None
    fa, fb, fc = [], [], []
    owners_a, owners_b = set(plan.a[1].tolist()), set(plan.b[1].tolist())
    for l in range(plan.nthr):
        d, a, b, c = lanes[l]
        va, ma, ka = _dims(a)
        vb, nb, kb = _dims(b)
        vc, mc, nc = _dims(c)
        if (va, vb, vc) != (plan.a[0].shape[1], plan.b[0].shape[1], plan.c[0].shape[1]):
            raise LayoutError(f"{what}: lane {l} holds ({va},{vb},{vc}) values of A, B, C; the atom takes "
                              f"{(plan.a[0].shape[1], plan.b[0].shape[1], plan.c[0].shape[1])}")
        if ma != mc or nb != nc or ka != kb:
            raise LayoutError(f"{what}: the fragments' (M,N,K) disagree: A {(ma, ka)}, B {(nb, kb)}, C {(mc, nc)}")
        dims = (ma, nb, ka)
        with _acting(ctx, l):
            fa.append(_values(a, (va, ma, ka), tA) if l in owners_a else None)
            fb.append(_values(b, (vb, nb, kb), tB) if l in owners_b else None)
            fc.append(_values(c, (vc, mc, nc), tC))
    assert dims is not None
    A = _gather(plan.a, fa, (plan.M, plan.K))                    # (RM, RK, M, K)
    B = _gather(plan.b, fb, (plan.N, plan.K))                    # (RN, RK, N, K)
    acc = _gather(plan.c, fc, (plan.M, plan.N)).astype(compute_dtype(tD))   # (RM, RN, M, N)
    for k in range(dims[2]):
        acc = acc + np.einsum("xab,ycb->xyac", A[:, k], B[:, k])
        acc = _round_acc(tD, acc, plan.saturate)
    table, _lane, _val = plan.c
    for l in range(plan.nthr):
        r = table[l]                                             # (VC,) element indices
        m_i, n_i = r % plan.M, r // plan.M
        out = np.moveaxis(acc[:, :, m_i, n_i], -1, 0)            # (VC, RM, RN)
        d = lanes[l][0]
        with _acting(ctx, l):
            d.engine.store(layout_offsets(d.layout), out.reshape(-1, order="F"))


def _dims(t: Any) -> tuple[int, int, int]:
    shape = t.shape if type(t.shape) is tuple else (t.shape,)
    if len(shape) > 3:
        raise LayoutError(f"gemm: a fragment has rank 1 to 3 ((V), (V,M) or (V,M,K)), got {t.shape}")
    sizes = [_int(size(s), "a fragment's extent") for s in shape] + [1] * (3 - len(shape))
    return sizes[0], sizes[1], sizes[2]


def _values(t: Any, dims: tuple[int, int, int], type_: str) -> Any:
    """A fragment's values as (V, R1, R2), rounded to the atom's type."""
    np = numpy()
    vals = t.engine.load(layout_offsets(t.layout)).reshape(dims, order="F")
    if vals.dtype.kind in "fc" or np.issubdtype(vals.dtype, np.floating):
        return round_to(type_, vals).astype(compute_dtype(type_))
    return vals.astype(compute_dtype(type_))


def _round_acc(type_: str, acc: Any, saturate: bool) -> Any:
    np = numpy()
    if acc.dtype.kind in "iu":
        if saturate:
            info = np.iinfo(encode(type_, np.zeros(1)).dtype)
            acc = np.clip(acc, info.min, info.max)
        return decode(type_, encode(type_, acc)).astype(np.int64)
    return round_to(type_, acc).astype(acc.dtype)
