"""Kernels that run on the CPU: CuTe's algorithms over tensors in memory, and a thread-level
simulation of a CTA (races, reads of unwritten elements, accesses outside memory).

* :mod:`.offsets` - the offsets of a static layout as one NumPy array.
* :mod:`.atom_exec` - what one copy or MMA instruction does, read off its atom's layouts.
* :mod:`.algorithms` - ``copy``, ``copy_if``, ``gemm``, ``fill``, ``clear``, ``axpby``.
* :mod:`.simulate` - ``simulate``, ``Simulation``, ``syncthreads`` and the fault reports.

NumPy is needed here (an optional extra of cute_sym); ``import cute_sym`` does not load this package.
"""
from __future__ import annotations

from .algorithms import axpby, clear, copy, copy_if, fill, gemm

__all__ = ["axpby", "clear", "copy", "copy_if", "fill", "gemm"]
