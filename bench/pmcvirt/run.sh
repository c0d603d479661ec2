#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the built bench_pmcvirt: MSR accesses per world switch for both modes
# and for lazy software switching (host PMU idle, or needed every 10th /
# every exit), then instructions per world switch under callgrind inside
# enter/exit/host_save/host_restore. Library instructions = the self cost of
# every function defined in libvirq.a (statics included, nm); the HAL
# callbacks and the simulated VMRUN are not counted.
# Usage: bench/pmcvirt/run.sh [BUILD_DIR] [--summary]   (default: build)
#   --summary  only the headline metrics, one "name value minimum" line each
set -eu
BUILD=build
SUMMARY=0
for a in "$@"; do
	case "$a" in
	--summary) SUMMARY=1 ;;
	*) BUILD=$a ;;
	esac
done
BIN=$(find "$BUILD" -type f -name bench_pmcvirt -perm -u+x | head -n 1)
[ -n "$BIN" ] || { echo "bench_pmcvirt not built under $BUILD" >&2; exit 1; }
LIB=$(find "$BUILD" -type f -name libvirq.a | head -n 1)
N=10000
BT=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
[ "$BT" = Release ] || echo "note: $BUILD is not a Release build (CMAKE_BUILD_TYPE='$BT'); instruction counts are for unoptimised code" >&2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ $SUMMARY = 0 ]; then
	"$BIN"
	echo
fi
"$BIN" summary | sed 's/^summary: //' >"$TMP/summary"
if ! command -v valgrind >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1 ||
	[ -z "$LIB" ]; then
	echo "valgrind/callgrind_annotate or libvirq.a not found: instruction counts skipped" >&2
	[ $SUMMARY = 1 ] && cat "$TMP/summary"
	exit 0
fi
nm --defined-only "$LIB" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$TMP/libsyms"
lib_ir() {
	callgrind_annotate --auto=no --inclusive=no --threshold=100 "$1" 2>/dev/null |
		awk -v list="$TMP/libsyms" '
			BEGIN { while ((getline l < list) > 0) lib[l] = 1 }
			/^ *[0-9,]+ / { f = $0; sub(/ \[.*$/, "", f); sub(/^.*:/, "", f)
				if (f in lib) { x = $1; gsub(",", "", x); t += x } }
			END { print t + 0 }'
}
[ $SUMMARY = 1 ] ||
	echo "Instructions per world switch (callgrind, $N switches; every function of libvirq.a, statics included):"
for mode in hw sw sw-lazy sw-k7 sw-k7-lazy; do
	for sc in steady cold host10 host; do
		out="$TMP/cg.$mode.$sc"
		valgrind --tool=callgrind --callgrind-out-file="$out" \
			--toggle-collect=virq_pmcvirt_enter --toggle-collect=virq_pmcvirt_exit \
			--toggle-collect=virq_pmcvirt_host_save \
			--toggle-collect=virq_pmcvirt_host_restore \
			"$BIN" "$mode" "$sc" "$N" >"$TMP/stdout" 2>"$TMP/stderr" ||
			{ cat "$TMP/stderr" >&2; exit 1; }
		per=$(awk -v t="$(lib_ir "$out")" -v n="$N" 'BEGIN { printf "%.1f", t / (n + 2) }')
		[ $SUMMARY = 1 ] || printf '%-10s %-7s %8s instructions/switch   (%s)\n' "$mode" "$sc" "$per" \
			"$(cat "$TMP/stdout")"
		case "$mode.$sc" in
		hw.steady | sw.steady | sw-lazy.steady | sw.host10 | sw-lazy.host10)
			echo "pmcvirt.$mode.$sc.ins_per_switch $per -" >>"$TMP/summary" ;;
		esac
	done
done
if [ $SUMMARY = 1 ]; then
	cat "$TMP/summary"
else
	echo
	echo "Summary (name value minimum; '-' = no architectural minimum):"
	sed 's/^/  /' "$TMP/summary"
fi
