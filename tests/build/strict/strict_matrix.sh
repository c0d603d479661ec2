#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The strict build matrix (ctest strict_*, label build;strict).
#
# Compiles every library source (libvirq.a and, where libfdt exists,
# libvirq_fdt.a; the list comes from CMake) in one cell of the matrix
#   compiler gcc | clang  x  -std=c99 | c11  x  -O0 | -O2 | -Os  x  hosted | freestanding
# (plus freestanding-x32: x86_64's x32 ABI, -mx32, a 32-bit size_t and uintptr_t) with
# -pedantic-errors and every warning below as an error, and fails on any
# diagnostic. Compile only (no archive, no link), objects in a temporary
# directory that is removed afterwards.
#
# usage: strict_matrix.sh cell CC STD OPT MODE SRC_DIR LIST [DEFINES...]
#        strict_matrix.sh selftest CC SRC_DIR FIXTURE
#   LIST holds one "LIBRARY PATH" line per source (LIBRARY virq or virq_fdt;
#   PATH absolute or relative to SRC_DIR/src) and "fdt-include DIR" lines.
#   selftest compiles FIXTURE, which breaks each rule once, and fails unless
#   every flag the fixture names in its "expect:" lines is reported.
set -u

# GCC: -Wall -Wextra and what safety-minded hypervisors add, plus the flags
# Xen and Linux build libvirq with (-Wdeclaration-after-statement ...).
gcc_flags=(
	-Wall -Wextra -Wconversion -Wsign-conversion -Warith-conversion
	-Wswitch-default -Wswitch-enum -Wunused-macros -Wcast-qual -Wcast-align=strict
	-Wundef -Wshadow -Wmissing-prototypes -Wstrict-prototypes -Wredundant-decls
	-Wnested-externs -Wpointer-arith -Wvla -Wformat=2 -Wdouble-promotion
	-Wnull-dereference -Wmissing-declarations
	-Wdeclaration-after-statement -Wwrite-strings -Wold-style-definition -Winit-self
	-Wimplicit-fallthrough=5
)
# Clang: everything it has, minus (each with its reason):
clang_flags=(
	-Weverything
	# Reports every padding byte the ABI inserts into a struct. libvirq's
	# structs are laid out for readability and their hardware images are
	# byte arrays filled by encoders, so padding is neither a defect nor
	# avoidable without reordering every public struct (an ABI change).
	-Wno-padded
	# Fires on every switch over an enum that lists all enumerators and has a
	# default: label. GCC's -Wswitch-default (above) and MISRA C:2012 Rule
	# 16.4 require that default: (a corrupted or future value must still
	# take a defined path), so the two cannot both hold.
	-Wno-covered-switch-default
	# (not a warning: report every diagnostic, not the first 20)
	-ferror-limit=0
)

die() { echo "strict_matrix: $*" >&2; exit 2; }

# flags_for CC: the warning set of that compiler family.
flags_for() {
	case $1 in
	*clang*) printf '%s\n' "${clang_flags[@]}" | grep -v '^#' ;;
	*) printf '%s\n' "${gcc_flags[@]}" ;;
	esac
}

mode=$1
shift
case $mode in
cell)
	cc=$1 std=$2 opt=$3 kind=$4 src=$5 list=$6
	shift 6
	defs=("$@")
	mapfile -t warn < <(flags_for "$cc")
	base=(-std="$std" -pedantic-errors "$opt" -Werror "${warn[@]}")
	case $kind in
	hosted) ;;
	freestanding) base+=(-ffreestanding) ;;
	freestanding-x32) base+=(-ffreestanding -mx32) ;;
	*) die "unknown mode $kind" ;;
	esac
	fdt_inc=()
	sources=()
	libs=()
	while read -r lib path; do
		[ -n "$lib" ] || continue
		if [ "$lib" = fdt-include ]; then
			# (the compiler's own /usr/include needs no flag)
			[ -n "$path" ] && [ "$path" != /usr/include ] && fdt_inc+=(-isystem "$path")
			continue
		fi
		case $path in
		/*) ;;
		*) path=$src/src/$path ;;
		esac
		# libfdt's own headers need a hosted 64-bit C library: no FDT in the
		# x32 cell (the core and modules are what a 32-bit size_t host links).
		[ "$lib" = virq_fdt ] && [ "$kind" = freestanding-x32 ] && continue
		sources+=("$path")
		libs+=("$lib")
	done <"$list"
	[ ${#sources[@]} -gt 0 ] || die "no sources in $list"
	# Sources being rewritten on another branch, each with the reason
	# (tests/build/strict/pending.txt: "PATH-under-src reason"); reported, not
	# compiled. The list is meant to be empty.
	pending=$(dirname "$0")/pending.txt
	if [ -f "$pending" ]; then
		while read -r p why; do
			case $p in '' | '#'*) continue ;; esac
			for i in "${!sources[@]}"; do
				if [ "${sources[$i]}" = "$src/src/$p" ]; then
					echo "pending, not checked: src/$p ($why)"
					unset "sources[$i]" "libs[$i]"
				fi
			done
		done <"$pending"
	fi
	tmp=$(mktemp -d) || exit 2
	trap 'rm -rf "$tmp"' EXIT
	ndiag=0 nbad=0 t0=$(date +%s)
	for i in "${!sources[@]}"; do
		s=${sources[$i]}
		extra=()
		[ "${libs[$i]}" = virq_fdt ] && extra=("${fdt_inc[@]}")
		out=$("$cc" "${base[@]}" "${defs[@]/#/-D}" -I"$src/include" -I"$src/src" "${extra[@]}" \
			-c "$s" -o "$tmp/$i.o" 2>&1)
		rc=$?
		n=$(grep -cE '(warning|error):' <<<"$out")
		if [ $rc -ne 0 ] || [ -n "$out" ]; then
			nbad=$((nbad + 1))
			ndiag=$((ndiag + (n > 0 ? n : 1)))
			printf '%s\n' "$out"
		fi
	done
	echo "cell $cc $std $opt $kind: ${#sources[@]} sources, $ndiag diagnostics in $nbad files ($(($(date +%s) - t0)) s)"
	echo "flags: ${base[*]}"
	[ $nbad -eq 0 ]
	;;
selftest)
	cc=$1 src=$2 fixture=$3
	mapfile -t warn < <(flags_for "$cc")
	# Warnings, not errors, so that the optimiser still runs after the
	# front end's findings and reports its own (-Wnull-dereference).
	out=$("$cc" -std=c11 -pedantic -O2 "${warn[@]}" -I"$src/include" -c "$fixture" -o /dev/null 2>&1)
	# The fixture's "expect: <compiler> -W<flag>" lines name what must fire.
	fam=gcc
	case $cc in *clang*) fam=clang ;; esac
	mapfile -t expected < <(grep -o "expect: $fam -W[^ ]*" "$fixture" | sed 's/.* //')
	missing=()
	for flag in "${expected[@]}"; do
		grep -qF -- "[$flag" <<<"$out" || grep -qF -- "[-Werror,$flag" <<<"$out" || missing+=("$flag")
	done
	if [ ${#expected[@]} -eq 0 ] || [ ${#missing[@]} -ne 0 ]; then
		printf '%s\n' "$out"
		echo "FAIL: $cc did not report on $fixture: ${missing[*]}"
		exit 1
	fi
	echo "ok: $cc reports all ${#expected[@]} expected diagnostics of $(basename "$fixture")"
	# And a cell given the fixture as its only source fails.
	list=$(mktemp) || exit 2
	echo "virq $fixture" >"$list"
	if bash "$0" cell "$cc" c11 -O2 hosted "$src" "$list" >/dev/null 2>&1; then
		rm -f "$list"
		echo "FAIL: a cell compiling $fixture passed"
		exit 1
	fi
	rm -f "$list"
	echo "ok: a cell compiling the fixture fails"
	;;
*) die "unknown mode $mode" ;;
esac
