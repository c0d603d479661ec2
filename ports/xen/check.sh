#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Xen hypervisor with libvirq inside it (ports/xen/build.sh: the
# build ports/xen/test.sh then boots, made once) and checks the result
# (scripts/test steps xen-arm64-4.17, xen-arm64-4.22, xen-x86_64).
#
#   usage: ports/xen/check.sh arm64|x86_64 CACHE_DIR WORK_DIR [4.17|4.22]
#
# 1. ports/xen/build.sh VERSION ARCH WORK_DIR CACHE_DIR (default 4.17): the
#    Xen source, libvirq imported into xen/common/libvirq/ by
#    ports/xen/import.sh (copies, no symlink), the GICv4 series of
#    ports/xen/patches/VERSION on arm64 (docs/integration.md's recipe,
#    obj-y += libvirq/, on x86_64), built out of tree with Xen's own CFLAGS.
# 2. Checks: the imported tree holds no symlink; libvirq's objects were
#    compiled with Xen's flags (-std=gnu99 -Werror
#    -Wdeclaration-after-statement -nostdinc, xen/config.h) and the port's
#    env header; exactly the sources CMake builds for the modules were
#    compiled (core + gicv4 on arm64, core + avic + pmcvirt on x86_64); every
#    global function and object of those objects, and the example caller,
#    are in xen-syms (nm); with CET-IBT (x86_64), every libvirq function
#    whose address is taken starts with ENDBR64; on arm64 the series is
#    built in (CONFIG_GICV4, its objects) and every patch of it passes
#    ports/xen/check-style.py (Xen's CODING_STYLE, commit message form).
# Nothing is skipped: any missing piece fails the run.
set -u -o pipefail
arch=${1:-} cache=${2:-} work=${3:-} ver=${4:-4.17}
case $arch in
arm64) nm=aarch64-linux-gnu-nm objdump=aarch64-linux-gnu-objdump modules="gicv4" ;;
x86_64) nm=nm objdump=objdump modules="avic pmcvirt" ;;
*) echo "usage: $0 arm64|x86_64 CACHE_DIR WORK_DIR [4.17|4.22]" >&2; exit 2 ;;
esac
[ -n "$cache" ] && [ -n "$work" ] || { echo "usage: $0 arm64|x86_64 CACHE_DIR WORK_DIR [4.17|4.22]" >&2; exit 2; }
lv=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
bad() { echo "FAIL: $*"; fail=1; }
t0=$(date +%s)

out=$("$lv/ports/xen/build.sh" "$ver" "$arch" "$work" "$cache") || { echo "FAIL: Xen $ver $arch build"; exit 1; }
echo "built $out/xen-syms ($(($(date +%s) - t0)) s)"
syms=$out/xen-syms
[ -f "$syms" ] || { echo "FAIL: no xen-syms"; exit 1; }
tree=$work/src/xen/common/libvirq
if [ -n "$(find "$tree" -type l)" ]; then
	bad "symlinks in the imported library: $(find "$tree" -type l | head -n3)"
else
	echo "ok   libvirq imported into xen/common/libvirq/ as copies ($(find "$tree" -type f | wc -l) files, no symlink)"
fi

# --- the objects and their flags ---
objdir=$out/common/libvirq
# shellcheck source=ports/check-objects.sh
. "$lv/ports/check-objects.sh"
# shellcheck disable=SC2086 # the module list is words
objects_match_cmake "$objdir/src" $modules
for o in $have; do
	cmd=$objdir/src/$(dirname "$o")/.$(basename "$o").o.cmd
	[ -f "$cmd" ] || { bad "no $cmd"; continue; }
	for f in -Werror -std=gnu99 -Wdeclaration-after-statement -nostdinc 'xen/config.h' \
		 'LIBVIRQ_ENV_HEADER=' 'virq_env_xen.h' ; do
		grep -q -- "$f" "$cmd" || bad "$o was not compiled with $f"
	done
done
[ $fail -eq 0 ] && echo "ok   every library object compiled with Xen's CFLAGS (-std=gnu99 -Werror ...) and virq_env_xen.h"

# --- linked into the hypervisor ---
mapfile -t need < <("$nm" --defined-only -g $(for o in $have; do echo "$objdir/src/$o.o"; done) |
	awk 'NF == 3 && $2 ~ /[TDRB]/ { print $3 }' | LC_ALL=C sort -u)
present=$("$nm" "$syms" | awk '{ print $NF }' | LC_ALL=C sort -u)
missing=$(LC_ALL=C comm -23 <(printf '%s\n' "${need[@]}") <(echo "$present"))
if [ ${#need[@]} -lt 20 ]; then
	bad "only ${#need[@]} global symbols in libvirq's objects"
elif [ -n "$missing" ]; then
	bad "libvirq symbols missing from xen-syms: $(echo $missing)"
else
	echo "ok   all ${#need[@]} global libvirq symbols are in xen-syms (e.g. $(printf '%s ' "${need[@]:0:3}"))"
fi
ex_ok=1
for s in virq_xen_hal_ops virq_xen_example_init; do
	grep -qx -- "$s" <<<"$present" || { bad "example caller symbol $s not in xen-syms"; ex_ok=0; }
done
[ $ex_ok = 1 ] && echo "ok   the example caller (virq_xen_hal_ops, virq_xen_example_init) is linked"

# --- CET-IBT: indirect-call targets must start with ENDBR64 ---
if [ "$arch" = x86_64 ]; then
	if ! grep -q '^CONFIG_XEN_IBT=y' "$out/.config"; then
		bad "CONFIG_XEN_IBT is not set: the CET-IBT check cannot run"
	elif python3 "$lv/ports/xen/ibt-check.py" --objdump "$objdump" \
		$(find "$out/common/libvirq" -name '*.o' ! -name built_in.o) >"$work/ibt.log"; then
		echo "ok   $(tail -n 1 "$work/ibt.log")"
	else
		grep -v '^ok' "$work/ibt.log"
		bad "CET-IBT: functions called through pointers lack ENDBR64"
	fi
fi

# --- the GICv4 series (arm64) ---
if [ "$arch" = arm64 ]; then
	grep -q '^CONFIG_GICV4=y' "$out/.config" || bad "CONFIG_GICV4 is not set"
	for o in gicv4 vits; do
		[ -f "$out/arch/arm/gicv4/$o.o" ] || bad "the series' $o.o was not built"
	done
	for s in gicv4_init_host gicv4_vlpi_map; do
		grep -qx -- "$s" <<<"$present" || bad "$s (the series) not in xen-syms"
	done
	if python3 "$lv/ports/xen/check-style.py" "$lv/ports/xen/patches/$ver"/*.patch >"$work/style.log" 2>&1; then
		echo "ok   $(tail -n 1 "$work/style.log")"
	else
		cat "$work/style.log"
		bad "the series breaks Xen's CODING_STYLE or commit message form"
	fi
fi

echo "Xen $ver $arch with libvirq (core + $modules): $([ $fail -eq 0 ] && echo ok || echo FAILED) in $(($(date +%s) - t0)) s"
exit $fail
