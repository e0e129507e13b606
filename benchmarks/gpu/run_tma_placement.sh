#!/bin/sh
# Build and run the TMA placement check on a Hopper GPU (see tma_placement.cu); the table goes to
# stdout and to $OUT/tma_placement.md when $OUT is set.
set -e
cd "$(dirname "$0")"
nvcc -O2 -arch=sm_90 -std=c++17 tma_placement.cu -o /tmp/tma_placement
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
/tmp/tma_placement tma_placement_cases.txt | tee "${OUT:-/tmp}/tma_placement.md"
