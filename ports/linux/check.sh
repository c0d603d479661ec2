#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds libvirq's example module out of tree against Debian's
# linux-headers-amd64, the way docs/integration.md ("Linux") tells an embedder
# to, and checks the result (scripts/test step linux-module).
#
#   usage: ports/linux/check.sh WORK_DIR
#
# 1. A copy of this checkout's files in WORK_DIR/libvirq (Kbuild writes objects
#    next to their sources; the developer's tree stays clean).
# 2. make -C <headers> M=WORK_DIR/libvirq/ports/linux W=1 KCFLAGS=-Werror modules
# 3. Checks: no warning at all in the log (W=1, objtool, modpost); every
#    library object was compiled with the kernel's flags (-std=gnu11 -nostdinc
#    -Wimplicit-fallthrough=5 -Wextra, the W=1 set) and -Werror; exactly the
#    sources CMake builds for core + avic + gicv4 + pmcvirt; all global library
#    symbols are in virq_example.ko.
# 4. The M= trap: a module whose LIBVIRQ_DIR points nowhere must fail with
#    libvirq.kbuild's error, not build an empty module.
set -u -o pipefail
work=${1:-}
[ -n "$work" ] || { echo "usage: $0 WORK_DIR" >&2; exit 2; }
lv=$(cd "$(dirname "$0")/../.." && pwd)
jobs=${LIBVIRQ_JOBS:-2}
fail=0
bad() { echo "FAIL: $*"; fail=1; }
t0=$(date +%s)
kdir=$("$lv/ports/linux/kernel-headers-dir.sh") || exit 1
echo "kernel headers: $kdir"

mkdir -p "$work"
work=$(cd "$work" && pwd)
rm -rf "$work"
mkdir -p "$work/libvirq"
if git -C "$lv" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$lv" && git ls-files -z -co --exclude-standard | tar --null -cf - -T -) | tar -xf - -C "$work/libvirq"
else
	(cd "$lv" && tar --exclude=./build -cf - .) | tar -xf - -C "$work/libvirq"
fi
mod=$work/libvirq/ports/linux

if ! make -C "$kdir" M="$mod" W=1 KCFLAGS=-Werror -j"$jobs" modules >"$work/build.log" 2>&1; then
	grep -E 'error|Error' "$work/build.log" | head -n 40
	echo "FAIL: module build (log: $work/build.log)"
	exit 1
fi
echo "built $mod/virq_example.ko in $(($(date +%s) - t0)) s"
if grep -iE 'warning' "$work/build.log"; then
	bad "the module build printed warnings"
else
	echo "ok   no warning (W=1, KCFLAGS=-Werror, objtool, modpost)"
fi
[ -f "$mod/virq_example.ko" ] || bad "no virq_example.ko"

modules="avic gicv4 pmcvirt"
# shellcheck source=ports/check-objects.sh
. "$lv/ports/check-objects.sh"
# shellcheck disable=SC2086 # the module list is words
objects_match_cmake "$work/libvirq/src" $modules
for o in $have; do
	cmd=$work/libvirq/src/$(dirname "$o")/.$(basename "$o").o.cmd
	[ -f "$cmd" ] || { bad "no $cmd"; continue; }
	for f in -Werror -std=gnu11 -nostdinc -Wimplicit-fallthrough=5 -Wextra -Wmissing-declarations \
		 -mcmodel=kernel 'virq_env_linux.h'; do
		grep -q -- "$f" "$cmd" || bad "$o was not compiled with $f"
	done
done
[ $fail -eq 0 ] && echo "ok   every library object compiled with the kernel's flags, W=1 and -Werror"

mapfile -t need < <(nm --defined-only -g $(for o in $have; do echo "$work/libvirq/src/$o.o"; done) |
	awk 'NF == 3 && $2 ~ /[TDRB]/ { print $3 }' | LC_ALL=C sort -u)
present=$(nm "$mod/virq_example.ko" | awk '{ print $NF }' | LC_ALL=C sort -u)
missing=$(LC_ALL=C comm -23 <(printf '%s\n' "${need[@]}") <(echo "$present"))
if [ ${#need[@]} -lt 50 ]; then
	bad "only ${#need[@]} global symbols in libvirq's objects"
elif [ -n "$missing" ]; then
	bad "library symbols missing from virq_example.ko: $(echo $missing)"
else
	echo "ok   all ${#need[@]} global libvirq symbols are in virq_example.ko"
fi

# The M= trap: LIBVIRQ_DIR relative to the kernel tree, or wrong, must stop
# the build with libvirq.kbuild's message.
trap_dir=$work/trap
mkdir -p "$trap_dir"
cat >"$trap_dir/Kbuild" <<KBUILD
LIBVIRQ_DIR := third_party/libvirq
include $lv/ports/linux/libvirq.kbuild
obj-m += trap.o
trap-y := \$(LIBVIRQ_OBJS)
KBUILD
if make -C "$kdir" M="$trap_dir" modules >"$work/trap.log" 2>&1; then
	bad "a module with a wrong LIBVIRQ_DIR built (silently empty)"
elif ! grep -q 'libvirq.kbuild: no libvirq sources' "$work/trap.log"; then
	bad "a wrong LIBVIRQ_DIR failed, but not with libvirq.kbuild's message:"
	tail -n 5 "$work/trap.log"
else
	echo "ok   a wrong LIBVIRQ_DIR stops the build: $(grep -o 'libvirq.kbuild: no libvirq sources[^)]*)' "$work/trap.log" | head -n1)"
fi

# The snippet of docs/integration.md ("Your module's Kbuild"), taken from the
# page as written, builds a module: libvirq vendored at third_party/libvirq,
# the example's HAL and caller as the module's own main.o and hal.o.
snip_dir=$work/snippet
mkdir -p "$snip_dir/third_party"
ln -s "$work/libvirq" "$snip_dir/third_party/libvirq"
awk '/<!-- kbuild-snippet -->/ { on = 1; next } on && /^```make/ { grab = 1; next }
     grab && /^```/ { exit } grab { print }' "$lv/docs/integration.md" >"$snip_dir/Kbuild"
cp "$mod/example.c" "$snip_dir/main.c"
cp "$mod/hal.c" "$snip_dir/hal.c"
# the example's caller names the modules it uses; the snippet builds avic + pmcvirt
if [ ! -s "$snip_dir/Kbuild" ]; then
	bad "no Kbuild snippet found in docs/integration.md"
elif ! make -C "$kdir" M="$snip_dir" W=1 KCFLAGS=-Werror -j"$jobs" modules >"$work/snippet.log" 2>&1; then
	grep -E 'error|Error' "$work/snippet.log" | head -n 20
	bad "the Kbuild snippet of docs/integration.md does not build (log: $work/snippet.log)"
elif [ ! -f "$snip_dir/mydrv.ko" ]; then
	bad "the Kbuild snippet built no mydrv.ko"
else
	echo "ok   docs/integration.md's Kbuild snippet builds mydrv.ko as written"
fi

echo "Linux module (core + $modules, W=1, -Werror): $([ $fail -eq 0 ] && echo ok || echo FAILED) in $(($(date +%s) - t0)) s"
exit $fail
