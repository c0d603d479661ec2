#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The real Xen hypervisor delivering a PCI device's MSIs to dom0 as GICv4
# direct vLPIs through libvirq, on QEMU's virt board with a GICv4.0, measured
# the way the same Xen binary runs with direct injection off and on:
#
#   gicv4=off  Xen's own path: each edu MSI is a host LPI that Xen injects
#              into dom0 in software (a list register);
#   gicv4=on   libvirq maps dom0's MSI as a vLPI of the target vCPU's vPE:
#              the ITS delivers it to dom0 without entering Xen.
#
#   usage: ports/xen/test.sh
#
# 1. Xen 4.17 from Debian's source package (ports/xen/fetch-xen-source.sh),
#    dom0's kernel (the ABI named by linux-image-arm64:arm64's Depends),
#    its headers and linux-kbuild (amd64) for the test module, and
#    busybox-static:arm64, all from the Debian archive through a private apt
#    directory under the cache (the machine's Debian sources; its own apt
#    state untouched), downloaded once and cached.
# 2. Xen with ports/xen/patches/*.patch and libvirq linked as
#    docs/integration.md ("Xen") says (ITS: CONFIG_EXPERT, CONFIG_UNSUPPORTED,
#    CONFIG_HAS_ITS; CONFIG_GICV4_LIBVIRQ), dom0's edu module
#    (ports/xen/dom0/edu_msi.c) and a busybox initramfs (ports/xen/dom0/init).
# 3. Two boots of the same Xen (qemu-system-aarch64 -M virt,gic-version=4,
#    virtualization=on -cpu max -smp 2 -device edu, vwfi=native), gicv4=off
#    then gicv4=on: dom0 raises N edu MSIs, each with its IRQ on the other
#    vCPU than the sending loop, and times them; Xen prints its counters when
#    dom0 powers off.
#
# Prints, per mode, a line starting exactly with
#   mode=off delivered=D/N injected=S
#   mode=on delivered=D/N injected=S
# followed by doorbells=B min_us=.. median_us=.., then PASS or FAIL. Exits 0
# only when both modes deliver N/N, ON injects no LPI in software and OFF
# injects N, libvirq reported no error and its boot-time self-test passed.
# A failed download or build fails the run: nothing is skipped.
#
# Environment: N (MSIs per mode, default 1000, at least 1000 for the pass
# criteria of CI), LIBVIRQ_DOWNLOAD_CACHE (default <repo>/build/cache),
# LIBVIRQ_XEN_TEST_WORK (default <repo>/build/hosts/xen-gicv4, emptied
# first), LIBVIRQ_JOBS (default 2), QEMU_TIMEOUT (seconds per boot, default
# 120), EXTRA=1 (one more, informational ON boot with WFI trapping and 3
# dom0 vCPUs on 2 pCPUs: doorbells, PendingLast wake-ups, VMOVPs).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lv=$(cd "$here/../.." && pwd)
N=${N:-1000}
cache=${LIBVIRQ_DOWNLOAD_CACHE:-$lv/build/cache}
work=${LIBVIRQ_XEN_TEST_WORK:-$lv/build/hosts/xen-gicv4}
jobs=${LIBVIRQ_JOBS:-2}
qemu_timeout=${QEMU_TIMEOUT:-120}
extra=${EXTRA:-0}
t0=$(date +%s)

log() { echo "[$(($(date +%s) - t0))s] $*" >&2; }
die() { echo "FAIL: $*" >&2; echo "FAIL"; exit 1; }

case $N in '' | *[!0-9]*) die "N=$N is not a number" ;; esac
[ "$(id -u)" = 0 ] && root=1 || root=0

# ------------------------------------------------------------ host tools
# Debian packages; scripts/debian-packages.txt lists them for CI as well.
need=()
for t in qemu-system-aarch64:qemu-system-arm aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu \
	flex:flex bison:bison make:make python3:python3 cpio:cpio gzip:gzip xz:xz-utils \
	dpkg-deb:dpkg apt-get:apt; do
	command -v "${t%%:*}" >/dev/null || need+=("${t#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
	[ $root = 1 ] || die "missing packages (install as root): ${need[*]}"
	log "installing ${need[*]}"
	apt-get -q -o DPkg::Lock::Timeout=600 update >&2 || die "apt-get update"
	DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=600 \
		install --no-install-recommends "${need[@]}" >&2 || die "apt-get install ${need[*]}"
fi

mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# ------------------------------------------------------------ Xen's source
xen_src=$("$lv/ports/xen/fetch-xen-source.sh" "$cache/xen") || die "cannot get Xen's source"
log "Xen source: $xen_src"

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

# ------------------------------------------------------------ Xen
log "building Xen with ports/xen/patches and libvirq"
cp -a "$xen_src" "$work/xen"
for p in "$here"/patches/*.patch; do
	patch -d "$work/xen" -p1 -s --no-backup-if-mismatch <"$p" >"$work/patch.log" 2>&1 ||
		{ cat "$work/patch.log" >&2; die "patch $(basename "$p") does not apply"; }
done
# docs/integration.md, "Xen" (patch 0001 adds the obj-y line, under
# CONFIG_GICV4_LIBVIRQ).
mkdir "$work/xen/xen/drivers/libvirq"
ln -s "$lv" "$work/xen/xen/drivers/libvirq/libvirq"
ln -s libvirq/ports/xen/Makefile "$work/xen/xen/drivers/libvirq/Makefile"
xm=(make -C "$work/xen/xen" XEN_TARGET_ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- O="$work/xen-out")
"${xm[@]}" defconfig >"$work/xen-build.log" 2>&1 || { tail -n 30 "$work/xen-build.log" >&2; die "Xen defconfig"; }
cat >>"$work/xen-out/.config" <<'EOF'
CONFIG_EXPERT=y
CONFIG_UNSUPPORTED=y
CONFIG_HAS_ITS=y
CONFIG_GICV4_LIBVIRQ=y
CONFIG_DEBUG=y
EOF
"${xm[@]}" olddefconfig >>"$work/xen-build.log" 2>&1 || die "Xen olddefconfig"
for c in CONFIG_HAS_ITS CONFIG_GICV4_LIBVIRQ; do
	grep -q "^$c=y" "$work/xen-out/.config" || die "$c did not stick in Xen's .config"
done
"${xm[@]}" -j"$jobs" >>"$work/xen-build.log" 2>&1 ||
	{ grep -E 'error' "$work/xen-build.log" | head -n 20 >&2; tail -n 20 "$work/xen-build.log" >&2; die "Xen build (log: $work/xen-build.log)"; }
xen=$work/xen-out/xen
[ -f "$xen" ] || die "no $xen"

# ------------------------------------------------------------ dom0
log "building the edu module and dom0's initramfs"
mkdir -p "$work/edu"
cp "$here/dom0/edu_msi.c" "$here/dom0/Kbuild" "$work/edu/"
make -C "$kdir" M="$work/edu" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- KCFLAGS=-Werror modules \
	>"$work/edu-build.log" 2>&1 || { cat "$work/edu-build.log" >&2; die "edu module build"; }
r=$work/initrd
mkdir -p "$r/bin" "$r/dev" "$r/proc" "$r/sys"
cp "$x/bb/bin/busybox" "$r/bin/busybox"
ln -s busybox "$r/bin/sh"
install -m 755 "$here/dom0/init" "$r/init"
cp "$work/edu/edu_msi.ko" "$r/"
# Without root there is no device node: dom0's init mounts devtmpfs then.
[ $root = 0 ] || mknod -m 600 "$r/dev/console" c 5 1
(cd "$r" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -9 >"$work/initrd.cpio.gz" ||
	die "cpio"
initrd=$work/initrd.cpio.gz

# The guest-loader addresses: the kernel at 0x42000000, the initramfs after
# it on a 2 MiB boundary with 16 MiB to spare (the Image is ~33 MB).
ksize=$(stat -c %s "$image")
initrd_addr=$(printf '%#x' $(((0x42000000 + ksize + 0x1000000 + 0x1fffff) & ~0x1fffff)))

# ------------------------------------------------------------ boots
# boot LOG XEN_ARGS VWFI DOM0_ARGS
boot() {
	local out=$1 xargs=$2 vwfi=$3 dargs=$4 rc=0
	timeout -k 5 "$qemu_timeout" qemu-system-aarch64 \
		-M virt,gic-version=4,virtualization=on -cpu max -m 2G -smp 2 \
		-nographic -no-reboot -nic none -device edu \
		-kernel "$xen" \
		-append "dom0_mem=512M console=dtuart dtuart=/pl011@9000000 loglvl=all guest_loglvl=all bootscrub=0 vwfi=$vwfi $xargs" \
		-device guest-loader,addr=0x42000000,kernel="$image",bootargs="console=hvc0 earlycon=xen rdinit=/init panic=-1 edu_n=$N $dargs" \
		-device guest-loader,addr="$initrd_addr",initrd="$initrd" \
		</dev/null >"$out" 2>&1 || rc=$?
	echo "qemu-rc=$rc" >>"$out"
}
# field LOG KEY: the value of KEY= on dom0's EDU-MSI line or Xen's GICv4 line.
field() {
	grep -aE 'EDU-MSI: n=|GICv4: mode=' "$1" | grep -aoE "(^| )$2=[0-9]+" | head -n1 | cut -d= -f2 || true
}
status=0
for mode in off on; do
	L=$work/boot-$mode.log
	log "booting gicv4=$mode (N=$N)"
	s=$(date +%s)
	boot "$L" "gicv4=$mode" native "edu_cpu=-3"
	log "boot gicv4=$mode: $(($(date +%s) - s))s"
	D=$(field "$L" delivered) S=$(field "$L" sw_injected_lpis) B=$(field "$L" doorbells)
	MIN=$(field "$L" min_ns) MED=$(field "$L" median_ns)
	if [ -z "$D" ] || [ -z "$S" ]; then
		tail -n 30 "$L" >&2
		echo "mode=$mode delivered=${D:-0}/$N injected=${S:-?} (no result; log: $L)"
		status=1
		continue
	fi
	printf 'mode=%s delivered=%s/%s injected=%s doorbells=%s min_us=%s median_us=%s\n' \
		"$mode" "$D" "$N" "$S" "${B:-0}" "$((${MIN:-0} / 1000))" "$((${MED:-0} / 1000))"
	[ "$D" = "$N" ] || { echo "  $mode: $D of $N MSIs delivered" >&2; status=1; }
	grep -aq 'GICv4: .*errors=0' "$L" || { echo "  $mode: libvirq or the port reported errors ($L)" >&2; status=1; }
	grep -aq 'libvirq: MMIO windows: ok' "$L" || { echo "  $mode: the port's boot-time self-test did not pass ($L)" >&2; status=1; }
	if [ $mode = on ]; then
		grep -aq 'direct vLPI injection for dom0 ON' "$L" || { echo "  on: GICv4 did not come up ($L)" >&2; status=1; }
		[ "$S" = 0 ] || { echo "  on: $S LPIs injected in software, expected 0" >&2; status=1; }
	else
		[ "$S" = "$N" ] || { echo "  off: $S LPIs injected in software, expected $N" >&2; status=1; }
	fi
done
if [ "$extra" = 1 ]; then
	L=$work/boot-on-trap.log
	log "booting gicv4=on, vwfi=trap, 3 dom0 vCPUs on 2 pCPUs (informational)"
	boot "$L" "gicv4=on dom0_max_vcpus=3" trap "edu_cpu=-3 edu_timeout_us=2000000"
	echo "extra=on-trap-3vcpu delivered=$(field "$L" delivered)/$N injected=$(field "$L" sw_injected_lpis)" \
		"doorbells=$(field "$L" doorbells) pl_wakes=$(field "$L" pl_wakes) vmovp=$(field "$L" vmovp)" \
		"its_cmds=$(field "$L" its_cmds) errors=$(field "$L" errors)"
fi
log "done in $(($(date +%s) - t0))s (logs: $work)"
if [ $status = 0 ]; then echo PASS; else echo FAIL; fi
exit $status
