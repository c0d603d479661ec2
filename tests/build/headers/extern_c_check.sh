#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# extern "C" check (ctest: header_extern_c).
#
# Every public header that declares anything (a function, object, type or
# inline function; not only macros and #includes) wraps its declarations in
#   #ifdef __cplusplus / extern "C" { / #endif  ...  #ifdef __cplusplus / } / #endif
# opened after its last #include and closed before its include guard ends,
# so a C++ program links against the C archive. (virq_env.h includes the
# C library there instead; bitfield.h has only macros and C++ templates.)
#
# usage: extern_c_check.sh INCLUDE_DIR
set -u
inc=$1
fail=0 n=0
for h in $(cd "$inc" && find libvirq -name '*.h' | LC_ALL=C sort); do
	f=$inc/$h
	# Lines that declare something: not comments, not preprocessor
	# directives or their continuation lines.
	decls=$(awk '
		/\/\*/ && !/\*\// { c = 1; next }
		c { if (/\*\//) c = 0; next }
		/^[ \t]*#/ { m = /\\$/; next }
		m { m = /\\$/; next }
		/^[ \t]*\/\// { next }
		/^[ \t]*\/\*.*\*\/[ \t]*$/ { next }
		/[A-Za-z_]/ { n++ }
		END { print n + 0 }' "$f")
	case $h in
	libvirq/virq_env.h | libvirq/bitfield.h) continue ;;
	esac
	[ "$decls" -gt 0 ] || continue
	n=$((n + 1))
	open=$(grep -n '^extern "C" {$' "$f" | head -n1 | cut -d: -f1)
	last_inc=$(grep -n '^#include' "$f" | tail -n1 | cut -d: -f1)
	close_guard=$(grep -n '^#endif /\* LIBVIRQ_.*_H \*/$' "$f" | tail -n1 | cut -d: -f1)
	if [ -z "$open" ] || ! grep -q '^}$' "$f" ||
	   [ "$(sed -n "$((open - 1))p" "$f")" != '#ifdef __cplusplus' ] ||
	   { [ -n "$last_inc" ] && [ "$last_inc" -gt "$open" ]; }; then
		echo "FAIL: $h declares $decls things but has no extern \"C\" block after its #includes"
		fail=$((fail + 1))
		continue
	fi
	# The closing brace: "#ifdef __cplusplus" "}" "#endif" right before the guard's #endif.
	tailblk=$(sed -n "$((close_guard - 4)),$((close_guard - 1))p" "$f" | tr '\n' '|')
	case $tailblk in
	*'#ifdef __cplusplus|}|#endif|'*) ;;
	*) echo "FAIL: $h: extern \"C\" is not closed right before the include guard's #endif"
	   fail=$((fail + 1)) ;;
	esac
done
echo "extern \"C\": $n declaring headers checked, $fail failed"
[ $fail -eq 0 ] && [ $n -gt 0 ]
