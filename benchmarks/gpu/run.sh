#!/bin/bash
# On the GPU machine, in the folder made by `gpu_index_bench.py pack`: compile the
# generated bench.cu there, compute every expected offset with cute_sym (cs.evaluate),
# then check and time. The log goes to $OUT/gpu.log when $OUT is set.
set -uo pipefail
cd "$(dirname "$0")"
export CUTE_SYM_ROOT=$PWD PYTHONUNBUFFERED=1
W=${W:-/tmp/gpu_index_bench}
LOG=${OUT:-$W}/gpu.log
mkdir -p "$W" "$(dirname "$LOG")"
cp bench.cu harness.cuh "$W"/
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
nvcc --version | tail -1; python3 -c 'import sys, sympy, numpy; print(sys.version.split()[0], sympy.__version__, numpy.__version__)'
(python3 gpu_index_bench.py build "$W" --include "$PWD/include" > "$W/build.log" 2>&1; echo "nvcc rc $?" >> "$W/build.log") &
python3 gpu_index_bench.py expected "$W" > "$W/expected.log" 2>&1 || { cat "$W/expected.log"; exit 1; }
wait
cat "$W/build.log"
if [ ! -x "$W/bench" ]; then echo "nvcc build failed: using the binary built beside the generator"; cp bench.prebuilt "$W/bench"; fi
"$W/bench" --gpu "$W/exp" 2>&1 | tee "$LOG"
if [ -n "${OUT:-}" ]; then   # a second run (the spread between runs) and the SASS, for reading elsewhere
  "$W/bench" --gpu "$W/exp" > "$OUT/gpu2.log" 2>&1
  tail -20 "$OUT/gpu2.log"
  cuobjdump -sass "$W/bench" | gzip -9 > "$OUT/bench.sass.gz"
fi
