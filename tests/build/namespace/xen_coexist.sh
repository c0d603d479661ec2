#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Xen ABI coexistence (ctest: namespace_xen_public_h).
#
# Compiles every public libvirq header together with Xen's public ABI header
# public/xen.h (which owns VIRQ_TIMER .. VIRQ_ENOMEM .. VIRQ_ARCH_7), in both
# include orders, for x86_64 (gcc) and arm64 (aarch64-linux-gnu-gcc), and
# checks in each translation unit that both meanings survive:
# VIRQ_ENOMEM is Xen's virtual IRQ 12 and LIBVIRQ_ENOMEM libvirq's -4.
#
# usage: xen_coexist.sh XEN_SOURCE_DIR LIBVIRQ_INCLUDE_DIR WORK_DIR
set -u
xen=$1 inc=$2 work=$3
pub=$xen/xen/include
[ -f "$pub/public/xen.h" ] || { echo "no public/xen.h under $pub" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work"
# The interface version these headers implement (a guest names the one it uses).
ver=$(sed -n 's/^#define __XEN_LATEST_INTERFACE_VERSION__ *\(0x[0-9a-fA-F]*\).*/\1/p' "$pub/public/xen-compat.h")
[ -n "$ver" ] || { echo "no __XEN_LATEST_INTERFACE_VERSION__ in xen-compat.h" >&2; exit 2; }
headers=$(cd "$inc" && find libvirq -name '*.h' | LC_ALL=C sort)
check='#include <libvirq/status.h>
_Static_assert(VIRQ_ENOMEM == 12, "Xen public/xen.h: VIRQ_ENOMEM is virtual IRQ 12");
_Static_assert(LIBVIRQ_ENOMEM == -4, "libvirq: LIBVIRQ_ENOMEM is status -4");
int virq_coexist_(void);
int virq_coexist_(void) { return LIBVIRQ_ENOMEM + VIRQ_ENOMEM; }'
n=0 fail=0
for arch in x86_64 arm64; do
	case $arch in
	x86_64) cc=gcc extra=() ;;
	arm64) cc=aarch64-linux-gnu-gcc extra=(-mgeneral-regs-only) ;;
	esac
	flags=(-std=gnu11 -Wall -Wextra -Werror -Wredundant-decls -ffreestanding
	       -D__XEN_INTERFACE_VERSION__="$ver" -I"$pub" -I"$inc" "${extra[@]}")
	for h in $headers; do
		name=$arch-$(echo "$h" | tr '/.' '__')
		printf '#include <stdint.h>\n#include <public/xen.h>\n#include <%s>\n%s\n' "$h" "$check" >"$work/$name-xen-first.c"
		printf '#include <%s>\n#include <stdint.h>\n#include <public/xen.h>\n%s\n' "$h" "$check" >"$work/$name-libvirq-first.c"
		for order in xen-first libvirq-first; do
			if out=$("$cc" "${flags[@]}" -c "$work/$name-$order.c" -o "$work/$name-$order.o" 2>&1); then
				n=$((n + 1))
			else
				echo "FAIL: $h with public/xen.h ($arch, $order):"
				echo "$out" | head -n 20
				fail=$((fail + 1))
			fi
		done
	done
done
echo "public/xen.h (interface $ver) + libvirq headers: $n translation units clean, $fail failed"
[ $fail -eq 0 ] && [ $n -gt 0 ]
