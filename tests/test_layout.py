"""Layout (issue 2, item 5): construction, queries, calls, slicing, mode manipulation."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, strategies as st

import cute_sym as cs
from cute_sym import Dyn, Int, Layout, LayoutRight, make_layout, parse

from postconditions import check_compact, f, image, nsize, plain, same_function, to_static

from corpus import cases, swizzled  # noqa: E402


def test_make_layout_defaults_and_majors() -> None:
    L = make_layout((4, 8))
    assert str(L) == "(_4,_8):(_1,_4)"
    check_compact(L)
    R = make_layout((2, 3), LayoutRight)
    assert str(R) == "(_2,_3):(_3,_1)"
    check_compact(R)
    assert str(make_layout((2, (1, 3)))) == "(_2,(_1,_3)):(_1,(_0,_2))"
    C = make_layout(make_layout(4, 2), make_layout(3, 8))
    assert str(C) == "(_4,_3):(_2,_8)"
    assert same_function(C[0], make_layout(4, 2)) and same_function(C[1], make_layout(3, 8))


def test_layout_is_immutable_and_hashable() -> None:
    L = make_layout((4, 8))
    with pytest.raises(AttributeError):
        L.shape = (1,)  # type: ignore[misc]
    assert L == make_layout((4, 8)) and hash(L) == hash(make_layout((4, 8)))


def test_non_congruent_is_rank_error() -> None:
    with pytest.raises(cs.RankError, match="(?i)congruent"):
        Layout((4, 8), (1,))
    with pytest.raises(cs.LayoutError):
        make_layout((4, 8), stride=(1, 4), bogus=1)


def test_queries() -> None:
    L = parse("(_4,(_2,_3)):(_2,(_1,_8))")
    assert cs.size(L) == 24 and cs.rank(L) == 2 and cs.depth(L) == 2
    assert cs.cosize(L) == max(image(L)) + 1
    assert cs.coshape(L) == cs.cosize(L) == 24   # CuTe: one integer for integer strides
    assert cs.cosize(make_layout((2, 3), (0, 2))) == 5


def test_calls() -> None:
    L = make_layout((4, 8))
    assert L(5) == 5 and L(1, 1) == 5 and L((1, 1)) == 5
    H = parse("(_3,(_2,_3)):(_3,(_12,_1))")
    assert H(16) == H((1, 5)) == H((1, (1, 2))) == 17


def test_slicing() -> None:
    L = make_layout((4, (2, 3)))
    S = cs.slice_((cs._, (1, cs._)), L)
    assert str(S) == "(_4,_3):(_1,_8)"
    S2, off = cs.slice_and_offset((cs._, (1, cs._)), L)
    assert S2 == S and off == 4
    for i in range(4):
        for j in range(3):
            assert S(i, j) + off == L(i, (1, j))
    D = cs.dice((cs._, (1, cs._)), L)
    assert cs.size(D) == 2
    assert str(make_layout((4, 8))(cs._, 2)) == "(_4):(_1)"


def test_mode_manipulation() -> None:
    L = parse("(_2,_3,_4):(_1,_2,_6)")
    assert str(L[1]) == "_3:_2"
    assert str(cs.select(L, 2, 0)) == "(_4,_2):(_6,_1)"
    assert str(cs.take(L, 1, 3)) == "(_3,_4):(_2,_6)"
    G = cs.group(L, 0, 2)
    assert str(G) == "((_2,_3),_4):((_1,_2),_6)"
    assert same_function(G, L)
    assert str(cs.append(make_layout(4), n=3)) == "(_4,_1,_1):(_1,_0,_0)"
    assert str(cs.prepend(make_layout((4,)), make_layout(2, 8))) == "(_2,_4):(_8,_1)"
    F = cs.flatten(parse("((_2,_3),_5):((_1,_2),_6)"))
    assert str(F) == "(_2,_3,_5):(_1,_2,_6)"
    U = cs.unflatten(F, ((0, 0), 0))
    assert str(U) == "((_2,_3),_5):((_1,_2),_6)"
    with pytest.raises(cs.RankError):
        L[5]
    with pytest.raises(cs.RankError):
        cs.take(L, 2, 1)


def test_make_ordered_layout_and_like() -> None:
    L = cs.make_ordered_layout((2, 2, 2, 2), (0, 2, 3, 1))
    assert str(L) == "(_2,_2,_2,_2):(_1,_4,_8,_2)"
    check_compact(L)
    K = cs.make_layout_like(make_layout((2, 3), (30, 2)))
    assert str(K) == "(_2,_3):(_3,_1)"
    check_compact(K)
    with pytest.raises(cs.RankError):
        cs.make_ordered_layout((2, 2), (0, 1, 2))


def test_dynamic_leaves_give_formulas() -> None:
    M = Dyn("M")
    L = make_layout((Int[4], M))
    assert str(L) == "(_4,M):(_1,_4)"
    assert str(cs.size(L)) == "4*M"
    for m in (1, 2, 5):
        S = to_static(L, {"M": m})
        for i in range(nsize(S)):
            assert plain(cs.subs(L(i), {"M": m}, ignore_unknown=True)) == f(S, i)
        assert plain(cs.subs(cs.cosize(L), {"M": m}, ignore_unknown=True)) == int(cs.cosize(S))


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4), st.data())
def test_prop_make_ordered_layout_is_compact(shape: list[int], data: Any) -> None:
    order = data.draw(st.permutations(range(len(shape))))
    L = cs.make_ordered_layout(tuple(shape), tuple(order))
    check_compact(L)
    # the mode of order 0 has stride 1 unless its extent is 1
    k = order.index(0)
    if shape[k] > 1:
        assert L.stride[k] == 1


@given(st.lists(st.integers(1, 5), min_size=1, max_size=4))
def test_prop_layout_left_right_compact(shape: list[int]) -> None:
    check_compact(make_layout(tuple(shape)))
    check_compact(make_layout(tuple(shape), LayoutRight))


def _static_cases(*ops: str) -> list[Any]:
    return [pytest.param(c, id=c["id"]) for c in cases(*ops, where=lambda c: "bind" not in c and not swizzled(c))]


@pytest.mark.parametrize("case", _static_cases("size", "cosize", "rank", "depth", "flatten", "make_ordered_layout"))
def test_conformance_static(case: dict[str, Any]) -> None:
    args = [parse(a) for a in case["args"]]
    fn = getattr(cs, case["op"])
    if isinstance(case["expect"], dict):
        with pytest.raises(cs.LayoutError):
            fn(*args)
        return
    r = fn(*args)
    assert str(r) == case["expect"]
    if case["op"] == "flatten" and isinstance(args[0], Layout):
        assert same_function(args[0], r) and cs.depth(r) <= 1
    if case["op"] == "make_ordered_layout":
        order = cs.flatten(args[1]) if isinstance(args[1], tuple) else (args[1],)
        if len(set(order)) == len(order):   # distinct orders: a compact layout
            check_compact(r)


def test_parsed_and_list_coordinates_are_coordinates() -> None:
    L = cs.parse("(_4,_8):(_8,_1)")
    for c in [cs.parse("(_1,_2)"), [1, 2], (1, 2)]:
        assert L(c) == L(1, 2) == 10


@pytest.mark.parametrize("call", [
    lambda: cs.filter(cs.parse("_4")),                                    # an int where a layout goes
    lambda: cs.shape_div(cs.parse("(_4,_8):(_1,_4)"), cs.parse("_2")),   # a layout where an int tuple goes
    lambda: cs.max_common_vector(cs.parse("_4:_1"), cs.parse("Sw<2,3,3>")),
    lambda: cs.composition(cs.parse("(_2,_0):(_0,_1)"), cs.parse("(_2,_0):(_0,_1)")),   # a zero extent
    lambda: cs.index_expr("not a layout"),
])
def test_misuse_is_a_layout_error(call: Any) -> None:
    with pytest.raises(cs.LayoutError) as e:      # never AttributeError/TypeError/RecursionError ...
        call()
    assert isinstance(e.value, ValueError) and str(e.value)


# ---------------------------------------------------------------- CuTe's builders and hierarchical queries (issue 16)
def test_make_shape_stride_coord_tile() -> None:
    s, d = cs.make_shape(2, cs.make_shape(2, 2)), cs.make_stride(4, cs.make_stride(2, 1))
    assert str(s) == "(_2,(_2,_2))" and str(d) == "(_4,(_2,_1))"
    L = make_layout(s, d)
    assert str(L) == "(_2,(_2,_2)):(_4,(_2,_1))"
    assert [f(L, i) for i in range(8)] == [0, 4, 2, 6, 1, 5, 3, 7]   # the seed's print1D(layout_2x4)
    # one argument still makes a 1-tuple, as in CuTe: (_8):(_1), not _8:_1
    assert str(make_layout(cs.make_shape(8))) == "(_8):(_1)"
    c = cs.make_coord(cs._, 1)
    assert str(c) == "(_,_1)" and str(L(c)) == str(cs.slice_(c, L))
    t = cs.make_tile(make_layout(2, 3), make_layout((2, 4), (1, 8)), cs._)
    assert str(t) == "(_2:_3,(_2,_4):(_1,_8),_)"
    assert str(cs.make_step(2, 0, 1)) == "(_2,_0,_1)"


def test_make_layout_of_a_tuple_of_layouts_is_make_layout_of_them() -> None:
    A, B = make_layout(4, 2), make_layout((3, 2), (8, 24))
    T = make_layout((A, B))
    assert T == make_layout(A, B) and str(T) == "(_4,(_3,_2)):(_2,(_8,_24))"
    for k, M in enumerate((A, B)):
        assert same_function(T[k], M)
    N = make_layout((A, (B, A)))     # nested tuples nest the modes
    assert str(N) == "(_4,((_3,_2),_4)):(_2,((_8,_24),_2))" and same_function(N[1][0], B)
    with pytest.raises(cs.LayoutError, match="stride cannot follow"):
        make_layout(A, B, stride=(1, 2))


SHAPES = st.recursive(st.integers(1, 4), lambda kids: st.lists(kids, min_size=1, max_size=3).map(tuple), max_leaves=6)


def _paths(t: Any, prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    out = [prefix]
    if isinstance(t, tuple):
        for k, e in enumerate(t):
            out += _paths(e, prefix + (k,))
    return out


@given(shape=SHAPES)
def test_prop_hierarchical_queries_are_queries_of_get(shape: Any) -> None:
    L = make_layout(shape, LayoutRight)
    for p in _paths(shape):
        M = cs.get(L, *p)
        assert isinstance(M, Layout)
        assert cs.size(L, *p) == cs.size(M) == nsize(M)
        assert cs.rank(L, *p) == cs.rank(M) and cs.depth(L, *p) == cs.depth(M)
        assert cs.cosize(L, *p) == cs.cosize(M) == max(image(M), default=0) + 1
        assert cs.shape(L, *p) == M.shape == cs.get(L.shape, *p) and cs.stride(L, *p) == M.stride
        assert cs.size(shape, *p) == cs.size(M)        # IntTuples too
    assert cs.size(L) == nsize(L) and cs.get(L) is L


def test_hierarchical_size_prints_static() -> None:
    L = parse("((_2,_3),(_4,_5)):((_1,_2),(_6,_24))")
    assert str(cs.size(L, 1)) == "_20" and str(cs.size(L, 1, 0)) == "_4" and str(cs.size(L, 0, 1)) == "_3"
    assert cs.rank(L, 0) == 2 and cs.depth(L, 1, 1) == 0 and str(cs.cosize(L, 1)) == "_115"   # 1 + 3*6 + 4*24
    assert str(cs.get((4, (2, 3)), 1, 0)) == "_2" and cs.get(7, 0) == 7    # get<0> of an integer is itself


def test_int_prints_like_every_static_result() -> None:
    assert str(Int[4]) == "_4" and repr(Int[4]) == "_4" and str(cs.size(make_layout((4, 8)))) == "_32"
    assert Int[4] == 4 and isinstance(Int[4] * 2, int)
    assert str(make_layout((Int[4], Int[8]), (Int[1], Int[4]))) == "(_4,_8):(_1,_4)"


def test_coshape_is_cute_integer() -> None:
    """CuTe's coshape of an integer-strided layout is one integer: layout(size-1)+1 on |strides|."""
    for text in ("(_4,_16,_1,_16,_1):(_1,_4,_64,_64,_1024)", "(_9,_4):(_0,_-4)", "(_64,_2):(_1,_-64)"):
        L = parse(text)
        absL = make_layout(L.shape, tuple(abs(int(d)) for d in cs.flatten(L.stride)) if isinstance(L.shape, tuple)
                           else abs(int(L.stride)))
        assert cs.coshape(L) == cs.cosize(L) == max(image(absL)) + 1


def test_make_layout_like_cute_order() -> None:
    """Ordered by signed stride, static-0 strides kept, compact on the rest (ties left to right)."""
    for text, want in [("((_2),_8):((_1),_0)", "((_2),_8):((_1),_0)"), ("(_10,_2):(_1,_0)", "(_10,_2):(_1,_0)"),
                       ("((_5,_28,_4),((_1)),((_1))):((_-112,_-4,_1),((_-560)),((_560)))",
                        "((_5,_28,_4),((_1)),((_1))):((_1,_5,_140),((_0)),((_0)))"),
                       ("(_2,_3):(_4,_4)", "(_2,_3):(_1,_2)")]:
        L, R = parse(text), cs.make_layout_like(parse(text))
        assert str(R) == want
        live = [k for k, (s, d) in enumerate(zip(cs.flatten(L.shape), cs.flatten(L.stride))) if int(d) != 0]
        sub = make_layout(tuple(int(cs.flatten(R.shape)[k]) for k in live),
                          tuple(int(cs.flatten(R.stride)[k]) for k in live)) if live else None
        if sub is not None:
            assert sorted(image(sub)) == list(range(nsize(sub)))


def test_idx2crd_of_static_zero_is_static() -> None:
    a = Dyn("a")
    assert str(cs.idx2crd(0, (a, 1, 4))) == "(_0,_0,_0)"
    assert str(cs.idx2crd(0, ((a, 2), 3))) == "((_0,_0),_0)"


@st.composite
def _nested_layouts(draw: st.DrawFn) -> Layout:
    def node(depth: int) -> tuple[Any, Any]:
        if depth == 0 or draw(st.booleans()):
            return draw(st.sampled_from([1, 2, 3, 4])), draw(st.sampled_from([0, 1, 2, 3, 4, 6, 8, 12, 16]))
        kids = [node(depth - 1) for _ in range(draw(st.integers(1, 3)))]
        return tuple(k[0] for k in kids), tuple(k[1] for k in kids)
    s, d = node(2)
    if type(s) is not tuple:
        s, d = (s, 2), (d, 5)
    return make_layout(s, d)


@given(_nested_layouts(), st.booleans())
def test_a_formula_index_is_the_layout_at_every_index(L: Layout, compact: bool) -> None:
    # L(i) for a symbolic 1-D index merges the modes that continue each other: the formula is
    # L's value at every i, in the domain and past it (the last mode extends)
    if compact:
        L = make_layout(L.shape)
    i = Dyn("i", sign="nonnegative")
    e = L(i)
    n = int(cs.size(L))
    for v in range(0, 2 * n + 3):
        assert cs.subs(e, {"i": v}, ignore_unknown=True) == L(v), (L, e, v)


def test_a_formula_index_reads_short() -> None:
    i, M = Dyn("i", sign="nonnegative"), Dyn("M")
    assert str(make_layout((M, 4))(i)) == "i"
    assert str(parse("((_2,_2),_8):((_1,_2),_4)")(i)) == "i"
    assert str(parse("(_4,_1,_8):(_1,_0,_4)")(i)) == "i"             # a size-1 mode inside: no digit
    assert str(parse("(_4,_8,_1):(_1,_4,_0)")(i)) != "i"             # the last extends by stride 0
    e = make_layout((M, 4), (4, 1))(i)                              # row-major: no merge
    for m in (1, 3, 5):
        for v in range(0, 8 * m):
            assert cs.subs(e, {"i": v, "M": m}, ignore_unknown=True) == make_layout((m, 4), (4, 1))(v)


def test_a_static_index_into_symbolic_modes_reads_short() -> None:
    # modes that continue each other merge for an int index too: 448 into (8,8,M,N):(1,8,64,64*M)
    # is 448 at every M, N (not 64*M*floor(7/M) + 64*(7 % M)), so a swizzle's mask image is static
    M, N = Dyn("M"), Dyn("N")
    L = parse("(_8,_8,M,N):(_1,_8,_64,64*M)", {"M": M, "N": N})
    assert L(448) == 448
    R = cs.composition(L, cs.Swizzle(3, 3, 3))
    assert str(R) == "Sw<3,3,3> o _0 o (_8,_8,M,N):(_1,_8,_64,64*M)"
    sw = cs.Swizzle(3, 3, 3)
    for m in (1, 2, 3):
        for n in (1, 2):
            Ls, Rs = cs.subs(L, {"M": m, "N": n}, ignore_unknown=True), cs.subs(R, {"M": m, "N": n}, ignore_unknown=True)
            assert all(Rs(i) == Ls(sw(i)) for i in range(int(cs.size(Ls))))


def test_make_layout_refuses_two_symbols_of_one_name() -> None:
    # Dyn("M", divisible_by=4) and Dyn("M", divisible_by=8) are two integers that print alike
    m4, m8 = Dyn("M", divisible_by=4), Dyn("M", divisible_by=8)
    with pytest.raises(cs.LayoutError, match="two different symbols named M"):
        make_layout((m4, m8))
    with pytest.raises(cs.LayoutError, match="two different symbols named M"):
        make_layout((Dyn("M"), 4), (1, Dyn("M", sign="any")))
    with pytest.raises(cs.LayoutError, match="two different symbols named M"):
        Layout((m4, m8))                                                    # the constructor too
    with pytest.raises(cs.LayoutError, match="two different symbols named M"):
        parse("(A,B):(_1,A)", {"A": m4, "B": m8})                           # and what a text reads
    assert str(make_layout((m4, 4), (1, m4))) == "(M,_4):(_1,M)"          # one symbol, twice: fine
    assert str(parse("(M,_4):(_1,M)")) == "(M,_4):(_1,M)"                   # parse makes one M


def test_cosize_terms_with_a_static_zero_stay_static() -> None:
    """CuTe's (s-1)*|d| is a static 0 when d is _0 or s is _1, whatever the other factor: the
    cosize (and coshape) of a:_0 is _1, not a dynamic 1."""
    for text, want in (("a:_0", 1), ("(a,_4):(_0,_1)", 4), ("(_1,_4):(b,_2)", 7)):
        r = cs.cosize(cs.parse(text))
        assert cs.is_static(r) and int(r) == want and str(cs.coshape(cs.parse(text))) == f"_{want}"
    r = cs.cosize(cs.parse("(_1,a):(b,_2)"))
    assert not cs.is_static(r) and all(int(cs.subs(r, {"a": v}, ignore_unknown=True)) == 2 * v - 1 for v in (1, 2, 7))
