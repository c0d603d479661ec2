#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Hostile-macro prelude check (ctest: host_macros_<cell>).
#
# Compiles every library source (src/**/*.c) and every public header after
# tests/build/hostmacros/host_macros.h (-include, the way Xen force-includes
# xen/config.h), in one cell:
#   xen-gnu99    gcc -std=gnu99, Xen's warning flags, -nostdinc with the
#                template env header tests/build/env/virq_test_env.h, and
#                Xen x86's CET-IBT flags (-fcf-protection=branch
#                -mmanual-endbr -fno-jump-tables): every function the library calls through
#                a pointer must start with ENDBR64 (ports/xen/ibt-check.py)
#   linux-gnu11  gcc -std=gnu11, Linux's W=1 warnings and
#                -Wimplicit-fallthrough=5, -nostdinc, same env header
#   clang-gnu11  clang -std=gnu11, the same with clang's spelling
#   hosted-gnu11 gcc -std=gnu11 with the default env (the system's headers;
#                this cell also compiles the libfdt-based src/gicv4/fdt*.c)
# and first proves that the prelude bites: a fixture using the plain
# attribute spellings and an unparenthesised HAL member call must fail.
#
# usage: host_macros_check.sh CELL SRC_DIR WORK_DIR
set -u
cell=$1 src=$2 work=$3
here=$src/tests/build/hostmacros
rm -rf "$work"
mkdir -p "$work"

common=(-include "$here/host_macros.h" -I"$src/include" -I"$src/src" -ffreestanding -fno-common
	-DLIBVIRQ_HAVE_AVIC=1 -DLIBVIRQ_HAVE_GICV4=1 -DLIBVIRQ_HAVE_PMCVIRT=1)
nostdinc=(-nostdinc -I"$src/tests/build/env" -DLIBVIRQ_ENV_HEADER='"virq_test_env.h"')
# Xen 4.17's CFLAGS for hypervisor objects (xen/Rules.mk, Config.mk).
xen=(-std=gnu99 -Wall -Wstrict-prototypes -Wdeclaration-after-statement -Wredundant-decls
     -Wwrite-strings -Wno-pointer-arith -Wuninitialized -Wvla -Winit-self -Wnested-externs
     -Wno-unused-but-set-variable -Wno-unused-local-typedefs -fno-builtin -O1 -Werror)
# Linux 6.1 with W=1 (scripts/Makefile.extrawarn) and its base flags.
linux=(-std=gnu11 -Wall -Wundef -Werror=strict-prototypes -Wno-trigraphs -Wimplicit-fallthrough=5
       -Wvla -Wno-pointer-sign -Wcast-function-type -Wdeclaration-after-statement
       -Wextra -Wunused -Wno-unused-parameter -Wmissing-declarations -Wmissing-format-attribute
       -Wmissing-prototypes -Wold-style-definition -Wmissing-include-dirs
       -Wunused-but-set-variable -Wunused-const-variable -Wpacked-not-aligned
       -Wstringop-truncation -Wno-sign-compare -Wno-type-limits -O2 -Werror)
clang=(-std=gnu11 -Wall -Wextra -Wundef -Wstrict-prototypes -Wimplicit-fallthrough -Wvla
       -Wdeclaration-after-statement -Wmissing-prototypes -Wold-style-definition
       -Wno-unused-parameter -Wno-sign-compare -O2 -Werror)
with_fdt=0 ibt=0
case $cell in
xen-gnu99) cc=gcc flags=("${xen[@]}" "${nostdinc[@]}" -fcf-protection=branch -mmanual-endbr -fno-jump-tables) ibt=1 ;;
linux-gnu11) cc=gcc flags=("${linux[@]}" "${nostdinc[@]}") ;;
clang-gnu11) cc=clang flags=("${clang[@]}" "${nostdinc[@]}") ;;
hosted-gnu11) cc=gcc flags=("${linux[@]}") with_fdt=1 ;;
*) echo "unknown cell $cell" >&2; exit 2 ;;
esac

fail=0 n=0
try() { # try NAME FILE: compile FILE after the prelude
	local out
	if out=$("$cc" "${common[@]}" "${flags[@]}" -c "$2" -o "$work/$1.o" 2>&1); then
		n=$((n + 1))
	else
		echo "FAIL: $2"
		echo "$out" | head -n 25
		fail=$((fail + 1))
	fi
}

# Self-test: each of these must be broken by the prelude, or the check is
# toothless.
selftest() { # selftest NAME CODE
	printf '#include <libvirq/hal.h>\n%s\n' "$2" >"$work/self_$1.c"
	# Control: without the prelude it compiles, so a failure below is the
	# prelude's doing.
	if ! "$cc" "${common[@]:2}" "${flags[@]}" -c "$work/self_$1.c" -o "$work/self_$1.o" >"$work/self_$1.log" 2>&1; then
		echo "FAIL: self-test '$1' does not even compile without the prelude:"
		cat "$work/self_$1.log"
		fail=$((fail + 1))
	elif "$cc" "${common[@]}" "${flags[@]}" -c "$work/self_$1.c" -o "$work/self_$1.o" >"$work/self_$1.log" 2>&1; then
		echo "FAIL: self-test '$1' compiled after the prelude: the prelude does not bite"
		fail=$((fail + 1))
	else
		echo "ok   self-test '$1': compiles alone, rejected after the prelude"
	fi
}
selftest noinline 'static __attribute__((noinline)) int f_(void) { return 1; } int g_(void); int g_(void) { return f_(); }'
selftest barrier 'void g_(const struct virq_hal *h); void g_(const struct virq_hal *h) { h->ops->barrier(h->ctx, LIBVIRQ_BARRIER_FULL); }'
selftest min 'static unsigned min(unsigned a, unsigned b) { return a < b ? a : b; } unsigned g_(void); unsigned g_(void) { return min(1u, 2u); }'
selftest status_clash 'enum { VIRQ_ENOMEM = -4 }; int g_(void); int g_(void) { return VIRQ_ENOMEM; }'

for f in $(cd "$src" && find src -name '*.c' | LC_ALL=C sort); do
	case $f in
	src/gicv4/fdt*.c) [ $with_fdt = 1 ] || continue ;;
	esac
	try "$(echo "$f" | tr '/.' '__')" "$src/$f"
done
for h in $(cd "$src/include" && find libvirq -name '*.h' | LC_ALL=C sort); do
	case $h in
	libvirq/fdt.h) ;; # declarations only: no libfdt needed
	esac
	name=hdr_$(echo "$h" | tr '/.' '__')
	printf '#include <%s>\ntypedef int virq_prelude_unit_;\n' "$h" >"$work/$name.c"
	try "$name" "$work/$name.c"
done
if [ $ibt = 1 ]; then
	# Self-test: a function called through a pointer without LIBVIRQ_CF_CHECK_
	# must be caught.
	printf 'static int cb_(int x) { return x + 1; }\nint (*volatile virq_fp_)(int) = cb_;\n' >"$work/ibt_self.c"
	"$cc" "${flags[@]}" -c "$work/ibt_self.c" -o "$work/ibt_self.o" &&
	if python3 "$src/ports/xen/ibt-check.py" "$work/ibt_self.o" >"$work/ibt_self.log"; then
		echo "FAIL: self-test: ibt-check.py missed an address-taken function without endbr64"
		fail=$((fail + 1))
	else
		echo "ok   self-test: an address-taken function without cf_check is caught"
	fi
	if python3 "$src/ports/xen/ibt-check.py" "$work"/src_*.o "$work"/hdr_*.o >"$work/ibt.log"; then
		tail -n 1 "$work/ibt.log"
	else
		grep -v '^ok' "$work/ibt.log"
		fail=$((fail + 1))
	fi
fi
echo "host macros ($cell): $n files clean, $fail failed"
[ $fail -eq 0 ]
