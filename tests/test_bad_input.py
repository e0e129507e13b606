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
