"""CuTe's algorithms over tensors in memory: ``copy``, ``copy_if``, ``gemm``, ``fill``, ``clear``, ``axpby``.

They read and write through the tensors' layouts (a swizzled layout through its swizzle), many
elements at a time (NumPy index arrays). ``copy`` and ``gemm`` take an atom or a tiled copy/MMA
as CuTe's do: an atom of one thread runs here; an atom spanning several threads (ldmatrix,
mma.sync, wgmma) runs inside :func:`cute_sym.simulate`, where the threads of one instruction
meet and the instruction moves data between them.

>>> import numpy as np
>>> from cute_sym.layout import make_layout
>>> from cute_sym.tensor.tensor import make_tensor
>>> src = make_tensor(np.arange(32.0), make_layout((4, 8), (8, 1)))     # row-major
>>> dst = make_tensor(np.zeros(32), make_layout((4, 8)))                # column-major
>>> copy(src, dst)
>>> all(dst[m, n] == src[m, n] for m in range(4) for n in range(8))
True
>>> A = make_tensor(np.arange(6.0), make_layout((2, 3)))                # (M,K)
>>> B = make_tensor(np.ones(12), make_layout((4, 3)))                   # (N,K)
>>> C = make_tensor(np.zeros(8), make_layout((2, 4)))                   # (M,N)
>>> gemm(A, B, C)
>>> [float(C[0, n]) for n in range(4)], float(C[1, 0])
([6.0, 6.0, 6.0, 6.0], 9.0)
"""
from __future__ import annotations

from typing import Any, Callable, Union

from ..core.errors import LayoutError, RankError
from ..layout import size
from ..tensor.atoms.copy_atom import Copy_Atom
from ..tensor.atoms.mma_traits import MMA_Traits
from ..tensor.mma import ThrMMA, TiledMMA
from ..tensor.copy import ThrCopy
from ..tensor.numeric import compute_dtype, numpy, round_to
from ..tensor.engine import ArrayEngine
from ..tensor.tensor import Tensor
from .atom_exec import copy_plan, mma_plan, run_copy, run_mma
from .context import current
from .offsets import load_values, move, store_values, tensor_offsets

__all__ = ["copy", "copy_if", "gemm", "fill", "clear", "axpby"]


def _tensor(x: Any, what: str) -> Tensor:
    if not isinstance(x, Tensor):
        raise LayoutError(f"{what}: expected a Tensor, got {type(x).__name__}")
    return x


def _count(t: Tensor, what: str) -> int:
    n = t.size()
    if type(n) is not int:
        raise LayoutError(f"{what}: the size {n} of {t} is symbolic; substitute values first")
    return n


def _same_size(src: Tensor, dst: Tensor, what: str) -> int:
    ns, nd = _count(src, what), _count(dst, what)
    if ns != nd:
        raise LayoutError(f"{what}: the source has {ns} elements, the destination {nd} (size(src) == size(dst))")
    return ns


def _plain_copy(src: Tensor, dst: Tensor, what: str) -> None:
    _same_size(src, dst, what)
    if isinstance(src.engine, ArrayEngine) and isinstance(dst.engine, ArrayEngine):
        move(src.engine, tensor_offsets(src, what), dst.engine, tensor_offsets(dst, what))
    else:
        store_values(dst, load_values(src, what), what)


def _atom_of(x: Any) -> Copy_Atom:
    return x.tiled_copy if isinstance(x, ThrCopy) else x


def copy(*args: Any) -> None:
    """CuTe's ``copy(src, dst)`` and ``copy(copy_atom, src, dst)``.

    ``copy(src, dst)``: ``dst(i) = src(i)`` for every 1-D index ``i`` (converted to ``dst``'s type).
    ``copy(atom, src, dst)`` (a ``Copy_Atom``, ``TiledCopy`` or ``ThrCopy``; ``src``/``dst`` the
    calling thread's partitions, ``(CPY_V, CPY_M, ...)``): the atom's instructions over them, in
    the order of their 1-D index, ``NumValSrc`` source values an instruction. An atom of several
    threads runs inside a simulation, where every lane of the instruction calls it. Inside a
    simulation a ``cp.async`` copy (``SM80_CP_ASYNC_*``) is issued, and lands at the thread's
    ``cp_async_wait`` of its group (``cp_async_fence``), as on the GPU; elsewhere it lands at once.

    @pre ``size(src) == size(dst)`` (with an atom: the same number of instructions on both sides).
    @post every destination element holds the source element of the same coordinate (for an
          atom: as its value layouts pair them); repeated destinations keep the last write.

    >>> import numpy as np
    >>> from cute_sym.layout import make_layout
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> s = make_tensor(np.arange(8, dtype=np.float16), make_layout(8))
    >>> d = make_tensor(np.zeros(8, dtype=np.float16), make_layout(8))
    >>> copy(Copy_Atom("UniversalCopy<uint64_t>", "half_t"), s, d)
    >>> [float(x) for x in d.engine.array]
    [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    """
    if len(args) == 2:
        _plain_copy(_tensor(args[0], "copy"), _tensor(args[1], "copy"), "copy")
        return
    if len(args) != 3:
        raise LayoutError(f"copy takes (src, dst) or (copy_atom, src, dst), got {len(args)} arguments")
    atom = _atom_of(args[0])
    if not isinstance(atom, Copy_Atom):
        raise LayoutError(f"copy: expected a Copy_Atom, TiledCopy or ThrCopy, got {type(args[0]).__name__}")
    src, dst = _tensor(args[1], "copy"), _tensor(args[2], "copy")
    _atom_copy(atom, src, dst, "copy")


def _atom_copy(atom: Copy_Atom, src: Tensor, dst: Tensor, what: str) -> None:
    if atom.Traits.name.startswith("AutoVectorizingCopy"):     # no value layouts: the plain copy
        _plain_copy(src, dst, what)
        return
    plan = copy_plan(atom)
    tensor_offsets(src, what), tensor_offsets(dst, what)
    if plan.nthr == 1:
        thread = current()
        if thread is not None and atom.Traits.name.startswith("SM80_CP_ASYNC"):
            thread.issue_async(lambda: run_copy(plan, [(src, dst)], what))   # lands at cp_async_wait
            return
        run_copy(plan, [(src, dst)], what)
        return
    thread = current()
    if thread is None:
        raise LayoutError(f"{what}: {atom!r} is an instruction of {plan.nthr} threads; it runs inside "
                          "cute_sym.simulate (every lane calls it)")
    tid = thread.tid
    lane, group = tid % plan.nthr, tid // plan.nthr
    members = [group * plan.nthr + l for l in range(plan.nthr)]
    thread.collective(("copy", atom.Traits.name, atom.ValType, group), members, lane, (src, dst),
                      lambda lanes: run_copy(plan, lanes, what))


def copy_if(*args: Any) -> None:
    """CuTe's ``copy_if(pred, src, dst)`` and ``copy_if(copy_atom, pred, src, dst)``.

    ``pred`` is a tensor (its elements' truth) or a function of the 1-D index. Without an atom,
    ``dst(i) = src(i)`` where ``pred(i)``; with one (of one thread), the ``i``-th instruction
    (``NumValSrc`` values of ``src``) runs where ``pred(i)``.

    @post the destination elements whose predicate is false are neither read nor written.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> from cute_sym.layout import make_layout
    >>> s, d = make_tensor(np.arange(6.0), make_layout(6)), make_tensor(np.zeros(6), make_layout(6))
    >>> copy_if(lambda i: i % 2 == 0, s, d)
    >>> [float(x) for x in d.engine.array]
    [0.0, 0.0, 2.0, 0.0, 4.0, 0.0]
    """
    np = numpy()
    if len(args) == 4:
        atom, pred, src, dst = args
        atom = _atom_of(atom)
        if not isinstance(atom, Copy_Atom):
            raise LayoutError(f"copy_if: expected a Copy_Atom, got {type(atom).__name__}")
        src, dst = _tensor(src, "copy_if"), _tensor(dst, "copy_if")
        plan = copy_plan(atom)
        if plan.nthr != 1:
            raise LayoutError(f"copy_if: {atom!r} is an instruction of {plan.nthr} threads; predicate "
                              "a copy of one thread")
        n_instr = _count(src, "copy_if") // plan.nvs
        keep = _truth(pred, n_instr)
        si = tensor_offsets(src).reshape((n_instr, plan.nvs))[keep]
        di = tensor_offsets(dst).reshape((n_instr, plan.nvd))[keep]
        move(_memory(src), si, _memory(dst), di[:, np.argsort(plan.src_val[0])])
        return
    if len(args) != 3:
        raise LayoutError(f"copy_if takes (pred, src, dst) or (copy_atom, pred, src, dst), got {len(args)} arguments")
    pred, src, dst = args
    src, dst = _tensor(src, "copy_if"), _tensor(dst, "copy_if")
    n = _same_size(src, dst, "copy_if")
    keep = _truth(pred, n)
    idx = np.nonzero(keep)[0]
    move(_memory(src), tensor_offsets(src)[idx], _memory(dst), tensor_offsets(dst)[idx])


def _memory(t: Tensor) -> ArrayEngine:
    eng = t.engine
    if not isinstance(eng, ArrayEngine):
        raise LayoutError(f"the tensor {t} is not over memory")
    return eng


def _truth(pred: Union[Tensor, Callable[[int], Any]], n: int) -> Any:
    np = numpy()
    if isinstance(pred, Tensor):
        if _count(pred, "copy_if (pred)") != n:
            raise LayoutError(f"copy_if: the predicate has {pred.size()} elements, the copy {n}")
        return np.array([bool(v) for v in load_values(pred, "copy_if")], dtype=bool)
    if callable(pred):
        return np.array([bool(pred(i)) for i in range(n)], dtype=bool)
    raise LayoutError(f"copy_if: the predicate is a tensor or a function of the index, got {type(pred).__name__}")


def fill(t: Tensor, value: Any) -> None:
    """CuTe's ``fill(tensor, value)``: every element of ``t`` is ``value`` (rounded to its type).

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> T = make_tensor(np.zeros(4, dtype=np.int8), (2, 2)); fill(T, 300); [int(x) for x in T.engine.array]
    [44, 44, 44, 44]
    """
    t = _tensor(t, "fill")
    _memory(t).store(tensor_offsets(t, "fill"), value)


def clear(t: Tensor) -> None:
    """CuTe's ``clear(tensor)``: ``fill(t, 0)``.

    @post every element of ``t`` is 0; memory outside ``t``'s layout is untouched.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> from cute_sym.layout import make_layout
    >>> T = make_tensor(np.ones(6), make_layout(3, 2)); clear(T); [float(x) for x in T.engine.array]
    [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    """
    fill(t, 0)


def axpby(alpha: Any, x: Tensor, beta: Any, y: Tensor) -> None:
    """CuTe's ``axpby(alpha, x, beta, y)``: ``y(i) = alpha * x(i) + beta * y(i)`` (``y`` is not read
    when ``beta`` is 0), rounded to ``y``'s type.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> x, y = make_tensor(np.arange(3.0), (3,)), make_tensor(np.ones(3), (3,))
    >>> axpby(2.0, x, 0.5, y); [float(v) for v in y.engine.array]
    [0.5, 2.5, 4.5]
    """
    x, y = _tensor(x, "axpby"), _tensor(y, "axpby")
    _same_size(x, y, "axpby")
    out = alpha * load_values(x, "axpby")
    if beta != 0:
        out = out + beta * load_values(y, "axpby")
    store_values(y, out, "axpby")


# ------------------------------------------------------------------ gemm
def _mode_sizes(t: Tensor, what: str) -> tuple[int, ...]:
    shape = t.shape if type(t.shape) is tuple else (t.shape,)
    out = tuple(size(s) for s in shape)
    if not all(type(s) is int for s in out):
        raise LayoutError(f"{what}: the extents {t.shape} are symbolic")
    return out


def _fma_type(t: Tensor) -> str:
    d = getattr(t.engine, "dtype", None)
    return d or "double"


def gemm(*args: Any) -> None:
    """CuTe's ``gemm``: ``gemm(A, B, C)``, ``gemm(mma, A, B, C)``, ``gemm(mma, D, A, B, C)``.

    Without an MMA (CuTe's ``UniversalFMA`` of ``C``'s type), by the ranks of A, B, C:
    ``(V)x(V)=>(V)`` elementwise, ``(M)x(N)=>(M,N)`` outer product, ``(M,K)x(N,K)=>(M,N)``,
    ``(V,M)x(V,N)=>(V,M,N)``, ``(V,M,K)x(V,N,K)=>(V,M,N)``; each product is added to C and
    rounded to C's type, k by k. With an MMA atom, tiled MMA or thread slice, the fragments are
    ``(V)``, ``(V,M)`` or ``(V,M,K)`` of A and B and ``(V,M,N)`` of C, the atom's values in mode
    V: for each k, each (m, n), the instruction (inside a simulation, for an atom of several threads).

    @pre the extents agree: ``M`` of A and C, ``N`` of B and C, ``K`` of A and B, ``V`` of all.
    @post ``C(m,n) += sum_k A(m,k) B(n,k)`` with the element types' rounding.

    >>> import numpy as np
    >>> from cute_sym.tensor.tensor import make_tensor
    >>> from cute_sym.layout import make_layout
    >>> a, b = make_tensor(np.arange(3.0), make_layout(3)), make_tensor(np.arange(2.0) + 1, make_layout(2))
    >>> c = make_tensor(np.zeros(6), make_layout((3, 2)))
    >>> gemm(a, b, c); [float(x) for x in c.engine.array]          # (M) x (N) => (M,N): an outer product
    [0.0, 1.0, 2.0, 0.0, 2.0, 4.0]
    >>> mma = MMA_Traits("UniversalFMA<float,float,float,float>")
    >>> x, y, z = (make_tensor(np.full(1, v, dtype=np.float32), make_layout(1)) for v in (2.0, 3.0, 1.0))
    >>> gemm(mma, x, y, z); float(z[0])
    7.0
    """
    if len(args) == 3:
        A, B, C = (_tensor(x, "gemm") for x in args)
        _fma_gemm(A, B, C)
        return
    if len(args) not in (4, 5):
        raise LayoutError(f"gemm takes (A, B, C), (mma, A, B, C) or (mma, D, A, B, C), got {len(args)} arguments")
    mma = args[0]
    if isinstance(mma, ThrMMA):
        mma = mma.tiled_mma
    atom = mma.atom if isinstance(mma, TiledMMA) else mma
    if not isinstance(atom, MMA_Traits):
        raise LayoutError(f"gemm: expected an MMA atom, TiledMMA or ThrMMA, got {type(args[0]).__name__}")
    ops = [_tensor(x, "gemm") for x in args[1:]]
    D, A, B, C = ops if len(ops) == 4 else (ops[2], ops[0], ops[1], ops[2])
    plan = mma_plan(atom)
    if plan.nthr == 1:
        run_mma(plan, [(D, A, B, C)])
        return
    thread = current()
    if thread is None:
        raise LayoutError(f"gemm: {atom.name} is an instruction of {plan.nthr} threads; it runs inside "
                          "cute_sym.simulate (every thread of the MMA calls it)")
    tiled = mma if isinstance(mma, TiledMMA) else None
    lane, group, members = thread.mma_lane(atom, tiled)
    thread.collective(("mma", atom.name, group), members, lane, (D, A, B, C),
                      lambda lanes: run_mma(plan, lanes))


def _fma_gemm(A: Tensor, B: Tensor, C: Tensor) -> None:
    np = numpy()
    ra, rb, rc = A.rank(), B.rank(), C.rank()
    sa, sb, sc = _mode_sizes(A, "gemm"), _mode_sizes(B, "gemm"), _mode_sizes(C, "gemm")
    if (ra, rb, rc) == (1, 1, 1):            # (V) x (V) => (V)
        dims = ((sa[0], 1, 1), (sb[0], 1, 1), (sc[0], 1, 1))
    elif (ra, rb, rc) == (1, 1, 2):          # (M) x (N) => (M,N)
        dims = ((1, sa[0], 1), (1, sb[0], 1), (1, sc[0], sc[1]))
    elif (ra, rb, rc) == (2, 2, 2):          # (M,K) x (N,K) => (M,N)
        dims = ((1, sa[0], sa[1]), (1, sb[0], sb[1]), (1, sc[0], sc[1]))
    elif (ra, rb, rc) == (2, 2, 3):          # (V,M) x (V,N) => (V,M,N)
        dims = ((sa[0], sa[1], 1), (sb[0], sb[1], 1), sc)  # type: ignore[assignment]
    elif (ra, rb, rc) == (3, 3, 3):          # (V,M,K) x (V,N,K) => (V,M,N)
        dims = (sa, sb, sc)                  # type: ignore[assignment]
    else:
        raise RankError(f"gemm: no dispatch for ranks A {ra}, B {rb}, C {rc} "
                        "((V)x(V)=>(V), (M)x(N)=>(M,N), (M,K)x(N,K)=>(M,N), (V,M)x(V,N)=>(V,M,N), (V,M,K)x(V,N,K)=>(V,M,N))")
    (va, ma, ka), (vb, nb, kb), (vc, mc, nc) = dims
    if not (va == vb == vc and ma == mc and nb == nc and ka == kb):
        raise LayoutError(f"gemm: the extents disagree: A (V,M,K) {dims[0]}, B (V,N,K) {dims[1]}, C (V,M,N) {dims[2]}")
    tc = _fma_type(C)
    cd = compute_dtype(tc) if C.engine.dtype else np.dtype(object)     # type: ignore[union-attr]
    a = load_values(A, "gemm").reshape(dims[0], order="F").astype(cd)
    b = load_values(B, "gemm").reshape(dims[1], order="F").astype(cd)
    c = load_values(C, "gemm").reshape(dims[2], order="F").astype(cd)
    for k in range(ka):
        c = c + a[:, :, None, k] * b[:, None, :, k]
        if C.engine.dtype:                                          # type: ignore[union-attr]
            c = round_to(tc, c).astype(cd)
    store_values(C, c.reshape(-1, order="F"), "gemm")
