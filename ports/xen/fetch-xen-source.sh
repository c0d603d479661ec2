#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches the Xen source of this Debian release from the Debian archive and
# prints the directory it is unpacked in (the one holding xen/, tools/, ...).
#
#   usage: ports/xen/fetch-xen-source.sh CACHE_DIR
#
# The source package `xen` is taken with `apt-get source` from the same
# archive, suite and keyring the machine's own apt sources use
# (/etc/apt/sources.list.d/*.sources or /etc/apt/sources.list), through a
# private apt directory under CACHE_DIR: the system's apt configuration, lists
# and caches are not touched and no root-owned state changes. Nothing is
# downloaded from anywhere but that archive.
#
# Warm cache: when CACHE_DIR already holds an unpacked source, it is printed
# without any network access. Every failure (no matching archive entry,
# download, checksum, unpack) exits non-zero with a message on stderr; stdout
# carries only the directory.
#
# Environment: LIBVIRQ_XEN_SUITE overrides the suite (default: the release's
# codename from /etc/os-release, e.g. bookworm).
set -euo pipefail

die() { echo "fetch-xen-source: $*" >&2; exit 1; }
[ $# -eq 1 ] || die "usage: $0 CACHE_DIR"
mkdir -p "$1"
cache=$(cd "$1" && pwd)
srcroot=$cache/src

# Warm cache: an unpacked tree from an earlier run. .done names it relative
# to $srcroot, so the cache can be moved or copied (a file written before
# that held an absolute path: only its last component is used).
if [ -f "$srcroot/.done" ]; then
	dir=$srcroot/$(basename "$(cat "$srcroot/.done")")
	if [ -f "$dir/xen/Makefile" ]; then
		echo "$dir"
		exit 0
	fi
fi

suite=${LIBVIRQ_XEN_SUITE:-}
if [ -z "$suite" ] && [ -r /etc/os-release ]; then
	suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
fi
[ -n "$suite" ] || die "cannot tell the Debian suite (set LIBVIRQ_XEN_SUITE)"

# The archive entry of the machine's own sources that serves $suite:
# prints "URI KEYRING" (KEYRING may be empty: apt's default trusted keys).
find_entry() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		# deb822 stanzas are separated by blank lines.
		awk -v suite="$suite" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " suite " ") && uris != "") {
					split(uris, u, " ")
					print u[1], keyring
					found = 1
					exit
				}
				types = suites = uris = keyring = ""
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
			/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
			/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
			/^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); keyring = $0 }
			END { if (!found) flush() }
		' "$f"
	done | head -n1
	local l
	for l in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$l" ] || continue
		# deb [signed-by=K] URI SUITE COMPONENTS...
		sed -n 's/^[ \t]*deb[ \t]\+//p' "$l" | awk -v suite="$suite" '{
			key = ""
			if ($1 ~ /^\[/) {
				while ($1 !~ /\]$/) { if ($1 ~ /signed-by=/) { key = $1 }; $1 = ""; $0 = $0 }
				if ($1 ~ /signed-by=/) key = $1
				$1 = ""; $0 = $0
				sub(/.*signed-by=/, "", key); sub(/[] ].*/, "", key)
			}
			if ($2 == suite) { print $1, key; exit }
		}'
	done | head -n1
}
entry=$(find_entry | head -n1)
[ -n "$entry" ] || die "no apt source of this machine serves suite '$suite'"
uri=${entry%% *}
keyring=${entry#* }
[ "$keyring" != "$uri" ] || keyring=""

apt=$cache/apt
rm -rf "$apt"
mkdir -p "$apt/sources" "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/dl"
{
	echo "Types: deb-src"
	echo "URIs: $uri"
	echo "Suites: $suite"
	echo "Components: main"
	[ -z "$keyring" ] || echo "Signed-By: $keyring"
} >"$apt/sources/xen-src.sources"
echo "fetch-xen-source: deb-src $uri $suite main${keyring:+ (keyring $keyring)}" >&2

# Private state only. The download runs as root (the cache may be a
# directory the _apt sandbox user cannot write).
opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$apt/sources"
      -o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
      -o Dir::State::status=/var/lib/dpkg/status -o APT::Sandbox::User=root
      -o Acquire::Languages=none)
apt-get "${opts[@]}" -q update >"$apt/update.log" 2>&1 ||
	{ cat "$apt/update.log" >&2; die "apt-get update failed"; }
if grep -qE '^(W|E): ' "$apt/update.log"; then
	cat "$apt/update.log" >&2
	die "apt-get update reported a problem"
fi
(cd "$apt/dl" && apt-get "${opts[@]}" -q source --download-only xen) >"$apt/source.log" 2>&1 ||
	{ cat "$apt/source.log" >&2; die "apt-get source xen failed"; }

orig=$(ls "$apt/dl"/xen_*.orig.tar.* 2>/dev/null | head -n1)
[ -n "$orig" ] || die "no xen_*.orig.tar.* in the download (see $apt/source.log)"
ver=$(basename "$orig" | sed 's/^xen_\(.*\)\.orig\.tar\..*$/\1/')
rm -rf "$srcroot"
mkdir -p "$srcroot/unpack"
tar -xf "$orig" -C "$srcroot/unpack" || die "cannot unpack $orig"
top=$(find "$srcroot/unpack" -mindepth 1 -maxdepth 1 -type d | head -n1)
[ -n "$top" ] && [ -f "$top/xen/Makefile" ] || die "$orig does not hold a Xen tree"
dir=$srcroot/xen-$ver
mv "$top" "$dir"
rmdir "$srcroot/unpack"
cp "$apt/dl"/*.dsc "$srcroot/" 2>/dev/null || true
basename "$dir" >"$srcroot/.done"
echo "$dir"
