#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Gets the hypervisor source of an upstream Xen release and prints the
# directory it is unpacked in (the one holding xen/, config/, Config.mk).
#
#   usage: ports/xen/fetch-xen-release.sh VERSION CACHE_DIR
#
# VERSION is 4.22.0 (the release this port's second patch series targets).
# Two sources, tried in this order:
#  1. xen-VERSION-hv.tar.xz, the release's hypervisor part (the tag's tree
#     without tools/, stubdom/ and extras/), in $LIBVIRQ_XEN_SOURCE_DIR or
#     else in shared/xen/ in the directory that holds this checkout; checked
#     against its sha256;
#  2. the Xen Project's release tarball,
#     https://downloads.xenproject.org/release/xen/VERSION/xen-VERSION.tar.gz
#     (curl or wget), kept in CACHE_DIR.
# Either way the hypervisor part (every file of xen/ and config/, and
# Config.mk) must hash to the digest recorded below for VERSION: the two
# sources give the same tree, and a corrupt or different download fails.
#
# Warm cache: an unpacked tree from an earlier run is printed at once.
# Every failure exits non-zero with a message on stderr; stdout carries
# only the directory.
set -euo pipefail
die() { echo "fetch-xen-release: $*" >&2; exit 1; }
[ $# -eq 2 ] || die "usage: $0 VERSION CACHE_DIR"
ver=$1
mkdir -p "$2"
cache=$(cd "$2" && pwd)
lv=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

case $ver in
4.22.0)
	# sha256 of xen-4.22.0-hv.tar.xz, and of the hypervisor part's files
	# (`sha256sum` of each, sorted by path, then `sha256sum` of that list).
	hv_sha=9f584e0028fb9707e5bbff0794787db189f662a43b7f81064402e37a96d0d38e
	tree_sha=4ed8c869aa00c4fc208e558189a1f7bce7fd5dc1fb3d2a4bcd3ac7dfc21c386f
	;;
*) die "unknown release $ver (known: 4.22.0)" ;;
esac

dir=$cache/xen-$ver
if [ -f "$dir/.done" ] && [ -f "$dir/xen/Makefile" ]; then
	echo "$dir"
	exit 0
fi

tree_digest() {
	(cd "$1" && find xen config Config.mk -type f -print0 | LC_ALL=C sort -z |
		xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

unpack() { # unpack ARCHIVE: into $dir, keeping the hypervisor part only
	local tmp=$cache/unpack.$$ top
	rm -rf "$tmp" "$dir"
	mkdir -p "$tmp"
	tar -xf "$1" -C "$tmp" || { rm -rf "$tmp"; die "cannot unpack $1"; }
	top=$(find "$tmp" -mindepth 1 -maxdepth 1 -type d | head -n1)
	[ -n "$top" ] && [ -f "$top/xen/Makefile" ] || { rm -rf "$tmp"; die "$1 holds no Xen tree"; }
	rm -rf "$top/tools" "$top/stubdom" "$top/extras"
	mv "$top" "$dir"
	rm -rf "$tmp"
	local got
	got=$(tree_digest "$dir")
	[ "$got" = "$tree_sha" ] ||
		{ rm -rf "$dir" "$cache/xen-$ver.tar.gz"; die "$1: hypervisor tree digest $got, expected $tree_sha (not Xen $ver)"; }
}

hv=
beside=$(cd "$lv/.." && pwd)/shared/xen
for d in "${LIBVIRQ_XEN_SOURCE_DIR:-}" "$beside"; do
	[ -n "$d" ] && [ -f "$d/xen-$ver-hv.tar.xz" ] && { hv=$d/xen-$ver-hv.tar.xz; break; }
done
if [ -n "$hv" ]; then
	[ "$(sha256sum "$hv" | cut -d' ' -f1)" = "$hv_sha" ] || die "$hv: sha256 mismatch"
	echo "fetch-xen-release: $hv" >&2
	unpack "$hv"
else
	url=https://downloads.xenproject.org/release/xen/$ver/xen-$ver.tar.gz
	tgz=$cache/xen-$ver.tar.gz
	if [ ! -s "$tgz" ]; then
		echo "fetch-xen-release: downloading $url" >&2
		if command -v curl >/dev/null; then
			curl -fsSL --retry 3 -o "$tgz.part" "$url" || die "download of $url failed"
		elif command -v wget >/dev/null; then
			wget -q -O "$tgz.part" "$url" || die "download of $url failed"
		else
			die "neither curl nor wget to download $url"
		fi
		mv "$tgz.part" "$tgz"
	fi
	unpack "$tgz"
fi
touch "$dir/.done"
echo "$dir"
