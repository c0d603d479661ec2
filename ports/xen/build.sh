#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds one Xen hypervisor with libvirq imported into it, once: CI's
# compile check (ports/xen/check.sh) and the boots (ports/xen/test.sh) use
# the same build.
#
#   usage: ports/xen/build.sh VERSION ARCH OUT CACHE
#
# VERSION  4.17: Debian 12's `xen` source package (fetch-xen-source.sh);
#          4.22: the Xen Project's release 4.22.0 (fetch-xen-release.sh)
# ARCH     arm64: the GICv4 series ports/xen/patches/VERSION/*.patch
#          applied, libvirq imported (ports/xen/import.sh), and
#          CONFIG_EXPERT, CONFIG_UNSUPPORTED, CONFIG_HAS_ITS, CONFIG_GICV4,
#          CONFIG_DEBUG, CONFIG_PERF_COUNTERS;
#          x86_64: libvirq imported and linked the way docs/integration.md
#          ("Xen") says (obj-y += libvirq/), defconfig (no series: GICv4 is
#          Arm's)
# OUT      OUT/src is the patched tree, OUT/build the object directory (O=),
#          OUT/build/xen and xen-syms the result
# CACHE    where the sources are downloaded once
#
# OUT/.inputs records a digest of everything the build depends on (the
# source tree's name, the series' diffs, every file import.sh copies, this
# script): a build whose digest matches is reused without running make.
# Prints OUT/build and, on stderr, what it did and how long it took.
# Environment: LIBVIRQ_JOBS (default 2).
set -euo pipefail
die() { echo "build.sh: $*" >&2; exit 1; }
[ $# -eq 4 ] || die "usage: $0 4.17|4.22 arm64|x86_64 OUT CACHE"
ver=$1 arch=$2 out=$3 cache=$4
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lv=$(cd "$here/../.." && pwd)
jobs=${LIBVIRQ_JOBS:-2}
t0=$(date +%s)

case $ver in
4.17) src=$("$here/fetch-xen-source.sh" "$cache/xen") || die "cannot get Xen 4.17's source" ;;
4.22) src=$("$here/fetch-xen-release.sh" 4.22.0 "$cache/xen-release") || die "cannot get Xen 4.22.0" ;;
*) die "unknown Xen version $ver (4.17 or 4.22)" ;;
esac
case $arch in
arm64) cross=(CROSS_COMPILE=aarch64-linux-gnu-) patches=("$here/patches/$ver"/*.patch)
	[ -f "${patches[0]}" ] || die "no series in $here/patches/$ver" ;;
x86_64) cross=() patches=() ;;
*) die "unknown architecture $arch" ;;
esac

mkdir -p "$out"
out=$(cd "$out" && pwd)
inputs=$( {
	echo "$ver $arch $(basename "$src")"
	# The patches' diffs (their commit messages do not change the build).
	for p in "${patches[@]}"; do sed -n '/^diff --git /,$p' "$p"; done
	(cd "$lv" && git ls-files -- include/libvirq src ports/xen/Makefile ports/xen/flags.mk \
		ports/xen/hal.c ports/xen/example.c ports/xen/include ports/xen/import.sh LICENSE CMakeLists.txt 2>/dev/null |
		LC_ALL=C sort | xargs sha256sum)
	cat "$here/build.sh"
} | sha256sum | cut -d' ' -f1)
if [ -f "$out/build/xen-syms" ] && [ "$(cat "$out/.inputs" 2>/dev/null)" = "$inputs" ]; then
	echo "build.sh: Xen $ver $arch up to date in $out/build" >&2
	echo "$out/build"
	exit 0
fi

rm -rf "$out/src" "$out/build" "$out/.inputs"
cp -a "$src" "$out/src"
for p in "${patches[@]}"; do
	patch -d "$out/src" -p1 -s --no-backup-if-mismatch <"$p" >"$out/patch.log" 2>&1 ||
		{ cat "$out/patch.log" >&2; die "$(basename "$p") does not apply to Xen $ver"; }
done
"$here/import.sh" "$out/src" >&2
# Without the series (x86_64), the recipe of docs/integration.md.
[ ${#patches[@]} -gt 0 ] || echo 'obj-y += libvirq/' >>"$out/src/xen/common/Makefile"

mk=(make -C "$out/src/xen" XEN_TARGET_ARCH="$arch" "${cross[@]}" O="$out/build")
"${mk[@]}" defconfig >"$out/build.log" 2>&1 || { tail -n 30 "$out/build.log" >&2; die "defconfig"; }
if [ "$arch" = arm64 ]; then
	printf '%s\n' CONFIG_EXPERT=y CONFIG_UNSUPPORTED=y CONFIG_HAS_ITS=y CONFIG_GICV4=y \
		CONFIG_DEBUG=y CONFIG_PERF_COUNTERS=y >>"$out/build/.config"
	"${mk[@]}" olddefconfig >>"$out/build.log" 2>&1 || die "olddefconfig"
	for c in CONFIG_HAS_ITS CONFIG_GICV4 CONFIG_LIBVIRQ CONFIG_PERF_COUNTERS; do
		grep -q "^$c=y" "$out/build/.config" || die "$c did not stick in Xen $ver's .config"
	done
fi
"${mk[@]}" -j"$jobs" >>"$out/build.log" 2>&1 ||
	{ grep -E 'error' "$out/build.log" | head -n 20 >&2; tail -n 20 "$out/build.log" >&2;
	  die "Xen $ver $arch build (log: $out/build.log)"; }
[ -f "$out/build/xen-syms" ] || die "no xen-syms"
echo "$inputs" >"$out/.inputs"
echo "build.sh: Xen $ver $arch built in $(($(date +%s) - t0)) s ($out/build)" >&2
echo "$out/build"
