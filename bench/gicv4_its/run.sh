#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the ITS command benchmark (built, not built here) and, under
# valgrind --tool=callgrind, counts the library instructions of the encode
# and submission paths: the self cost of every function libvirq.a defines,
# statics included (bench/lib.sh), inside the measure_* calls; the bench's
# loops and the instant-ITS HAL are not counted.
#   bench/gicv4_its/run.sh [BUILD_DIR] [--summary]     (default: build/release)
#     --summary  only the headline metrics, one "name value minimum" line each
# Build first, optimised:  cmake --preset release && cmake --build --preset release
set -eu
here=$(dirname "$0")
# shellcheck source=bench/lib.sh
. "$here/../lib.sh"
build=build/release
summary=0
for a in "$@"; do
	case "$a" in
	--summary) summary=1 ;;
	*) build=$a ;;
	esac
done
bin=$build/bench/gicv4_its/bench_gicv4_its
lib=$(find "$build" -type f -name libvirq.a 2>/dev/null | head -n 1)
n=1024

if [ ! -x "$bin" ]; then
	echo "run.sh: $bin not found; build it first:" >&2
	echo "  cmake --preset release && cmake --build --preset release --target bench_gicv4_its" >&2
	exit 1
fi
btype=$(sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
case "$btype" in
Release | RelWithDebInfo | MinSizeRel) ;;
*) echo "note: not an optimised build (CMAKE_BUILD_TYPE=${btype:-none}); instruction counts will be high" >&2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" >"$tmp/out"
[ $summary = 1 ] || grep -v '^SUMMARY ' "$tmp/out"
sed -n 's/^SUMMARY //p' "$tmp/out" >"$tmp/summary"

if ! bench_have_callgrind || [ -z "$lib" ]; then
	echo "valgrind/callgrind_annotate or libvirq.a not found: instruction counts skipped" >&2
	[ $summary = 0 ] || cat "$tmp/summary"
	exit 0
fi
bench_lib_syms "$lib" "$bin" "$tmp/syms"
enc=$(bench_cg "$tmp/syms" "$tmp" "$bin" measure_encode)
encv=$(bench_cg "$tmp/syms" "$tmp" "$bin" measure_encode_vmapti)
pa=$(bench_cg "$tmp/syms" "$tmp" "$bin" measure_path_a)
pb=$(bench_cg "$tmp/syms" "$tmp" "$bin" measure_path_b)
echo "gicv4_its.encode_mapti.ins $(bench_div "$enc" $n) -" >>"$tmp/summary"
echo "gicv4_its.batch1024.ins_per_event $(bench_div "$pb" $n) -" >>"$tmp/summary"
if [ $summary = 1 ]; then
	cat "$tmp/summary"
	exit 0
fi
awk -v n=$n -v enc="$enc" -v encv="$encv" -v pa="$pa" -v pb="$pb" 'BEGIN {
	e = enc / n; ev = encv / n;
	printf "library instructions (callgrind, self cost of libvirq.a functions; instant-ITS HAL,\n";
	printf "limits from GITS_TYPER checked):\n";
	printf "  encode MAPTI (inline fast path):   %6.1f per command (target < 40: %s)\n", e, e < 40 ? "met" : "MISSED";
	printf "  encode VMAPTI (table dispatch):    %6.1f per command\n", ev;
	printf "  (a) per command MAPTI+SYNC+publish+wait: %9d total, %6.1f per event\n", pa, pa / n;
	printf "  (b) one batch (1024 MAPTI + 1 SYNC):     %9d total, %6.1f per event\n", pb, pb / n;
	printf "  instruction ratio (a)/(b): %.2f\n", pa / pb;
}'
echo
echo "Summary (name value minimum; '-' = no architectural minimum):"
sed 's/^/  /' "$tmp/summary"
