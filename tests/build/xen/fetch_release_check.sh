#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks ports/xen/fetch-xen-release.sh's download path, the one a user
# without shared/xen/ beside the checkout takes, without the network: a
# curl earlier in PATH serves a release tarball built here from the
# hypervisor tarball (the tag's tree with tools/, stubdom/ and extras/ put
# back as small directories, packed as the Xen Project packs its releases:
# xen-4.22.0/ at the top, gzip) and records every address it is asked for.
#
#   usage: tests/build/xen/fetch_release_check.sh SOURCE_DIR
#
# Needs xen-4.22.0-hv.tar.xz in $LIBVIRQ_XEN_SOURCE_DIR or in shared/xen/
# beside SOURCE_DIR; without it the check is skipped (exit 77).
# Checks, each in a checkout copy with nothing beside it unless it says so:
#  1. cold: the official address is fetched once, the tree is unpacked
#     without tools/, stubdom/, extras/, its digest holds, stdout is the
#     directory only;
#  2. warm: an unpacked tree is printed again without a download;
#  3. kept tarball: with the tree gone, the kept tarball is unpacked again
#     without a download;
#  4. a tarball whose hypervisor tree differs in one line is refused, and
#     neither it nor its tree is kept;
#  5. after that refusal the next run downloads again and succeeds;
#  6. a tarball that holds no Xen tree is refused;
#  7. a failed download fails the run and keeps no tarball;
#  8. with the hypervisor tarball beside the checkout, it is used instead
#     of the download and gives the same xen/.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 SOURCE_DIR" >&2; exit 2; }
src=$(cd "$1" && pwd)
ver=4.22.0
hv=
for d in "${LIBVIRQ_XEN_SOURCE_DIR:-}" "$(cd "$src/.." && pwd)/shared/xen"; do
	[ -n "$d" ] && [ -f "$d/xen-$ver-hv.tar.xz" ] && { hv=$d/xen-$ver-hv.tar.xz; break; }
done
if [ -z "$hv" ]; then
	echo "SKIP: no xen-$ver-hv.tar.xz (LIBVIRQ_XEN_SOURCE_DIR or shared/xen/ beside the checkout)"
	exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
pass() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# Release tarballs: good, one-line-changed, not Xen.
mkdir -p "$tmp/srv" "$tmp/pack"
tar -xJf "$hv" -C "$tmp/pack"
top=$tmp/pack/xen-$ver
for d in tools stubdom extras; do
	mkdir -p "$top/$d"
	echo "not part of the hypervisor" >"$top/$d/README"
done
tar -czf "$tmp/srv/good.tar.gz" -C "$tmp/pack" "xen-$ver"
sed -i '1s/$/ /' "$top/xen/Makefile"
tar -czf "$tmp/srv/changed.tar.gz" -C "$tmp/pack" "xen-$ver"
rm -rf "$tmp/pack"
mkdir -p "$tmp/pack/other-1.0"
echo "int main(void) { return 0; }" >"$tmp/pack/other-1.0/main.c"
tar -czf "$tmp/srv/other.tar.gz" -C "$tmp/pack" other-1.0
rm -rf "$tmp/pack"

# The curl: serves $tmp/srv/$SERVE (or fails with curl's 22 when SERVE is
# "fail") to the -o file and logs each address.
mkdir -p "$tmp/bin"
cat >"$tmp/bin/curl" <<EOF
#!/usr/bin/env bash
out= url=
while [ \$# -gt 0 ]; do
	case \$1 in
	-o) out=\$2; shift 2 ;;
	-*) shift ;;
	*) url=\$1; shift ;;
	esac
done
echo "\$url" >>"$tmp/urls"
[ "\${SERVE:-good}" != fail ] || { echo "curl: (22) The requested URL returned error: 404" >&2; exit 22; }
cp "$tmp/srv/\${SERVE:-good}.tar.gz" "\$out"
EOF
chmod +x "$tmp/bin/curl"

# checkout NAME: a copy of the script in a checkout layout of its own, so
# that nothing is beside it.
checkout() {
	mkdir -p "$tmp/$1/co/ports/xen"
	cp "$src/ports/xen/fetch-xen-release.sh" "$tmp/$1/co/ports/xen/"
	echo "$tmp/$1/co/ports/xen/fetch-xen-release.sh"
}
# run SCRIPT CACHE: the script with the fake curl and no override; sets
# out, err, rc.
run() {
	rc=0
	out=$(env -u LIBVIRQ_XEN_SOURCE_DIR PATH="$tmp/bin:$PATH" "$1" "$ver" "$2" 2>"$tmp/err") || rc=$?
	err=$(cat "$tmp/err")
}
urls() { [ -f "$tmp/urls" ] && wc -l <"$tmp/urls" || echo 0; }
digest() {
	(cd "$1" && find xen -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}
official=https://downloads.xenproject.org/release/xen/$ver/xen-$ver.tar.gz

# 1. cold
s=$(checkout a)
c=$tmp/a/cache
rm -f "$tmp/urls"
run "$s" "$c"
if [ $rc -eq 0 ] && [ "$out" = "$c/xen-$ver" ] && [ "$(urls)" = 1 ] &&
	[ "$(cat "$tmp/urls")" = "$official" ] && [ -f "$c/xen-$ver/xen/Makefile" ] &&
	[ -f "$c/xen-$ver/.done" ] && [ ! -e "$c/xen-$ver/tools" ] &&
	[ ! -e "$c/xen-$ver/stubdom" ] && [ ! -e "$c/xen-$ver/extras" ] &&
	[ -s "$c/xen-$ver.tar.gz" ]; then
	pass "cold: $official fetched once, unpacked without tools/stubdom/extras, digest holds"
else
	fail "cold: rc=$rc out=$out urls=$(urls) err=$err"
fi
cold_digest=$(digest "$c/xen-$ver" 2>/dev/null || echo none)

# 2. warm
rm -f "$tmp/urls"
run "$s" "$c"
if [ $rc -eq 0 ] && [ "$out" = "$c/xen-$ver" ] && [ "$(urls)" = 0 ]; then
	pass "warm: the unpacked tree again, no download"
else
	fail "warm: rc=$rc out=$out urls=$(urls) err=$err"
fi

# 3. kept tarball
rm -rf "$c/xen-$ver"
run "$s" "$c"
if [ $rc -eq 0 ] && [ "$out" = "$c/xen-$ver" ] && [ "$(urls)" = 0 ] &&
	[ "$(digest "$c/xen-$ver")" = "$cold_digest" ]; then
	pass "kept tarball: unpacked again, no download"
else
	fail "kept tarball: rc=$rc out=$out urls=$(urls) err=$err"
fi

# 4. one line changed
s=$(checkout b)
c=$tmp/b/cache
SERVE=changed run "$s" "$c"
if [ $rc -ne 0 ] && [ -z "$out" ] && [[ $err == *"digest"* ]] &&
	[ ! -e "$c/xen-$ver.tar.gz" ] && [ ! -e "$c/xen-$ver" ]; then
	pass "changed tree: refused, tarball and tree removed"
else
	fail "changed tree: rc=$rc out=$out err=$err"
fi

# 5. download again after the refusal
rm -f "$tmp/urls"
run "$s" "$c"
if [ $rc -eq 0 ] && [ "$out" = "$c/xen-$ver" ] && [ "$(urls)" = 1 ] &&
	[ "$(digest "$c/xen-$ver")" = "$cold_digest" ]; then
	pass "after refusal: downloaded again, accepted"
else
	fail "after refusal: rc=$rc out=$out urls=$(urls) err=$err"
fi

# 6. not Xen
s=$(checkout c)
c=$tmp/c/cache
SERVE=other run "$s" "$c"
if [ $rc -ne 0 ] && [ -z "$out" ] && [[ $err == *"no Xen tree"* ]] && [ ! -e "$c/xen-$ver" ]; then
	pass "not Xen: refused"
else
	fail "not Xen: rc=$rc out=$out err=$err"
fi

# 7. failed download
s=$(checkout d)
c=$tmp/d/cache
SERVE=fail run "$s" "$c"
if [ $rc -ne 0 ] && [ -z "$out" ] && [[ $err == *"download of $official failed"* ]] &&
	[ ! -e "$c/xen-$ver.tar.gz" ] && [ ! -e "$c/xen-$ver" ]; then
	pass "failed download: fails, keeps no tarball"
else
	fail "failed download: rc=$rc out=$out err=$err"
fi

# 8. hypervisor tarball beside the checkout
s=$(checkout e)
c=$tmp/e/cache
mkdir -p "$tmp/e/shared/xen"
cp "$hv" "$tmp/e/shared/xen/"
rm -f "$tmp/urls"
run "$s" "$c"
if [ $rc -eq 0 ] && [ "$out" = "$c/xen-$ver" ] && [ "$(urls)" = 0 ] &&
	[ "$(digest "$c/xen-$ver")" = "$cold_digest" ]; then
	pass "beside the checkout: used, no download, the same xen/"
else
	fail "beside the checkout: rc=$rc out=$out urls=$(urls) err=$err"
fi

echo "$((8 - fails))/8 checks passed"
[ $fails -eq 0 ]
