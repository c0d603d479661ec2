#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the Xen hypervisor with libvirq inside it, the way docs/integration.md
# ("Xen") tells an embedder to, and checks the result (scripts/test steps
# xen-arm64, xen-x86_64).
#
#   usage: ports/xen/check.sh arm64|x86_64 CACHE_DIR WORK_DIR
#
# 1. Xen's source: Debian's `xen` source package (ports/xen/fetch-xen-source.sh,
#    cached in CACHE_DIR/xen), copied to WORK_DIR/xen so the cache stays pristine.
# 2. The recipe: xen/drivers/libvirq/ with a symlink to this checkout and one
#    to ports/xen/Makefile, `obj-y += libvirq/` in xen/drivers/Makefile.
# 3. make defconfig, then the hypervisor, out of tree (O=WORK_DIR/out), with
#    Xen's own CFLAGS (-Werror included); arm64 cross with aarch64-linux-gnu-.
# 4. Checks: libvirq's objects were compiled with Xen's flags (-std=gnu99
#    -Werror -Wdeclaration-after-statement -nostdinc, xen/config.h) and the
#    port's env header; exactly the sources CMake builds for the modules were
#    compiled (core + gicv4 on arm64, core + avic + pmcvirt on x86_64); every
#    global function and object of those objects, and the example caller,
#    are in xen-syms (nm); with CET-IBT (x86_64), every libvirq function
#    whose address is taken starts with ENDBR64.
# Nothing is skipped: any missing piece fails the run.
set -u -o pipefail
arch=${1:-} cache=${2:-} work=${3:-}
case $arch in
arm64) cross=(CROSS_COMPILE=aarch64-linux-gnu-) nm=aarch64-linux-gnu-nm objdump=aarch64-linux-gnu-objdump
       modules="gicv4" ;;
x86_64) cross=() nm=nm objdump=objdump modules="avic pmcvirt" ;;
*) echo "usage: $0 arm64|x86_64 CACHE_DIR WORK_DIR" >&2; exit 2 ;;
esac
[ -n "$cache" ] && [ -n "$work" ] || { echo "usage: $0 arm64|x86_64 CACHE_DIR WORK_DIR" >&2; exit 2; }
lv=$(cd "$(dirname "$0")/../.." && pwd)
jobs=${LIBVIRQ_JOBS:-2}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
t0=$(date +%s)

xen=$("$lv/ports/xen/fetch-xen-source.sh" "$cache/xen") || { echo "FAIL: cannot get Xen's source"; exit 1; }
echo "Xen source: $xen"
mkdir -p "$work"
work=$(cd "$work" && pwd)
rm -rf "$work"
mkdir -p "$work"
cp -a "$xen" "$work/xen"
tree=$work/xen out=$work/out

# --- the recipe of docs/integration.md ---
mkdir "$tree/xen/drivers/libvirq"
ln -s "$lv" "$tree/xen/drivers/libvirq/libvirq"
ln -s libvirq/ports/xen/Makefile "$tree/xen/drivers/libvirq/Makefile"
echo 'obj-y += libvirq/' >>"$tree/xen/drivers/Makefile"

mk=(make -C "$tree/xen" XEN_TARGET_ARCH="$arch" "${cross[@]}" O="$out")
if ! "${mk[@]}" defconfig >"$work/defconfig.log" 2>&1; then
	tail -n 30 "$work/defconfig.log"
	echo "FAIL: make defconfig (log: $work/defconfig.log)"
	exit 1
fi
if ! "${mk[@]}" -j"$jobs" >"$work/build.log" 2>&1; then
	grep -E 'error|Error' "$work/build.log" | head -n 40
	tail -n 20 "$work/build.log"
	echo "FAIL: Xen $arch build with libvirq (log: $work/build.log)"
	exit 1
fi
echo "built $out/xen-syms in $(($(date +%s) - t0)) s"
syms=$out/xen-syms
[ -f "$syms" ] || { echo "FAIL: no xen-syms"; exit 1; }

# --- the objects and their flags ---
objdir=$out/drivers/libvirq/libvirq
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
		$(find "$out/drivers/libvirq" -name '*.o' ! -name built_in.o) >"$work/ibt.log"; then
		echo "ok   $(tail -n 1 "$work/ibt.log")"
	else
		grep -v '^ok' "$work/ibt.log"
		bad "CET-IBT: functions called through pointers lack ENDBR64"
	fi
fi

echo "Xen $arch with libvirq (core + $modules): $([ $fail -eq 0 ] && echo ok || echo FAILED) in $(($(date +%s) - t0)) s"
exit $fail
