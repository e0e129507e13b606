"""Time and size of the pictures of large TV layouts: cute_sym's SVG and HTML vs CuTe's TikZ and SVG.

    python3 benchmarks/bench_pictures.py            # prints one table
    python3 benchmarks/bench_pictures.py --tex      # also runs pdflatex on the TikZ (when installed)

Objects:

* a 128x128 TV layout (128 threads x 128 values over a 128x128 tile: the
  right inverse of ``raked_product((_32,_4):(_4,_1), (_4,_32):(_1,_4))``),
  drawn by ``svg_tv`` / ``html_tv`` and, as CuTe would, by ``print_latex_tv``;
* a TiledMMA with a 128x128x16 tile (``SM80_16x8x16_F16F16F16F16_TN`` over 8x16
  atoms), drawn by CuTe's ``print_svg`` and ``print_latex`` text and by the
  compact SVG.

Times are the median of a few runs of the whole text (evaluation included).
With ``--tex``, each TikZ text is compiled with ``pdflatex`` (TeX's default
memory), reporting whether it fits.

A run (2 shared cores, TeX Live 2022):

    object           picture                                       time        size  per cell  pdflatex
    TV 128x128       cute_sym svg_tv (compact SVG)                 90 ms     0.91 MB     56 B
    TV 128x128       cute_sym html_tv (page + hover data)          90 ms     1.02 MB     62 B
    TV 128x128       CuTe print_latex_tv (TikZ)                   163 ms     1.45 MB     88 B  fails after 391.4 s:
                     ! TeX capacity exceeded, sorry [main memory size=5000000].
    MMA 128x128x16   cute_sym svg(cute=False) (compact SVG)       260 ms     1.38 MB     67 B
    MMA 128x128x16   CuTe print_svg                               308 ms     5.86 MB    286 B
    MMA 128x128x16   CuTe print_latex (TikZ)                      143 ms     1.81 MB     89 B  fails after 294.0 s:
                     ! TeX capacity exceeded, sorry [main memory size=5000000].
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # this checkout's cute_sym

import cute_sym as cs  # noqa: E402


def tv_128x128() -> Any:
    mn = cs.raked_product(cs.parse("(_32,_4):(_4,_1)"), cs.parse("(_4,_32):(_1,_4)"))
    return cs.composition(cs.right_inverse(mn), cs.make_layout((128, 128)))


def timed(f: Callable[[], str], runs: int) -> tuple[float, str]:
    times, text = [], ""
    for _ in range(runs):
        t = time.perf_counter()
        text = f()
        times.append(time.perf_counter() - t)
    return statistics.median(times), text


def tex(text: str) -> str:
    """Compile TikZ text with pdflatex: 'ok', or TeX's complaint."""
    exe = shutil.which("pdflatex")
    if exe is None:
        return "pdflatex not installed"
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "p.tex"), "w") as fh:
            # CuTe's text uses the standalone class (texlive-latex-extra) with its convert option (an external
            # converter); article with the same picture measures the same TikZ work
            fh.write(text.replace("\\documentclass[convert]{standalone}", "\\documentclass{article}"))
        t = time.perf_counter()
        p = subprocess.run([exe, "-interaction=nonstopmode", "-halt-on-error", "p.tex"], cwd=d,
                           capture_output=True, text=True, timeout=1800)
        dt = time.perf_counter() - t
        if p.returncode == 0:
            return f"ok ({dt:.1f} s)"
        err = [ln for ln in p.stdout.splitlines() if ln.startswith("!")]
        return f"fails after {dt:.1f} s: {err[0] if err else p.stdout.splitlines()[-1]}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--tex", action="store_true", help="compile the TikZ texts with pdflatex")
    o = ap.parse_args()

    tv = tv_128x128()
    mma = cs.make_tiled_mma("SM80_16x8x16_F16F16F16F16_TN", cs.parse("(_8,_16)"))
    rows: list[tuple[str, str, Callable[[], str]]] = [
        ("TV 128x128", "cute_sym svg_tv (compact SVG)", lambda: cs.svg_tv(tv, (128, 128))),
        ("TV 128x128", "cute_sym html_tv (page + hover data)", lambda: cs.html_tv(tv, (128, 128))),
        ("TV 128x128", "CuTe print_latex_tv (TikZ)", lambda: cs.latex_tv(tv, (128, 128))),
        ("MMA 128x128x16", "cute_sym svg(cute=False) (compact SVG)", lambda: cs.svg(mma, cute=False)),
        ("MMA 128x128x16", "CuTe print_svg", lambda: cs.svg(mma)),
        ("MMA 128x128x16", "CuTe print_latex (TikZ)", lambda: cs.latex(mma)),
    ]
    print(f"{'object':<16} {'picture':<40} {'time':>9} {'size':>11} {'per cell':>9}  pdflatex" if o.tex else
          f"{'object':<16} {'picture':<40} {'time':>9} {'size':>11} {'per cell':>9}")
    cells = {"TV 128x128": 128 * 128, "MMA 128x128x16": 128 * 128 + 2 * 128 * 16}
    for obj, name, f in rows:
        t, text = timed(f, o.runs)
        line = (f"{obj:<16} {name:<40} {t * 1000:7.0f} ms {len(text) / 1e6:8.2f} MB "
                f"{len(text) / cells[obj]:6.0f} B")
        if o.tex and "TikZ" in name:
            line += "  " + tex(text)
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
