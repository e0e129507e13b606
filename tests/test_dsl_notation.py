"""parse reads back what cute_sym prints (scaled bases, coordinate tensors) and the CuTe DSL's
printed notation (dialect="dsl"); the DSL code generator's text. None of this needs the DSL."""
from __future__ import annotations

import io
import re
from contextlib import redirect_stdout

import pytest
from hypothesis import given, settings, strategies as st

import cute_sym as cs
from cute_sym.cli import main
from cute_sym.core.errors import NotationError


def _to_dsl_text(text: str) -> str:
    """cute_sym's (CuTe's) print of a static value as the DSL prints it: no ``_`` before a
    number, ``S<`` for ``Sw<``."""
    return re.sub(r"_(-?\d)", r"\1", text.replace("Sw<", "S<"))


extents = st.integers(1, 6)
strides = st.integers(-20, 40)


@st.composite
def layouts(draw: st.DrawFn) -> cs.Layout:
    def tree(depth: int) -> object:
        if depth == 0 or draw(st.booleans()):
            return None
        return tuple(tree(depth - 1) for _ in range(draw(st.integers(1, 3))))
    prof = tree(3)

    def fill(p: object, leaf: st.SearchStrategy[int]) -> object:
        return draw(leaf) if p is None else tuple(fill(q, leaf) for q in p)  # type: ignore[attr-defined]
    return cs.make_layout(fill(prof, extents), fill(prof, strides))


@given(layouts())
@settings(max_examples=150, deadline=None)
def test_a_static_dsl_text_reads_to_the_static_value(L: cs.Layout) -> None:
    dsl = _to_dsl_text(str(L))
    assert cs.parse(dsl, dialect="dsl") == L
    assert str(cs.parse(dsl, dialect="dsl")) == str(L)


@given(layouts(), st.integers(0, 3), st.integers(0, 4), st.integers(3, 5), st.booleans())
@settings(max_examples=60, deadline=None)
def test_a_swizzled_dsl_text_reads_to_the_composed_layout(L: cs.Layout, b: int, m: int, s: int, neg: bool) -> None:
    C = cs.ComposedLayout(cs.Swizzle(b, m, -s if neg else s), 0, L)
    assert cs.parse(_to_dsl_text(str(C)), dialect="dsl") == C


@given(st.lists(st.integers(1, 5), min_size=1, max_size=3), st.integers(0, 3))
@settings(max_examples=60, deadline=None)
def test_parse_reads_back_identity_layouts_and_coordinate_tensors(shape: list[int], k: int) -> None:
    I = cs.make_identity_layout(tuple(shape))
    assert cs.parse(str(I)) == I
    T = cs.make_identity_tensor(tuple(shape))
    assert cs.parse(str(T)) == T
    tile = cs.local_tile(cs.make_identity_tensor(tuple(4 * x for x in shape)), tuple(shape), tuple(min(k, 3) for _ in shape))
    assert cs.parse(str(tile)) == tile and str(cs.parse(str(tile))) == str(tile)
    # and in the DSL's print: tensor<(..) o L>
    dsl = "tensor<" + _to_dsl_text(str(tile)).replace("ArithTuple", "") + ">"
    assert cs.parse(dsl, dialect="dsl") == tile


def test_parse_reads_back_pointers_and_tensors_over_them() -> None:
    M = cs.Dyn("M")
    for t in (cs.make_tensor(cs.make_smem_ptr("sA", "half_t", 4 * M + 2), cs.parse("(_8,M):(M,_1)")),
              cs.make_smem_ptr("sA", "half_t", -3), cs.make_gmem_ptr("A"),
              cs.make_tensor(cs.make_smem_ptr("sA", "complex<float>", 3), cs.parse("Sw<3,3,3> o _0 o (_8,_64):(_64,_1)"))):
        assert cs.parse(str(t)) == t and str(cs.parse(str(t))) == str(t)
    t = cs.parse("tensor<ptr<f16, smem, align<16>> o S<3,3,3> o 0 o (64,64):(64,1)>", dialect="dsl")
    assert t == cs.make_tensor(cs.make_smem_ptr("t", "half_t"), cs.parse("Sw<3,3,3> o _0 o (_64,_64):(_64,_1)"))


def test_scaled_bases_and_nested_bases() -> None:
    nested = cs.make_identity_layout(((2, 4), (3, 2)))
    assert cs.parse(str(nested)) == nested
    assert cs.parse("_3@1@0") == 3 * cs.E(0, 1)
    M = cs.Dyn("M")
    I = cs.make_identity_layout((M, 8))
    assert cs.parse(str(I)) == I


def test_dynamic_dsl_values_are_fresh_symbols_with_the_dsls_divisor() -> None:
    L = cs.parse("(?{div=8},(?,4)):(1,(?{div=16},?{i64 div=32}))", dialect="dsl")
    names = [str(x) for x in (L.shape[0], L.shape[1][0], L.stride[1][0], L.stride[1][1])]
    assert names == ["d0", "d1", "d2", "d3"]           # two ? are two values
    assert L.shape[0].divisor == 8 and L.stride[1][0].divisor == 16 and L.stride[1][1].divisor == 32
    assert L.shape[1][0].is_positive and L.stride[1][0].is_positive is None   # a stride may be negative
    # a name the text uses is skipped; symbols= names the ? by their fresh names
    assert str(cs.parse("(d0,?):(1,d0)", dialect="dsl")) == "(d0,d1):(_1,d0)"
    assert str(cs.parse("(?,8):(1,?)", {"d0": 16}, dialect="dsl")) == "(_16,_8):(_1,d1)"
    assert str(cs.parse("(Int32(?), 8)", dialect="dsl")) == "(d0,_8)"


@pytest.mark.parametrize("text, why", [
    ("(4,8):(8,1)", "dialect"),
    ("(4,8", "expected"),
    ("tensor<(0,0) o (4,8):(1@0,1@1)", "expected '>'"),
    ("tensor<(0,0) (4,8):(1@0,1@1)>", "' o '"),
    ("S<3,4,3> o 0", "' o '"),
])
def test_bad_dsl_text_is_a_notation_error(text: str, why: str) -> None:
    with pytest.raises(NotationError, match=why):
        cs.parse(text, dialect="dsl" if why != "dialect" else "mlir")


def test_the_cli_reads_dsl_arguments() -> None:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["--dsl", "--no-table", "logical_divide(24:2, 4:2)"]) == 0
    assert out.getvalue().strip() == str(cs.logical_divide(cs.parse("_24:_2"), cs.parse("_4:_2")))


def test_emitted_dsl_code_states_symbols_and_divisors() -> None:
    K = cs.Dyn("K", divisible_by=64)
    src = cs.emit(cs.make_layout((128, (K, 2)), (K, (1, 64 * K))), "dsl", name="g")
    assert "def g(K: cutlass.Int32):" in src and "K = cute.assume(K, divby=64)" in src
    assert "cute.make_layout((128, (K, 2)), stride=(K, (1, K * 64)))" in src
    compile(src, "<emit>", "exec")
    with pytest.raises(cs.LayoutError, match="tensor"):
        cs.emit(cs.make_identity_tensor((4, 4)), "dsl")
    mma = cs.make_tiled_mma("SM90_64x128x16_F32BF16BF16_SS<Major::K,Major::MN>", (2, 1, 1))
    src = cs.emit(mma, "dsl", name="m")
    assert ("cute.nvgpu.warpgroup.MmaF16BF16Op(cutlass.BFloat16, cutlass.Float32, (64, 128, 16), "
            "cute.nvgpu.warpgroup.OperandSource.SMEM, cute.nvgpu.OperandMajorMode.K, "
            "cute.nvgpu.OperandMajorMode.MN)") in src
    compile(src, "<emit>", "exec")
