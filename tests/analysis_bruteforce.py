"""A plain model of the hardware rules, over every address of every thread.

Independent of cute_sym.analysis: it evaluates the layouts element by element (the
swizzled layout as a function) and counts words, banks and sectors with sets.
"""
from __future__ import annotations

from typing import Any

BANKS, WORD, SECTOR = 32, 4, 32


def thread_bytes(tv: Any, layout: Any, bits: int, threads: range) -> list[list[int]]:
    """Byte address of each value of each thread: ``layout(tv(t, v)) * bits / 8``."""
    nv = tv[1].size()
    return [[int(layout(tv(t, v))) * bits // 8 for v in range(nv)] for t in threads]


def widest(addrs: list[list[int]], bits: int) -> int:
    """The largest n (a power of two, n*bits <= 128) whose chunks are all aligned vectors."""
    nbytes = bits // 8
    best = 1
    n = 2
    while n * bits <= 128 and len(addrs[0]) % n == 0:
        for a in addrs:
            for j in range(0, len(a), n):
                if a[j] % (n * nbytes) or any(a[j + k] != a[j] + k * nbytes for k in range(n)):
                    return best
        best = n
        n *= 2
    return best


def smem_wavefronts(addrs: list[list[int]], bits: int, n: int, phase: int) -> tuple[int, int]:
    """(wavefronts, ideal) over all instructions, ``phase`` threads a phase."""
    nbytes = bits // 8
    wf = ideal = 0
    for j in range(0, len(addrs[0]), n):
        for p in range(0, len(addrs), phase):
            words: set[int] = set()
            for a in addrs[p:p + phase]:
                for k in range(n):
                    for b in range(a[j + k], a[j + k] + nbytes):
                        words.add(b // WORD)
            per_bank: dict[int, int] = {}
            for w in words:
                per_bank[w % BANKS] = per_bank.get(w % BANKS, 0) + 1
            wf += max(per_bank.values())
            ideal += -(-len(words) // BANKS)
    return wf, ideal


def gmem_sectors(addrs: list[list[int]], bits: int, n: int) -> tuple[int, int, int]:
    """(sectors, requests, least sectors) over all instructions."""
    nbytes = bits // 8
    sec = least = req = 0
    for j in range(0, len(addrs[0]), n):
        got: set[int] = set()
        for a in addrs:
            for k in range(n):
                got.update(range(a[j + k], a[j + k] + nbytes))
        sec += len({b // SECTOR for b in got})
        least += -(-len(got) // SECTOR)
        req += 1
    return sec, req, least


def phase_of(vector_bits: int) -> int:
    return 32 if vector_bits <= 32 else 16 if vector_bits == 64 else 8
