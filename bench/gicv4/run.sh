#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the built GICv4 core benchmark (builds nothing).
#   bench/gicv4/run.sh [BUILD_DIR] [--callgrind]
# With --callgrind, also runs it under valgrind's callgrind collecting only the
# bench_op_* functions and prints their inclusive instruction counts (these
# include the fake HAL and the models, i.e. an upper bound of the library's own).
set -eu
build=${1:-build}
bin="$build/bench/gicv4/bench_gicv4"
if [ ! -x "$bin" ]; then
  echo "run.sh: $bin not built (cmake --build $build --target bench_gicv4)" >&2
  exit 2
fi
"$bin"
if [ "${2:-}" = "--callgrind" ]; then
  out=$(mktemp)
  valgrind --tool=callgrind --toggle-collect='bench_op_*' --callgrind-out-file="$out" "$bin" >/dev/null 2>&1
  # Object paths relative to the working directory (no machine path in reports).
  callgrind_annotate --inclusive=yes "$out" 2>/dev/null | grep ':bench_op_' | grep -v '=>' |
    sed "s|$(pwd)/||g" || true
  rm -f "$out"
fi
