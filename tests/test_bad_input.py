"""Bad input is refused with the project's error naming the condition (or gets CuTe's answer).

One test per bad input of issue 16, then a hypothesis fuzz: ``parse`` and every
public function called with malformed arguments raise only ``LayoutError`` (or a
subclass) and never hang.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import signal
from typing import Any, Callable, Iterator

import pytest
from hypothesis import assume, given, settings, strategies as st

import cute_sym as cs
from cute_sym import Dyn, Int, _, make_layout, parse

L48 = parse("(_4,_8):(_1,_4)")


def _nest(n: int, leaf: Any = 1) -> Any:
    return functools.reduce(lambda a, _i: (a,), range(n), leaf)


# ---------------------------------------------------------------- the listed bad inputs
def test_negative_extent_is_refused() -> None:
    with pytest.raises(cs.LayoutError, match="must not be negative"):
        make_layout((-4, 2))
    with pytest.raises(cs.LayoutError, match="must not be negative"):
        cs.Layout((4, (2, -1)))
    with pytest.raises(cs.LayoutError, match="must not be negative"):
        cs.make_shape(2, -3)
    # a negative stride is CuTe's (reversed order), not an error
    assert make_layout(4, -1)(3) == -3


def test_negative_extent_in_notation_is_refused() -> None:
    with pytest.raises(cs.LayoutError, match="must not be negative.*_-3"):
        parse("(_-3,_2):(_1,_3)")
    assert str(parse("(_3,_2):(_-1,_3)")) == "(_3,_2):(_-1,_3)"


def test_negative_index_is_cutes_answer() -> None:
    # CuTe computes L(-1) with C's truncating % and /: mode 0 takes -1 % 4 == -1, mode 1 takes -1 / 4 == 0
    assert L48(-1) == -1
    assert L48(-5) == -5 and L48(-5) == L48(-1) + L48(0, -1)
    for i in range(-31, 0):     # C's divmod: i == q*4 + r with r = -((-i) % 4), q = -((-i) // 4)
        r, q = -((-i) % 4), -((-i) // 4)
        assert L48(i) == r * 1 + q * 4


def test_slice_with_a_name_is_refused() -> None:
    with pytest.raises(cs.LayoutError, match="coordinate"):
        cs.slice_((_, "x"), L48)
    with pytest.raises(cs.LayoutError, match="coordinate"):
        L48(_, "x")


@pytest.mark.parametrize("name", ["", "1 2", "1a", "a b", "o", "_M", "M-1", "M.N"])
def test_dyn_bad_names_are_refused(name: str) -> None:
    with pytest.raises(cs.LayoutError, match="name"):
        Dyn(name)


def test_dyn_bad_facts_are_refused() -> None:
    for kw in ({"divisible_by": 0}, {"divisible_by": True}, {"min": 5, "max": 2}, {"min": "1"},
               {"sign": "negative"}):
        with pytest.raises(cs.LayoutError):
            Dyn("M", **kw)  # type: ignore[arg-type]
    assert Dyn("M", divisible_by=Int[16]).divisor == 16


def test_deep_nesting_is_named_not_a_recursion_error() -> None:
    deep = _nest(2000)
    with pytest.raises(cs.LayoutError, match="nest"):
        make_layout(deep)
    with pytest.raises(cs.NotationError, match="nesting deeper"):
        parse("(" * 2000 + "_1" + ")" * 2000)
    with pytest.raises(cs.LayoutError, match="nest"):
        cs.shape_div(deep, 2)
    with pytest.raises(cs.LayoutError, match="nest"):
        cs.make_coord(deep)
    # a nesting CuTe programs use is fine
    assert cs.depth(make_layout(_nest(20, 2))) == 20


def test_mode_index_of_the_wrong_type_is_refused() -> None:
    for k in ("a", 1.0, None, [0]):
        with pytest.raises(cs.RankError, match="mode index"):
            L48[k]  # type: ignore[index]
    with pytest.raises(cs.RankError, match="out of range"):
        L48[2]
    with pytest.raises(cs.RankError, match="mode index"):
        cs.size(L48, "1")  # type: ignore[arg-type]
    with pytest.raises(cs.RankError, match="out of range"):
        cs.size(L48, 0, 1)


def test_complement_with_cotarget_zero_is_refused() -> None:
    with pytest.raises(cs.LayoutError, match="cotarget must be positive"):
        cs.complement(parse("_4:_1"), 0)
    with pytest.raises(cs.LayoutError, match="cotarget must be positive"):
        cs.complement(parse("_4:_1"), -8)
    assert str(cs.complement(parse("_4:_1"), 24)) == "_6:_4"


def test_int_refuses_non_ints() -> None:
    for bad in ("4", 4.0, None, True):
        with pytest.raises(cs.LayoutError, match="int"):
            Int[bad]  # type: ignore[index]


def test_wrong_kinds_of_arguments_are_layout_errors() -> None:
    for f, args in [(cs.composition, (L48, "x")), (cs.logical_divide, (L48, 2.5)), (cs.size, (object(),)),
                    (cs.coalesce, ("(_4,_8)",)), (cs.shape_div, ((4, 8), "2")), (cs.make_tile, (L48, 1.5)),
                    (cs.parse, (42,)), (cs.blocked_product, (L48, None))]:
        with pytest.raises(cs.LayoutError):
            f(*args)


# ---------------------------------------------------------------- fuzz
class _Hang(Exception):
    pass


@contextlib.contextmanager
def _within(seconds: float) -> Iterator[None]:
    """A call still running after ``seconds`` is stopped and fails the test as a hang."""
    def on_alarm(signum: int, frame: Any) -> None:
        raise _Hang()
    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_N = settings.default.max_examples     # the profile's budget (conftest: HYPOTHESIS_PROFILE=long runs long)
NAMES = st.sampled_from(["M", "N", "a", "k2", "", "1x", "o", "x y", "_"])
LEAVES = st.one_of(
    st.integers(-3, 9), st.integers(-2**70, 2**70), st.just(0), st.just(_), st.none(), st.floats(allow_nan=True),
    st.text(max_size=3), NAMES.map(lambda n: Dyn(n) if n.isidentifier() and n[0].isalpha() and n != "o" else n),
    st.just(L48), st.just(()), st.booleans(),
)
VALUES = st.recursive(LEAVES, lambda kids: st.one_of(st.tuples(kids), st.tuples(kids, kids),
                                                        st.lists(kids, max_size=3).map(tuple)), max_leaves=8)
NOTATION = st.text(alphabet="_0123456789-(),:MNo<>Sw ", max_size=24)


def _calls_only_project_errors(f: Callable[..., Any], args: tuple[Any, ...]) -> None:
    try:
        f(*args)
    except cs.LayoutError:
        pass


@settings(max_examples=3 * _N, deadline=None)
@given(text=st.one_of(NOTATION, st.text(max_size=16)))
def test_fuzz_parse(text: str) -> None:
    _calls_only_project_errors(parse, (text,))


PUBLIC = sorted(n for n in cs.__all__ if inspect.isfunction(getattr(cs, n))
                and n not in ("print_layout", "print_tensor", "assume", "collect_guards", "Dyn"))  # writers, contexts


@settings(max_examples=3 * _N, deadline=None)
@given(name=st.sampled_from(PUBLIC), args=st.lists(VALUES, min_size=0, max_size=3))
def test_fuzz_public_functions(name: str, args: list[Any]) -> None:
    f = getattr(cs, name)
    try:        # wrong types, not a wrong number of arguments (Python's own TypeError)
        inspect.signature(f).bind(*args)
    except TypeError:
        assume(False)
    try:
        with _within(10.0):
            _calls_only_project_errors(getattr(cs, name), tuple(args))
    except _Hang:
        pytest.fail(f"{name}{tuple(args)} ran past 10 s")


@settings(max_examples=_N, deadline=None)
@given(name=st.text(max_size=6), kw=st.dictionaries(st.sampled_from(["divisible_by", "min", "max", "sign"]),
                                                    st.one_of(st.integers(-3, 70), st.text(max_size=2), st.none()),
                                                    max_size=2))
def test_fuzz_dyn(name: str, kw: dict[str, Any]) -> None:
    _calls_only_project_errors(lambda: Dyn(name, **kw), ())



# ---------------------------------------------------------------- issue 33: a new user's sweep of bad inputs
M33 = Dyn("M")
L = L48


def _mma33() -> Any:
    return cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))


def _tc33() -> Any:
    return cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint64_t>", "float"), parse("(_4,_8):(_8,_1)"),
                              parse("(_1,_2)"))


SWEEP: list[tuple[str, Callable[[], Any]]] = [
 # notation
 ("parse empty", lambda: parse("")),
 ("parse spaces", lambda: parse("   ")),
 ("parse unbalanced", lambda: parse("(_4,_8:(_1,_4)")),
 ("parse extra close", lambda: parse("(_4,_8)):(_1,_4)")),
 ("parse double colon", lambda: parse("_4::_1")),
 ("parse missing stride", lambda: parse("(_4,_8):")),
 ("parse missing shape", lambda: parse(":(_1,_4)")),
 ("parse rank mismatch", lambda: parse("(_4,_8):(_1,_4,_32)")),
 ("parse float", lambda: parse("(_4.0,_8)")),
 ("parse bad swizzle", lambda: parse("Sw<3,3> o (_8,_8):(_8,_1)")),
 ("parse swizzle letters", lambda: parse("Sw<a,3,3> o _0 o (_8,_8):(_8,_1)")),
 ("parse o as name", lambda: parse("(o,_8)")),
 ("parse python list", lambda: parse("[4,8]")),
 ("parse not a string", lambda: parse(42)),
 ("parse None", lambda: parse(None)),
 ("parse garbage", lambda: parse("hello world")),
 ("parse junk after", lambda: parse("(_4,_8):(_1,_4) junk")),
 # layouts
 ("make_layout negative", lambda: make_layout((-4, 2))),
 ("make_layout float", lambda: make_layout((4.0, 2))),
 ("make_layout str", lambda: make_layout(("4", 2))),
 ("make_layout None", lambda: make_layout((None, 2))),
 ("make_layout mismatch", lambda: make_layout((4, 2), (1, 2, 3))),
 ("make_layout bool", lambda: make_layout((True, 2))),
 ("make_layout dict", lambda: make_layout({"a": 1})),
 ("make_layout list stride mismatch", lambda: make_layout([4, 2], [1])),
 ("Layout call out of rank", lambda: L(1, 2, 3)),
 ("Layout call float", lambda: L(1.5)),
 ("Layout call str", lambda: L("a")),
 ("Layout call None", lambda: L(None)),
 ("Layout call tuple rank", lambda: L((1, 2, 3))),
 ("get mode out of range", lambda: cs.get(L, 5)),
 ("size mode out of range", lambda: cs.size(L, 3)),
 ("shape mode out of range", lambda: cs.shape(L, 2)),
 ("rank of str", lambda: cs.rank("abc")),
 ("size of None", lambda: cs.size(None)),
 ("cosize of int", lambda: cs.cosize(4)),
 ("crd2idx mismatch", lambda: cs.crd2idx((1, 2, 3), (4, 8))),
 ("idx2crd tuple mismatch", lambda: cs.idx2crd((1, 2, 3), (4, 8))),
 ("prefix_product mismatch", lambda: cs.prefix_product((24, 24), (1, 2, 3))),
 ("shape_div not dividing", lambda: cs.shape_div(6, 4)),
 ("ceil_div by zero", lambda: cs.ceil_div(6, 0)),
 ("shape_div by zero", lambda: cs.shape_div(6, 0)),
 # algebra
 ("composition with str", lambda: cs.composition(L, "x")),
 ("composition with None", lambda: cs.composition(L, None)),
 ("complement non-injective", lambda: cs.complement(parse("(_2,_2):(_1,_1)"), 8)),
 ("complement cotarget too small? negative", lambda: cs.complement(L, -1)),
 ("complement of str", lambda: cs.complement("abc", 8)),
 ("right_inverse of str", lambda: cs.right_inverse("abc")),
 ("logical_divide by str", lambda: cs.logical_divide(L, "abc")),
 ("logical_divide by float", lambda: cs.logical_divide(L, 2.5)),
 ("logical_divide by 0", lambda: cs.logical_divide(L, 0)),
 ("logical_divide negative", lambda: cs.logical_divide(L, -2)),
 ("zipped_divide by None", lambda: cs.zipped_divide(L, None)),
 ("logical_product with str", lambda: cs.logical_product(L, "x")),
 ("blocked_product rank>", lambda: cs.blocked_product(L, parse("(_2,_2,_2):(_1,_2,_4)")) if False else cs.blocked_product(L, "x")),
 ("raked_product None", lambda: cs.raked_product(L, None)),
 ("tile_to_shape not multiple", lambda: cs.tile_to_shape(parse("(_4,_4):(_1,_4)"), (6, 8))),
 ("coalesce str", lambda: cs.coalesce("abc")),
 ("coalesce bad profile", lambda: cs.coalesce(L, (1, 2, 3))),
 ("filter str", lambda: cs.filter("abc")),
 ("upcast not dividing", lambda: cs.upcast(parse("(_3,_8):(_1,_3)"), 2)),
 ("upcast zero", lambda: cs.upcast(L, 0)),
 ("downcast zero", lambda: cs.downcast(L, 0)),
 ("max_common_vector str", lambda: cs.max_common_vector(L, "x")),
 ("Swizzle negative bits", lambda: cs.Swizzle(-1, 3, 3)),
 ("Swizzle shift < bits", lambda: cs.Swizzle(3, 3, 1)),
 ("Swizzle float", lambda: cs.Swizzle(3.0, 3, 3)),
 # symbols and subs
 ("Dyn bad name", lambda: Dyn("1x")),
 ("Dyn name o", lambda: Dyn("o")),
 ("Dyn empty range", lambda: Dyn("M", min=5, max=3)),
 ("Dyn divisible 0", lambda: Dyn("M", divisible_by=0)),
 ("Dyn sign bad", lambda: Dyn("M", sign="negative")),
 ("Dyn min float", lambda: Dyn("M", min=1.5)),
 ("Dyn no multiple in range", lambda: Dyn("M", divisible_by=8, min=1, max=7)),
 ("subs M=0 positive", lambda: cs.subs(parse("(M,_8):(_1,M)"), {"M": 0})),
 ("subs M=-3", lambda: cs.subs(parse("(M,_8):(_1,M)"), {"M": -3})),
 ("subs unknown", lambda: cs.subs(parse("(M,_8):(_1,M)"), {"Qtypo_sweep": 3})),
 ("subs float", lambda: cs.subs(parse("(M,_8):(_1,M)"), {"M": 2.5})),
 ("subs str value", lambda: cs.subs(parse("(M,_8):(_1,M)"), {"M": "4"})),
 ("subs bad key", lambda: cs.subs(parse("(M,_8):(_1,M)"), {3: 4})),
 ("subs breaks divisible", lambda: cs.subs(parse("(M,_8):(_1,M)", {"M": Dyn("M", divisible_by=4)}), {"M": 6})),
 ("subs breaks max", lambda: cs.subs(parse("(M,_8):(_1,M)", {"M": Dyn("M", max=16)}), {"M": 32})),
 ("assume garbage", lambda: cs.assume("M %% 4", symbols=[M33]).__enter__()),
 ("assume bool", lambda: cs.assume(True).__enter__()),
 ("assume None", lambda: cs.assume(None).__enter__()),
 ("shape_div symbolic undecidable", lambda: cs.shape_div(M33, 4)),
 ("two Ms", lambda: make_layout((Dyn("M", divisible_by=4), Dyn("M")))),
 # tensors and pointers
 ("gmem ptr bad dtype", lambda: cs.make_gmem_ptr("A", dtype="halfx")),
 ("smem ptr bad dtype", lambda: cs.make_smem_ptr("A", "float33")),
 ("ptr empty name", lambda: cs.make_gmem_ptr("")),
 ("ptr name int", lambda: cs.make_gmem_ptr(3)),
 ("ptr offset float", lambda: cs.make_gmem_ptr("A", "half_t", 1.5)),
 ("make_tensor of str", lambda: cs.make_tensor("A", L)),
 ("make_tensor layout str", lambda: cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), "x")),
 ("local_tile bad coord rank", lambda: cs.local_tile(cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), L), (2, 2), (1, 1, 1))),
 ("tensor index out of rank", lambda: cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), L)(1, 2, 3)),
 # atoms
 ("Copy_Atom misspelt", lambda: cs.Copy_Atom("SM75_U32x4_LDSM", "half_t")),
 ("Copy_Atom bad type", lambda: cs.Copy_Atom("SM75_U32x4_LDSM_N", "halfx")),
 ("Copy_Atom wrong width", lambda: cs.Copy_Atom("SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>", "half_t")),
 ("Copy_Atom None", lambda: cs.Copy_Atom(None, "half_t")),
 ("MMA_Atom misspelt", lambda: cs.MMA_Atom("SM80_16x8x16_F32F16F16F32")),
 ("MMA_Atom lowercase", lambda: cs.MMA_Atom("sm80_16x8x16_f32f16f16f32_tn")),
 ("make_tiled_mma bad atom layout", lambda: cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", "2x2")),
 ("make_tiled_mma zero", lambda: cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (0, 1, 1))),
 ("make_tiled_mma negative", lambda: cs.make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (-2, 1, 1))),
 ("make_tiled_copy non-injective", lambda: cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint64_t>", "float"), parse("(_2,_2):(_0,_0)"), parse("(_1,_8)"))),
 ("make_tiled_copy symbolic thr", lambda: cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint64_t>", "float"), make_layout((M33, 4)), parse("(_1,_2)"))),
 ("make_tiled_copy str", lambda: cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint64_t>", "float"), "x", parse("(_1,_2)"))),
 ("tiled copy get_slice past", lambda: _tc33().get_slice(1000)),
 ("tiled copy get_slice negative", lambda: _tc33().get_slice(-1)),
 ("tiled mma get_slice negative", lambda: _mma33().get_slice(-1)),
 ("tiled mma get_slice float", lambda: _mma33().get_slice(1.5)),
 ("tiled mma symbolic tid past", lambda: _mma33().get_slice(Dyn("tid", max=1000))),
 ("tiled mma tid any sign", lambda: _mma33().get_slice(Dyn("tid", sign="any"))),
 ("tiled mma str tid", lambda: _mma33().get_slice("tid")),
 # codegen
 ("emit bad language", lambda: cs.emit(L, "rust")),
 ("emit bad name", lambda: cs.emit(L, "c", name="1f")),
 ("emit bad index type", lambda: cs.emit(L, "c", index_type="int16")),
 ("emit params wrong", lambda: cs.emit(parse("(_4,M):(M,_1)"), "c", params=["Q"])),
 ("emit str", lambda: cs.emit("abc", "c")),
 ("index_expr str", lambda: cs.index_expr("abc")),
 ("index_expr capture", lambda: cs.index_expr(make_layout((8, Dyn("i")), (Dyn("i"), 1)), "i")),
 ("emit cute tensor", lambda: cs.emit(cs.make_tensor(cs.make_gmem_ptr("A", "half_t"), L), "cute")),
 # views
 ("print_layout rank 3", lambda: cs.layout_table(parse("(_2,_2,_2):(_1,_2,_4)"))),
 ("layout_table symbolic", lambda: cs.layout_table(parse("(M,_2):(_1,M)"))),
 ("svg of str", lambda: cs.svg("abc")),
 ("svg symbolic no bind", lambda: cs.svg(parse("(M,_2):(_1,M)"))),
 ("html of int", lambda: cs.html(4)),
 ("latex rank 3", lambda: cs.latex(parse("(_2,_2,_2):(_1,_2,_4)"))),
 ("svg bind unknown value type", lambda: cs.svg(parse("(M,_2):(_1,M)"), bind={"M": "x"})),
 ("svg bind M=0", lambda: cs.svg(parse("(M,_2):(_1,M)"), bind={"M": 0})),
 # analyses
 ("bank_conflicts str", lambda: cs.bank_conflicts("x", L)),
 ("bank_conflicts warp past", lambda: cs.bank_conflicts(_tc33(), parse("(_32,_32):(_32,_1)"), warp=7)),
 ("vector_width no bits", lambda: cs.vector_width(parse("(_32,_1):(_1,_0)"), L)),
 ("bank_conflicts 48-bit vector", lambda: cs.bank_conflicts(parse("(_32,_6):(_1,_32)"), parse("(_32,_6):(_6,_1)"), 16, 48)),
 ("bank_conflicts 0-bit vector", lambda: cs.bank_conflicts(parse("(_32,_6):(_1,_32)"), parse("(_32,_6):(_6,_1)"), 16, 0)),
 ("coalescing negative warp", lambda: cs.coalescing(_tc33(), parse("(_32,_32):(_32,_1)"), warp=-1)),
 # execute (hypothesis found simulate(0, None) raising AttributeError)
 ("simulate threads None", lambda: cs.simulate(lambda t: None, None)),
 ("simulate threads _", lambda: cs.simulate(lambda t: None, cs._)),
 ("simulate threads float", lambda: cs.simulate(lambda t: None, 2.5)),
 ("simulate kernel not callable", lambda: cs.simulate(0, 4)),
 # Int
 ("Int of float", lambda: Int[2.5]),
 ("Int of str", lambda: Int["4"]),
 ("Int of bool", lambda: Int[True]),
]


def test_sweep_has_more_than_a_hundred_inputs() -> None:
    assert len(SWEEP) > 100 and len({n for n, _ in SWEEP}) == len(SWEEP)


@pytest.mark.parametrize("name, call", SWEEP, ids=[n for n, _ in SWEEP])
def test_sweep_of_bad_inputs_is_refused(name: str, call: Callable[[], Any]) -> None:
    """Each bad input raises the project's own error (a LayoutError, with a message), within 10 s."""
    try:
        with _within(10.0):
            with pytest.raises(cs.LayoutError) as e:
                call()
    except _Hang:
        pytest.fail(f"{name} ran past 10 s")
    assert str(e.value).strip(), name
