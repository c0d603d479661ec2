#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks "name value minimum" summary lines (a "SUMMARY " or "summary: "
# prefix is dropped) read from standard input against bench/goals: every goal
# whose line is there must hold (value <= its maximum); with --all every goal
# must also have its line. Prints one line per goal checked.
#   bench/run --summary | sh bench/check_goals.sh --all
#   bench_pmcvirt summary | sh bench/check_goals.sh
set -eu
all=0
[ "${1:-}" = --all ] && all=1
goals="$(dirname "$0")/goals"
sed 's/^SUMMARY //; s/^summary: //' | awk -v all=$all -v goals="$goals" '
	{ v[$1] = $2 }
	END {
		bad = 0; n = 0
		while ((getline g < goals) > 0) {
			if (g ~ /^#/ || g ~ /^[ \t]*$/) continue
			split(g, x, " ")
			if (!(x[1] in v)) {
				if (all) { printf "%s: no summary line (goal <= %s)\n", x[1], x[2]; bad = 1 }
				continue
			}
			n++
			ok = v[x[1]] ~ /^-?[0-9.]+$/ && v[x[1]] + 0 <= x[2] + 0
			printf "%s %s goal <= %s: %s\n", x[1], v[x[1]], x[2], ok ? "met" : "MISSED"
			if (!ok) bad = 1
		}
		if (n == 0 && !all) { print "no goal lines in the input"; bad = 1 }
		exit bad
	}'
