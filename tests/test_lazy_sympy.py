"""A static user never pays for sympy: importing cute_sym, parsing static text,
every static operation and the CLI's static job run without importing it.

Each check runs in a fresh interpreter and looks at ``sys.modules``; a dynamic
integer (``Dyn`` or a name in parsed text) is what brings sympy in.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

STATIC_CALLS = [
    ("coalesce", ["(_2,(_1,_6)):(_1,(_6,_2))"]),
    ("complement", ["(_4,_8):(_1,_32)", "_1024"]),
    ("composition", ["(_12,(_4,_8)):(_59,(_13,_1))", "(_4,_3):(_3,_1)"]),
    ("right_inverse", ["(_4,_8):(_8,_1)"]),
    ("left_inverse", ["(_4,_8):(_1,_8)"]),
    ("logical_divide", ["_24:_2", "_4:_2"]),
    ("zipped_divide", ["(_128,_64):(_1,_128)", "(_16,(_4,_2):(_1,_8))"]),
    ("tiled_divide", ["(_8,_8):(_8,_1)", "(_2,_4)"]),
    ("logical_product", ["(_2,_2):(_1,_2)", "(_3,_4):(_4,_1)"]),
    ("blocked_product", ["(_2,_2):(_1,_2)", "(_3,_4):(_4,_1)"]),
    ("raked_product", ["(_2,_2):(_1,_2)", "(_3,_4):(_4,_1)"]),
    ("composition", ["Sw<3,4,3> o _0 o (_8,_64):(_64,_1)", "(_8,_8):(_1,_8)"]),
    ("size", ["(_4,_8):(_1,_4)"]),
    ("cosize", ["(_4,_8):(_1,_4)"]),
    ("crd2idx", ["(_1,_2)", "(_4,_8)", "(_1,_4)"]),
    ("idx2crd", ["_17", "(_4,_8)"]),
]


def _modules_after(code: str) -> list[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'sympy')))\n"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_import_does_not_import_sympy() -> None:
    assert _modules_after("import cute_sym") == []


def test_static_parse_and_operations_do_not_import_sympy() -> None:
    code = ["import cute_sym as cs"]
    for op, args in STATIC_CALLS:
        code.append(f"r = cs.{op}(*[cs.parse(a) for a in {args!r}]); str(r)")
    code.append("cs.to_str(cs.parse('((_2,_3),_4):((_1,_2),_6)')); cs.layout_table(cs.parse('(_2,_3):(_3,_1)'))")
    assert _modules_after("\n".join(code)) == []


def test_static_tensors_atoms_pictures_and_analyses_do_not_import_sympy() -> None:
    code = """
import contextlib, io
import cute_sym as cs
T = cs.make_tensor(cs.make_gmem_ptr("T"), cs.parse("(_128,_64):(_64,_1)"))
cs.local_tile(T, cs.parse("(_32,_32)"), (1, 0)); cs.local_partition(T, cs.parse("(_8,_4):(_4,_1)"), 3)
str(cs.make_identity_tensor(cs.parse("(_4,_8)")))
m = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", cs.parse("(_2,_2)"))
str(m.get_slice(3).partition_A(T)); m.get_layoutC_TV()
tc = cs.make_tiled_copy(cs.Copy_Atom("UniversalCopy<uint128_t>", "half_t"), cs.parse("(_32,_4):(_1,_32)"),
                        cs.parse("(_8,_1)"))
str(tc.get_slice(5).partition_S(cs.local_tile(T, tc.Tiler_MN, (0, 0))))
with contextlib.redirect_stdout(io.StringIO()):
    cs.print_latex(cs.parse("Sw<2,0,3> o _0 o (_4,_8):(_8,_1)")); cs.print_latex(m); cs.print_svg(m)
cs.svg(cs.parse("(_4,_8):(_8,_1)")); cs.html(cs.parse("(_4,_8):(_8,_1)"))
ldsm = cs.make_tiled_copy_A(cs.Copy_Atom("SM75_U32x4_LDSM_N", "half_t"), m)
str(cs.bank_conflicts(ldsm, cs.parse("Sw<3,3,3> o _0 o (_128,_32):(_32,_1)")))
str(cs.check_copy_mma(ldsm, m, "A"))
"""
    assert _modules_after(code) == []


def test_static_cli_job_does_not_import_sympy() -> None:
    code = ("import contextlib, io\nfrom cute_sym.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['logical_divide(_24:_2, _4:_2)']) == 0")
    assert _modules_after(code) == []


def test_a_dynamic_integer_brings_sympy_in_and_works() -> None:
    code = ("import cute_sym as cs\nM = cs.Dyn('M', divisible_by=32)\n"
            "assert str(cs.complement(cs.parse('_32:_1'), M)) == 'M/32:_32'\n"
            "assert str(cs.parse('(M,_4):(_1,M)', {'M': M})) == '(M,_4):(_1,M)'")
    assert "sympy" in _modules_after(code)


def test_import_leaves_pictures_and_analyses_unloaded() -> None:
    """They load on first use (``cute_sym.svg``, ``cute_sym.bank_conflicts``, ...), so the algebra's
    import stays small; using one loads it."""
    probe = ("import sys, cute_sym as cs\n"
             "before = sorted(m for m in sys.modules if m.startswith(('cute_sym.views.draw', 'cute_sym.analysis')))\n"
             "cs.svg(cs.parse('(_2,_2):(_1,_2)')); cs.vector_width\n"
             "after = 'cute_sym.views.draw' in sys.modules and 'cute_sym.analysis' in sys.modules\n"
             "print(before, after)\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["[]", "True"]


def test_every_public_name_resolves_and_the_atoms_load_on_first_use() -> None:
    """The lazily loaded names (atoms, pictures, analyses) are all in ``__all__`` and resolve;
    ``import cute_sym`` alone leaves the atoms' tables unloaded."""
    probe = ("import sys, cute_sym as cs\n"
             "before = [m for m in sys.modules if m.startswith(('cute_sym.tensor.mma', 'cute_sym.tensor.atoms'))]\n"
             "missing = [n for n in cs.__all__ if not hasattr(cs, n)]\n"
             "lazy = set(cs._ATOMS) | set(cs._PICTURES) | set(cs._ANALYSES)\n"
             "print(before, missing, sorted(lazy - set(cs.__all__)), hasattr(cs.TiledMMA, '_repr_svg_'))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["[]", "[]", "[]", "True"]


def test_every_public_function_has_its_contract_for_help() -> None:
    # help(cs.complement) shows the contract, not a wrapper's nothing; the algebra's docs are read
    # without sympy, code generation's (imported on first use) only when asked for
    code = ("import cute_sym as cs, inspect, pydoc\n"
            "here = vars(cs)   # (a name resolved on first use, such as a sympy type, is not here yet)\n"
            "fns = [here[n] for n in cs.__all__ if n in here and callable(here[n]) and not isinstance(here[n], type)\n"
            "       and n not in ('IntLike', 'IntTuple', 'Tiler', 'AnyLayout', 'Parsed')]\n"
            "assert len(fns) > 80, len(fns)\n"
            "lazy = [f for f in fns if type(f).__name__ == 'LazyRoutine']\n"
            "assert {f.__name__ for f in lazy} == {'index_expr', 'coord_expr', 'emit', 'evaluate'}, lazy\n"
            "for f in fns:\n"
            "    if f not in lazy:\n"
            "        assert (inspect.getdoc(f) or '').strip(), f.__name__\n"
            "for name in ('complement', 'right_inverse', 'left_inverse', 'shape_div'):\n"
            "    assert '@post' in inspect.getdoc(getattr(cs, name)) or '>>>' in inspect.getdoc(getattr(cs, name)), name\n")
    assert _modules_after(code) == []
    docs = _modules_after(code + "for f in lazy:\n    assert '>>>' in pydoc.render_doc(f), f.__name__\n"
                                 "    assert 'lang' in str(inspect.signature(cs.emit))\n")
    assert "sympy" in docs
    # every public callable (the atoms' too, which resolve on first use)
    import inspect
    import cute_sym as cs
    aliases = {"IntLike", "IntTuple", "Tiler", "AnyLayout", "Parsed"}
    bare = [n for n in cs.__all__ if n not in aliases and callable(getattr(cs, n))
            and not (inspect.getdoc(getattr(cs, n)) or "").strip()]
    assert bare == []


def test_import_does_not_import_the_cute_dsl() -> None:
    """The CuTe DSL bridge (cute_sym.dsl) is imported only when asked: ``import cute_sym`` and the
    notation's DSL dialect never import NVIDIA's ``cutlass``; a static DSL text, not even sympy."""
    probe = ("import sys, cute_sym as cs\n"
             "cs.parse('(4,8):(8,1)', dialect='dsl'); cs.parse('S<3,4,3> o 0 o (8,64):(64,1)', dialect='dsl')\n"
             "cs.parse('tensor<(0,0) o (4,8):(1@0,1@1)>', dialect='dsl')\n"
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('cutlass', 'sympy')"
             " or m.startswith('cute_sym.dsl')))\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip().splitlines()[-1] == "[]"
