#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the built bench_avic: doorbell MSR writes and kicks per operation, then
# instructions per operation under callgrind, counting only instructions
# executed inside libvirq's own functions (virq_*; the HAL callbacks and the
# bench's loop are excluded).
# Usage: bench/avic/run.sh [BUILD_DIR]   (default: build)
set -eu
BUILD=${1:-build}
BIN=$(find "$BUILD" -type f -name bench_avic -perm -u+x | head -n 1)
[ -n "$BIN" ] || { echo "bench_avic not built under $BUILD" >&2; exit 1; }
BT=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
[ "$BT" = Release ] || echo "note: $BUILD is not a Release build (CMAKE_BUILD_TYPE='$BT'); instruction counts are for unoptimised code" >&2
"$BIN"
echo
if ! command -v valgrind >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1; then
	echo "valgrind/callgrind_annotate not found: instruction counts skipped" >&2
	exit 0
fi
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# lib_ir OUT: instructions executed in virq_* functions (self cost).
lib_ir() {
	callgrind_annotate --inclusive=no --threshold=100 "$1" 2>/dev/null |
		awk '/virq_/ { gsub(",", "", $1); s += $1 } END { print s + 0 }'
}
# measure NAME N ARGS...: runs bench_avic ARGS with collection inside TOGGLE.
measure() {
	name=$1 n=$2 toggle=$3
	shift 3
	out="$TMP/cg.$$"
	valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$toggle" \
		"$BIN" "$@" >"$TMP/stdout" 2>"$TMP/stderr" || { cat "$TMP/stderr" >&2; exit 1; }
	ir=$(lib_ir "$out")
	printf '%-36s %10s instructions in libvirq per call   (%s)\n' "$name" \
		"$(awk -v t="$ir" -v n="$n" 'BEGIN { printf "%.1f", t / n }')" "$(cat "$TMP/stdout")"
	rm -f "$out"
}
N=10000
echo "Instructions (callgrind, self cost of virq_* functions):"
measure "post, target running elsewhere" $N virq_avic_post post-running $N
measure "post, running, kick policy" $N virq_avic_post post-running-kick $N
measure "post, target not running" $N virq_avic_post post-idle $N
for nv in 255 511 4096; do
	measure "TARGET_NOT_RUNNING bcast, $nv vCPUs" 20 virq_avic_handle_incomplete_ipi tnr $nv 20
done
