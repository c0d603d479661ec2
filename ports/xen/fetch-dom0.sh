#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fetches what ports/xen/test.sh's dom0 is made of, from the Debian archive
# only, through a private apt directory under CACHE (the machine's Debian
# sources; its own apt state untouched), downloaded and unpacked once:
# the arm64 kernel (the ABI named by linux-image-arm64:arm64's Depends: it
# changes with every security update), its headers and linux-kbuild (amd64)
# to build dom0's modules, the kernel's block-device modules (NVMe,
# virtio-blk and what they depend on), and busybox-static:arm64.
#
#   usage: ports/xen/fetch-dom0.sh CACHE
#
# Prints shell assignments on stdout (eval them):
#   image=  the kernel Image        kdir=  the module build tree
#   busybox= the static busybox     mods=  a directory of .ko files and
#                                          "order", their insmod order
# A failure after fresh apt lists fails the run (messages on stderr).
set -euo pipefail
die() { echo "fetch-dom0: $*" >&2; exit 1; }
log() { echo "fetch-dom0: $*" >&2; }
[ $# -eq 1 ] || die "usage: $0 CACHE"
mkdir -p "$1"
cache=$(cd "$1" && pwd)

# --------------------------------------- private apt (the Debian archive)
# The machine's Debian entries (suites <codename>, -updates, -security: a
# third-party repository has other suite names), amd64 and arm64.
suite=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$suite" ] || die "cannot tell the Debian release (/etc/os-release)"
dc=$cache/xen-gicv4
aptd=$dc/apt
mkdir -p "$aptd/sources" "$aptd/lists/partial" "$aptd/cache/archives/partial" "$dc/debs"
{
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk -v suite="$suite" '
			function flush() {
				if (types ~ /(^| )deb( |$)/ && uris != "" && suites != "") {
					n = split(suites, s, " "); keep = ""
					for (i = 1; i <= n; i++)
						if (s[i] == suite || s[i] == suite "-updates" || s[i] == suite "-security")
							keep = keep " " s[i]
					if (keep != "") {
						print "Types: deb"; print "URIs: " uris; print "Suites:" keep
						print "Components: " comps
						if (key != "") print "Signed-By: " key
						print ""
					}
				}
				types = uris = suites = comps = key = ""
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			/^Enabled:[ \t]*no/ { types = "disabled" }
			/^Types:/ { sub(/^Types:[ \t]*/, ""); if (types != "disabled") types = $0 }
			/^URIs:/ { sub(/^URIs:[ \t]*/, ""); uris = $0 }
			/^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
			/^Components:/ { sub(/^Components:[ \t]*/, ""); comps = $0 }
			/^Signed-By:/ { sub(/^Signed-By:[ \t]*/, ""); key = $0 }
			END { flush() }' "$f"
	done
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		# deb [options] URI SUITE COMPONENTS...: Debian suites only.
		awk -v suite="$suite" '$1 == "deb" {
			i = 2; key = ""
			if ($2 ~ /^\[/) { while ($i !~ /\]$/) { if ($i ~ /signed-by=/) key = $i; i++ }
					 if ($i ~ /signed-by=/) key = $i; i++ }
			sub(/.*signed-by=/, "", key); sub(/\]$/, "", key)
			if ($(i + 1) != suite && $(i + 1) != suite "-updates" && $(i + 1) != suite "-security") next
			comps = ""; for (j = i + 2; j <= NF; j++) comps = comps " " $j
			print "Types: deb"; print "URIs: " $i; print "Suites: " $(i + 1)
			print "Components:" comps; if (key != "") print "Signed-By: " key; print ""
		}' "$f"
	done
} >"$aptd/sources/debian.sources.new"
grep -q '^URIs:' "$aptd/sources/debian.sources.new" || die "no Debian '$suite' apt source on this machine"
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$aptd/sources"
	-o Dir::State::Lists="$aptd/lists" -o Dir::Cache="$aptd/cache"
	-o Dir::Cache::pkgcache=pkgcache.bin -o Dir::Cache::srcpkgcache=srcpkgcache.bin # (off in container images)
	-o Dir::State::status=/var/lib/dpkg/status -o APT::Sandbox::User=root
	-o Acquire::Languages=none -o APT::Architectures::=amd64 -o APT::Architectures::=arm64 -q)
apt_update() {
	log "apt-get update (private lists: amd64, arm64)"
	apt-get "${apt_opts[@]}" update >"$aptd/update.log" 2>&1 || { cat "$aptd/update.log" >&2; return 1; }
	! grep -qE '^(W|E): ' "$aptd/update.log" || { cat "$aptd/update.log" >&2; return 1; }
}
# Lists are refreshed once a day, or when the sources changed.
if ! cmp -s "$aptd/sources/debian.sources.new" "$aptd/sources/debian.sources" ||
	[ -z "$(find "$aptd/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null)" ]; then
	mv "$aptd/sources/debian.sources.new" "$aptd/sources/debian.sources"
	apt_update || die "apt-get update failed"
	updated=1
else
	rm -f "$aptd/sources/debian.sources.new"
	updated=0
fi

# deb PACKAGE[:ARCH]: the archive's candidate of PACKAGE, downloaded into the
# cache unless there already (name, version and size from --print-uris);
# prints its path. A failure after fresh lists fails the run.
deb() {
	local p=$1 line uri file size
	line=$(apt-get "${apt_opts[@]}" download --print-uris "$p" 2>/dev/null | head -n1)
	if [ -z "$line" ] && [ $updated = 0 ]; then
		apt_update >&2 || return 1
		updated=1
		line=$(apt-get "${apt_opts[@]}" download --print-uris "$p" 2>/dev/null | head -n1)
	fi
	[ -n "$line" ] || { echo "no package $p in the archive" >&2; return 1; }
	read -r uri file size _ <<<"$line"
	if [ "$(stat -c %s "$dc/debs/$file" 2>/dev/null)" != "$size" ]; then
		log "downloading $p"
		(cd "$dc/debs" && apt-get "${apt_opts[@]}" download "$p" >"$aptd/download.log" 2>&1) ||
			{ cat "$aptd/download.log" >&2; echo "apt-get download $p failed" >&2; return 1; }
		[ "$(stat -c %s "$dc/debs/$file" 2>/dev/null)" = "$size" ] ||
			{ echo "$p: $file missing or truncated after the download" >&2; return 1; }
	fi
	echo "$dc/debs/$file"
}
# depends PACKAGE REGEX: the first dependency of PACKAGE matching REGEX.
depends() {
	apt-cache "${apt_opts[@]}" depends "$1" 2>/dev/null |
		sed -n 's/^ *Depends: <\{0,1\}\([^:> ]*\).*/\1/p' | grep -E -m1 "$2" || true
}

# The dom0 kernel's ABI changes with every security update: take it from
# the meta package, never a fixed name.
kimg=$(depends linux-image-arm64:arm64 '^linux-image-[0-9].*-arm64$')
[ -n "$kimg" ] || die "linux-image-arm64:arm64 names no kernel"
kver=${kimg#linux-image-}
kcommon=$(depends "linux-headers-$kver:arm64" '^linux-headers-.*-common$')
kbuild=$(depends "linux-headers-$kver:arm64" '^linux-kbuild-')
[ -n "$kcommon" ] && [ -n "$kbuild" ] || die "cannot resolve the headers of $kver"
log "dom0 kernel $kver (headers $kcommon, $kbuild:amd64)"
d_img=$(deb "linux-image-$kver:arm64") || die "download linux-image-$kver:arm64"
d_hdr=$(deb "linux-headers-$kver:arm64") || die "download linux-headers-$kver:arm64"
d_com=$(deb "$kcommon") || die "download $kcommon"
d_kbd=$(deb "$kbuild:amd64") || die "download $kbuild:amd64"
d_bb=$(deb busybox-static:arm64) || die "download busybox-static:arm64"

# Unpacked once per set of packages: the kernel Image only (not its 300 MB
# of modules), the module build tree, busybox.
key=$(printf '%s\n' "$d_img" "$d_hdr" "$d_com" "$d_kbd" "$d_bb" | md5sum | cut -c1-12)
x=$dc/x-$key
if [ ! -f "$x/.done" ]; then
	log "unpacking the kernel, its headers and busybox"
	rm -rf "$dc"/x-* && mkdir -p "$x/img" "$x/kroot" "$x/bb"
	dpkg-deb --fsys-tarfile "$d_img" | tar -x -C "$x/img" --wildcards './boot/vmlinuz-*' ||
		die "cannot unpack $d_img"
	for d in "$d_hdr" "$d_com" "$d_kbd"; do
		dpkg-deb -x "$d" "$x/kroot" || die "cannot unpack $d"
	done
	dpkg-deb -x "$d_bb" "$x/bb" || die "cannot unpack $d_bb"
	# The arch headers' Makefile includes the common tree by absolute path.
	sed -i "s|^include /usr/src/|include $x/kroot/usr/src/|" "$x/kroot/usr/src/linux-headers-$kver/Makefile"
	touch "$x/.done"
fi
kdir=$x/kroot/usr/src/linux-headers-$kver
image=$x/img/boot/vmlinuz-$kver
[ -f "$image" ] && [ -f "$kdir/Makefile" ] && [ -x "$x/bb/bin/busybox" ] || die "incomplete unpack in $x"

# The block drivers' modules (Debian builds them as modules) and what they
# need, in dependency order: each module's depends= (its .modinfo), plus
# the crypto providers t10-pi's users ask for by name (loaded first, so
# that no request_module() is needed).
mods=$x/mods
if [ ! -f "$mods/order" ]; then
	log "extracting the block-device modules"
	rm -rf "$mods" "$x/modroot" && mkdir -p "$mods" "$x/modroot"
	dpkg-deb --fsys-tarfile "$d_img" | tar -x -C "$x/modroot" --wildcards \
		'./lib/modules/*/kernel/lib/crc*' './lib/modules/*/kernel/crypto/crc*' \
		'./lib/modules/*/kernel/block/t10-pi.ko' \
		'./lib/modules/*/kernel/drivers/nvme/host/nvme*.ko' \
		'./lib/modules/*/kernel/drivers/virtio/virtio_pci*.ko' \
		'./lib/modules/*/kernel/drivers/block/virtio_blk.ko' || die "cannot unpack modules from $d_img"
	find "$x/modroot" -name '*.ko' -exec cp {} "$mods/" \;
	rm -rf "$x/modroot"
	# insmod order: a depth-first walk of depends=.
	declare -A seen=()
	order=()
	visit() {
		local m=$1 d
		[ -z "${seen[$m]:-}" ] || return 0
		seen[$m]=1
		[ -f "$mods/$m.ko" ] || die "module $m (a dependency) not in $d_img"
		for d in $(tr '\0' '\n' <"$mods/$m.ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
			visit "$d"
		done
		order+=("$m.ko")
	}
	for m in crc64_rocksoft_generic crct10dif_generic nvme virtio_pci virtio_blk; do
		visit "$m"
	done
	printf '%s\n' "${order[@]}" >"$mods/order"
fi
[ -s "$mods/order" ] || die "no module order in $mods"

printf 'image=%q\nkdir=%q\nbusybox=%q\nmods=%q\n' "$image" "$kdir" "$x/bb/bin/busybox" "$mods"
