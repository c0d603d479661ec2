#!/bin/bash
# SPDX-License-Identifier: MIT
# Regenerates the qemu72_*.dtb test trees: QEMU's virt machine dumped with
# dumpdtb, then packed. QEMU pads the dump to 1 MiB of free space after the
# strings block; packing cuts the blob at the end of the strings block and
# sets the header's totalsize to match: every other byte is what QEMU wrote.
# (/chosen carries random rng-seed/kaslr-seed values, so two dumps of the same
# machine differ in those bytes.)
# usage: dump_qemu.sh OUTDIR   (committed copies were made with QEMU 7.2,
#                               Debian 12's qemu-system-arm 1:7.2+dfsg-7+deb12u18)
set -euo pipefail
out=${1:?usage: dump_qemu.sh OUTDIR}
mkdir -p "$out"
command -v qemu-system-aarch64 >/dev/null || { echo "qemu-system-aarch64 not installed" >&2; exit 1; }
dump() { # name machine-options smp [extra QEMU args...]
	local n=$1 m=$2 smp=$3
	shift 3
	timeout -k 5 60 qemu-system-aarch64 -M "$m,dumpdtb=$out/$n.full" -cpu max -smp "$smp" "$@" \
		-nographic -display none >/dev/null 2>&1
	python3 - "$out/$n.full" "$out/qemu72_$n.dtb" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
magic, total, off_struct, off_strings, off_rsv, ver = struct.unpack('>6I', b[:24])
size_strings = struct.unpack('>I', b[32:36])[0]
end = off_strings + size_strings
assert magic == 0xd00dfeed and ver == 17 and max(off_struct, off_rsv) < off_strings
assert b[end:].count(0) == len(b) - end, 'free space after the strings block is not empty'
p = bytearray(b[:end])
struct.pack_into('>I', p, 4, end)
open(sys.argv[2], 'wb').write(p)
PY
	rm -f "$out/$n.full"
}
v4=virt,gic-version=4,virtualization=on
dump v4_smp1 $v4 1
dump v4_smp2 $v4 2
dump v4_smp4 $v4 4
dump v4_smp1_edu $v4 1 -device edu
dump v4_smp2_edu $v4 2 -device edu
dump v4_smp4_edu $v4 4 -device edu
dump v4_smp2_edu_nonic $v4 2 -device edu -nic none
dump v4_secure_smp2 $v4,secure=on 2
dump v3_smp1 virt,gic-version=3 1
dump v3_smp2_edu virt,gic-version=3 2 -device edu
dump v3_smp2_virt virt,gic-version=3,virtualization=on 2
