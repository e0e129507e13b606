"""cute_sym: CuTe's layout algebra in Python, exact on static and symbolic integers.

>>> import cute_sym as cs
>>> print(cs.logical_divide(cs.parse("_24:_2"), cs.parse("_4:_2")))
(_4,(_2,_3)):(_4,(_2,_16))
>>> cs.size(cs.parse("(_4,_8):(_1,_4)")), cs.size(cs.parse("(_4,(_2,_3)):(_1,(_4,_8))"), 1)
(_32, _6)

Every public function keeps the types it declares (``mypy --strict`` sees a
:class:`Layout` where one comes back, never ``Any``): each is a typed signature in
:mod:`cute_sym.api` whose body is the implementation in the layer that owns it, entered
through :func:`cute_sym.api.face.api` (plain ints and tuples in, CuTe-printing ones out; a
wrong kind of argument is a :class:`LayoutError`; the implementation's contract for
``help()``). This file only re-exports them: eagerly the algebra's, on first use (the
module ``__getattr__``) the atoms, algorithms, pictures and analyses.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any as _Any

from .core.errors import (
    DivisibilityError, InjectivityError, LayoutError, NotationError, RankError, UndecidableError,
)
from .core.integers import Dyn, DynInt, Int, StaticInt, is_static
from .core.decide import assume, collect_guards, prove_checked as prove
from .core.int_tuple import Tup, Underscore, _
from .layout.layout import Layout, LayoutLeft, LayoutRight, make_layout
from .swizzle import ComposedLayout, Swizzle
from .stride import F2
from .tensor import ArithmeticTuple, ScaledBasis, Tensor
from .api.types import AnyLayout, IntLike, IntTuple, Parsed, Tiler
from .api.int_tuples import *  # noqa: F403
from .api.algebra import *  # noqa: F403
from .api.tensors import *  # noqa: F403
from .api.pycute import *  # noqa: F403
from .api import lazy as _lazy

if TYPE_CHECKING:
    from .core.symbolic import DynSymbol, IMod
    from .codegen.expr import FloorDiv

__version__ = "0.1.0"

__all__ = [
    "DivisibilityError", "InjectivityError", "LayoutError", "NotationError", "RankError", "UndecidableError",
    "Dyn", "DynInt", "DynSymbol", "Int", "IntLike", "IntTuple", "StaticInt", "Tup", "Tiler", "AnyLayout",
    "Parsed", "Underscore", "is_static", "assume",
    "collect_guards", "prove", "_", "Layout", "LayoutLeft", "LayoutRight", "make_layout", "ComposedLayout",
    "Swizzle", "parse", "subs", "to_str", "shape_div", "ceil_div", "prefix_product", "inner_product",
    "elem_scale", "congruent", "weakly_congruent", "compatible", "crd2crd", "product", "unflatten", "crd2idx",
    "idx2crd", "make_shape", "make_stride", "make_step", "make_coord", "make_tile",
    "size", "cosize", "coshape", "rank", "depth", "shape", "stride", "flatten", "make_ordered_layout",
    "make_layout_like", "append", "prepend", "group", "select", "take", "get", "slice_", "dice",
    "slice_and_offset", "filter_zeros", "coalesce", "filter", "composition", "complement", "right_inverse",
    "left_inverse", "logical_divide", "zipped_divide", "tiled_divide", "flat_divide", "logical_product",
    "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product", "tile_to_shape",
    "max_common_layout", "max_common_vector", "nullspace", "upcast", "downcast", "recast_layout",
    "layout_table", "print_layout", "print_tensor", "index_expr", "coord_expr", "FloorDiv", "IMod", "emit", "evaluate",
    "ArithmeticTuple", "E", "ScaledBasis", "Tensor", "make_tensor", "make_gmem_ptr", "make_smem_ptr",
    "make_rmem_ptr", "make_identity_tensor", "make_identity_layout", "make_fragment_like", "make_coord_tensor",
    "make_basis_like", "make_tensor_like", "group_modes", "local_tile", "local_partition", "inner_partition", "outer_partition",
]
__all__ += ["F2", "f2_layout", "as_f2_layout", "to_linear_layout", "from_linear_layout",
            "common_refinement", "common_coarsening", "greatest_common_domain", "layout_add", "coalesce_z",
            "wrap", "unwrap", "lift", "zip_leaves", "fold_leaf", "transform_leaf", "transform_apply_leaf",
            "coordinates", "in_bounds"]

# MMA and copy atoms (CuTe's traits as data) and tiled MMAs and copies: their tables load on
# first use (__getattr__ below), so `import cute_sym` compiles and runs only the algebra's code.
if TYPE_CHECKING:
    from .tensor.atoms import MMA_Traits, Major, ScaleIn, mma_atom_names
    from .tensor.mma import MMA_Atom, ThrMMA, TiledMMA
    from .tensor.atoms.copy_traits import Copy_Traits
    from .tensor.atoms.copy_atom import Copy_Atom
    from .tensor.copy import ThrCopy, TiledCopy
    from .tensor.copy_make import (
        make_cotiled_copy, make_tiled_copy, make_tiled_copy_A, make_tiled_copy_B, make_tiled_copy_C,
        make_tiled_copy_C_atom, make_tiled_copy_D, make_tiled_copy_impl, make_tiled_copy_S,
    )

    from .api.atoms import (
        make_tiled_mma, partition_shape_A, partition_shape_B, partition_shape_C, tile_shape,
        tile_to_mma_shape, tmem_frg_layout, tmem_sf_frg_layout,
    )

# public name -> (module, attribute, how it is entered: None as it is, "checked", or _api's options)
_ATOMS: dict[str, _lazy.AtomEntry] = {
    **{n: ("tensor.atoms", n, None) for n in ("MMA_Traits", "Major", "ScaleIn", "mma_atom_names")},
    **{n: ("tensor.mma", n, None) for n in ("MMA_Atom", "ThrMMA", "TiledMMA")},
    "make_tiled_mma": ("tensor.mma", "make_tiled_mma", {"wrap": False, "plain": False}),
    **{n: ("tensor.mma", n, {}) for n in ("tile_shape", "partition_shape_A", "partition_shape_B",
                                           "partition_shape_C")},
    "Copy_Traits": ("tensor.atoms.copy_traits", "Copy_Traits", None),
    "Copy_Atom": ("tensor.atoms.copy_atom", "Copy_Atom", None),
    **{n: ("tensor.copy", n, None) for n in ("ThrCopy", "TiledCopy")},
    **{n: ("tensor.copy_make", n, "checked") for n in (
        "make_tiled_copy", "make_tiled_copy_impl", "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C",
        "make_tiled_copy_C_atom", "make_cotiled_copy", "make_tiled_copy_S", "make_tiled_copy_D")},
    # --- Blackwell UMMA (issue 35, MMA side)
    **{n: ("tensor.umma", n, "checked") for n in ("tile_to_mma_shape", "tmem_frg_layout", "tmem_sf_frg_layout")},
    # --- end Blackwell UMMA
}
# issue 33: the list of copy atoms (as mma_atom_names lists the MMA atoms)
if TYPE_CHECKING:
    from .tensor.atoms.copy_traits import copy_atom_names
_ATOMS["copy_atom_names"] = ("tensor.atoms.copy_traits", "copy_atom_names", None)
__all__ += ["copy_atom_names"]
# issue 33: an analysis answered by cases is a Cases (narrow with isinstance), its wavefronts typed
if TYPE_CHECKING:
    from .analysis.cases import Cases
_ATOMS["Cases"] = ("analysis.cases", "Cases", None)
__all__ += ["Cases"]
# (end of issue 33's block)

# (a literal list: mypy reads re-exports from it)
__all__ += [
    "MMA_Traits", "Major", "ScaleIn", "mma_atom_names", "MMA_Atom", "ThrMMA", "TiledMMA", "make_tiled_mma",
    "partition_shape_A", "partition_shape_B", "partition_shape_C", "tile_shape",
    "Copy_Traits", "Copy_Atom", "ThrCopy", "TiledCopy", "make_tiled_copy", "make_tiled_copy_impl",
    "make_tiled_copy_A", "make_tiled_copy_B", "make_tiled_copy_C", "make_tiled_copy_S", "make_tiled_copy_D",
    "make_tiled_copy_C_atom", "make_cotiled_copy",
    # --- Blackwell UMMA (issue 35, MMA side)
    "tile_to_mma_shape", "tmem_frg_layout", "tmem_sf_frg_layout",
    # --- end Blackwell UMMA
]

# ---- issue 36: the canonical smem layout atoms, TMA copies, GMMA/UMMA descriptors (loaded on first use)
if TYPE_CHECKING:
    from .tensor.atoms.smem_atoms import smem_layout_atom
    from .tensor.tma import (TmaCopyAtom, TmaDescriptor, TmaTiledCopy, make_tma_atom, make_tma_copy, tma_partition,
                             make_tma_atom_A_sm100, make_tma_atom_B_sm100)
    from .tensor.smem_desc import GmmaDescriptor, UmmaDescriptor, check_mma_smem_layout, make_gmma_desc, make_umma_desc
_ATOMS.update({
    "smem_layout_atom": ("tensor.atoms.smem_atoms", "smem_layout_atom", "checked"),
    **{n: ("tensor.tma", n, "checked") for n in ("make_tma_copy", "make_tma_atom", "tma_partition",
                                                 "make_tma_atom_A_sm100", "make_tma_atom_B_sm100")},
    **{n: ("tensor.tma", n, None) for n in ("TmaCopyAtom", "TmaDescriptor", "TmaTiledCopy")},
    **{n: ("tensor.smem_desc", n, "checked") for n in ("make_gmma_desc", "make_umma_desc", "check_mma_smem_layout")},
    **{n: ("tensor.smem_desc", n, None) for n in ("GmmaDescriptor", "UmmaDescriptor")},
})
__all__ += [
    "smem_layout_atom", "make_tma_copy", "make_tma_atom", "tma_partition", "make_tma_atom_A_sm100",
    "make_tma_atom_B_sm100", "TmaCopyAtom", "TmaDescriptor",
    "TmaTiledCopy", "make_gmma_desc", "make_umma_desc", "check_mma_smem_layout", "GmmaDescriptor", "UmmaDescriptor",
]
_TMA_PICTURES = ("tma_placement", "tma_svg", "tma_html")
if TYPE_CHECKING:
    from .views.tma_picture import tma_html, tma_placement, tma_svg
__all__ += ["tma_placement", "tma_svg", "tma_html"]
# ---- end issue 36
# Blackwell TMEM (issue #35, the copy half): TMEM as a memory space, tcgen05.ld/st tiled over a warpgroup
if TYPE_CHECKING:
    from .tensor.tmem_space import (
        TMEM_DP, check_warp_lanes, make_tmem_ptr, tmem_address, tmem_column, tmem_lane,
    )
    from .tensor.tmem_copy import make_tmem_copy, make_utccp_copy
    from .tensor.atoms.copy_sm100_data import tmem_load_to_store, tmem_op_repeater
    from .views.tmem_picture import (
        latex_tmem_copy, print_latex_tmem_copy, print_svg_tmem_copy, svg_tmem_copy, tmem_copy_picture,
    )
_ATOMS.update({
    **{n: ("tensor.tmem_space", n, "checked") for n in (
        "TMEM_DP", "check_warp_lanes", "make_tmem_ptr", "tmem_address", "tmem_column", "tmem_lane")},
    **{n: ("tensor.tmem_copy", n, "checked") for n in ("make_tmem_copy", "make_utccp_copy")},
    **{n: ("tensor.atoms.copy_sm100_data", n, "checked") for n in ("tmem_load_to_store", "tmem_op_repeater")},
    **{n: ("views.tmem_picture", n, "checked") for n in (
        "latex_tmem_copy", "print_latex_tmem_copy", "print_svg_tmem_copy", "svg_tmem_copy", "tmem_copy_picture")},
})
__all__ += [
    "TMEM_DP", "check_warp_lanes", "make_tmem_ptr", "tmem_address", "tmem_column", "tmem_lane", "make_tmem_copy",
    "tmem_load_to_store", "tmem_op_repeater", "make_utccp_copy", "latex_tmem_copy", "print_latex_tmem_copy", "print_svg_tmem_copy", "svg_tmem_copy",
    "tmem_copy_picture",
]
# ---- make_tmem_warp_partitioner: CuTe's TV_Tiler and the four warps' TMEM sub-partitions (loaded on first use)
if TYPE_CHECKING:
    from .tensor.tv_tiler import TV_Partitioner, TV_Tiler, make_tiler_impl
    from .tensor.tmem_warp import make_tmem_warp_partitioner
_ATOMS.update({
    **{n: ("tensor.tv_tiler", n, None) for n in ("TV_Tiler", "TV_Partitioner")},
    "make_tiler_impl": ("tensor.tv_tiler", "make_tiler_impl", "checked"),
    "make_tmem_warp_partitioner": ("tensor.tmem_warp", "make_tmem_warp_partitioner", "checked"),
})
__all__ += ["TV_Tiler", "TV_Partitioner", "make_tiler_impl", "make_tmem_warp_partitioner"]
# ---- end make_tmem_warp_partitioner


# Kernels on the CPU (issue 37): recast of tensors, CuTe's algorithms over tensors in memory and
# the thread-level simulation of a CTA. They need NumPy (an optional extra) and load on first use
# (__getattr__ below), so `import cute_sym` imports neither NumPy nor them.
if TYPE_CHECKING:
    from .tensor.recast import recast
    from .tensor.einfold import einfold
    from .execute import axpby, clear, copy, copy_if, fill, gemm
    from .execute.simulate import Simulation, cp_async_fence, cp_async_wait, simulate, syncthreads
    from .execute.report import Fault, SimulationError, SimulationReport
    from .execute.examples import einsum, im2col, im2col_coord, im2col_padded

_EXECUTE: dict[str, str] = {
    "recast": "tensor.recast", "einfold": "tensor.einfold",
    **{n: "execute.algorithms" for n in ("axpby", "clear", "copy", "copy_if", "fill", "gemm")},
    **{n: "execute.simulate" for n in ("Simulation", "simulate", "syncthreads", "cp_async_fence", "cp_async_wait")},
    **{n: "execute.report" for n in ("Fault", "SimulationError", "SimulationReport")},
    **{n: "execute.examples" for n in ("einsum", "im2col", "im2col_coord", "im2col_padded")},
}
__all__ += [
    "recast", "einfold", "axpby", "clear", "copy", "copy_if", "fill", "gemm", "Simulation", "simulate", "syncthreads",
    "cp_async_fence", "cp_async_wait", "Fault", "SimulationError", "SimulationReport", "einsum", "im2col", "im2col_coord", "im2col_padded",
]


# Pictures: CuTe's print_latex / print_svg text; cute_sym's SVG and offline HTML of every object.
# Analyses: vector width, bank conflicts, coalescing, copy/MMA compatibility (symbolic answers by cases).
# Both load on first use (module __getattr__ below): `import cute_sym` stays fast for the algebra.
# The Jupyter reprs are wired in api.lazy (the lower layers never import views: see views.notebook).

if TYPE_CHECKING:
    from .views.draw import latex, latex_tv, svg, svg_tv, html, html_tv, print_latex, print_latex_tv, print_svg
    from .analysis.vector import VectorWidth, vector_width
    from .analysis.banks import BankConflicts, bank_conflicts
    from .analysis.coalescing import Coalescing, coalescing
    from .analysis.compat import CopyMMACheck, check_copy_mma
    from .views.banks import bank_svg

_PICTURES = ("latex", "latex_tv", "svg", "svg_tv", "html", "html_tv", "print_latex", "print_latex_tv", "print_svg")
_ANALYSES = ("BankConflicts", "Coalescing", "CopyMMACheck", "VectorWidth", "bank_conflicts", "check_copy_mma",
             "coalescing", "vector_width")
__all__ += ["latex", "latex_tv", "svg", "svg_tv", "html", "html_tv", "print_latex", "print_latex_tv", "print_svg",
            "BankConflicts", "Coalescing", "CopyMMACheck", "VectorWidth", "bank_conflicts", "check_copy_mma",
            "coalescing", "vector_width", "bank_svg"]


# ---- issue 39: Hopper/Blackwell analyses and the design search (loaded on first use, as the analyses)
_ANALYSES_39 = ("MmaOperandCheck", "TmaCheck", "TmemCheck", "mma_operand_check", "tma_copy_check", "tmem_copy_check",
                "tmem_warp_lanes", "CopyCandidate", "MmaOperand", "Scored", "SmemCandidate", "SmemProposal",
                "TiledCopyProposal", "TmaCopy", "propose_smem_layout", "propose_tiled_copy", "smem_candidates")
if TYPE_CHECKING:
    from .analysis import *  # noqa: F401,F403 - the names of _ANALYSES_39 (analysis/__init__.py's __all__)
    from .views.proposal import proposal_svg
__all__ += list(_ANALYSES_39) + ["proposal_svg"]  # ---- end issue 39


# the modules of the pictures (entered checked) and of the names taken as they are
_PICTURES_AT = {**{n: "views.draw" for n in _PICTURES}, **{n: "views.tma_picture" for n in _TMA_PICTURES}}
_PLAIN = {"bank_svg": "views.banks", "proposal_svg": "views.proposal"}


def __getattr__(name: str) -> _Any:
    # The sympy-backed classes, the atoms, the algorithms, pictures and analyses load on first use:
    # `import cute_sym` and static work import neither sympy nor NumPy nor them.
    value = _lazy.attr(name, _ATOMS, _EXECUTE, _PICTURES_AT, _ANALYSES + _ANALYSES_39, _PLAIN)
    globals()[name] = value
    return value
