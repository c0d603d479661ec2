#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Namespace check (ctest: namespace_hosts, namespace_check_selftest).
#
# Lists every identifier libvirq's installed headers define or declare
# (macros, enumerators, functions and prototypes, variables, struct/union/enum
# tags, typedefs; lowercase and uppercase alike) and every identifier the
# hosts' headers define or declare, and fails if any identifier is in both.
# Struct members, parameters and locals are per-scope names and not listed;
# host macros that could expand inside libvirq code are the host-macro
# check's business (tests/build/hostmacros).
#
# Allowed: the four ISO C memory functions, which virq_env.h declares with
# their standard meaning for freestanding C only (hosts that use
# LIBVIRQ_ENV_HEADER never see those prototypes).
#
# Extraction uses Universal Ctags on the header text (every #if branch), so a
# name is found even where a host's configuration would hide it.
#
# usage: namespace_check.sh WORK_DIR LIBVIRQ_INCLUDE_DIR HOST_NAME=DIR[:DIR...]...
set -u
work=$1 lib=$2
shift 2
[ $# -gt 0 ] || { echo "usage: $0 WORK LIBVIRQ_INCLUDE HOST=DIR[:DIR]..." >&2; exit 2; }
command -v ctags >/dev/null || { echo "ctags (universal-ctags) not found" >&2; exit 2; }
mkdir -p "$work"

# tags DIR...: "identifier<TAB>kind<TAB>file:line" of every C header under DIR.
tags() {
	local d files=()
	for d in "$@"; do
		[ -d "$d" ] || { echo "no such directory: $d" >&2; return 1; }
	done
	find "$@" -name '*.h' -print0 |
		xargs -0 ctags --languages=C --langmap=C:.h --kinds-C=defgpstuvx -x \
			--_xformat='%N	%K	%F:%n' 2>/dev/null |
		awk -F'\t' '$1 !~ /^__anon/ && $1 != ""' | LC_ALL=C sort -u
}

tags "$lib" >"$work/libvirq.tags" || exit 2
allowed='^(memcpy|memset|memmove|memcmp)$'
cut -f1 "$work/libvirq.tags" | LC_ALL=C sort -u | grep -Ev "$allowed" >"$work/libvirq.names"
nlib=$(wc -l <"$work/libvirq.names")
[ "$nlib" -gt 0 ] || { echo "no identifiers found in $lib" >&2; exit 2; }
echo "libvirq: $nlib identifiers (besides memcpy, memset, memmove, memcmp) in $(find "$lib" -name '*.h' | wc -l) headers under $lib"

fail=0
for spec in "$@"; do
	host=${spec%%=*}
	IFS=: read -r -a dirs <<<"${spec#*=}"
	tags "${dirs[@]}" >"$work/$host.tags" || exit 2
	cut -f1 "$work/$host.tags" | LC_ALL=C sort -u >"$work/$host.names"
	nhost=$(wc -l <"$work/$host.names")
	[ "$nhost" -gt 1000 ] || { echo "$host: only $nhost identifiers found: wrong directories?" >&2; exit 2; }
	LC_ALL=C comm -12 "$work/libvirq.names" "$work/$host.names" >"$work/$host.collisions"
	if [ -s "$work/$host.collisions" ]; then
		echo "FAIL: $(wc -l <"$work/$host.collisions") libvirq identifiers collide with $host:"
		while read -r id; do
			awk -F'\t' -v id="$id" '$1 == id { printf "    %-32s libvirq %-10s %s\n", id, $2, $3 }' "$work/libvirq.tags" | head -n 2
			awk -F'\t' -v id="$id" '$1 == id { printf "    %-32s %-7s %-10s %s\n", id, "'"$host"'", $2, $3 }' "$work/$host.tags" | head -n 2
		done <"$work/$host.collisions"
		fail=1
	else
		echo "ok   $host: $nhost identifiers, none shared with libvirq"
	fi
done
exit $fail
