"""The bridge to NVIDIA's CuTe Python DSL (``nvidia-cutlass-dsl``, an optional dependency:
``pip install 'cute_sym[dsl]'``).

``import cute_sym`` never imports this package nor the DSL; ``import cute_sym.dsl`` imports the
DSL's ``cutlass`` package on first use of :func:`from_dsl` / :func:`to_dsl`.

* :func:`from_dsl` - a DSL layout, swizzled layout, swizzle, int tuple, scaled basis, tensor,
  MMA op / atom / tiled MMA, copy atom / tiled copy as the cute_sym value;
* :func:`to_dsl` - the other way, inside ``@cute.jit`` (symbols take the DSL values given by name);
* :func:`dsl_atom_name` - the CuTe C++ name of the instruction a DSL MMA or copy op issues;
* :func:`traced` - run a function inside a ``@cute.jit`` traced on the CPU and return its result
  (where DSL values exist: the place to call ``from_dsl`` and ``to_dsl``).

See ``docs/dsl.md``.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

__all__ = ["from_dsl", "to_dsl", "dsl_atom_name", "dsl_available", "require_dsl", "traced"]


def dsl_available() -> bool:
    """True when the CuTe DSL (``cutlass.cute``) imports here."""
    try:
        require_dsl()
    except ImportError:
        return False
    return True


def require_dsl() -> Any:
    """``cutlass.cute``, or an ImportError that says how to install it."""
    try:
        import cutlass.cute as cute
    except ImportError as e:     # pragma: no cover - depends on the environment
        raise ImportError("cute_sym.dsl needs NVIDIA's CuTe DSL: pip install 'cute_sym[dsl]' "
                          f"(nvidia-cutlass-dsl) ({e})") from e
    return cute


def from_dsl(x: Any, symbols: Optional[Mapping[str, Any]] = None) -> Any:
    """The cute_sym value of a CuTe DSL value (call it where the DSL value exists: inside ``@cute.jit``).

    ``x`` is a DSL layout, composed layout, swizzle, int tuple (Python ints and DSL integers),
    scaled basis, coordinate or memory tensor, MMA op, MMA atom, tiled MMA, copy atom or tiled
    copy. ``symbols`` names the integers for the fresh names ``d0, d1, ...`` of its ``?`` leaves.

    @post a static leaf stays static (``(4,8):(8,1)`` is ``(_4,_8):(_8,_1)``); each dynamic leaf
          (``?``, ``?{div=N}``) is a fresh symbol ``d_k`` (``divisor == N``), positive in a shape;
          an MMA op, atom or tiled MMA is cute_sym's of the CuTe C++ atom of the same instruction
          (:func:`dsl_atom_name`), with equal thread and value layouts; likewise for copies.
    @post ``from_dsl(to_dsl(v)) == v`` for a static value ``v``; with symbols, equal up to
          their names.
    @raise LayoutError for a text (read it with ``parse(text, dialect="dsl")``), a value the DSL
           prints as no value (``x:x``), or an op cute_sym has no atom for (naming CuTe's atom).

    >>> import cutlass, cutlass.cute as cute
    >>> print(traced(lambda: from_dsl(cute.make_layout((4, 8), stride=(8, 1)))))
    (_4,_8):(_8,_1)
    >>> print(traced(lambda m: from_dsl(cute.make_layout((cute.assume(m, divby=8), 8), stride=(1, m))),
    ...              cutlass.Int32(64)))
    (d0,_8):(_1,d1)
    >>> print(traced(lambda: from_dsl(cute.make_identity_tensor((4, 8)))))
    ArithTuple(_0,_0) o (_4,_8):(_1@0,_1@1)
    """
    require_dsl()
    if isinstance(x, str):
        from ..core.errors import LayoutError
        raise LayoutError("from_dsl takes a DSL value; for the DSL's printed text use "
                          "parse(text, dialect='dsl')")
    from .atoms import atom_from_dsl, is_dsl_atom_value
    if is_dsl_atom_value(x):
        return atom_from_dsl(x)
    from .values import value_from_dsl
    return value_from_dsl(x, symbols)


def to_dsl(x: Any, values: Optional[Mapping[str, Any]] = None) -> Any:
    """The CuTe DSL value of a cute_sym value, built with ``cutlass.cute`` (inside ``@cute.jit``).

    ``values`` maps each symbol's name to its DSL value (a parameter of the jit function, say).

    @pre every symbol of ``x`` has a value in ``values`` (else :class:`LayoutError` naming it).
    @post ``print(to_dsl(parse(t, dialect="dsl")))`` prints ``t`` for a static DSL text ``t``;
          a symbol with a divisor is given to the DSL through ``cute.assume(v, divby=...)``;
          an MMA atom or tiled MMA becomes the DSL op's (``make_mma_atom``/``make_tiled_mma``),
          a copy atom or tiled copy likewise.

    >>> import cutlass
    >>> from cute_sym import Dyn, make_layout, make_tiled_mma, parse
    >>> traced(lambda: str(to_dsl(parse("Sw<3,4,3> o _0 o (_8,_64):(_64,_1)"))))
    'S<3,4,3> o 0 o (8,64):(64,1)'
    >>> M = Dyn("M", divisible_by=16)
    >>> traced(lambda m: str(to_dsl(make_layout((M, 8), (1, M)), {"M": m})), cutlass.Int32(64))
    '(?{div=16},8):(1,?{div=16})'
    >>> print(traced(lambda: to_dsl(make_tiled_mma("SM80_16x8x16_F32F16F16F32_TN", (2, 2, 1))).thr_layout_vmnk))
    (32,2,2,1):(1,32,64,0)
    """
    require_dsl()
    from .atoms import atom_to_dsl, is_atom_value
    if is_atom_value(x):
        return atom_to_dsl(x, values)
    from .values import value_to_dsl
    return value_to_dsl(x, values)


def dsl_atom_name(op: Any) -> str:
    """The CuTe C++ name of the instruction that a DSL MMA op or copy atom issues.

    @post ``MmaF16BF16Op(Float16, Float32, (16, 8, 16))`` is ``"SM80_16x8x16_F32F16F16F32_TN"``;
          a warpgroup op names its operand source and majors as CuTe's GMMA atoms do; a tcgen05
          op is CuTe's ``SM100_MMA_*`` of its types, shape, CTA group, A source and majors, a
          tcgen05 load/store ``SM100_TMEM_LOAD_*``/``SM100_TMEM_STORE_*``.
    @raise LayoutError for an op the table does not name (the message names the op).

    >>> import cutlass
    >>> from cutlass.cute.nvgpu import warp, tcgen05, OperandMajorMode
    >>> dsl_atom_name(warp.MmaF16BF16Op(cutlass.Float16, cutlass.Float32, (16, 8, 16)))
    'SM80_16x8x16_F32F16F16F32_TN'
    >>> dsl_atom_name(tcgen05.MmaTF32Op((128, 64, 8), tcgen05.CtaGroup.ONE, tcgen05.OperandSource.TMEM,
    ...                                 OperandMajorMode.K, OperandMajorMode.MN))
    'SM100_MMA_TF32_TS<tfloat32_t, tfloat32_t, float, 128, 64, UMMA::Major::K, UMMA::Major::MN>'
    """
    require_dsl()
    from .atoms import atom_name
    return atom_name(op)


def traced(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` run inside a ``cute.jit`` function traced on the CPU (no GPU, nothing
    compiled for one); its return value.

    DSL values exist only while a jit function is traced: ``fn`` builds them and hands back
    what outlives the trace (cute_sym values from :func:`from_dsl`, texts). ``args`` are the jit
    function's arguments (``cutlass.Int32(6)`` is a run-time value inside, printed ``?``).
    ``fn`` is not rewritten by the DSL's preprocessor (its Python ``if``/``for`` run as Python),
    so it may be a lambda or be defined anywhere (a doctest, a notebook).

    @post returns what ``fn`` returned; an exception of ``fn`` propagates.

    >>> import cutlass.cute as cute
    >>> traced(lambda: str(cute.make_layout((4, 8))))
    '(4,8):(1,4)'
    """
    cute = require_dsl()
    out: list[Any] = []

    def body(*a: Any) -> None:
        out.append(fn(*a))

    cute.jit(preprocess=False)(body)(*args)
    return out[0] if out else None
