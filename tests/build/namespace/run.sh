#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs the namespace checks against the real hosts' headers (ctest:
# namespace_*). Xen's source comes from ports/xen/fetch-xen-source.sh (Debian's
# `xen` source package, cached in $LIBVIRQ_DOWNLOAD_CACHE or CACHE_DIR), Linux's
# headers from Debian's linux-headers-amd64.
#
# usage: run.sh check   SRC_DIR CACHE_DIR WORK_DIR LIBVIRQ_INCLUDE_DIR
#        run.sh expect-fail SRC_DIR CACHE_DIR WORK_DIR FIXTURE_INCLUDE_DIR NAME...
#                      (the check must fail, naming each NAME as a collision)
#        run.sh xen-h  SRC_DIR CACHE_DIR WORK_DIR LIBVIRQ_INCLUDE_DIR
#                      (every header with public/xen.h, both orders)
#        run.sh fetch  SRC_DIR CACHE_DIR   (only fetch Xen's source into the cache)
set -u
mode=$1 src=$2 cache=${LIBVIRQ_DOWNLOAD_CACHE:-$3}
if [ "$mode" = fetch ]; then
	exec "$src/ports/xen/fetch-xen-source.sh" "$cache/xen"
fi
work=$4 inc=$5
shift 5
here=$src/tests/build/namespace
xen=$("$src/ports/xen/fetch-xen-source.sh" "$cache/xen") || { echo "cannot get Xen's source" >&2; exit 1; }
hosts() {
	local kdir common
	kdir=$("$src/ports/linux/kernel-headers-dir.sh") || return 1
	# The -amd64 directory holds the generated headers; the sources are in -common.
	common=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$kdir/Makefile")
	[ -d "$common/include" ] || { echo "no common headers for $kdir" >&2; return 1; }
	echo "xen=$xen/xen/include:$xen/xen/arch/x86/include:$xen/xen/arch/arm/include"
	echo "linux=$common/include:$common/arch/x86/include:$kdir/include:$kdir/arch/x86/include"
}
case $mode in
check)
	mapfile -t h < <(hosts) && [ ${#h[@]} -eq 2 ] || exit 1
	exec bash "$here/namespace_check.sh" "$work" "$inc" "${h[@]}"
	;;
expect-fail)
	mapfile -t h < <(hosts) && [ ${#h[@]} -eq 2 ] || exit 1
	out=$(bash "$here/namespace_check.sh" "$work" "$inc" "${h[@]}" 2>&1)
	rc=$?
	echo "$out"
	[ $rc -eq 1 ] || { echo "SELF-TEST FAILED: the check exited $rc on $inc, expected 1 (collision)"; exit 1; }
	for name in "$@"; do
		echo "$out" | grep -Eq "^    $name +libvirq" ||
			{ echo "SELF-TEST FAILED: $name was not reported as a collision"; exit 1; }
	done
	echo "self-test ok: the check fails on $inc and names: $*"
	;;
xen-h)
	exec bash "$here/xen_coexist.sh" "$xen" "$inc" "$work"
	;;
*) echo "unknown mode $mode" >&2; exit 2 ;;
esac
