#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the built bench_pmcvirt: MSR accesses per world switch for both modes,
# then instructions per world switch under callgrind, counting only inside
# libvirq's world-switch functions (and the HAL callbacks they make).
# Usage: bench/pmcvirt/run.sh [BUILD_DIR]   (default: build)
set -eu
BUILD=${1:-build}
BIN=$(find "$BUILD" -type f -name bench_pmcvirt -perm -u+x | head -n 1)
[ -n "$BIN" ] || { echo "bench_pmcvirt not built under $BUILD" >&2; exit 1; }
N=10000
BT=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
[ "$BT" = Release ] || echo "note: $BUILD is not a Release build (CMAKE_BUILD_TYPE='$BT'); instruction counts are for unoptimised code" >&2
"$BIN"
echo
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind not found: instruction counts skipped" >&2
	exit 0
fi
echo "Instructions per world switch (callgrind, $N switches, library + HAL callbacks):"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for mode in hw sw sw-k7; do
	for sc in steady cold host; do
		out="$TMP/cg.$mode.$sc"
		valgrind --tool=callgrind --callgrind-out-file="$out" \
			--toggle-collect=virq_pmcvirt_enter --toggle-collect=virq_pmcvirt_exit \
			--toggle-collect=virq_pmcvirt_host_save \
			--toggle-collect=virq_pmcvirt_host_restore \
			"$BIN" "$mode" "$sc" "$N" >"$TMP/stdout" 2>"$TMP/stderr" ||
			{ cat "$TMP/stderr" >&2; exit 1; }
		ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' "$out" | tail -n 1)
		printf '%-6s %-7s %8s instructions/switch   (%s)\n' "$mode" "$sc" \
			"$(awk -v t="$ir" -v n="$N" 'BEGIN { printf "%.1f", t / (n + 2) }')" \
			"$(cat "$TMP/stdout")"
	done
done
