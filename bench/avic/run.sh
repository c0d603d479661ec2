#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the built bench_avic: doorbell MSR writes and kicks per operation
# (with the architectural minimum beside each), many posters into one vCPU,
# the doorbell-versus-kick crossover, then instructions per operation under
# callgrind. Library instructions = the self cost of every function defined
# in libvirq.a, static ones included (nm), inside the measured call; the HAL
# callbacks, the bench's loop and libc are not counted.
# Usage: bench/avic/run.sh [BUILD_DIR] [--summary]   (default: build)
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
BIN=$(find "$BUILD" -type f -name bench_avic -perm -u+x | head -n 1)
[ -n "$BIN" ] || { echo "bench_avic not built under $BUILD" >&2; exit 1; }
LIB=$(find "$BUILD" -type f -name libvirq.a | head -n 1)
BT=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
[ "$BT" = Release ] || echo "note: $BUILD is not a Release build (CMAKE_BUILD_TYPE='$BT'); instruction counts are for unoptimised code" >&2
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ $SUMMARY = 0 ]; then
	"$BIN"
	echo
fi
"$BIN" summary | sed 's/^summary: //' >"$TMP/summary"
cg=1
if ! command -v valgrind >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1 ||
	[ -z "$LIB" ]; then
	echo "valgrind/callgrind_annotate or libvirq.a not found: instruction counts skipped" >&2
	cg=0
fi
if [ $cg = 1 ]; then
	nm --defined-only "$LIB" 2>/dev/null | awk '$2 ~ /^[tT]$/ { print $3 }' | sort -u >"$TMP/libsyms"
fi
# lib_ir OUT: self instructions of the functions libvirq.a defines.
lib_ir() {
	callgrind_annotate --auto=no --inclusive=no --threshold=100 "$1" 2>/dev/null |
		awk -v list="$TMP/libsyms" '
			BEGIN { while ((getline l < list) > 0) lib[l] = 1 }
			/^ *[0-9,]+ / { f = $0; sub(/ \[.*$/, "", f); sub(/^.*:/, "", f)
				if (f in lib) { x = $1; gsub(",", "", x); t += x } }
			END { print t + 0 }'
}
# measure NAME KEY N TOGGLE ARGS...: runs bench_avic ARGS with collection inside TOGGLE;
# prints the per-call figure and records "KEY value" for the summary.
measure() {
	name=$1 key=$2 n=$3 toggle=$4
	shift 4
	out="$TMP/cg.out"
	valgrind --tool=callgrind --callgrind-out-file="$out" --toggle-collect="$toggle" \
		"$BIN" "$@" >"$TMP/stdout" 2>"$TMP/stderr" || { cat "$TMP/stderr" >&2; exit 1; }
	per=$(awk -v t="$(lib_ir "$out")" -v n="$n" 'BEGIN { printf "%.1f", t / n }')
	[ $SUMMARY = 1 ] || printf '%-40s %10s instructions in libvirq per %s   (%s)\n' "$name" "$per" \
		"${UNIT:-call}" "$(cat "$TMP/stdout")"
	echo "$key $per -" >>"$TMP/summary"
	rm -f "$out"
}
if [ $cg = 1 ]; then
	N=10000
	[ $SUMMARY = 1 ] || echo "Instructions (callgrind; every function of libvirq.a, statics included):"
	measure "post, target running elsewhere" avic.post_running.ins $N virq_avic_post post-running $N
	measure "post, running, kick policy" avic.post_running_kick.ins $N virq_avic_post post-running-kick $N
	measure "post, target not running" avic.post_idle.ins $N virq_avic_post post-idle $N
	# 8 posters x 1000 rounds x 2 posts (one sets a new bit, one coalesces)
	UNIT=post measure "8 posters into one vCPU (half coalesced)" avic.posters8.ins_per_post 16000 \
		virq_avic_post posters 8 1000
	for nv in 255 511 4096; do
		measure "TARGET_NOT_RUNNING bcast, $nv vCPUs" avic.tnr_bcast$nv.ins 20 \
			virq_avic_handle_incomplete_ipi tnr $nv 20
	done
	# One xAPIC logical destination (one target, not running) among 255 xAPIC-mode vCPUs;
	# the goal line is the dearer of the flat and cluster models.
	for m in flat cluster; do
		measure "TARGET_NOT_RUNNING xAPIC logical $m, 255 vCPUs" avic.tnr_logical_$m.255.ins \
			1000 virq_avic_handle_incomplete_ipi tnr-logical 255 1000 $m
	done
	sed -n 's/^avic\.tnr_logical_[a-z]*\.255\.ins \([0-9.]*\) -$/\1/p' "$TMP/summary" |
		sort -n | tail -n 1 | sed 's/^/avic_tnr_xapic_logical_255_ins /; s/$/ -/' >>"$TMP/summary"
fi
if [ $SUMMARY = 1 ]; then
	cat "$TMP/summary"
else
	echo
	echo "Summary (name value minimum; '-' = no architectural minimum):"
	sed 's/^/  /' "$TMP/summary"
fi
