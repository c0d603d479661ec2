#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A bare machine (ctest bare_machine, label build;install): libfdt, cmocka and
# doxygen hidden from CMake and pkg-config, the README's plain
#   cmake -S . -B build && cmake --build build
# must work, say in one line each which Debian packages enable FDT and the
# tests, and asking for them explicitly must fail naming those packages; the
# docs target must say doxygen is missing.
#
# Hiding is real, not a CMake switch: in a private mount namespace
# (unshare --mount, as root), /usr/include, the multiarch library directory,
# its pkgconfig/ and cmake/ directories are each covered by a directory of
# symlinks to everything they hold except those packages' files, and doxygen
# by a file that is not executable, so every lookup (find_path,
# find_library, pkg-config, find_package, find_program) misses them.
#
# usage: bare_check.sh SRC_DIR WORK_DIR          (runs the check)
#        bare_check.sh --inside SRC_DIR WORK_DIR (in the namespace; internal)
set -u
if [ "${1:-}" != --inside ]; then
	src=$1 work=$2
	rm -rf "$work"
	mkdir -p "$work"
	if ! unshare --mount --propagation private true 2>/dev/null; then
		echo "FAIL: cannot make a private mount namespace (unshare --mount needs root)"
		exit 1
	fi
	exec unshare --mount --propagation private bash "$0" --inside "$src" "$work"
fi
src=$2 work=$3
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# cover DIR NAME...: DIR shows everything it held except NAME... (globs).
# The original stays reachable under $work/orig* for the symlinks.
cover() {
	local dir=$1 farm orig e n skip keep=()
	shift
	farm=$work/farm$(echo "$dir" | tr / _)
	orig=$work/orig$(echo "$dir" | tr / _)
	mkdir -p "$farm" "$orig"
	mount --bind "$dir" "$orig" || return 1
	for e in "$orig"/* "$orig"/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		n=${e##*/}
		skip=0
		for p in "$@"; do
			# shellcheck disable=SC2254
			case $n in $p) skip=1 ;; esac
		done
		[ $skip = 1 ] || keep+=("$e")
	done
	ln -s "${keep[@]}" "$farm/" && mount --bind "$farm" "$dir"
}
ma=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
lib=/usr/lib/$ma
# The library directory first: its pkgconfig/ and cmake/ are then reached
# through its symlinks, and covered in turn.
cover "$lib" 'libfdt.*' 'libfdt-*' 'libcmocka.*' 'libcmockery.*'
cover "$lib/pkgconfig" 'cmocka.pc' 'libfdt.pc'
cover "$lib/cmake" 'cmocka'
cover /usr/include 'libfdt.h' 'libfdt_env.h' 'fdt.h' 'cmocka.h' 'cmocka_pbc.h' 'cmockery'
# /usr/bin itself stays (cmake finds its own files from its real path): the
# doxygen there is covered by an empty file that is not executable, which
# find_program() and the shell pass over.
: >"$work/not-doxygen"
chmod 644 "$work/not-doxygen"
d=$(command -v doxygen || true)
[ -z "$d" ] || mount --bind "$work/not-doxygen" "$d"
for f in /usr/include/libfdt.h /usr/include/cmocka.h "$lib/libfdt.a" "$lib/libcmocka.so"; do
	[ ! -e "$f" ] || bad "hiding failed: $f still visible"
done
! doxygen --version >/dev/null 2>&1 || bad "hiding failed: doxygen still runs"
! pkg-config --exists cmocka 2>/dev/null || bad "hiding failed: pkg-config still finds cmocka"
[ $fail = 0 ] || exit 1
echo "hidden: libfdt (headers, archives), cmocka (headers, library, .pc, CMake package), doxygen"

# The README's commands, in a copy of the source tree's path (read-only use).
b=$work/build
t0=$(date +%s)
if ! cmake -S "$src" -B "$b" >"$work/configure.log" 2>&1; then
	cat "$work/configure.log"
	bad "plain configure failed on a bare machine"
fi
grep -q 'FDT discovery .*skipped.*libfdt-dev' "$work/configure.log" ||
	bad "configure did not name libfdt-dev for the skipped FDT module"
grep -q 'tests skipped.*libcmocka-dev' "$work/configure.log" ||
	bad "configure did not name libcmocka-dev for the skipped tests"
grep -E 'libvirq: .*(skipped|not found)' "$work/configure.log" | sed 's/^/  configure: /'
if [ $fail = 0 ] && ! cmake --build "$b" -j"${LIBVIRQ_CHECK_JOBS:-2}" >"$work/build.log" 2>&1; then
	tail -n 30 "$work/build.log"
	bad "plain build failed on a bare machine"
fi
[ -f "$b/src/libvirq.a" ] || bad "no libvirq.a"
[ ! -e "$b/src/libvirq_fdt.a" ] || bad "libvirq_fdt.a built without libfdt"
[ -x "$b/tools/virqtool/virqtool" ] || bad "no virqtool"
echo "ok   plain configure + build: $(($(date +%s) - t0)) s"
# The docs target exists and says why it cannot run.
# (CMake wraps long messages: the checks read them as one line.)
flat() { tr -s '\n ' '  '; }
out=$(set -o pipefail; cmake --build "$b" --target docs 2>&1 | flat) && bad "docs built without doxygen"
grep -q 'doxygen not found.*apt-get install doxygen' <<<"$out" ||
	bad "the docs target did not say doxygen is missing: ${out: -300}"
# Asked for explicitly, each fails clearly.
out=$(set -o pipefail; cmake -S "$src" -B "$work/fdt-on" -DLIBVIRQ_FDT=ON 2>&1 | flat) &&
	bad "-DLIBVIRQ_FDT=ON configured without libfdt"
grep -q 'LIBVIRQ_FDT=ON needs libfdt: install libfdt-dev' <<<"$out" ||
	bad "-DLIBVIRQ_FDT=ON did not name libfdt-dev: ${out:0:300}"
out=$(set -o pipefail; cmake -S "$src" -B "$work/tests-on" -DLIBVIRQ_BUILD_TESTS=ON 2>&1 | flat) &&
	bad "-DLIBVIRQ_BUILD_TESTS=ON configured without cmocka"
grep -q 'LIBVIRQ_BUILD_TESTS=ON needs cmocka.*libcmocka-dev' <<<"$out" ||
	bad "-DLIBVIRQ_BUILD_TESTS=ON did not name libcmocka-dev: ${out:0:300}"
[ $fail = 0 ] && echo "ok   -DLIBVIRQ_FDT=ON, -DLIBVIRQ_BUILD_TESTS=ON and the docs target fail naming the package"
if [ $fail -ne 0 ]; then
	echo "bare machine check FAILED"
	exit 1
fi
echo "bare machine check passed"
