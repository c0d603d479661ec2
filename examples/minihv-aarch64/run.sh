#!/bin/bash
# SPDX-License-Identifier: MIT
# The libvirq demo: builds minihv (a bare-metal SMP EL2 hypervisor embedding
# libvirq) for aarch64 and runs it on QEMU's virt machine with a GICv4.0,
# two CPUs and QEMU's edu PCI device. Installs what is missing (Debian:
# apt-get only when a tool is absent), builds from scratch, prints the table,
# exits with the demo's status.
#
#   examples/minihv-aarch64/run.sh            # build dir: <repo>/build-minihv
#   MINIHV_BUILD=/tmp/x MINIHV_TIMEOUT=300 examples/minihv-aarch64/run.sh
#   MINIHV_SMP=4 MINIHV_QEMU_ARGS="-nic none" ... # same demo, other machine
#   MINIHV_MACHINE=virt,gic-version=3,virtualization=on ...   # must be refused
#   MINIHV_CMAKE_ARGS=-DMINIHV_SELFTEST_FAULTS=ON ...           # must fail
#   MINIHV_BUILD_ONLY=1 / MINIHV_NO_BUILD=1   # build only / run the ELF in MINIHV_BUILD
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
build=${MINIHV_BUILD:-$repo/build-minihv}
limit=${MINIHV_TIMEOUT:-180}
machine=${MINIHV_MACHINE:-virt,gic-version=4,virtualization=on}
smp=${MINIHV_SMP:-2}
read -r -a qemu_extra <<<"${MINIHV_QEMU_ARGS:-}"
elf=$build/cmake/minihv.elf
log() { echo "run.sh: $*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		log "need root for: $* (not root, and no sudo): run as root or install it yourself"
		exit 1
	fi
}

apt_updated=0
apt_install() {
	log "installing $*"
	if [ $apt_updated = 0 ]; then
		as_root apt-get update -q >&2
		apt_updated=1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2
}

if [ "${MINIHV_NO_BUILD:-0}" = 1 ]; then
	[ -f "$elf" ] || { log "MINIHV_NO_BUILD=1 but $elf does not exist"; exit 1; }
else
# 1. Host tools.
need=()
command -v qemu-system-aarch64 >/dev/null || need+=(qemu-system-arm)
# The virt board's default NIC loads this option ROM (package ipxe-qemu).
[ -e /usr/share/qemu/efi-virtio.rom ] || [ -e /usr/lib/ipxe/qemu/efi-virtio.rom ] || need+=(ipxe-qemu)
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
[ -f /usr/aarch64-linux-gnu/include/stdlib.h ] || need+=(libc6-dev-arm64-cross)
command -v cmake >/dev/null || need+=(cmake)
command -v make >/dev/null || need+=(make)
if [ ${#need[@]} -gt 0 ]; then
	apt_install "${need[@]}"
fi

# 2. libfdt for aarch64: Debian's arm64 packages, downloaded and unpacked into
#    the build tree (never installed: they conflict with the host's libfdt-dev).
fdtroot=$build/libfdt-arm64
if [ ! -f "$fdtroot/usr/lib/aarch64-linux-gnu/libfdt.a" ]; then
	mkdir -p "$build/debs"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		log "adding the arm64 architecture to dpkg (for apt-get download)"
		as_root dpkg --add-architecture arm64
		apt_updated=0
	fi
	if [ $apt_updated = 0 ] && ! apt-cache show libfdt-dev:arm64 >/dev/null 2>&1; then
		as_root apt-get update -q >&2
		apt_updated=1
	fi
	(cd "$build/debs" && rm -f ./*.deb && apt-get download libfdt-dev:arm64 libfdt1:arm64 >&2)
	rm -rf "$fdtroot"
	for deb in "$build"/debs/*.deb; do
		dpkg -x "$deb" "$fdtroot"
	done
fi

# 3. Build from scratch (libvirq's own CMake, freestanding, cross).
rm -rf "$build/cmake"
cmake -S "$here" -B "$build/cmake" \
	-DCMAKE_TOOLCHAIN_FILE="$here/toolchain-aarch64.cmake" \
	-DLIBVIRQ_LIBFDT_ROOT="$fdtroot" ${MINIHV_CMAKE_ARGS:-} >"$build/configure.log" 2>&1 ||
	{ cat "$build/configure.log" >&2; log "configure failed"; exit 1; }
cmake --build "$build/cmake" -j2 >"$build/build.log" 2>&1 ||
	{ cat "$build/build.log" >&2; log "build failed"; exit 1; }
if [ "${MINIHV_BUILD_ONLY:-0}" = 1 ]; then
	log "built $elf"
	exit 0
fi
fi

# 4. Run: $smp CPUs at EL2 (virtualization=on; MTTCG, one host thread per
#    CPU), GICv4.0, the edu PCI device, exit via semihosting.
log "running $elf on qemu-system-aarch64 -smp $smp ${qemu_extra[*]} (limit ${limit}s)"
set +e
timeout --foreground -k 5 "$limit" qemu-system-aarch64 \
	-M "$machine" -cpu max -smp "$smp" -m 256 \
	-nographic -semihosting -device edu "${qemu_extra[@]}" -kernel "$elf" </dev/null
rc=$?
set -e
if [ $rc = 124 ] || [ $rc = 137 ]; then
	log "QEMU did not finish within ${limit}s"
fi
# Printed for the ctest checks that match the output: with a
# PASS_REGULAR_EXPRESSION ctest ignores the exit code, so they match this line.
log "minihv exit status $rc"
exit $rc
