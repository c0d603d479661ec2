#!/bin/sh
# SPDX-License-Identifier: MIT
# Flat-cost check (ctest bench_scale_avic_flat): the AVIC operations whose
# cost must not grow with the VM - post, unicast resolution, load + put - are
# measured in library instructions (bench/lib.sh's definition, callgrind)
# at 16, 256 and 4,096 vCPUs; the run fails when an operation's largest
# figure exceeds its smallest by more than half. A hidden scan over the
# vCPUs (a unicast to APIC ID 0xFF in an x2APIC-only VM once scanned all of
# them: 4,451 instructions at 256 vCPUs against 111 at 512) fails it.
#   usage: flat.sh BENCH_SCALE LIBVIRQ_A
set -u
bin=$1 lib=$2
here=$(cd "$(dirname "$0")/.." && pwd)
. "$here/lib.sh"
bench_have_callgrind || { echo "flat: valgrind/callgrind_annotate missing"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bench_lib_syms "$lib" "$bin" "$tmp/syms"
fail=0
for op in post unicast loadput; do
	min= max=
	for n in 16 256 4096; do
		t=$(bench_cg "$tmp/syms" "$tmp" "$bin" "bench_scale_op_$op" avic "$n") || exit 1
		echo "avic $op at $n vCPUs: $t library instructions (64 calls)"
		[ -z "$min" ] || [ "$t" -lt "$min" ] && min=$t
		[ -z "$max" ] || [ "$t" -gt "$max" ] && max=$t
	done
	if [ "$min" -eq 0 ] || [ $((max * 2)) -gt $((min * 3)) ]; then
		echo "FAIL: $op is not flat: $min .. $max"
		fail=1
	fi
done
exit $fail
