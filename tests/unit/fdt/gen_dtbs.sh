#!/bin/bash
# SPDX-License-Identifier: MIT
# Makes the device trees the discovery tests read, at test time:
#  - dumped from QEMU's virt machine (GICv3 and GICv4, several -smp values,
#    with and without the ITS), compacted with dtc;
#  - hand-built odd and malformed trees compiled with dtc (-f: keep going on
#    the errors dtc itself notices, the point is to feed them to libvirq).
# usage: gen_dtbs.sh OUTDIR DTSDIR
set -euo pipefail
out=$1
dts=$2
mkdir -p "$out"
for tool in qemu-system-aarch64 dtc; do
	command -v "$tool" >/dev/null || { echo "gen_dtbs: $tool not installed" >&2; exit 1; }
done

dump() { # name machine-options smp
	timeout -k 5 60 qemu-system-aarch64 -M "$2,dumpdtb=$out/$1.full.dtb" -cpu max -smp "$3" \
		-nographic -display none >/dev/null 2>&1
	dtc -q -I dtb -O dtb -o "$out/$1.dtb" "$out/$1.full.dtb"
	rm -f "$out/$1.full.dtb"
}
dump qemu_v3_smp1 virt,gic-version=3 1
dump qemu_v3_smp8 virt,gic-version=3 8
dump qemu_v3_smp128 virt,gic-version=3 128
dump qemu_v3_noits virt,gic-version=3,its=off 4
dump qemu_v4_smp1 virt,gic-version=4,virtualization=on 1
dump qemu_v4_smp4 virt,gic-version=4,virtualization=on 4
dump qemu_v4_smp64 virt,gic-version=4,virtualization=on 64
dump qemu_v4_noits virt,gic-version=4,virtualization=on,its=off 2
dump qemu_v4_smp2 virt,gic-version=4,virtualization=on 2

# QEMU's PCI topology with the edu device (monitor 'info pci', CPUs never
# started): where edu sits, with the default NIC and with -nic none.
pciinfo() { # name smp [extra QEMU args...]
	local n=$1 smp=$2
	shift 2
	printf 'info pci\nquit\n' | timeout -k 5 60 qemu-system-aarch64 \
		-M virt,gic-version=4,virtualization=on -cpu max -smp "$smp" "$@" -S \
		-nographic -display none -serial none -monitor stdio 2>/dev/null |
		tr -d '\033' | grep -E 'Bus +[0-9]+, device|PCI device' >"$out/$n.pci"
}
pciinfo qemu_v4_smp2_edu 2 -device edu
pciinfo qemu_v4_smp2_edu_nonic 2 -device edu -nic none

for f in "$dts"/*.dts; do
	n=$(basename "$f" .dts)
	# -Wno-msi_parent_property: dtc 1.6.1's msi-parent check loops on a
	# huge #msi-cells (fixed upstream in dtc ff5afb9); pci_msi_bad.dts has one.
	timeout 20 dtc -q -f -Wno-msi_parent_property -I dts -O dtb -o "$out/$n.dtb" "$f" 2>/dev/null
done
echo "gen_dtbs: $(ls "$out"/*.dtb | wc -l) trees in $out"
