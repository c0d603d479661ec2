#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Freestanding check (ctest: freestanding_check).
#
# Builds the libvirq libraries five times from scratch:
#   x86_64 gcc, x86_64 clang, aarch64 gcc, aarch64 clang   (cmake/toolchains/*-freestanding-*.cmake:
#       -ffreestanding -nostdlib -mgeneral-regs-only [-mno-red-zone], -Werror)
#   x86_64 gcc with -nostdinc and the replacement env header tests/build/env/virq_test_env.h
# and fails if any archive needs a symbol from outside itself other than
# memcpy/memset/memmove/memcmp. Archives given with --extra-fdt (the host
# build's libvirq_fdt.a) may also need libfdt's fdt_* symbols and libvirq's own.
#
# usage: freestanding_check.sh SRC_DIR WORK_DIR [--host-lib libvirq.a] [--extra-fdt libvirq_fdt.a]
set -u
src=$1 work=$2
shift 2
host_lib="" fdt_lib=""
while [ $# -gt 0 ]; do
	case $1 in
	--host-lib) host_lib=$2; shift 2 ;;
	--extra-fdt) fdt_lib=$2; shift 2 ;;
	*) echo "unknown option $1" >&2; exit 2 ;;
	esac
done
jobs=${LIBVIRQ_CHECK_JOBS:-2}
NM=$(command -v llvm-nm || command -v llvm-nm-14 || true)
fail=0

note() { printf '%s\n' "$*"; }
bad() { printf 'FAIL: %s\n' "$*"; fail=1; }

# Symbols the archives define / need.
defined_syms() { "$NM" --defined-only "$@" 2>/dev/null | awk 'NF >= 3 { print $3 }' | sort -u; }
undefined_syms() { "$NM" -u "$@" 2>/dev/null | awk '$1 == "U" { print $2 }' | sort -u; }

# check_archive NAME ALLOWED_REGEX ARCHIVE [OTHER_ARCHIVES_THAT_MAY_DEFINE...]
check_archive() {
	local name=$1 allow=$2 ar=$3
	shift 3
	local need
	need=$(comm -23 <(undefined_syms "$ar") <(defined_syms "$ar" "$@") | grep -Ev "$allow")
	if [ -n "$need" ]; then
		bad "$name: $(basename "$ar") needs symbols outside the library: $(echo $need)"
	else
		note "ok   $name: $(basename "$ar") ($(undefined_syms "$ar" | wc -l) undefined refs: all defined in the libraries or allowed)"
	fi
}

MEM='^(memcpy|memset|memmove|memcmp)$'

# build NAME TOOLCHAIN [extra cmake args...]
build() {
	local name=$1 tc=$2
	shift 2
	local dir=$work/$name
	rm -rf "$dir"
	if ! cmake -S "$src" -B "$dir" --toolchain "$src/cmake/toolchains/$tc.cmake" \
		-DCMAKE_BUILD_TYPE=Release -DLIBVIRQ_WERROR=ON "$@" >"$dir.log" 2>&1 ||
	   ! cmake --build "$dir" -j"$jobs" >>"$dir.log" 2>&1; then
		bad "$name: build failed (log: $dir.log)"
		tail -n 40 "$dir.log"
		return 1
	fi
	local ar=$dir/src/libvirq.a
	if [ ! -f "$ar" ]; then
		bad "$name: $ar not built"
		return 1
	fi
	# The archive really is for the target architecture.
	local want
	case $tc in
	x86_64*) want='x86-64|x86_64' ;;
	aarch64*) want='littleaarch64' ;;
	esac
	if ! "${OBJDUMP:-llvm-objdump}" -f "$ar" | grep -Eq "file format elf64-($want)"; then
		bad "$name: archive is not $tc"
	fi
	check_archive "$name" "$MEM" "$ar"
}

mkdir -p "$work"
[ -n "$NM" ] || { echo "llvm-nm not found" >&2; exit 1; }
OBJDUMP=$(command -v llvm-objdump || command -v llvm-objdump-14)

# Self-test: the symbol check must catch a libc call and a call between
# objects must not count.
cat >"$work/selftest_a.c" <<'C'
unsigned long strlen(const char *s);
void virq_selftest_b_(void);
unsigned long virq_selftest_a_(const char *s) { virq_selftest_b_(); return strlen(s); }
C
echo 'void virq_selftest_b_(void) {}' >"$work/selftest_b.c"
rm -f "$work/selftest.a"
if gcc -c "$work/selftest_a.c" -o "$work/selftest_a.o" && gcc -c "$work/selftest_b.c" -o "$work/selftest_b.o" &&
   ar rcs "$work/selftest.a" "$work/selftest_a.o" "$work/selftest_b.o"; then
	out=$(fail=0; check_archive selftest "$MEM" "$work/selftest.a"; echo "rc=$fail")
	if [ "$(echo "$out" | tail -n1)" != "rc=1" ] || ! echo "$out" | grep -q 'strlen$' ||
	   echo "$out" | grep -q virq_selftest_b_; then
		bad "self-test: the symbol check did not flag exactly strlen: $out"
	else
		note "ok   self-test: a stray strlen is caught"
	fi
else
	bad "self-test: could not build the self-test archive"
fi

for tc in x86_64-freestanding-gcc x86_64-freestanding-clang aarch64-freestanding-gcc \
	  aarch64-freestanding-clang; do
	# libfdt has no freestanding build on these targets: the FDT archive is
	# checked on the host build below.
	build "$tc" "$tc" -DLIBVIRQ_FDT=OFF
done

# -nostdinc: the whole core compiles with only the replacement env header.
envdir=$src/tests/build/env
if build nostdinc-x86_64-gcc x86_64-freestanding-gcc -DLIBVIRQ_FDT=OFF \
	-DLIBVIRQ_ENV_HEADER=virq_test_env.h -DLIBVIRQ_ENV_INCLUDE_DIR="$envdir" -DLIBVIRQ_NOSTDINC=ON; then
	if ! grep -rq -- '-nostdinc' "$work/nostdinc-x86_64-gcc/src/CMakeFiles/virq.dir/flags.make"; then
		bad "nostdinc: the library was not compiled with -nostdinc"
	fi
	# The probe fails to compile unless virq_env.h took the replacement header.
	if gcc -std=c11 -ffreestanding -nostdinc -Wall -Werror -I"$src/include" -I"$envdir" \
		-DLIBVIRQ_ENV_HEADER='"virq_test_env.h"' -c "$envdir/probe.c" -o "$work/probe.o"; then
		note "ok   nostdinc: replacement env header in use"
	else
		bad "nostdinc: probe with the replacement env header did not compile"
	fi
fi

if [ -n "$host_lib" ]; then
	check_archive host-build "$MEM" "$host_lib"
fi
if [ -n "$fdt_lib" ] && [ -f "$fdt_lib" ]; then
	check_archive host-fdt "$MEM|^fdt_" "$fdt_lib" ${host_lib:+"$host_lib"}
fi

if [ $fail -ne 0 ]; then
	echo "freestanding check FAILED"
	exit 1
fi
echo "freestanding check passed"
