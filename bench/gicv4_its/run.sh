#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the ITS command benchmark (built, not built here) and, under
# valgrind --tool=callgrind, counts instructions of the encode and
# submission paths.
#   bench/gicv4_its/run.sh [BUILD_DIR]     (default: build/release)
# Build first, optimised:  cmake --preset release && cmake --build --preset release
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build/release}
bin=$build/bench/gicv4_its/bench_gicv4_its
n=1024

if [ ! -x "$bin" ]; then
	echo "run.sh: $bin not found; build it first:" >&2
	echo "  cmake --preset release && cmake --build --preset release --target bench_gicv4_its" >&2
	exit 1
fi
btype=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
echo "build: $build (CMAKE_BUILD_TYPE=${btype:-none})"
case "$btype" in
Release|RelWithDebInfo|MinSizeRel) ;;
*) echo "note: not an optimised build; instruction counts will be high" ;;
esac

"$bin"

if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind not found: instruction counts skipped"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
	--toggle-collect='measure_*' "$bin" >/dev/null 2>"$tmp/vg.log"
callgrind_annotate --inclusive=yes "$tmp/cg.out" >"$tmp/incl.txt" 2>/dev/null
callgrind_annotate "$tmp/cg.out" >"$tmp/self.txt" 2>/dev/null

# Ir of function $2 in annotate output $1 (0 when absent).
ir() {
	awk -v f=":$2 " '{ if (index($0, f)) { gsub(",", "", $1); print $1; exit } }' "$1" | grep . || echo 0
}
enc=$(ir "$tmp/incl.txt" measure_encode)
enc_loop=$(ir "$tmp/self.txt" bench_encode)
encv=$(ir "$tmp/incl.txt" measure_encode_vmapti)
encv_loop=$(ir "$tmp/self.txt" bench_encode_v)
pa=$(ir "$tmp/incl.txt" measure_path_a)
pb=$(ir "$tmp/incl.txt" measure_path_b)

awk -v n=$n -v enc="$enc" -v el="$enc_loop" -v encv="$encv" -v evl="$encv_loop" \
	-v pa="$pa" -v pb="$pb" 'BEGIN {
	e = (enc - el) / n; ev = (encv - evl) / n;
	printf "instructions (callgrind, instant-ITS HAL, limits from GITS_TYPER checked):\n";
	printf "  encode MAPTI (inline fast path):   %6.1f per command (target < 40: %s)\n", e, e < 40 ? "met" : "MISSED";
	printf "  encode VMAPTI (table dispatch):    %6.1f per command\n", ev;
	printf "  (a) per command MAPTI+SYNC+publish+wait: %9d total, %6.1f per event\n", pa, pa / n;
	printf "  (b) one batch (1024 MAPTI + 1 SYNC):     %9d total, %6.1f per event\n", pb, pb / n;
	printf "  instruction ratio (a)/(b): %.2f\n", pa / pb;
}'
