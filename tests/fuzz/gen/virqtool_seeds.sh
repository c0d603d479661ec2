#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Seeds of fuzz_virqtool: the command line of every virqtool CLI test
# (tools/virqtool/tests/*.cmake, all but dt, whose arguments are file paths),
# one file per test, named after it; plus the help of every level.
#   tests/fuzz/gen/virqtool_seeds.sh [OUT_DIR]   (default tests/fuzz/corpus/fuzz_virqtool)
set -eu -o pipefail
cd "$(dirname "$0")/../../.."
out=${1:-tests/fuzz/corpus/fuzz_virqtool}
mkdir -p "$out"
for f in tools/virqtool/tests/*.cmake; do
	[ "$(basename "$f")" = dt.cmake ] && continue
	# Join each virqtool_check( ... ) call onto one line, then take NAME and ARGS.
	awk '
		/virqtool_check\(/ { call = ""; inside = 1 }
		inside { call = call " " $0 }
		inside && /\)[[:space:]]*$/ { print call; inside = 0 }
	' "$f" | while IFS= read -r call; do
		name=$(sed -n 's/.*NAME \([A-Za-z0-9_]*\).*/\1/p' <<<"$call")
		args=$(sed -n 's/.* ARGS \(.*\))[[:space:]]*$/\1/p' <<<"$call" | tr -s ' ' | sed 's/^ //; s/""//g')
		[ -n "$name" ] && [ -n "$args" ] || continue
		printf '%s\n' "$args" >"$out/$name"
	done
done
for h in "--help" "its --help" "its encode --help" "its encode VMAPP --help" "its fields" \
	 "its fields VMOVP" "avic --help" "avic fields" "avic targets --help" "pmc --help" \
	 "pmc msr --help" "pmc fields"; do
	printf '%s\n' "$h" >"$out/help_$(tr ' -' '__' <<<"$h")"
done
echo "$(ls "$out" | wc -l) seeds in $out"
