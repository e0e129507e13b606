"""NVIDIA PyCuTe's checks of writable tensors and its algorithms/examples (test/test_tensor.py,
test/test_alg_copy.py, examples/einsum_test.py, examples/im2col_test.py), re-expressed here and
run against cute_sym through tests/pycute_adapter.py (names only). The cases PyCuTe has that
cute_sym does not run (ctypes accessors, PyCuTe's own vectorising copy, im2col's coordinate and
padded views) are listed in docs/conformance.md."""
from __future__ import annotations

import ctypes
import itertools
from typing import Any, Callable, Optional

import pytest

pytest.importorskip("numpy")

import pycute_adapter as pc  # noqa: E402
from cute_sym import LayoutError  # noqa: E402


# ------------------------------------------------------------------ test_tensor.py
def test_tensor_make_and_evaluate() -> None:
    T = pc.make_tensor(pc.Layout((4, 4), (4, 1)), dtype=ctypes.c_int)
    assert pc.is_tensor(T) and T.layout == pc.Layout((4, 4), (4, 1))
    assert pc.make_tensor(pc.Layout((3, 5))).layout == pc.Layout((3, 5), (1, 3))
    for i in range(pc.size(T)):
        T[i] = i
    assert T[6] == T.accessor[T.layout(6)] and T[1, 2] == T.accessor[T.layout(1, 2)]


def test_tensor_setitem_getitem_and_full_coordinates() -> None:
    T = pc.make_tensor(pc.Layout((4, 4), (4, 1)), dtype=ctypes.c_int)
    T[1, 2] = 42
    T[3, 0] = 99
    assert (T[1, 2], T[3, 0], T[0, 0]) == (42, 99, 0)
    T[0] = 7
    assert T[0, 0] == 7
    with pytest.raises(ValueError):
        T[1, None] = 0


def test_tensor_slices_share_memory() -> None:
    T = pc.make_tensor(pc.Layout((4, 4), (4, 1)), dtype=ctypes.c_int)
    for i in range(pc.size(T)):
        T[i] = i
    row, col = T[1, None], T[None, 2]
    assert pc.is_tensor(row) and row.layout == pc.Layout((4,), (1,)) or row.layout == pc.Layout(4, 1)
    assert [row[j] for j in range(4)] == [1, 5, 9, 13]
    assert col.layout == pc.Layout((4,), (4,)) or col.layout == pc.Layout(4, 4)
    assert [col[i] for i in range(4)] == [8, 9, 10, 11]
    A = pc.make_tensor(pc.Layout((4, 5, 6)), dtype=ctypes.c_double)
    A[1, 2, 3] = 42.0
    v1, v2 = A[:, 2, :], A[:, 2, :]
    assert repr(v1.accessor) == repr(v2.accessor) and v1.accessor == v2.accessor and v1 == v2
    assert A[None, 2, None] == A[:, 2, :]
    v1[1, 3] = 99.0
    assert A[1, 2, 3] == 99.0 and v2[1, 3] == 99.0


def test_tensor_algebra_passes_through_to_the_layout() -> None:
    T = pc.make_tensor(pc.Layout((4, 4), (1, 4)), dtype=ctypes.c_int)
    T[1, 2] = 42
    Tc = pc.coalesce(T)
    assert pc.is_tensor(Tc) and Tc.layout == pc.Layout(16, 1) and Tc.accessor is T.accessor
    assert Tc[9] == 42 and T[1, 2] == 42
    Td = pc.logical_divide(T, pc.Layout(2, 1))
    assert pc.rank(Td) == 2 and Td.accessor is T.accessor


def test_tensor_over_numpy_storage() -> None:
    np = pytest.importorskip("numpy")
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    T = pc.Tensor(pc.Ptr(a), pc.Layout((3, 4), (4, 1)))
    assert [T[i, j] for i in range(3) for j in range(4)] == list(range(12))
    T[2, 3] = 99
    assert a[2, 3] == 99


def test_implicit_accessor_and_identity_tensor() -> None:
    ia = pc.ImplicitAccessor(0)
    assert ia[5] == 5 and (ia + 3)[2] == 5
    assert pc.ImplicitAccessor(pc.ArithTuple(10, 20))[pc.ArithTuple(1, 2)] == (11, 22)
    I = pc.identity_tensor((3, 4))
    assert all(I[i, j] == (i, j) for i in range(3) for j in range(4))
    H = pc.identity_tensor((2, (3, 4)))
    assert all(H[i, (j, k)] == (i, (j, k)) for i in range(2) for j in range(3) for k in range(4))
    row = pc.identity_tensor((3, 4))[1, None]
    assert all(row[j] == (1, j) for j in range(4))


# ------------------------------------------------------------------ test_alg_copy.py
def _iota(t: Any) -> None:
    for i in range(pc.size(t)):
        t[i] = float(i)


def _flat(t: Any) -> list[Any]:
    return [t[i] for i in range(pc.size(t))]


APPLICATIONS = [("memcpy", (8, 1), (8, 1)), ("transpose", ((4, 8), (8, 1)), ((4, 8), (1, 4))),
                ("gather", ((2, 3), (4, 1)), (6, 1)), ("scatter", (6, 1), ((2, 3), (4, 1))),
                ("broadcast", (7, 0), (7, 1)), ("constant", (7, 0), (7, 0)),
                ("hierarchical", ((4, (2, 3)), (1, (4, 12))), ((4, 6), (1, 4))),
                ("subdomain", ((4, 3, 5), (1, 7, 42)), ((6, 10), (1, 9))),
                ("coprime", ((5, 7), (7, 1)), ((7, 5), (5, 1))), ("rank1 to 2", (12, 1), ((3, 4), (4, 1))),
                ("part. bcast", ((5, 4), (0, 1)), ((5, 4), (4, 1)))]


@pytest.mark.parametrize("label,src,dst", APPLICATIONS)
def test_copy_reference_and_optimized_agree(label: str, src: Any, dst: Any) -> None:
    s = pc.make_tensor(pc.Layout(*src))
    _iota(s)
    d_ref, d_opt = pc.make_tensor(pc.Layout(*dst)), pc.make_tensor(pc.Layout(*dst))
    pc.copy_ref(s, d_ref)
    pc.copy_opt(s, d_opt)
    assert _flat(d_ref) == _flat(d_opt)
    n = int(pc.coshape(pc.Layout(*dst)))
    assert [d_ref.accessor[i] for i in range(n)] == [d_opt.accessor[i] for i in range(n)]
    if label not in ("constant",):
        assert _flat(d_ref) == _flat(s) or label == "broadcast"


def test_copy_reference_cases() -> None:
    src, dst = pc.make_tensor(pc.Layout((4, 8), (8, 1))), pc.make_tensor(pc.Layout((4, 8), (1, 4)))
    _iota(src)
    pc.copy_ref(src, dst)
    assert all(dst[i] == src[i] for i in range(pc.size(src)))
    assert [src.accessor[i] for i in range(32)] != [dst.accessor[i] for i in range(32)]
    b, d = pc.make_tensor(pc.Layout(7, 0)), pc.make_tensor(pc.Layout(7, 1))
    b[0] = 42.0
    pc.copy_ref(b, d)
    assert _flat(d) == [42.0] * 7
    for fn in (pc.copy_ref, pc.copy_opt):
        with pytest.raises(ValueError):
            fn(pc.make_tensor(pc.Layout(4, 1)), pc.make_tensor(pc.Layout(8, 1)))
    src4 = pc.make_tensor(pc.Layout(4, 1))
    _iota(src4)
    last = pc.make_tensor(pc.Layout(4, 0))
    pc.copy_ref(src4, last)              # CuTe's copy: the last write stands
    assert last[0] == 3.0


# ------------------------------------------------------------------ examples/einsum_test.py
def _make(mode: str, extents: dict[str, int], stride: Any = None, value: Callable[[int], float] = lambda i: 0.0) -> Any:
    s = tuple(extents[ch] for ch in mode)
    T = pc.make_tensor(pc.Layout(s, stride) if stride is not None else pc.Layout(s), dtype=ctypes.c_double)
    for i in range(pc.size(T)):
        T[i] = value(i)
    return T


def _contract(a_mode: str, b_mode: str, c_mode: str, extents: dict[str, int], A: Any, B: Any) -> dict[Any, float]:
    labels = list(dict.fromkeys(a_mode + b_mode + c_mode))
    out: dict[Any, float] = {}
    for combo in itertools.product(*[range(extents[x]) for x in labels]):
        at = dict(zip(labels, combo))
        key = tuple(at[x] for x in c_mode)
        out[key] = out.get(key, 0.0) + A[tuple(at[x] for x in a_mode)] * B[tuple(at[x] for x in b_mode)]
    return out


EINSUMS = [("mk,nk->mn", dict(m=3, n=4, k=5), {}), ("mk,nk->nm", dict(m=3, n=4, k=5), {}),
           ("mk,nk->mn", dict(m=3, n=4, k=5), dict(a_stride=(5, 1), b_stride=(5, 1), c_stride=(4, 1))),
           ("bmk,bnk->bmn", dict(b=2, m=3, n=4, k=5), {}), ("mkb,nkb->mnb", dict(b=2, m=3, n=4, k=5), {}),
           ("ijp,np->ijn", dict(i=2, j=3, p=4, n=5), {}),
           ("stupr,qtru->stqp", dict(s=2, t=3, u=2, p=2, r=3, q=2), {}),
           ("mk,nk->mn", dict(m=2, n=2, k=3), dict(c_init=10.0)), ("i,i->", dict(i=6), {}),
           ("i,j->ij", dict(i=3, j=4), {}), ("i,i->i", dict(i=6), {}), ("ij,ij->ij", dict(i=3, j=4), {}),
           ("i,->i", dict(i=5), {}), ("mn,->mn", dict(m=5, n=6), {}), ("mn,->nm", dict(m=5, n=6), {}),
           ("ij,j->i", dict(i=3, j=4), {}), ("i,ij->j", dict(i=3, j=4), {}), ("bij,bj->bi", dict(b=2, i=3, j=4), {})]


@pytest.mark.parametrize("subscripts,extents,kw", EINSUMS)
def test_einsum(subscripts: str, extents: dict[str, int], kw: dict[str, Any]) -> None:
    a_mode, b_mode, c_mode = subscripts.replace("->", ",").split(",")
    c_init = kw.get("c_init", 0.0)
    A = _make(a_mode, extents, kw.get("a_stride"), lambda i: i + 1)
    B = _make(b_mode, extents, kw.get("b_stride"), lambda i: 2 * i + 3)
    C = _make(c_mode, extents, kw.get("c_stride"), lambda i: c_init)
    assert pc.einsum(subscripts, A, B, C) is C
    for key, val in _contract(a_mode, b_mode, c_mode, extents, A, B).items():
        assert C[key] == pytest.approx(c_init + val, abs=1e-7), (subscripts, key)


@pytest.mark.parametrize("subscripts,modes", [("mk,nk", ("mk", "nk", "mn")), ("mk,nk,xy->mn", ("mk", "nk", "mn")),
                                              ("mkx,nk->mn", ("mkx", "nk", "mn")), ("mm,nm->mn", ("mm", "nm", "mn")),
                                              ("mkj,nk->mn", ("mk", "nk", "mn"))])
def test_einsum_rejects(subscripts: str, modes: tuple[str, str, str]) -> None:
    ext = dict(m=3, n=4, k=5, x=2)
    with pytest.raises(ValueError):
        pc.einsum(subscripts, *(_make(m, ext) for m in modes))
    with pytest.raises(ValueError):
        pc.einsum("mk,nk->mn", _make("mk", dict(m=3, k=5)), _make("nk", dict(n=4, k=6)), _make("mn", dict(m=3, n=4)))


# ------------------------------------------------------------------ examples/im2col_test.py
def _row_major(s: tuple[int, ...]) -> Any:
    return pc.make_ordered_layout(s, tuple(range(len(s) - 1, -1, -1)))


def _iota_int(layout: Any, value: Callable[[int], int] = lambda i: i) -> Any:
    T = pc.make_tensor(layout, dtype=ctypes.c_int64)
    for i in range(pc.size(layout)):
        T[i] = value(i)
    return T


def _zpq(A: Any, stencil: Any, **kw: Any) -> tuple[int, ...]:
    return tuple(pc.size(z) for z in pc.im2col(pc.make_tensor(A), stencil, **kw).layout[0][1])


def test_im2col_extents_follow_the_cutlass_formula() -> None:
    for d, t, pad, u, s in itertools.product(range(1, 8), range(1, 4), range(0, 3), range(1, 3), range(1, 3)):
        if (t - 1) * s + 1 > d + 2 * pad:
            continue
        assert _zpq(_row_major((1, d, 1)), t, lower_dhw=pad, stride_dhw=u, stride_trs=s) == (
            1 + (d + 2 * pad - ((t - 1) * s + 1)) // u,)


def test_im2col_parameters_per_mode() -> None:
    A = _row_major((1, 5, 5, 1))
    assert _zpq(A, (3, 3)) == (3, 3) and _zpq(A, (3, 3), lower_dhw=(1, 1)) == (5, 5)
    assert _zpq(_row_major((1, 5, 6, 7, 1)), (3, 3, 3), lower_dhw=(1, 1, 1)) == (5, 6, 7)
    assert _zpq(_row_major((1, 5, 1)), (2,), lower_dhw=1, upper_dhw=0) == (5,)
    with pytest.raises(ValueError, match="rank 1"):
        _zpq(_row_major((1, 5, 6, 7, 1)), (3, 3, 3), lower_dhw=1)
    with pytest.raises(ValueError, match="does not fit"):
        _zpq(_row_major((1, 3, 3, 1)), (5, 5))
    with pytest.raises(ValueError, match="but expected"):
        _zpq(_row_major((1, 5, 5, 1)), (3, 3, 3))
    assert _zpq(_row_major((1, 6, 1)), (3,), shape_zpq=(4,)) == (4,)
    with pytest.raises(ValueError, match="shape_zpq has rank"):
        _zpq(_row_major((1, 6, 1)), (3,), shape_zpq=(4, 4))


def test_im2col_shapes_and_strides() -> None:
    A = pc.make_tensor(_row_major((1, 4, 4, 1)))
    B = pc.im2col(A, (2, 2))
    # CuTe's (and cute_sym's) compact layouts give an extent-1 mode stride 0 where PyCuTe's give the
    # product (16 and 1 below): docs/conformance.md, "PyCuTe's executing tests"
    assert pc.shape(B) == ((1, (3, 3)), ((2, 2), 1)) and pc.stride(B.layout) == ((0, (4, 1)), ((4, 1), 0))
    assert pc.stride(pc.im2col(A, (2, 2), stride_dhw=(2, 2)).layout) == ((0, (8, 2)), ((4, 1), 0))
    assert pc.stride(pc.im2col(A, (2, 2), stride_trs=(2, 2)).layout) == ((0, (4, 1)), ((8, 2), 0))
    P = pc.im2col(pc.make_tensor(pc.Layout((1, 4, 4, 1), (16, 4, 1, 1))), (2, 2))     # PyCuTe's strides given
    assert pc.stride(P.layout) == ((16, (4, 1)), ((4, 1), 1))
    assert B.accessor.array is A.accessor.array
    assert pc.size(B) == 36 and int(pc.coshape(B.layout)) == 16
    U = pc.im2col(A, (1, 1))
    assert pc.shape(U) == ((1, (4, 4)), ((1, 1), 1)) and pc.size(U) == pc.size(A)
    assert pc.shape(pc.im2col(pc.make_tensor(_row_major((2, 8, 3))), 3)) == ((2, (6,)), ((3,), 3))
    assert pc.shape(pc.im2col(pc.make_tensor(_row_major((2, 4, 5, 6, 3))), (2, 3, 4))) == ((2, (3, 3, 3)), ((2, 3, 4), 3))
    with pytest.raises(ValueError, match="at least"):
        pc.im2col(pc.make_tensor(_row_major((4, 4))), 2)
    H = pc.make_tensor(pc.Layout((2, 4, 4, (2, 8)), (256, 64, 16, (8, 1))))
    assert pc.shape(pc.im2col(H, (2, 2))) == ((2, (3, 3)), ((2, 2), (2, 8)))
    N, D, Hh, W, C, T, R, S = 2, 4, 5, 6, 3, 2, 3, 2
    got = pc.im2col(pc.make_tensor(_row_major((N, D, Hh, W, C))), (T, R, S))
    assert pc.shape(got) == ((N, (D - T + 1, Hh - R + 1, W - S + 1)), ((T, R, S), C))
    assert pc.stride(got.layout) == ((D * Hh * W * C, (Hh * W * C, W * C, C)), ((Hh * W * C, W * C, C), 1))


def test_im2col_renesting_and_blocking() -> None:
    flat = _iota_int(pc.Layout((1, 4, 8, 1), (32, 8, 1, 1)))
    hier = _iota_int(pc.Layout((1, 4, (2, 4), 1), (32, 8, (1, 2), 1)))
    for stencil in [(2, 2), (3, 3), (2, 4)]:
        want, got = pc.im2col(flat, stencil), pc.im2col(hier, stencil)
        assert pc.shape(got) == pc.shape(want) and pc.stride(got.layout) == pc.stride(want.layout)
        assert [got[i] for i in range(pc.size(got))] == [want[i] for i in range(pc.size(want))]
    A = _iota_int(pc.Layout((1, (2, 4), 1), (32, (1, 8), 1)))
    B = pc.im2col(A, (2,), stride_trs=(2,))
    assert pc.shape(B) == ((1, ((2, 3),)), ((2,), 1)) and pc.stride(B.layout) == ((32, ((1, 8),)), ((8,), 1))
    for w, t, tap in itertools.product(range(2), range(3), range(2)):
        assert B[(0, ((w, t),)), ((tap,), 0)] == A[0, (w, t + tap), 0]


def _in_bounds(c: Any, s: Any) -> bool:
    return all(0 <= x < pc.size(e) for x, e in zip(c, s))


def test_im2col_coordinates() -> None:
    A = pc.make_tensor(_row_major((1, 4, 4, 1)))
    B = pc.im2col_coord(A, (2, 2))
    assert B[(0, (0, 0)), ((0, 0), 0)] == (0, 0, 0, 0) and B[(0, (1, 2)), ((1, 1), 0)] == (0, 2, 3, 0)
    P = pc.im2col_coord(A, (3, 3), lower_dhw=(1, 1))
    assert P[(0, (0, 0)), ((0, 0), 0)] == (0, -1, -1, 0)
    assert not _in_bounds(P[(0, (0, 0)), ((0, 0), 0)], pc.shape(A)) and _in_bounds(P[(0, (1, 1)), ((1, 1), 0)], pc.shape(A))
    H = _iota_int(pc.Layout((1, (2, 4), 1), (32, (1, 8), 1)))
    for stencil, kw in [((2,), dict(stride_trs=(2,))), ((3,), dict(stride_trs=(2,))), ((4,), dict(stride_dhw=(2,)))]:
        Bo, Co = pc.im2col(H, stencil, **kw), pc.im2col_coord(H, stencil, **kw)
        assert pc.size[0](Co) == pc.size[0](Bo) and pc.size[1](Co) == pc.size[1](Bo)
        assert [Bo[i] for i in range(pc.size(Bo))] == [H[tuple(Co[i])] for i in range(pc.size(Co))]
    for shape_A, stencil, kw in [((2, 5, 6, 3), (2, 3), {}), ((2, 5, 6, 3), (2, 3), dict(stride_dhw=(2, 2))),
                                 ((1, 7, 7, 2), (3, 3), dict(stride_trs=(2, 2))), ((1, 7, 7, 2), (3, 3), dict(lower_dhw=(1, 1))),
                                 ((2, 4, 5, 6, 2), (2, 2, 2), dict(stride_dhw=(1, 2, 1), stride_trs=(1, 1, 2)))]:
        X = _iota_int(_row_major(shape_A), lambda i: i + 1)
        off, crd = pc.im2col(X, stencil, **kw), pc.im2col_coord(X, stencil, **kw)
        for i in range(pc.size(off)):
            c = tuple(crd[i])
            if _in_bounds(c, pc.shape(X)):
                assert off[i] == X[c]


def test_im2col_padded_reads_the_fill_outside() -> None:
    A = _iota_int(_row_major((1, 3, 3, 1)), lambda i: i + 1)
    B = pc.im2col_padded(A, (3, 3), lower_dhw=(1, 1))
    assert B[(0, (1, 1)), ((1, 1), 0)] == A[0, 1, 1, 0] and B[(0, (0, 0)), ((0, 0), 0)] == 0
    assert pc.im2col_padded(A, (3, 3), lower_dhw=(1, 1), fill=-7)[(0, (0, 0)), ((0, 0), 0)] == -7
    row = B[(0, (0, 0)), None]
    assert [row[k] for k in range(pc.size(row))] == [0, 0, 0, 0, A[0, 0, 0, 0], A[0, 1, 0, 0], 0, A[0, 0, 1, 0],
                                                      A[0, 1, 1, 0]]
    Hc = _iota_int(pc.Layout((1, 3, 3, (2, 2)), (36, 12, 4, (2, 1))), lambda i: i + 1)
    P = pc.im2col_padded(Hc, (3, 3), lower_dhw=(1, 1))
    assert pc.shape(P) == ((1, (3, 3)), ((3, 3), (2, 2)))
    assert P[(0, (1, 1)), ((1, 1), (1, 1))] == Hc[0, 1, 1, (1, 1)] and P[(0, (0, 0)), ((0, 0), (0, 0))] == 0


def test_im2col_walks_the_stencil_backwards_for_dgrad() -> None:
    A = pc.make_tensor(_row_major((1, 6, 1)))
    T = 3
    B = pc.im2col_coord(A, T, lower_trs=T - 1, stride_trs=-1, shape_zpq=6, lower_dhw=T - 1)
    for z, t in itertools.product(range(6), range(T)):
        assert B[(0, (z,)), ((t,), 0)][1] == z - t


CONVS = [(1, 1, (4, 4), 1, (2, 2), {}), (2, 3, (5, 6), 4, (2, 3), {}), (2, 2, (7, 7), 3, (3, 3), dict(stride_dhw=(2, 2))),
         (1, 2, (7, 7), 2, (3, 3), dict(stride_trs=(2, 2))), (2, 3, (8,), 4, (3,), {}),
         (2, 2, (4, 5, 6), 3, (2, 3, 2), {}), (2, 4, (5, 5), 3, (1, 1), {}),
         (2, 2, (5, 5), 3, (3, 3), dict(lower_dhw=(1, 1))), (1, 1, (5, 5), 2, (2, 2), dict(lower_dhw=(1, 1), upper_dhw=(0, 0))),
         (2, 2, (9, 9), 2, (3, 3), dict(lower_dhw=(2, 2), stride_dhw=(2, 2), stride_trs=(2, 2))),
         (1, 2, (8,), 2, (3,), dict(lower_dhw=1)),
         (1, 2, (6, 7, 8), 2, (2, 3, 2), dict(lower_dhw=(0, 1, 1), stride_dhw=(1, 2, 1), stride_trs=(1, 1, 2)))]


@pytest.mark.parametrize("N,C,dhw,K,stencil,kw", CONVS)
def test_im2col_convolution_equals_the_direct_one(N: int, C: int, dhw: tuple[int, ...], K: int, stencil: Any,
                                                  kw: dict[str, Any]) -> None:
    n_sp = len(dhw)

    def per(v: Any) -> tuple[int, ...]:
        return v if isinstance(v, tuple) else (v,) * n_sp

    u, s = per(kw.get("stride_dhw", 1)), per(kw.get("stride_trs", 1))
    lo = per(kw.get("lower_dhw", 0))
    hi = lo if kw.get("upper_dhw") is None else per(kw["upper_dhw"])
    act = _iota_int(_row_major((N, *dhw, C)), lambda i: i % 7 - 3)
    flt = _iota_int(_row_major((K, *stencil, C)), lambda i: i % 5 - 2)
    zpq = tuple((d + a + b - ((t - 1) * ss + 1)) // uu + 1 for d, t, uu, ss, a, b in zip(dhw, stencil, u, s, lo, hi))
    out = pc.make_tensor(_row_major((N, *zpq, K)), dtype=ctypes.c_int64)
    padded = any(a or b for a, b in zip(lo, hi))
    A_mk = pc.im2col_padded(act, stencil, **kw) if padded else pc.im2col(act, stencil, **kw)
    B_nk = pc.make_layout([flt.layout[0], pc.make_layout([pc.make_layout([flt.layout[i] for i in range(1, 1 + n_sp)]),
                                                          flt.layout[n_sp + 1]])])
    C_mn = pc.make_layout([pc.make_layout([out.layout[0], pc.make_layout([out.layout[i] for i in range(1, 1 + n_sp)])]),
                           out.layout[n_sp + 1]])
    pc.gemm(A_mk, pc.Tensor(flt.accessor, B_nk), pc.Tensor(out.accessor, C_mn))
    for n, k in itertools.product(range(N), range(K)):
        for pos in itertools.product(*(range(z) for z in zpq)):
            total = 0
            for tap in itertools.product(*(range(t) for t in stencil)):
                crd = tuple(uu * p + ss * t - a for p, t, uu, ss, a in zip(pos, tap, u, s, lo))
                if not all(0 <= x < d for x, d in zip(crd, dhw)):
                    continue
                for c in range(C):
                    total += act[(n, *crd, c)] * flt[(k, *tap, c)]
            assert out[(n, *pos, k)] == total


@pytest.mark.parametrize("kw,message", [(dict(stencil=(2, 2, 2)), "but expected"), (dict(stencil=2), "but expected"),
                                        (dict(stencil=(2, 2), lower_dhw=(1, 1, 1)), "but expected"),
                                        (dict(stencil=(2, 2), lower_dhw=1), "but expected"),
                                        (dict(stencil=(2, 2), stride_trs=(1, 1, 1)), "but expected"),
                                        (dict(stencil=(2, 2), shape_zpq=(1,)), "but expected"),
                                        (dict(stencil=(9, 9)), "does not fit")])
def test_im2col_rejects(kw: dict[str, Any], message: str) -> None:
    A = pc.make_tensor(_row_major((2, 4, 4, 3)))
    for view in (pc.im2col, pc.im2col_coord, pc.im2col_padded):
        with pytest.raises(ValueError, match=message):
            view(A, **kw)
    assert issubclass(LayoutError, ValueError)


def test_an_integer_is_a_rank_1_value() -> None:
    A = pc.make_tensor(_row_major((1, 8, 1)))
    assert pc.shape(pc.im2col(A, 3, lower_dhw=1)) == pc.shape(pc.im2col(A, (3,), lower_dhw=(1,)))


_unused: Optional[int] = None


# ------------------------------------------------------------------ examples/einfold_test.py
def _fold_check(subscripts: str, source: Any, expected: Any) -> None:
    got = pc.einfold(subscripts, source)
    assert pc.is_layout(got) and got == expected, (subscripts, got)
    T = pc.Tensor(pc.ImplicitAccessor(17), source)
    folded = pc.einfold(subscripts, T)
    assert pc.is_tensor(folded) and folded is not T and folded.accessor is T.accessor and folded.layout == expected
    assert pc.einfold(subscripts, pc.shape(source)) == pc.shape(expected)
    assert pc.einfold(subscripts, pc.stride(source)) == pc.stride(expected)


L = pc.Layout
FOLDS = [("ijk -> ijk", L((2, 3, 5), (7, 11, 13)), L((2, 3, 5), (7, 11, 13))),
         ("ijkl -> kilj", L((2, 3, 5, 7), (1, 2, 6, 30)), L((5, 2, 7, 3), (6, 1, 30, 2))),
         ("abcd -> (ac)(db)", L((2, 3, 5, 7), (1, 2, 6, 30)), L(((2, 5), (7, 3)), ((1, 6), (30, 2)))),
         ("(ab)cd -> d(ac)b", L(((1, 3), 1, 5), ((0, 7), 0, 11)), L((5, (1, 1), 3), (11, (0, 0), 7))),
         ("(ab)cd -> d(bc)a", L(((2, 3), 5, 7), ((101, 17), 1009, 43)), L((7, (3, 5), 2), (43, (17, 1009), 101))),
         ("ij -> ij", L((2, 3), (1, 2)), L((2, 3), (1, 2))), ("ij -> (ij)", L((2, 3), (1, 2)), L(((2, 3),), ((1, 2),))),
         ("ij -> ((ij))", L((2, 3), (1, 2)), L((((2, 3),),), (((1, 2),),))),
         ("(ab)c -> abc", L(((2, 3), 5), ((1, 2), 6)), L((2, 3, 5), (1, 2, 6))),
         ("(ab)c -> (ba)c", L(((2, 3), 5), ((7, 11), 13)), L(((3, 2), 5), ((11, 7), 13))),
         ("tb -> bt", L(((2, 3), 5), ((7, 11), 13)), L((5, (2, 3)), (13, (7, 11)))),
         ("(ab)(cd) -> (acb)d", L(((2, 3), (5, 7)), ((1, 2), (6, 30))), L(((2, 5, 3), 7), ((1, 6, 2), 30))),
         ("((ab)(cd))e -> e((da)(bc))", L((((2, 3), (5, 7)), 11), (((1, 2), (6, 30)), 210)),
          L((11, ((7, 2), (3, 5))), (210, ((30, 1), (2, 6))))),
         ("ijk->k(ij)", L((2, 3, 5), (1, 2, 6)), L((5, (2, 3)), (6, (1, 2)))),
         (" i j k -> k ( i j ) ", L((2, 3, 5), (1, 2, 6)), L((5, (2, 3)), (6, (1, 2)))),
         ("ij -> iji", L((2, 3), (1, 2)), L((2, 3, 2), (1, 2, 1))), ("ij -> (ii)j", L((2, 3), (1, 2)), L(((2, 2), 3), ((1, 1), 2))),
         ("ij -> ii", L((2, 3), (1, 2)), L((2, 2), (1, 1))),
         ("tb -> tbt", L(((2, 3), 5), ((1, 2), 6)), L(((2, 3), 5, (2, 3)), ((1, 2), 6, (1, 2)))),
         ("(ab)c -> (aca)b", L(((2, 3), 5), ((1, 2), 6)), L(((2, 5, 2), 3), ((1, 6, 1), 2))),
         ("ijk -> ik", L((2, 3, 5), (1, 2, 6)), L((2, 5), (1, 6))), ("(ab)c -> ab", L(((2, 3), 5), ((1, 2), 6)), L((2, 3), (1, 2))),
         ("ijk -> ik", L((2, 3, 5, 7), (1, 2, 6, 30)), L((2, 5, 7), (1, 6, 30))),
         ("ijk -> (ik)", L((2, 3, 5, 7), (1, 2, 6, 30)), L(((2, 5), 7), ((1, 6), 30))),
         ("i -> i", L(4, 5), L(4, 5)), ("i -> (i)", L(4, 5), L((4,), (5,))), ("i -> i", L((4,), (5,)), L((4,), (5,))),
         ("(i) -> i", L((4,), (5,)), L(4, 5)), ("i -> i", L((2, 3, 5), (1, 2, 6)), L((2, 3, 5), (1, 2, 6))),
         ("i -> (i)", L((2, 3, 5), (1, 2, 6)), L(((2, 3, 5),), ((1, 2, 6),))),
         ("i -> ii", L((2, 3, 5), (1, 2, 6)), L(((2, 3, 5), (2, 3, 5)), ((1, 2, 6), (1, 2, 6)))),
         ("(i) -> i", L((2, 3, 5), (1, 2, 6)), L((2, 3, 5), (1, 2, 6))),
         ("(i) -> ((i))", L((2, 3, 5), (1, 2, 6)), L(((2,), 3, 5), ((1,), 2, 6))),
         ("ij -> ji", L(((12, 4), 42, 5, 7)), L((42, (12, 4), 5, 7), (48, (1, 12), 2016, 10080))),
         ("ij -> (ji)", L((2, 3, 5, 7), (1, 2, 6, 30)), L(((3, 2), 5, 7), ((2, 1), 6, 30))),
         ("((ab)(cd))e -> e((da)(bc))", L((((2, 3), (4, 5)), 6, 7)), L((6, ((5, 2), (3, 4)), 7), (120, ((24, 1), (2, 6)), 720))),
         ("ij -> (ij)", L((2, 3, 5, 7), (1, 2, 6, 30)), L(((2, 3), 5, 7), ((1, 2), 6, 30))),
         ("ijk -> (ij)k", L((2, 3, 5, 7), (1, 2, 6, 30)), L(((2, 3), 5, 7), ((1, 2), 6, 30))),
         ("(ij) -> ji", L(((2, 3), 5, 7), ((1, 2), 6, 30)), L((3, 2, 5, 7), (2, 1, 6, 30))),
         ("(ij)k -> jik", L(((2, 3), 5, 7), ((1, 2), 6, 30)), L((3, 2, 5, 7), (2, 1, 6, 30)))]


@pytest.mark.parametrize("subscripts,source,expected", FOLDS)
def test_einfold(subscripts: str, source: Any, expected: Any) -> None:
    _fold_check(subscripts, source, expected)


def test_einfold_of_tuples() -> None:
    import cute_sym as cs
    assert pc.einfold("ij -> ji", (2, 3)) == (3, 2) and pc.einfold("ij -> (ij)", (2, 3)) == ((2, 3),)
    assert pc.einfold("i -> i", (2, 3, 5)) == (2, 3, 5) and pc.einfold("(ab)c -> (ca)b", ((2, 3), 5)) == ((5, 2), 3)
    assert pc.einfold("ij -> ji", ((12, 4), 42, 5, 7)) == (42, (12, 4), 5, 7)
    assert pc.einfold("ij -> ji", (cs.E(0), cs.E(1))) == (cs.E(1), cs.E(0))
    assert pc.einfold("ij -> ji", (None, 3)) == (3, None) and pc.einfold("(ab)c -> (cb)a", ((None, 1), 2)) == ((2, 1), None)
    assert pc.einfold("ij -> ji", ("m", "n")) == ("n", "m")
    tiler = (pc.Layout((2, 3)), pc.Layout(5))
    assert pc.einfold("ij -> ji", tiler) == (pc.Layout(5), pc.Layout((2, 3)))
    assert pc.einfold("ij -> (ij)", tiler) == ((pc.Layout((2, 3)), pc.Layout(5)),)
    assert pc.einfold("i -> i", 4) == 4 and pc.einfold("i -> (i)", 4) == (4,) and pc.einfold("i -> ii", 4) == (4, 4)
    A = pc.Layout(((2, 3), 5, 7), ((1, 2), 6, 30))
    B = pc.einfold("(ab)c -> c(ba)", A)
    assert pc.shape(B) == pc.einfold("(ab)c -> c(ba)", pc.shape(A)) and pc.stride(B) == pc.einfold("(ab)c -> c(ba)", pc.stride(A))
    assert type(pc.einfold("ij -> ji", pc.Layout((2, 3)))) is cs.Layout and type(pc.einfold("ij -> ji", (2, 3))) is tuple
    wrapped = pc.einfold("i -> (i)", pc.Layout(((2, 3), 5), ((1, 2), 6)))
    assert wrapped == pc.Layout((((2, 3), 5),), (((1, 2), 6),)) and pc.einfold("(i) -> i", wrapped) == pc.Layout(((2, 3), 5), ((1, 2), 6))


def test_einfold_tensor_views_alias_their_source() -> None:
    src = pc.make_tensor(pc.Layout((2, 3), (1, 2)), dtype=ctypes.c_int)
    for i, j in itertools.product(range(2), range(3)):
        src[i, j] = 10 * i + j
    view = pc.einfold("ij -> ji", src)
    assert pc.is_tensor(view) and view.accessor is src.accessor
    assert all(view[j, i] == src[i, j] for i in range(2) for j in range(3))
    view[2, 1] = 123
    assert src[1, 2] == 123
    src[0, 1] = 456
    assert view[1, 0] == 456


PARSES = [("i", "i"), ("ij", ("i", "j")), ("(i)", ("i",)), ("((i))", (("i",),)), ("(ji)", (("j", "i"),)),
          ("((ji))", ((("j", "i"),),)), ("(ab)c", (("a", "b"), "c")), ("((ab)c)d", ((("a", "b"), "c"), "d")),
          ("(a)b", (("a",), "b")), ("  a ( b c ) ", ("a", ("b", "c"))), ("  ( i ) ", ("i",)), ("i0j1", ("i", "0", "j", "1"))]


@pytest.mark.parametrize("text,expected", PARSES)
def test_einfold_parses_mode_expressions(text: str, expected: Any) -> None:
    assert pc._parse_modes(text) == expected


MALFORMED = [("", "empty mode expression"), ("   ", "empty mode expression"), ("()", "empty mode group"),
             ("(", "unclosed '('"), ("(a(b)", "unclosed '('"), (")", "unmatched ')'"), ("a)b", "unmatched ')'"),
             ("i,j", "separators between modes are implied"), ("i_j", "invalid mode name '_'"),
             ("i+j", "invalid mode name '+'"), ("i.j", "invalid mode name '.'"), ("[ij]", "invalid mode name '['")]


@pytest.mark.parametrize("text,message", MALFORMED)
def test_einfold_rejects_malformed_expressions(text: str, message: str) -> None:
    import re
    with pytest.raises(ValueError, match=re.escape(message)):
        pc._parse_modes(text)
    for subscripts in (f"{text} -> ij", f"ij -> {text}"):
        with pytest.raises(ValueError, match=re.escape(message)):
            pc.einfold(subscripts, pc.Layout((2, 3)))


def test_einfold_rejects() -> None:
    import re
    for s in ["ij", "ji", "ij>ji", "ij-ji", "ij->ji->k"]:
        with pytest.raises(ValueError, match=re.escape("expected exactly one '->'")):
            pc.einfold(s, pc.Layout((2, 3)))
    for s, src, msg in [("ii->i", pc.Layout((2, 3)), "input contains repeated names"),
                        ("(ij)i->ij", pc.Layout(((2, 3), 5)), "input contains repeated names"),
                        ("ij->ik", pc.Layout((2, 3)), "output contains unknown names: ['k']"),
                        ("ij->ijk", pc.Layout((2, 3)), "output contains unknown names: ['k']"),
                        ("ij->(jk)", pc.Layout((2, 3)), "output contains unknown names: ['k']")]:
        with pytest.raises(ValueError, match=re.escape(msg)):
            pc.einfold(s, src)
    unmatched = "does not match the source profile"
    for s, src in [("ijk -> kji", pc.Layout((2, 3))), ("ijk -> kji", (2, 3)), ("(ij)k -> ijk", pc.Layout((2, 3))),
                   ("((ij)k)l -> ijkl", pc.Layout((2, 3))), ("(ijk)l -> ijkl", pc.Layout(((2, 3), 5))),
                   ("(ij)(kl) -> ijkl", pc.Layout(((2, 3), 5, 11))), ("(i) -> i", pc.Layout(4, 5)),
                   ("ij -> ji", 42), ("ij -> ji", None), ("ij -> ji", "tensor"),
                   ("(ab)c -> abc", (pc.Layout((2, 3)), pc.Layout(5)))]:
        with pytest.raises(ValueError, match=unmatched):
            pc.einfold(s, src)
