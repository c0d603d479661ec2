#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Private includes cannot be shadowed (ctest decoy_includes, label build;hosts).
#
# A host tree compiling libvirq's sources has its own include path first, and
# it may well hold a common/compiler.h, hal/..., gicv4/... or compiler.h of
# its own. libvirq's sources name their private headers relative to
# themselves ("../hal/hal_priv.h"), which the compiler resolves in the
# including file's directory before any -iquote or -I directory. This check
# proves it: it makes a decoy directory holding, for every private header
# src/P/Q/h.h, the files P/Q/h.h, Q/h.h and h.h, each an #error, puts it first
# on both the quote and the bracket include path, and compiles every library
# source (the list CMake gives) against it. A self-test first shows that a
# source naming a private header through the include path, as 0.2 did
# ("common/compiler.h"), does hit the decoy.
#
# usage: decoy_check.sh SRC_DIR WORK_DIR LIST CC [DEFINES...]
#   LIST: the strict matrix's source list ("LIBRARY PATH" and "fdt-include DIR").
set -u
src=$1 work=$2 list=$3 cc=$4
shift 4
defs=("$@")
rm -rf "$work"
decoy=$work/decoy
mkdir -p "$decoy"
fail=0

# The decoys: every trailing part of every private header's path.
n=0
while read -r h; do
	rel=${h#"$src"/src/}
	while :; do
		mkdir -p "$decoy/$(dirname "$rel")"
		printf '#error "decoy %s: a host header shadowed libvirq'\''s private src/%s"\n' \
			"$rel" "${h#"$src"/src/}" >"$decoy/$rel"
		n=$((n + 1))
		case $rel in */*) rel=${rel#*/} ;; *) break ;; esac
	done
done < <(find "$src/src" -name '*.h' | sort)
echo "decoys: $n files for $(find "$src/src" -name '*.h' | wc -l) private headers in $decoy"

flags=(-std=c11 -iquote "$decoy" -I"$decoy" -I"$src/include" "${defs[@]/#/-D}" -fsyntax-only)

# Self-test: the include-path spelling is caught.
probe=$work/probe.c
printf '#include "common/compiler.h"\n' >"$probe"
if out=$("$cc" "${flags[@]}" -I"$src/src" "$probe" 2>&1) || ! grep -q 'decoy common/compiler.h' <<<"$out"; then
	echo "FAIL: self-test: \"common/compiler.h\" through the include path did not hit the decoy"
	echo "$out"
	fail=1
else
	echo "ok   self-test: \"common/compiler.h\" through the include path hits the decoy"
fi

fdt_inc=()
nsrc=0
while read -r lib path; do
	[ -n "$lib" ] || continue
	if [ "$lib" = fdt-include ]; then
		[ -n "$path" ] && [ "$path" != /usr/include ] && fdt_inc+=(-isystem "$path")
		continue
	fi
	case $path in /*) ;; *) path=$src/src/$path ;; esac
	extra=()
	[ "$lib" = virq_fdt ] && extra=("${fdt_inc[@]}")
	nsrc=$((nsrc + 1))
	if ! out=$("$cc" "${flags[@]}" "${extra[@]}" "$path" 2>&1); then
		echo "FAIL: ${path#"$src"/}:"
		echo "$out" | head -n 5
		fail=1
	fi
done <"$list"
[ $nsrc -gt 0 ] || { echo "FAIL: no sources in $list"; exit 1; }
if [ $fail -ne 0 ]; then
	echo "decoy check FAILED"
	exit 1
fi
echo "decoy check passed: $nsrc library sources compile with the decoys first on the include path"
