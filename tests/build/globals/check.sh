#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# No global state (ctest: no_global_state): no object of the given archives
# has a writable data section (.data, .bss, .tbss, .tdata or a COMMON
# symbol; .data.rel.ro is read-only after relocation). The "pure" and
# "reentrant" Thread-safety claims of the public headers and the SMP
# contract's "libvirq keeps no global state" rest on this.
#   check.sh ARCHIVE_OR_OBJECT...
set -u
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for a in "$@"; do
	rm -f "$tmp"/*
	case $a in
	*.a) (cd "$tmp" && ar x "$a") ;;
	*) cp "$a" "$tmp/" ;;
	esac
	for o in "$tmp"/*.o; do
		[ -e "$o" ] || continue
		bad=$(size -A "$o" | awk '$2 > 0 && ($1 ~ /^\.(data|bss|tdata|tbss)(\.|$)/) &&
			$1 !~ /^\.data\.rel\.ro/ { printf "%s %s bytes; ", $1, $2 }')
		common=$(nm "$o" | awk '$1 == "C" || $2 == "C" { printf "%s ", $NF }')
		if [ -n "$bad$common" ]; then
			echo "FAIL: $(basename "$a"): $(basename "$o"): writable ${bad}${common:+COMMON $common}"
			fail=1
		fi
	done
done
[ $fail = 0 ] && echo "no writable global data in: $*"
exit $fail
