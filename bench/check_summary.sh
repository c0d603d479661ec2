#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks "name value minimum" summary lines (a "SUMMARY " prefix is
# dropped; other lines are ignored) read from standard input:
#   - every line has a name, a number and a number or '-';
#   - a value is at its minimum, except for names matching one of the
#     shell patterns given as arguments (allowed above: say why beside them
#     where the check is registered).
# Used by ctest on the benchmarks' access counts (exact, build-independent).
#   bench_gicv4 | sh bench/check_summary.sh 'gicv4.stream*.cwriter_writes'
set -eu
bad=0 n=0
while read -r a b c d; do
	if [ "$a" = SUMMARY ]; then a=$b b=$c c=$d; elif [ -n "${d:-}" ] || [ -z "${c:-}" ]; then continue; fi
	case "$a" in *.*) ;; *) continue ;; esac
	n=$((n + 1))
	if ! awk -v v="$b" -v m="$c" 'BEGIN { exit !(v ~ /^-?[0-9.]+$/ && (m == "-" || m ~ /^-?[0-9.]+$/)) }'; then
		echo "malformed summary line: $a $b $c" >&2
		bad=1
		continue
	fi
	[ "$c" = - ] && continue
	allowed=0
	for p in "$@"; do
		# shellcheck disable=SC2254
		case "$a" in $p) allowed=1 ;; esac
	done
	if [ $allowed = 0 ] && ! awk -v v="$b" -v m="$c" 'BEGIN { exit !(v + 0 == m + 0) }'; then
		echo "$a: $b, minimum $c" >&2
		bad=1
	fi
done
[ $n -gt 0 ] || { echo "no summary lines" >&2; exit 1; }
echo "$n summary lines checked"
exit $bad
