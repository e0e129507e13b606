"""Post-conditions of cute_sym's operations: one checker per operation.

Each ``check_*`` helper takes the inputs and the result of one operation and
asserts what the operation promises (CuTe's ``@post`` comments), by
evaluating the layouts pointwise on plain ints. The example tests, the
exhaustive sweeps of small static layouts and the hypothesis properties all
reuse these helpers, so an answer is never checked by a hard-coded value only.

Helpers that take layouts expect *static* layouts (use :func:`to_static` on a
symbolic result after substituting values).
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any, Iterable, Mapping, Optional, Sequence

import sympy

import cute_sym as cs
from cute_sym import Layout


# ---------------------------------------------------------------- evaluation
def leaf_int(x: Any) -> int:
    """A static or known-dynamic leaf as a plain int (fails on a free symbol)."""
    if isinstance(x, sympy.Basic):
        assert not x.free_symbols, f"leaf {x} still holds symbols"
        v = sympy.simplify(x)
        assert v.is_Integer, f"leaf {x} is not an integer"
        return int(v)
    return int(x)


def plain(t: Any) -> Any:
    """An IntTuple with every leaf a plain int (nesting kept)."""
    if isinstance(t, tuple):
        return tuple(plain(e) for e in t)
    return leaf_int(t)


def to_static(obj: Any, values: Optional[Mapping[str, int]] = None) -> Any:
    """Substitute ``values`` (by symbol name) and make every leaf a plain int."""
    if values:
        obj = cs.subs(obj, dict(values), ignore_unknown=True)
    if isinstance(obj, Layout):
        return Layout(plain(obj.shape), plain(obj.stride))
    return plain(obj)


def nsize(x: Any) -> int:
    return leaf_int(cs.size(x))


def f(L: Layout, i: Any) -> int:
    """``L(i)`` as a plain int."""
    return leaf_int(L(i))


def image(L: Layout) -> list[int]:
    """``[L(0), L(1), ..., L(size-1)]``."""
    return [f(L, i) for i in range(nsize(L))]


def modes(L: Layout) -> list[Layout]:
    """The top-level modes (a rank-1 layout with an integral shape is its own mode)."""
    if isinstance(L.shape, tuple):
        return [L[k] for k in range(len(L.shape))]
    return [L]


def same_function(A: Layout, B: Layout) -> bool:
    """Equal size and ``A(i) == B(i)`` for every 1-D index ``i``."""
    return nsize(A) == nsize(B) and image(A) == image(B)


def same_function_by_mode(A: Layout, B: Layout) -> bool:
    """Same rank and, mode by mode, the same function (the conformance criterion)."""
    ma, mb = modes(A), modes(B)
    return len(ma) == len(mb) and all(same_function(x, y) for x, y in zip(ma, mb))


def assert_same_function(A: Layout, B: Layout, what: str = "") -> None:
    assert nsize(A) == nsize(B), f"{what}: size {cs.size(A)} != {cs.size(B)} ({A} vs {B})"
    ia, ib = image(A), image(B)
    for i, (x, y) in enumerate(zip(ia, ib)):
        assert x == y, f"{what}: {A} and {B} differ at {i}: {x} != {y}"


def is_injective(L: Layout) -> bool:
    im = image(L)
    return len(set(im)) == len(im)


def filtered_size(L: Layout) -> int:
    """Size of ``L`` without its stride-0 modes (number of distinct offsets when injective there)."""
    s = 1
    for sh, st in zip(cs.flatten(L.shape) if isinstance(L.shape, tuple) else (L.shape,),
                      cs.flatten(L.stride) if isinstance(L.stride, tuple) else (L.stride,)):
        if leaf_int(st) != 0:
            s *= leaf_int(sh)
    return s


def shape_compatible(a: Any, b: Any) -> bool:
    """CuTe's ``compatible(a, b)`` on plain ints: every integer of ``a`` is the size of ``b``'s mode."""
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(shape_compatible(x, y) for x, y in zip(a, b))
    p = 1
    for e in (cs.flatten(b) if isinstance(b, tuple) else (b,)):
        p *= leaf_int(e)
    return leaf_int(a) == p


# ---------------------------------------------------------------- int tuples
def check_idx2crd_crd2idx(shape: Any, idx: int) -> None:
    """``idx2crd`` and ``crd2idx`` are inverse on ``[0, size(shape))``; the coordinate
    is congruent with the shape and inside it."""
    c = cs.idx2crd(idx, shape)
    assert plain(cs.crd2idx(c, shape)) == idx, f"crd2idx(idx2crd({idx}, {shape})) = {cs.crd2idx(c, shape)}"
    if isinstance(shape, tuple):
        assert cs.congruent(c, shape), f"idx2crd({idx}, {shape}) = {c} is not congruent"
        for ci, si in zip(cs.flatten(c), cs.flatten(shape)):
            assert 0 <= leaf_int(ci) < leaf_int(si), f"idx2crd({idx}, {shape}) = {c} out of the shape"
        # and back: the natural coordinate maps to itself
        assert plain(cs.idx2crd(cs.crd2idx(c, shape), shape)) == plain(c)


def check_flatten_unflatten(t: Any) -> None:
    fl = cs.flatten(t)
    if isinstance(t, tuple):
        assert cs.depth(fl) <= 1
        assert plain(cs.unflatten(fl, t)) == plain(t), f"unflatten(flatten({t}), {t}) != {t}"
    p = 1
    for e in (fl if isinstance(fl, tuple) else (fl,)):
        p *= leaf_int(e)
    assert p == nsize(t)


def check_shape_div(a: Any, b: Any, r: Any) -> None:
    """``shape_div(a, b)``: when ``size(b)`` divides ``size(a)``, ``size(r) * size(b) == size(a)``;
    the result is congruent with ``a``."""
    if isinstance(a, tuple):
        assert cs.congruent(r, a) or not isinstance(b, int), f"shape_div({a},{b}) = {r} not congruent"
    na, nb = nsize(a), nsize(b)
    if na % nb == 0 and not isinstance(b, tuple):
        assert nsize(r) * nb == na, f"shape_div({a},{b}) = {r}"


def check_ceil_div(a: Any, b: Any, r: Any) -> None:
    """``ceil_div`` of integers is the ceiling of the quotient; of a tuple by an int (CuTe's
    left fold) it is congruent with ``a``, each mode shrinks (``1 <= r_i <= a_i``) and the first
    mode is ``ceil_div(a_0, b)``."""
    if not isinstance(a, tuple) and not isinstance(b, tuple):
        na, nb = leaf_int(a), leaf_int(b)
        assert leaf_int(r) == -(-na // nb), f"ceil_div({a},{b}) = {r}"
    elif isinstance(a, tuple) and not isinstance(b, tuple):
        assert cs.congruent(r, a) and len(r) == len(a)
        for ri, ai in zip(r, a):
            assert 1 <= nsize(ri) <= nsize(ai), f"ceil_div({a},{b}) = {r}"
        if a and not isinstance(a[0], tuple):
            assert leaf_int(r[0]) == -(-leaf_int(a[0]) // leaf_int(b))


def symbol_values(sym: Any) -> list[int]:
    """A few allowed values of a symbol (its divisor's multiples within its bounds)."""
    from cute_sym.core.integers import symbol_facts
    d, lo, hi = symbol_facts(sym)
    first = -8 if lo is None else lo
    last = 40 if hi is None else hi
    return [v for v in range(first, last + 1) if v % d == 0][:14]


def exact_value(e: Any, env: Mapping[Any, int]) -> Optional[Fraction]:
    """``e`` at ``env`` as an exact rational (None where it is undefined: a division by zero)."""
    v = e.xreplace({k: sympy.Integer(x) for k, x in env.items()})
    return Fraction(int(v.p), int(v.q)) if v.is_Rational else None


def check_rounding(fn: Any, q: Any, r: Any) -> None:
    """A floor or ceiling ``r`` built for ``fn(q)`` (``fn`` sympy's ``floor`` or ``ceiling``):
    equal to the rounding of ``q`` at every allowed value of the symbols where ``q`` is defined,
    computed in exact rationals (not through sympy's own rounding)."""
    rnd = math.floor if fn is sympy.floor else math.ceil
    q = sympy.sympify(q)
    syms = sorted(q.free_symbols, key=str)
    for vals in itertools.islice(itertools.product(*[symbol_values(s) for s in syms]), 600):
        env = dict(zip(syms, vals))
        want = exact_value(q, env)
        if want is None:
            continue
        got = exact_value(sympy.sympify(r), env)
        assert got == rnd(want), f"{fn.__name__}({q}) -> {r}: {got} != {rnd(want)} at {env}"


def check_expand(e: Any) -> None:
    """``decide.expansion.expand(e)`` is sympy's own expansion (the same expression, ``==``),
    equal to ``e`` at every allowed value of the symbols where ``e`` is defined; and
    ``is_expanded(e)`` only when sympy leaves ``e`` as it is."""
    from cute_sym.core.decide.expansion import expand, is_expanded
    e = sympy.sympify(e)
    want = sympy.expand(e)
    got = expand(e)
    assert got == want, f"expand({e}) = {got}, sympy: {want}"
    if is_expanded(e):
        assert want == e, f"is_expanded({e}), but sympy expands it to {want}"
    syms = sorted(e.free_symbols, key=str)
    for vals in itertools.islice(itertools.product(*[symbol_values(s) for s in syms]), 200):
        env = dict(zip(syms, vals))
        before = exact_value(e, env)
        if before is not None:
            assert exact_value(got, env) == before, f"expand({e}) = {got} differs at {env}"


def check_expand_over_calls(e: Any, call: Any) -> None:
    """``expand_over_calls(e, call)`` is ``None`` or what its contract says: each call ``x`` of
    ``e`` a fresh symbol standing for ``call(x)`` (or, where ``call(x)`` is a sum or product,
    that formula, each call in it treated alike), sympy's expansion, the calls put back."""
    from cute_sym.core.decide.expansion import expand_over_calls
    from cute_sym.core.decide.reason import _is_poly_node
    e = sympy.sympify(e)
    got = expand_over_calls(e, call)
    if got is None:
        return
    stand: dict[Any, Any] = {}

    def atomize(x: Any) -> Any:
        if x.is_Atom:
            return x
        if _is_poly_node(x):
            return x.func(*[atomize(t) for t in x.args])
        y = call(x)
        if y is not x and (y.is_Number or y.is_Add or y.is_Mul):
            return atomize(y)
        return stand.setdefault(y, sympy.Dummy(integer=True))
    want = sympy.expand(atomize(e)).xreplace({v: k for k, v in stand.items()})
    assert got == want, f"expand_over_calls({e}) = {got}, expected {want}"


# ---------------------------------------------------------------- layouts
def check_compact(L: Layout) -> None:
    """A compact layout: a bijection of its domain onto ``[0, size)``."""
    assert sorted(image(L)) == list(range(nsize(L))), f"{L} is not compact"


def check_coalesce(L: Layout, R: Layout) -> None:
    """coalesce: the same function on the domain, depth <= 1, no static size-1 mode."""
    assert_same_function(L, R, f"coalesce({L})")
    assert cs.depth(R) <= 1, f"coalesce({L}) = {R} has depth {cs.depth(R)}"
    if isinstance(R.shape, tuple):
        assert all(leaf_int(s) != 1 for s in R.shape), f"coalesce({L}) = {R} keeps a size-1 mode"
        # no two neighbouring modes that could merge
        for k in range(len(R.shape) - 1):
            s0, d0, d1 = leaf_int(R.shape[k]), leaf_int(R.stride[k]), leaf_int(R.stride[k + 1])
            assert s0 * d0 != d1, f"coalesce({L}) = {R}: modes {k},{k + 1} still merge"


def check_coalesce_profile(L: Layout, profile: Any, R: Layout) -> None:
    """coalesce by mode: the same function on the whole domain, mode by mode for the profile's modes."""
    assert_same_function(L, R, f"coalesce({L}, {profile})")
    assert cs.rank(R) == cs.rank(L)
    for k in range(len(profile)):
        assert same_function(L[k], R[k]), f"coalesce({L},{profile}) mode {k}"


def check_filter(L: Layout, R: Layout) -> None:
    """filter: the same set of offsets, no stride-0 and no size-1 mode (unless ``_1:_0``)."""
    assert set(image(L)) == set(image(R)), f"filter({L}) = {R}: the image changed"
    assert cs.depth(R) <= 1
    fs = R.shape if isinstance(R.shape, tuple) else (R.shape,)
    fd = R.stride if isinstance(R.stride, tuple) else (R.stride,)
    if nsize(R) == 1:
        return
    for s, d in zip(fs, fd):
        assert leaf_int(s) != 1 and leaf_int(d) != 0, f"filter({L}) = {R} keeps a trivial mode"


def check_composition(A: Layout, B: Any, R: Layout) -> None:
    """composition: ``R(i) == A(B(i))`` for every ``i < size(B)`` and ``compatible(B, R)``."""
    if isinstance(B, Layout):
        assert shape_compatible(B.shape, R.shape) or shape_compatible(cs.product(B.shape), R.shape), \
            f"composition({A}, {B}) = {R}: shape not compatible with {B.shape}"
        assert nsize(R) == nsize(B), f"composition({A}, {B}) = {R}: size"
        for i in range(nsize(B)):
            assert f(R, i) == f(A, f(B, i)), f"composition({A}, {B}) = {R} at {i}"
    else:
        raise TypeError("check_composition takes a layout rhs; use check_composition_tiler")


def check_composition_tiler(A: Layout, tiler: tuple[Any, ...], R: Layout) -> None:
    """By-mode composition: mode ``k`` of ``R`` is ``A[k] o tiler[k]`` (``_`` keeps the mode)."""
    assert cs.rank(R) == len(tiler)
    for k, t in enumerate(tiler):
        if t is cs._:
            assert_same_function(A[k], R[k], "composition by mode (_)")
            continue
        tl = t if isinstance(t, Layout) else Layout(t)
        check_composition(A[k], tl, R[k])


def check_complement(A: Layout, M: int, C: Layout) -> None:
    """complement: ``C`` is ordered (``C(i) < C(i+1)``), ``(A, C)`` is injective (so ``C``
    is disjoint from ``A``'s image but for 0), and ``size(C) * size(filter(A)) >= M``
    (``(A, C)`` covers the cotarget)."""
    im = image(C)
    assert all(x < y for x, y in zip(im, im[1:])), f"complement({A}, {M}) = {C} is not ordered"
    assert im[0] == 0
    fa = set(image(A))
    assert not (set(im[1:]) & fa), f"complement({A}, {M}) = {C} meets the image of A"
    both = cs.make_layout(cs.filter(A), C)
    assert is_injective(to_static(both)), f"complement({A}, {M}) = {C}: (A, C) not injective"
    assert nsize(C) * filtered_size(A) >= M, f"complement({A}, {M}) = {C} too small"


def check_right_inverse(L: Layout, R: Layout) -> None:
    """right_inverse: ``L(R(i)) == i`` for ``i < size(R)``."""
    for i in range(nsize(R)):
        r = f(R, i)
        assert 0 <= r < nsize(L), f"right_inverse({L}) = {R}: R({i}) = {r} outside the domain"
        assert f(L, r) == i, f"right_inverse({L}) = {R}: L(R({i})) = {f(L, r)}"


def check_left_inverse(L: Layout, R: Layout) -> None:
    """left_inverse: ``R(L(i)) == i`` for ``i < size(L)``."""
    for i in range(nsize(L)):
        x = f(L, i)
        assert f(R, x) == i, f"left_inverse({L}) = {R}: R(L({i})) = {f(R, x)}"


def divide_reference(A: Layout, T: Layout) -> Layout:
    """``(T, complement(T, size(A)))``: the layout ``logical_divide`` composes with."""
    C = cs.complement(T, nsize(A))
    return cs.make_layout(T, C)


def check_logical_divide(A: Layout, T: Any, R: Layout) -> None:
    """logical_divide by a layout: ``R(i) == A(tiled(i))`` with ``tiled = (T, complement(T, size(A)))``;
    ``R[0]`` is ``A o T``; size preserved when ``T``'s image covers in steps dividing ``size(A)``."""
    if isinstance(T, tuple):
        assert cs.rank(R) == cs.rank(A)
        for k in range(cs.rank(A)):
            if k < len(T) and T[k] is not cs._:
                tk = T[k] if isinstance(T[k], Layout) else Layout(T[k])
                check_logical_divide(A[k], tk, R[k])
            else:
                assert_same_function(A[k], R[k], "logical_divide: untouched mode")
        return
    if not isinstance(T, Layout):
        T = Layout(T)
    full = divide_reference(A, T)
    assert cs.rank(R) == 2, f"logical_divide({A}, {T}) = {R} is not rank 2"
    n = min(nsize(R), nsize(full))
    for i in range(n):
        assert f(R, i) == f(A, f(full, i)), f"logical_divide({A}, {T}) = {R} at {i}"
    assert nsize(R[0]) == nsize(T)
    for i in range(nsize(T)):
        assert f(R[0], i) == f(A, f(T, i))
    if nsize(A) % nsize(T) == 0 and nsize(full) == nsize(A):
        assert nsize(R) == nsize(A), f"logical_divide({A}, {T}) = {R}: size not preserved"


def check_zipped(L: Layout, T: Any, Z: Layout, what: str) -> None:
    """``Z`` is ``L`` (a logical divide/product by ``T``) with the modes gathered:
    a layout ``T`` gives the same function; a tiler ``T`` of ``n`` modes gives
    ``Z[0][k] == L[k][0]``, ``Z[1][k] == L[k][1]`` for ``k < n`` and ``Z[1][k] == L[k]`` after."""
    assert cs.rank(Z) == 2, f"{what} = {Z} is not rank 2"
    assert nsize(Z) == nsize(L)
    if not isinstance(T, tuple):
        assert_same_function(L, Z, what)
        return
    z0, z1 = modes(Z[0]), modes(Z[1])
    lm = modes(L)
    n = len(T)
    assert len(z0) == n or n == 1, f"{what} = {Z}: tile modes"
    for k in range(n):
        if n > 1:
            assert same_function(z0[k], lm[k][0]), f"{what} = {Z}: tile mode {k}"
        assert same_function(z1[k] if len(z1) > 1 or len(lm) > 1 else Z[1], lm[k][1]), f"{what} = {Z}: rest mode {k}"
    for k in range(n, len(lm)):
        assert same_function(z1[k], lm[k]), f"{what} = {Z}: untouched mode {k}"


def check_zipped_divide(A: Layout, T: Any, R: Layout) -> None:
    """zipped_divide: rank 2 ``((tile...), (rest...))``, the modes of logical_divide gathered."""
    LD = to_static(cs.logical_divide(A, T))
    check_zipped(LD, T, R, f"zipped_divide({A}, {T})")


def check_tiled_divide(A: Layout, T: Any, R: Layout) -> None:
    """tiled_divide: ``((tile), rest0, rest1, ...)``, the same function as zipped_divide."""
    Z = to_static(cs.zipped_divide(A, T))
    assert_same_function(Z, R, f"tiled_divide({A}, {T})")
    assert same_function(Z[0], R[0])
    assert cs.rank(R) >= 2


def check_flat_divide(A: Layout, T: Any, R: Layout) -> None:
    """flat_divide: ``(t0, t1, ..., r0, r1, ...)``, the same function as zipped_divide."""
    Z = to_static(cs.zipped_divide(A, T))
    assert_same_function(Z, R, f"flat_divide({A}, {T})")
    assert cs.rank(R) >= cs.rank(Z)


def check_logical_product(A: Layout, B: Layout, R: Layout) -> None:
    """logical_product: ``R[0]`` is ``A``; ``R[1](j) == complement(A, size(A)*cosize(B))(B(j))``;
    ``size(R) == size(A) * size(B)``; and every block ``R(_, j)`` is ``A`` shifted."""
    assert cs.rank(R) == 2
    assert_same_function(A, R[0], "logical_product: mode 0")
    C = cs.complement(A, nsize(A) * leaf_int(cs.cosize(B)))
    assert nsize(R) == nsize(A) * nsize(B), f"logical_product({A}, {B}) = {R}: size"
    for j in range(nsize(B)):
        assert f(R[1], j) == f(C, f(B, j)), f"logical_product({A}, {B}) = {R}: mode 1 at {j}"
        off = f(R[1], j)
        for i in range(nsize(A)):
            assert f(R, (i, j)) == f(A, i) + off


def check_zipped_product(A: Layout, B: Any, R: Layout) -> None:
    """zipped_product: the modes of logical_product gathered."""
    P = to_static(cs.logical_product(A, B))
    check_zipped(P, B, R, f"zipped_product({A}, {B})")


def check_tiled_product(A: Layout, B: Any, R: Layout) -> None:
    Z = to_static(cs.zipped_product(A, B))
    assert_same_function(Z, R, f"tiled_product({A}, {B})")
    assert same_function(Z[0], R[0])


def check_flat_product(A: Layout, B: Any, R: Layout) -> None:
    Z = to_static(cs.zipped_product(A, B))
    assert_same_function(Z, R, f"flat_product({A}, {B})")


def _mode_sizes(L: Layout, r: int) -> list[int]:
    ms = modes(L)
    out = [nsize(m) for m in ms]
    return out + [1] * (r - len(out))


def check_blocked_product(A: Layout, B: Layout, R: Layout, raked: bool = False) -> None:
    """blocked/raked product: rank ``max(rank A, rank B)``; size ``size(A)*size(B)``; mode ``k``
    indexes ``(a_k, b_k)`` (blocked) or ``(b_k, a_k)`` (raked), and
    ``R(m) == logical_product(A, B)((a_0, a_1, ...), (b_0, b_1, ...))``."""
    r = max(cs.rank(A), cs.rank(B))
    assert cs.rank(R) == r, f"{'raked' if raked else 'blocked'}_product({A}, {B}) = {R}: rank"
    assert nsize(R) == nsize(A) * nsize(B)
    sa, sb = _mode_sizes(A, r), _mode_sizes(B, r)
    rm = modes(R)
    for k in range(r):
        assert nsize(rm[k]) == sa[k] * sb[k], f"product mode {k} of {R}"
    Ap = A if cs.rank(A) == r else cs.append(A, n=r) if isinstance(A.shape, tuple) else cs.append(
        Layout((A.shape,), (A.stride,)), n=r)
    Bp = B if cs.rank(B) == r else cs.append(B, n=r) if isinstance(B.shape, tuple) else cs.append(
        Layout((B.shape,), (B.stride,)), n=r)
    C = cs.complement(Ap, nsize(Ap) * leaf_int(cs.cosize(Bp)))
    for a in itertools.product(*[range(x) for x in sa]):
        ia = f(Ap, tuple(a)) if r > 1 else f(Ap, a[0])
        for b in itertools.product(*[range(x) for x in sb]):
            ib = f(C, f(Bp, tuple(b) if r > 1 else b[0]))
            if raked:
                crd = tuple(b[k] + sb[k] * a[k] for k in range(r))
            else:
                crd = tuple(a[k] + sa[k] * b[k] for k in range(r))
            got = f(R, crd if r > 1 else crd[0])
            assert got == ia + ib, f"product({A}, {B}) = {R} at a={a} b={b}: {got} != {ia + ib}"


def check_raked_product(A: Layout, B: Layout, R: Layout) -> None:
    check_blocked_product(A, B, R, raked=True)


def check_tile_to_shape(block: Layout, target: tuple[int, ...], R: Layout) -> None:
    """tile_to_shape: the result has the target shape (compatible), is injective when
    the block is, and its first block is ``block``."""
    assert shape_compatible(target, R.shape), f"tile_to_shape({block}, {target}) = {R}"
    if is_injective(block):
        assert is_injective(R)


def check_max_common_vector(A: Layout, B: Layout, n: int) -> None:
    """max_common_vector: ``N >= 1`` and ``A(Rb(i)) == i == B(Rb(i))`` for ``i < N``
    where ``Rb = right_inverse(B)`` (``B.get_1d_coord``)."""
    assert n >= 1
    Rb = cs.right_inverse(B)
    assert n <= nsize(Rb) or n == 1
    for i in range(min(n, nsize(Rb))):
        assert f(B, f(Rb, i)) == i
        assert f(A, f(Rb, i)) == i, f"max_common_vector({A}, {B}) = {n}: A differs at {i}"


def check_max_common_layout(A: Layout, B: Layout, R: Layout) -> None:
    """max_common_layout: ``A(R(i)) == i == B(R(i))`` for ``i < size(R)``."""
    for i in range(nsize(R)):
        assert f(A, f(R, i)) == i, f"max_common_layout({A}, {B}) = {R}: A(R({i}))"
        assert f(B, f(R, i)) == i, f"max_common_layout({A}, {B}) = {R}: B(R({i}))"


def check_nullspace(L: Layout, N: Layout) -> None:
    """nullspace: ``L(N(i)) == 0``, ``N`` injective, and ``size(N)`` counts every index ``L`` sends to 0
    along its stride-0 modes (``size(N) * filtered_size(L) == size(L)``)."""
    for i in range(nsize(N)):
        assert f(L, f(N, i)) == 0, f"nullspace({L}) = {N} at {i}"
    if nsize(N) > 1:
        assert is_injective(N)
    assert nsize(N) * filtered_size(L) == nsize(L)


def check_downcast_upcast(L: Layout, n: int, D: Layout) -> None:
    """downcast by ``n`` then upcast by ``n`` is the original function; ``size(D) == n * size(L)``
    when ``L`` has a stride-1 mode; ``D(n*i) == n*L(i)`` on the stride-1 mode's elements."""
    assert nsize(D) == n * nsize(L), f"downcast({L}, {n}) = {D}: size"
    U = to_static(cs.upcast(D, n))
    assert_same_function(L, U, f"upcast(downcast({L},{n}),{n})")


# ---------------------------------------------------------------- swizzled (composed) forms
def _parts(X: Any) -> tuple[Any, int, Any]:
    """``(outer, offset, inner)``: ``X(i) == outer(offset + inner(i))`` (a plain layout: identity, 0)."""
    if isinstance(X, cs.ComposedLayout):
        return X.layout_a, leaf_int(X.offset), X.layout_b
    return (lambda x: x), 0, X


def check_upcast(A: Any, n: int, R: Any) -> None:
    """upcast of a plain or swizzled layout: congruent inner layouts, and for every
    coordinate ``c`` of ``R``, ``R(c) * n == A(c')`` where ``c'`` scales the coordinate of
    each mode whose stride is below ``n`` by ``n / |stride|`` (the vector it starts)."""
    oa, offa, ia = _parts(A)
    orr, offr, ir = _parts(R)
    fs, fd = [leaf_int(x) for x in cs.flatten(ia.shape)], [leaf_int(x) for x in cs.flatten(ia.stride)]
    rs, rd = [leaf_int(x) for x in cs.flatten(ir.shape)], [leaf_int(x) for x in cs.flatten(ir.stride)]
    assert len(rs) == len(fs), f"upcast({A}, {n}) = {R}: not congruent"
    q = [n // abs(d) if 0 < abs(d) < n else 1 for d in fd]
    for c in itertools.product(*[range(x) for x in rs]):
        a = oa(offa + sum(x * k * d for x, k, d in zip(c, q, fd)))
        r = orr(offr + sum(x * d for x, d in zip(c, rd)))
        assert leaf_int(r) * n == leaf_int(a), f"upcast({A}, {n}) = {R} at {c}"


def check_downcast(A: Any, n: int, R: Any) -> None:
    """downcast of a plain or swizzled layout: ``n`` times the elements, and upcasting back
    by ``n`` gives the function ``A``."""
    assert nsize(R) == n * nsize(A), f"downcast({A}, {n}) = {R}: size"
    U = cs.upcast(R, n)
    for i in range(nsize(A)):
        assert f(U, i) == f(A, i), f"upcast(downcast({A},{n}),{n}) differs at {i}"


def check_max_common_vector_any(A: Any, B: Any, n: int) -> None:
    """max_common_vector of plain or swizzled layouts: ``A(i) == m`` where ``B(i) == m``, for ``m < N``."""
    assert n >= 1
    inv: dict[int, int] = {}
    for i in range(nsize(B)):
        inv.setdefault(f(B, i), i)
    for m in range(n):
        assert m in inv, f"max_common_vector({A}, {B}) = {n}: {m} is not an offset of B"
        assert f(A, inv[m]) == m, f"max_common_vector({A}, {B}) = {n}: A differs at {m}"


def check_tile_to_shape_any(block: Any, target: tuple[int, ...], R: Any) -> None:
    """tile_to_shape of a plain or swizzled block: the outer function and offset are kept and
    the inner layout is tiled (see :func:`check_tile_to_shape`)."""
    ob, offb, ib = _parts(block)
    orr, offr, ir = _parts(R)
    if isinstance(block, cs.ComposedLayout):
        assert isinstance(R, cs.ComposedLayout) and R.layout_a == block.layout_a and offr == offb
    check_tile_to_shape(ib, target, ir)
    for i in range(nsize(ib)):     # the first tile is the block itself
        assert f(R, idx_of_block(ib, ir, i)) == f(block, i)


def idx_of_block(ib: Layout, ir: Layout, i: int) -> int:
    """Index in ``ir`` (mode ``k`` = (block_k, tiles_k)) of index ``i`` of the block ``ib``."""
    c = cs.idx2crd(i, ib.shape)
    c = c if isinstance(c, tuple) else (c,)
    rank = len(ir.shape) if isinstance(ir.shape, tuple) else 1
    full = tuple((x, 0) for x in c) + tuple((0, 0) for _ in range(rank - len(c)))
    return leaf_int(cs.crd2idx(full, ir.shape))


def check_logical_product_swizzled(A: Layout, T: Any, R: Any) -> None:
    """logical_product(layout, Sw o _0 o L): ``R == Sw' o logical_product(A, L)`` for a swizzle
    ``Sw'`` (pointwise on the inner function); ``R`` is injective when ``A`` and ``T`` are."""
    _, _, inner = _parts(R)
    P = cs.logical_product(A, T.layout_b)
    assert same_function(inner, P), f"logical_product({A}, {T}) = {R}: inner differs"
    if is_injective(A) and len({f(T, i) for i in range(nsize(T))}) == nsize(T):
        assert len({f(R, i) for i in range(nsize(R))}) == nsize(R)


def swizzled_layouts() -> Iterable[Any]:
    """Small swizzled layouts Sw<B,M,S> o _0 o L over row- and column-major tiles."""
    inner = ["(_8,_8):(_8,_1)", "(_8,_8):(_1,_8)", "(_4,_16):(_16,_1)", "(_8,_16):(_16,_1)",
             "(_16,_8):(_1,_16)", "(_2,_32):(_32,_1)"]
    for text in inner:
        L = cs.parse(text)
        for b, m, sh in ((1, 0, 1), (1, 1, 2), (2, 0, 3), (2, 1, 3), (1, 2, 3), (3, 0, 3), (2, 2, 2)):
            if m + b + sh <= (nsize(L) - 1).bit_length():
                yield cs.composition(cs.Swizzle(b, m, sh), L)


# ---------------------------------------------------------------- sweeps
def all_shapes(extents: Sequence[int] = (1, 2, 3, 4), max_rank: int = 2) -> Iterable[tuple[int, ...]]:
    for r in range(1, max_rank + 1):
        yield from itertools.product(extents, repeat=r)


def small_layouts(extents: Sequence[int] = (1, 2, 3, 4), strides: Sequence[int] = (0, 1, 2, 4),
                  max_rank: int = 2) -> Iterable[Layout]:
    """Every layout of rank 1..max_rank with the given extents and strides."""
    for shape in all_shapes(extents, max_rank):
        for st in itertools.product(strides, repeat=len(shape)):
            if len(shape) == 1:
                yield Layout(shape[0], st[0])
            else:
                yield Layout(shape, st)


def raises_layout_error(fn: Any, *args: Any) -> Optional[BaseException]:
    """Call ``fn``; return the LayoutError it raised (None when it returned).
    Any other exception propagates (a crash is a defect)."""
    try:
        fn(*args)
    except cs.LayoutError as e:
        return e
    return None
