"""Hardware facts the analyses read (NVIDIA SM70 and later): data, not code.

* shared memory: 32 banks of 4 bytes; a warp's access is served in *phases* of
  threads, by the width of each thread's access; a phase takes as many
  wavefronts as the most distinct 4-byte words any one bank holds among its
  addresses (the same word read by several threads is a broadcast);
* ``ldmatrix`` and ``stmatrix``: each 8x16-byte matrix is one phase, its 8 row addresses given by
  8 consecutive threads (threads 0-7 for matrix 0, 8-15 for matrix 1, ...);
* global memory: a request touches 32-byte sectors;
* one thread moves at most 128 bits in one instruction.
"""
from __future__ import annotations

from typing import Mapping, Optional

SMEM_BANKS = 32
SMEM_BANK_BYTES = 4
GMEM_SECTOR_BYTES = 32
MAX_VECTOR_BITS = 128
# Residues of byte addresses modulo this decide banks (32 x 4 B) and sectors (32 B).
ADDRESS_PERIOD_BYTES = SMEM_BANKS * SMEM_BANK_BYTES

# (widest access in bits, threads of one phase): 8-32 bit accesses are served for the
# whole warp at once, 64-bit ones by half-warps, 128-bit ones by quarter-warps.
SMEM_PHASE_THREADS: tuple[tuple[int, int], ...] = ((32, 32), (64, 16), (128, 8))

# ldmatrix / its CuTe copy operations: the number of 8x16-byte matrices (one phase each);
# stmatrix (SM90) writes the same matrices, its row addresses given the same way
LDMATRIX_MATRICES: Mapping[str, int] = {
    "SM75_U32x1_LDSM_N": 1, "SM75_U32x2_LDSM_N": 2, "SM75_U32x4_LDSM_N": 4,
    "SM75_U16x2_LDSM_T": 1, "SM75_U16x4_LDSM_T": 2, "SM75_U16x8_LDSM_T": 4,
    "SM90_U32x1_STSM_N": 1, "SM90_U32x2_STSM_N": 2, "SM90_U32x4_STSM_N": 4,
    "SM90_U16x2_STSM_T": 1, "SM90_U16x4_STSM_T": 2, "SM90_U16x8_STSM_T": 4,
}
LDMATRIX_ROW_THREADS = 8     # threads giving the row addresses of one matrix
LDMATRIX_ROW_BITS = 128      # each row: 8 x 16-bit


def phase_threads(vector_bits: int) -> int:
    """Threads of one shared-memory phase for accesses of ``vector_bits`` per thread.

    >>> phase_threads(16), phase_threads(64), phase_threads(128)
    (32, 16, 8)
    """
    for widest, threads in SMEM_PHASE_THREADS:
        if vector_bits <= widest:
            return threads
    return SMEM_PHASE_THREADS[-1][1]


def ldmatrix_matrices(op_name: str) -> Optional[int]:
    """Matrices of an ``ldmatrix`` copy operation (``None`` for any other operation).

    >>> ldmatrix_matrices("SM75_U32x4_LDSM_N"), ldmatrix_matrices("UniversalCopy<uint128_t>")
    (4, None)
    """
    return LDMATRIX_MATRICES.get(op_name)
