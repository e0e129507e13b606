"""Compiling CuTe for the host: the oracle scripts' one way to have CuTe print its answers.

CuTe's headers ship in the ``nvidia-cutlass`` wheel (``cutlass_library/source/include``); host
code needs g++ and the CUDA headers (no GPU).
"""
from __future__ import annotations

import concurrent.futures
import os
import subprocess
import tempfile
from typing import Any, Callable, Optional


def default_include() -> str:
    """CuTe's include folder: the installed ``nvidia-cutlass`` wheel's, else /usr/include."""
    try:
        import cutlass_library  # type: ignore[import-not-found]
    except ImportError:
        return "/usr/include"
    return os.path.join(os.path.dirname(cutlass_library.__file__), "source", "include")


def default_cute_include() -> str:
    """CuTe's include folder for the oracles: ``$CUTE_INCLUDE``, else CUTLASS 4.7's headers where
    this workplace keeps them, else :func:`default_include`."""
    env = os.environ.get("CUTE_INCLUDE")
    if env:
        return env
    return "/work/cutlass47/include" if os.path.isdir("/work/cutlass47/include") else default_include()


def default_cuda() -> str:
    """The CUDA toolkit whose headers host CuTe code needs: ``$CUDA_HOME``, else a standard path."""
    env = os.environ.get("CUDA_HOME")
    if env:
        return env
    return "/usr/local/cuda-13.0" if os.path.isdir("/usr/local/cuda-13.0") else "/usr/local/cuda"


def build(src: str, include: str, cuda: str, work: str, tag: str) -> Optional[str]:
    """Compile the program ``src`` in ``work``; the executable's path, or None when it does not compile."""
    return try_build(src, include, cuda, work, tag)[0]


def try_build(src: str, include: str, cuda: str, work: str, tag: str) -> tuple[Optional[str], str]:
    """Compile the program ``src`` in ``work``: (the executable's path or None, the compiler's messages)."""
    cpp = os.path.join(work, f"{tag}.cpp")
    exe = os.path.join(work, tag)
    with open(cpp, "w") as fh:
        fh.write(src)
    r = subprocess.run(["g++", "-std=c++17", "-O0", "-w", f"-I{include}", f"-I{cuda}/include",
                        f"-I{cuda}/include/cccl", cpp, "-o", exe], capture_output=True, text=True)
    return (exe if r.returncode == 0 else None), r.stderr


def compile_and_run(src: str, include: str, cuda: str, work: str, tag: str) -> str:
    """Compile and run ``src``; its standard output (a compile error or a failed run raises)."""
    exe = build(src, include, cuda, work, tag)
    if exe is None:
        raise RuntimeError(f"CuTe program {tag} does not compile (see {os.path.join(work, tag)}.cpp)")
    return subprocess.run([exe], check=True, capture_output=True, text=True).stdout


def run_chunks(cases: list[Any], program: Callable[[list[tuple[int, Any]]], str], chunk: int, jobs: int,
               include: str, cuda: str) -> list[str]:
    """Number ``cases``, write ``program`` for each run of ``chunk`` of them, and compile and run
    those programs ``jobs`` at a time; their outputs, in order."""
    numbered = list(enumerate(cases))
    groups = [numbered[k:k + chunk] for k in range(0, len(numbered), chunk)]
    with tempfile.TemporaryDirectory() as work, concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        return list(ex.map(lambda kg: compile_and_run(program(kg[1]), include, cuda, work, f"p{kg[0]}"),
                           enumerate(groups)))
