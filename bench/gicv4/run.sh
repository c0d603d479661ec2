#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the built GICv4 core benchmark (builds nothing): hardware accesses
# per operation beside the architectural minimum and Linux's pattern, then
# library instructions per operation under callgrind, each section of
# bench_gicv4 run on its own with collection inside one bench_op_* function.
# Library instructions = the self cost of every function libvirq.a defines,
# statics included (bench/lib.sh); the fake HAL, the models and the bench
# are not counted.
# Usage: bench/gicv4/run.sh [BUILD_DIR] [--summary] [--no-callgrind]
#   --summary       only the headline metrics, one "name value minimum" line
#                   each ('-': no architectural minimum)
#   --no-callgrind  access counts only
set -eu
here=$(dirname "$0")
# shellcheck source=bench/lib.sh
. "$here/../lib.sh"
build=build
summary=0 cg=1
for a in "$@"; do
	case "$a" in
	--summary) summary=1 ;;
	--no-callgrind) cg=0 ;;
	--callgrind) ;; # the default; accepted for older callers
	*) build=$a ;;
	esac
done
bin="$build/bench/gicv4/bench_gicv4"
lib=$(find "$build" -type f -name libvirq.a | head -n 1)
if [ ! -x "$bin" ]; then
	echo "run.sh: $bin not built (cmake --build $build --target bench_gicv4)" >&2
	exit 2
fi
bt=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt" 2>/dev/null || true)
[ "$bt" = Release ] || echo "note: $build is not a Release build (CMAKE_BUILD_TYPE='$bt'); instruction counts are for unoptimised code" >&2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" >"$tmp/out"
if [ $summary = 0 ]; then
	grep -v '^SUMMARY ' "$tmp/out"
fi
sed -n 's/^SUMMARY //p' "$tmp/out" >"$tmp/summary"
if [ $cg = 1 ] && { ! bench_have_callgrind || [ -z "$lib" ]; }; then
	echo "valgrind/callgrind_annotate or libvirq.a not found: instruction counts skipped" >&2
	cg=0
fi
if [ $cg = 1 ]; then
	bench_lib_syms "$lib" "$bin" "$tmp/syms"
	[ $summary = 1 ] || {
		echo
		echo "Library instructions per operation (callgrind; self cost of every function of libvirq.a,"
		echo "statics included, inside the bench_op_* call; not the HAL, the models or the bench)"
		printf '%-46s %12s   %s\n' operation instructions "per"
	}
	# row SECTION OP DIV UNIT LABEL [KEY]
	row() {
		t=$(bench_cg "$tmp/syms" "$tmp" "$bin" "bench_op_$2" "$1") || exit 1
		v=$(bench_div "$t" "$3")
		[ $summary = 1 ] || printf '%-46s %12s   %s\n' "$5" "$v" "$4"
		[ -z "${6:-}" ] || echo "$6 $v -" >>"$tmp/summary"
	}
	row maps map_each 1024 vLPI "map 1,024 vLPIs, one call each"
	row maps unmap_each 1024 vLPI "unmap 1,024 vLPIs, one call each"
	row maps map_range 1024 vLPI "map 1,024 vLPIs, virq_vlpi_map_range" \
		gicv4.map_range_1024.ins_per_vlpi
	row maps unmap_range 1024 vLPI "unmap 1,024 vLPIs, virq_vlpi_unmap_range" \
		gicv4.unmap_range_1024.ins_per_vlpi
	row maps churn_single 256 "map + unmap" "churn: map + unmap 1 vLPI"
	row maps churn_range 4096 "vLPI (map + unmap)" "churn: map + unmap 256-ranges"
	row churn-direct churn_cycle 256 "in + out" "churn 4 VMs/RD, masking, DirectLPI" \
		gicv4.churn_direct.ins_per_cycle
	row churn-proxy churn_cycle 256 "in + out" "churn 4 VMs/RD, masking, proxy" \
		gicv4.churn_proxy.ins_per_cycle
	row move-vmovp move 1 move "move vPE, VMOVP=1 (one ITS of 2)"
	row move-itslist move 1 move "move vPE, VMOVP=0 (ITSList, 3 ITSes)"
	row move-41 move 1 move "move vPE, GICv4.1"
	# the slow-ITS map: the name the issue gives it at -O2 (bench/run keeps a
	# name holding its pass's suffix)
	slow=map_range_ins_slow_its
	[ "${LIBVIRQ_BENCH_OPT:-}" != O2 ] || slow=map_range_ins_O2_slow_its
	row maps-slow map_range 1024 vLPI "map 1,024 vLPIs, map_range, ITS 1 us/command" "$slow"
	row its16 create16 1 "create + map" "create vPE + first vLPI, 16 ITSes"
	row its16 move 1 move "move vPE, 16 ITSes, 1 device" vpe_move_ins
fi
if [ $summary = 1 ]; then
	cat "$tmp/summary"
else
	echo
	echo "Summary (name value minimum; '-' = no architectural minimum):"
	sed 's/^/  /' "$tmp/summary"
fi
