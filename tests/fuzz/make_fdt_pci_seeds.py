#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes the small structure-aware seeds of fuzz_fdt_pci (committed in
# corpus/fuzz_fdt_pci/): a GIC with two ITSes and one generic PCI host bridge
# per seed, each with one msi-map / msi-parent / host shape (good ones and
# every hostile one of tests/unit/fdt/dts/pci_msi_bad.dts), some followed by
# trailing bytes that the target reads as extra requester IDs.
# usage: make_fdt_pci_seeds.py OUTDIR   (needs dtc)
import os, struct, subprocess, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

HEAD = '''/dts-v1/;
/ {
	#address-cells = <2>;
	#size-cells = <2>;
	intc@8000000 {
		compatible = "arm,gic-v3";
		#interrupt-cells = <3>;
		#address-cells = <2>;
		#size-cells = <2>;
		ranges;
		interrupt-controller;
		reg = <0x0 0x08000000 0x0 0x10000>, <0x0 0x080a0000 0x0 0xf60000>;
		its0: msi-controller@8080000 {
			compatible = "arm,gic-v3-its";
			msi-controller;
			#msi-cells = <1>;
			reg = <0x0 0x08080000 0x0 0x20000>;
		};
		its1: msi-controller@80a0000 {
			compatible = "arm,gic-v3-its";
			msi-controller;
			#msi-cells = <1>;
			reg = <0x0 0x080c0000 0x0 0x20000>;
		};
	};
	other: msi-controller@9000000 {
		compatible = "vendor,some-controller";
		msi-controller;
		#msi-cells = <1>;
		reg = <0x0 0x09000000 0x0 0x1000>;
	};
	pcie@10000000 {
		compatible = "pci-host-ecam-generic";
		device_type = "pci";
		#address-cells = <3>;
		#size-cells = <2>;
		%s
	};
};
'''
HOST = ('reg = <0x40 0x10000000 0x0 0x10000000>; bus-range = <0x0 0xff>;\n'
        '\t\tranges = <0x01000000 0x0 0x0 0x0 0x3eff0000 0x0 0x10000>,\n'
        '\t\t\t <0x02000000 0x0 0x10000000 0x0 0x10000000 0x0 0x2eff0000>,\n'
        '\t\t\t <0x43000000 0x80 0x0 0x80 0x0 0x80 0x0>;')
seeds = {
    'map_identity': 'msi-map = <0x0 &its0 0x0 0x10000>;',
    'map_split': 'msi-map = <0x0 &its0 0x8000 0x8000>, <0x8000 &its0 0x0 0x8000>, <0x0 &its1 0x0 0x10000>;',
    'map_mask': 'msi-map-mask = <0xff>; msi-map = <0x0 &its1 0x100 0x100>;',
    'map_hole': 'msi-map = <0x0 &its0 0x0 0x100>, <0x200 &its0 0x200 0x100>;',
    'map_other': 'msi-map = <0x0 &other 0x0 0x10000>;',
    'parent_lone': 'msi-parent = <&its1>;',
    'parent_list': 'msi-parent = <&other 0x1 &its0 0x9>;',
    'bad_overlap': 'msi-map = <0x0 &its0 0x0 0x100>, <0x80 &its0 0x1000 0x100>;',
    'bad_len0': 'msi-map = <0x0 &its0 0x0 0x0>;',
    'bad_rid_overflow': 'msi-map = <0xffffff00 &its0 0x0 0x200>;',
    'bad_devid_overflow': 'msi-map = <0x0 &its0 0xffffff00 0x200>;',
    'bad_ph_nowhere': 'msi-map = <0x0 0x4242 0x0 0x100>;',
    'bad_ph_zero': 'msi-map = <0x0 0x0 0x0 0x100>;',
    'bad_mask0': 'msi-map-mask = <0x0>; msi-map = <0x0 &its0 0x0 0x100>;',
    'bad_base_outside_mask': 'msi-map-mask = <0xff>; msi-map = <0x100 &its0 0x0 0x10>;',
    'bad_partial': 'msi-map = <0x0 &its0 0x0>;',
    'bad_parent_partial': 'msi-parent = <&its0 0x5 &its0>;',
}
# A property value holding a forged node (BEGIN_NODE, name, FDT_PROP of
# length 0xfffffff4); the trailing bytes name its offset as a node offset
# (libfdt 1.6.1 accepts it as a node, then its property walk never ends).
FORGED = bytes([0, 0, 0, 1, 0x78, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xf4] + [0] * 8)
seeds['forged_node'] = ('msi-map = <0x0 &its0 0x0 0x10000>;\n\t\tvendor,blob = [%s];'
                        % ' '.join('%02x' % x for x in FORGED))
for name, msi in seeds.items():
    src = HEAD % (HOST + '\n\t\t' + msi)
    dtb = subprocess.run(['dtc', '-q', '-f', '-Wno-msi_parent_property', '-I', 'dts', '-O',
                          'dtb', '-o', '-', '-'], input=src.encode(), capture_output=True,
                         check=True, timeout=20).stdout
    with open(os.path.join(out, 'seed_%s.dtb' % name), 'wb') as f:
        f.write(dtb)
    if name == 'forged_node':
        off_struct = struct.unpack('>I', dtb[8:12])[0]
        at = dtb.index(FORGED) - off_struct
        with open(os.path.join(out, 'seed_%s_offset.bin' % name), 'wb') as f:
            f.write(dtb + struct.pack('<8H', 0x10, at, at, at, 0x10, at, at, at))
    if name in ('map_split', 'map_mask', 'parent_list'):
        with open(os.path.join(out, 'seed_%s_rids.bin' % name), 'wb') as f:
            f.write(dtb + struct.pack('<8H', 0x10, 0x8010, 0x312, 0xff, 0x100, 0x7fff, 0xfff8, 0x0))
