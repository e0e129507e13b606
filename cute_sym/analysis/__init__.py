"""Analyses of accesses: vector width, bank conflicts, coalescing, copy/MMA compatibility.

Each answers for static layouts, and for symbolic ones by cases over the residues
that the hardware rule reads (:mod:`.cases`), through the one decision procedure.
"""
from .hardware import phase_threads, ldmatrix_matrices
from .cases import Cases
from .access import Access, access_of, split_layout
from .vector import VectorWidth, vector_width
from .banks import BankConflicts, Phase, bank_conflicts
from .coalescing import Coalescing, coalescing
from .compat import CopyMMACheck, check_copy_mma
# issue 39: Hopper/Blackwell analyses and the design search
from .hopper import (MmaOperandCheck, TmaCheck, TmemCheck, mma_operand_check, tma_copy_check, tmem_copy_check,
                     tmem_warp_lanes)
from .propose import (CopyCandidate, MmaOperand, Scored, SmemCandidate, SmemProposal, TiledCopyProposal, TmaCopy,
                      propose_smem_layout, propose_tiled_copy, smem_candidates)

__all__ = ["phase_threads", "ldmatrix_matrices", "Cases", "Access", "access_of", "split_layout",
           "VectorWidth", "vector_width", "BankConflicts", "Phase", "bank_conflicts",
           "Coalescing", "coalescing", "CopyMMACheck", "check_copy_mma",
           "MmaOperandCheck", "TmaCheck", "TmemCheck", "mma_operand_check", "tma_copy_check", "tmem_copy_check",
           "tmem_warp_lanes",
           "CopyCandidate", "MmaOperand", "Scored", "SmemCandidate", "SmemProposal", "TiledCopyProposal", "TmaCopy",
           "propose_smem_layout", "propose_tiled_copy", "smem_candidates"]
