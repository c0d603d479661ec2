#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Header matrix (ctest: header_matrix_<compiler>_<std>_<mode>).
#
# Compiles every public header alone, as a generated one-line translation unit
# (#include <libvirq/...>), with one compiler, one language standard and one
# mode, under -Wall -Wextra -Wpedantic -Werror and the hosts' extra warnings.
# Hosted cells also compile all headers followed by the C library's string
# header (<string.h>, or <cstring> in C++) and the reverse order, so libvirq's
# declarations never clash with the host's (-Wredundant-decls).
#
# usage: header_matrix.sh COMPILER STD hosted|freestanding INCLUDE_DIR WORK_DIR [MORE_INCLUDE_DIR]
# (the headers checked are those under INCLUDE_DIR; MORE_INCLUDE_DIR, e.g. the
# library's own include/ for the simulator's headers, is only searched)
set -u
cc=$1 std=$2 mode=$3 inc=$4 work=$5 more=${6:-}
rm -rf "$work"
mkdir -p "$work"

case $std in
c++*|gnu++*) lang=c++ ext=cpp ;;
*) lang=c ext=c ;;
esac
# The issue's set (-Wall -Wextra -Wpedantic -Werror) plus what Xen's, Linux's
# and common VMM builds add.
flags=(-std="$std" -Wall -Wextra -Wpedantic -Werror -Wredundant-decls -Wundef -Wcast-qual
       -Wwrite-strings -Wconversion -Wsign-conversion -I"$inc")
[ -z "$more" ] || flags+=(-I"$more")
flags+=(-Wshadow)
if [ $lang = c ]; then
	flags+=(-Wstrict-prototypes -Wmissing-prototypes -Wdeclaration-after-statement
		-Wnested-externs -Wold-style-definition)
else
	flags+=(-Wzero-as-null-pointer-constant)
fi
case $mode in
hosted) ;;
freestanding) flags+=(-ffreestanding) ;;
*) echo "mode must be hosted or freestanding" >&2; exit 2 ;;
esac

headers=$(cd "$inc" && find libvirq -name '*.h' | LC_ALL=C sort)
[ -n "$headers" ] || { echo "no headers under $inc" >&2; exit 2; }
n=0 fail=0
compile() { # compile NAME: $work/NAME.$ext
	local out
	if out=$("$cc" "${flags[@]}" -c "$work/$1.$ext" -o "$work/$1.o" 2>&1); then
		n=$((n + 1))
	else
		echo "FAIL: $1 ($cc -std=$std $mode):"
		sed -n '1,$p' "$work/$1.$ext" | sed 's/^/    | /'
		echo "$out" | head -n 30
		fail=$((fail + 1))
	fi
}
for h in $headers; do
	name=$(echo "$h" | tr '/.' '__')
	printf '#include <%s>\ntypedef int virq_matrix_unit_;\n' "$h" >"$work/$name.$ext"
	compile "$name"
done
if [ "$mode" = hosted ]; then
	if [ $lang = c ]; then libc='#include <string.h>'; else libc=$'#include <cstring>\n#include <string.h>'; fi
	{ for h in $headers; do echo "#include <$h>"; done; echo "$libc"; } >"$work/all_then_libc.$ext"
	compile all_then_libc
	{ echo "$libc"; for h in $headers; do echo "#include <$h>"; done; } >"$work/libc_then_all.$ext"
	compile libc_then_all
fi
if [ $lang = c++ ]; then
	# A C++ caller that wraps C headers in its own extern "C" block.
	{ echo 'extern "C" {'; for h in $headers; do echo "#include <$h>"; done; echo '}'; } >"$work/wrapped.$ext"
	compile wrapped
fi
echo "$cc -std=$std $mode: $n translation units clean, $fail failed"
[ $fail -eq 0 ]
