#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Lint of src/ (ctest label `lint`).
#   lint.sh tidy     SRC_DIR BUILD_DIR   clang-tidy with SRC_DIR/.clang-tidy, using
#                                        BUILD_DIR/compile_commands.json
#   lint.sh spdx     SRC_DIR             every text file starts with an SPDX line (in its
#                                        first 3 lines; JSON files use a FILE.license sidecar;
#                                        fuzz seeds are exempt: their bytes are the input)
#   lint.sh xen-names SRC_DIR [FILE]     no VIRQ_<UPPER> identifier anywhere (Xen's public
#                                        ABI owns that namespace: public/xen.h VIRQ_TIMER ..
#                                        VIRQ_ARCH_7); libvirq's are LIBVIRQ_*. Exempt: the
#                                        files that name Xen's on purpose (CHANGELOG.md,
#                                        host-macro and namespace fixtures, the Xen series).
#                                        With FILE, checks only FILE (the self-test)
#   lint.sh format   SRC_DIR [FILE]      every C/C++ file git tracks is formatted as SRC_DIR/.clang-format
#                                        says (clang-format 14, Debian 12's); with FILE, checks only
#                                        FILE (the self-test: tests/build/lint/format_bad.c must fail)
#   lint.sh cppcheck SRC_DIR             cppcheck (warning, style, performance, portability;
#                                        variableScope off: declarations at the top are house style)
# Each first runs on tests/build/lint/bad.c and must report its defects, so a
# broken linter setup cannot pass silently.
set -u
mode=$1 src=$2
cd "$src" || exit 1
# shellcheck source=tests/build/lint/tree_files.sh
. "$src/tests/build/lint/tree_files.sh"
mapfile -t files < <(find src -name '*.c' | sort)
bad=tests/build/lint/bad.c

case $mode in
tidy)
	build=$3
	tidy=$(command -v clang-tidy || command -v clang-tidy-14) || { echo "clang-tidy missing"; exit 1; }
	args=(--quiet -p "$build" --extra-arg=-Wno-unknown-warning-option)
	if "$tidy" "${args[@]}" "$bad" -- -std=c11 -I"$src/include" >/tmp/lint-selftest.$$ 2>&1 ||
	   ! grep -q 'clang-analyzer-core.NullDereference' /tmp/lint-selftest.$$; then
		echo "FAIL: clang-tidy self-test did not report the null dereference in $bad"
		cat /tmp/lint-selftest.$$
		rm -f /tmp/lint-selftest.$$
		exit 1
	fi
	rm -f /tmp/lint-selftest.$$
	echo "clang-tidy self-test ok; checking ${#files[@]} files"
	# Two files at a time (LIBVIRQ_CHECK_JOBS): clang-tidy is the slowest check.
	printf '%s\0' "${files[@]}" |
		xargs -0 -n 2 -P "${LIBVIRQ_CHECK_JOBS:-2}" "$tidy" "${args[@]}" ||
		{ echo "clang-tidy FAILED"; exit 1; }
	echo "clang-tidy clean"
	;;
cppcheck)
	opts=(--quiet --std=c11 --enable=warning,style,performance,portability --error-exitcode=1
	      --inline-suppr -Iinclude -Isrc -D__GNUC__ -D__x86_64__
	      --suppress=missingIncludeSystem --suppress=unusedFunction
	      --suppress=variableScope)
	out=$(cppcheck "${opts[@]}" "$bad" 2>&1)
	if [ $? -eq 0 ] || ! grep -q nullPointer <<<"$out" || ! grep -q arrayIndexOutOfBounds <<<"$out"; then
		echo "FAIL: cppcheck self-test did not report the defects in $bad"
		echo "$out"
		exit 1
	fi
	echo "cppcheck self-test ok; checking ${#files[@]} files"
	cppcheck "${opts[@]}" "${files[@]}" || { echo "cppcheck FAILED"; exit 1; }
	echo "cppcheck clean"
	;;
spdx)
	mapfile -t all < <(lint_tree_files)
	missing=()
	for f in "${all[@]}"; do
		[ -f "$f" ] || continue
		case $f in
		LICENSE | *.license) continue ;;
		# Fuzz seeds are inputs whose every byte matters (text seeds too):
		# covered by LICENSE, no header.
		tests/fuzz/corpus/* | tests/fuzz/regress/*) continue ;;
		esac
		grep -Iq . "$f" 2>/dev/null || continue # binary (dtb, corpus) or empty
		[ -f "$f.license" ] && continue
		head -n 3 "$f" | grep -q 'SPDX-License-Identifier:' || missing+=("$f")
	done
	if [ ${#missing[@]} -ne 0 ]; then
		printf 'no SPDX line: %s\n' "${missing[@]}"
		echo "spdx FAILED (${#missing[@]} files)"
		exit 1
	fi
	echo "spdx: ${#all[@]} files ok"
	;;
format)
	fmt=$(command -v clang-format || command -v clang-format-14) || { echo "clang-format missing"; exit 1; }
	if [ $# -ge 3 ]; then
		all=("$3")
	else
		mapfile -t all < <(lint_tree_files | grep -E '\.(c|h|cc|cpp|hpp)$' |
			grep -v '^tests/build/lint/format_bad\.c$')
	fi
	[ ${#all[@]} -gt 0 ] || { echo "format FAILED: no C/C++ files found"; exit 1; }
	# One clang-format run over every file; it names each file it would change.
	mapfile -t bad_files < <("$fmt" --dry-run --Werror "${all[@]}" 2>&1 |
		sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
	if [ ${#bad_files[@]} -eq 0 ] && ! "$fmt" --dry-run --Werror "${all[@]}" >/dev/null 2>&1; then
		bad_files=("(clang-format failed)")
	fi
	if [ ${#bad_files[@]} -ne 0 ]; then
		printf 'not formatted (run: clang-format -i FILE): %s\n' "${bad_files[@]}"
		echo "format FAILED (${#bad_files[@]} of ${#all[@]} files)"
		exit 1
	fi
	echo "format: ${#all[@]} files as .clang-format says ($("$fmt" --version | sed 's/.*version //'))"
	;;
xen-names)
	if [ $# -ge 3 ]; then
		all=("$3")
	else
		mapfile -t all < <(lint_tree_files)
	fi
	hits=0
	for f in "${all[@]}"; do
		[ -f "$f" ] || continue
		if [ $# -lt 3 ]; then
			case $f in
			CHANGELOG.md | tests/build/hostmacros/* | tests/build/namespace/* | \
			tests/build/lint/* | tests/build/lint.sh | tests/build/CMakeLists.txt | ports/xen/patches/*) continue ;;
			esac
		fi
		grep -Iq . "$f" 2>/dev/null || continue
		if grep -nHE '(^|[^A-Za-z0-9_])VIRQ_[A-Z0-9]' "$f"; then
			hits=$((hits + 1))
		fi
	done
	if [ $hits -ne 0 ]; then
		echo "xen-names FAILED ($hits files use Xen's VIRQ_ namespace; libvirq's names are LIBVIRQ_*)"
		exit 1
	fi
	echo "xen-names: ${#all[@]} files ok"
	;;
*)
	echo "usage: lint.sh tidy|cppcheck|spdx|xen-names SRC_DIR [BUILD_DIR|FILE]"; exit 2 ;;
esac
