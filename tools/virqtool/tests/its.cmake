# SPDX-License-Identifier: MIT
# virqtool its: worked encodings computed by hand from the IHI 0069H §5.3 command
# layouts (v1..v10 below) and §12.19 registers, and bad input.
# Encode.
virqtool_check(NAME vt_its_enc_v1_mapd LABELS gicv4 EXIT 0
  STDOUT "0x0000000500000008 0x0000000000000004 0x8000000041040000 0x0000000000000000"
  ARGS its encode MAPD device=5 size=4 itt_addr=0x41040000 valid=1)
virqtool_check(NAME vt_its_enc_v2_mapc LABELS gicv4 EXIT 0
  STDOUT "0x0000000000000009 0x0000000000000000 0x8000000000030003 0x0000000000000000"
  ARGS its encode MAPC icid=3 procnum=3 valid=1)
virqtool_check(NAME vt_its_enc_v3_mapti LABELS gicv4 EXIT 0
  STDOUT "0x000000050000000a 0x0000200300000003 0x0000000000000000 0x0000000000000000"
  ARGS its encode MAPTI device=5 event=3 pintid=8195 icid=0)
virqtool_check(NAME vt_its_enc_v4_movi LABELS gicv4 EXIT 0
  STDOUT "0x0000000500000001 0x0000000000000009 0x0000000000000001 0x0000000000000000"
  ARGS its encode movi device=5 event=9 icid=1)
virqtool_check(NAME vt_its_enc_v5_sync LABELS gicv4 EXIT 0
  STDOUT "0x0000000000000005 0x0000000000000000 0x00000000080a0000 0x0000000000000000"
  ARGS its encode SYNC rdbase=0x080A0000)
virqtool_check(NAME vt_its_enc_v6_vmapp LABELS gicv4 EXIT 0
  STDOUT "0x0000000000000029 0x0000000100000000 0x80000000080a0000 0x000000004108000f"
  ARGS its encode VMAPP vpeid=1 rdbase=0x080A0000 vpt_addr=0x41080000 vpt_size=15 valid=1)
virqtool_check(NAME vt_its_enc_v7_vmapp41_unmap LABELS gicv4 EXIT 0
  STDOUT "0x0000000000000129 0x0000002a00000000 0x0000000000000000 0x0000000000000000"
  ARGS its encode VMAPP vpeid=0x2A alloc=1 valid=0)
virqtool_check(NAME vt_its_enc_v8_vmapi LABELS gicv4 EXIT 0
  STDOUT "0x000000050000002b 0x0000000100002008 0x000003ff00000000 0x0000000000000000"
  ARGS its encode VMAPI device=5 event=0x2008 vpeid=1 db_pintid=1023)
virqtool_check(NAME vt_its_enc_v9_vmovp LABELS gicv4 EXIT 0
  STDOUT "0x0000123400000022 0x0000004200000003 0x0000000008160000 0x0000000000000000"
  ARGS its encode VMOVP seqnum=0x1234 itslist=3 vpeid=0x42 rdbase=0x08160000)
virqtool_check(NAME vt_its_enc_v10_vsync LABELS gicv4 EXIT 0
  STDOUT "0x0000000000000025 0x0000004200000000 0x0000000000000000 0x0000000000000000"
  ARGS its encode VSYNC vpeid=0x42)
virqtool_check(NAME vt_its_enc_v10_vinvall LABELS gicv4 EXIT 0
  STDOUT "0x000000000000002d 0x0000004200000000 0x0000000000000000 0x0000000000000000"
  ARGS its encode VINVALL vpeid=0x42)
virqtool_check(NAME vt_its_enc_v10_invdb LABELS gicv4 EXIT 0
  STDOUT "0x000000000000002e 0x0000004200000000 0x0000000000000000 0x0000000000000000"
  ARGS its encode INVDB vpeid=0x42)
virqtool_check(NAME vt_its_enc_vsgi LABELS gicv4 EXIT 0
  STDOUT "0x0000000500a00723 0x0000000700000000 0x0000000000000000 0x0000000000000000"
  ARGS its encode VSGI vpeid=7 vintid=5 enable=1 clear=1 group=1 priority=0xa0)
virqtool_check(NAME vt_its_enc_movall_procnum LABELS gicv4 EXIT 0
  STDOUT "0x000000000000000e 0x0000000000000000 0x0000000000010000 0x0000000000020000"
  ARGS its encode MOVALL procnum1=1 procnum2=2)

# Decode: every field of the command, in a form encode accepts back.
virqtool_check(NAME vt_its_dec_v1_mapd LABELS gicv4 EXIT 0
  STDOUT "MAPD device=0x5 size=0x4 itt_addr=0x41040000 valid=0x1"
  ARGS its decode 0x0000000500000008 4 0x8000000041040000 0)
virqtool_check(NAME vt_its_dec_v2_mapc LABELS gicv4 EXIT 0
  STDOUT "MAPC icid=0x3 valid=0x1 rdbase=0x30000"
  ARGS its decode 9 0 0x8000000000030003 0)
virqtool_check(NAME vt_its_dec_v3_mapti LABELS gicv4 EXIT 0
  STDOUT "MAPTI device=0x5 event=0x3 pintid=0x2003 icid=0x0"
  ARGS its decode 0x000000050000000A 0x0000200300000003 0 0)
virqtool_check(NAME vt_its_dec_v6_vmapp LABELS gicv4 EXIT 0
  STDOUT "VMAPP vpeid=0x1 valid=0x1 rdbase=0x80a0000 vpt_addr=0x41080000 vpt_size=0xf alloc=0x0 ptz=0x0 vconf_addr=0x0 default_db=0x0"
  ARGS its decode 0x29 0x0000000100000000 0x80000000080A0000 0x000000004108000F)
virqtool_check(NAME vt_its_dec_v8_vmapi LABELS gicv4 EXIT 0
  STDOUT "VMAPI device=0x5 event=0x2008 vpeid=0x1 db_pintid=0x3ff"
  ARGS its decode 0x000000050000002B 0x0000000100002008 0x000003FF00000000 0)
virqtool_check(NAME vt_its_dec_v9_vmovp LABELS gicv4 EXIT 0
  STDOUT "VMOVP vpeid=0x42 rdbase=0x8160000 seqnum=0x1234 itslist=0x3 default_db=0x0 db=0x0"
  ARGS its decode 0x0000123400000022 0x0000004200000003 0x08160000 0)
virqtool_check(NAME vt_its_dec_vmovi LABELS gicv4 EXIT 0
  STDOUT "VMOVI device=0x1 event=0x2 vpeid=0x3 db_valid=0x1 db_pintid=0x2000"
  ARGS its decode 0x0000000100000021 0x0000000300000002 0x0000200000000001 0)
virqtool_check(NAME vt_its_dec_vsgi LABELS gicv4 EXIT 0
  STDOUT "VSGI vintid=0x5 vpeid=0x7 enable=0x1 clear=0x1 group=0x1 priority=0xa0"
  ARGS its decode 0x0000000500a00723 0x0000000700000000 0 0)
# Round trip of the decoded form back through encode.
virqtool_check(NAME vt_its_roundtrip_vmovp LABELS gicv4 EXIT 0
  STDOUT "0x0000123400000022 0x0000004200000003 0x0000000008160000 0x0000000000000000"
  ARGS its encode VMOVP vpeid=0x42 rdbase=0x8160000 seqnum=0x1234 itslist=0x3 default_db=0x0 db=0x0)

# Bad input: one stderr line naming the problem, exit 2, nothing on stdout.
virqtool_check(NAME vt_its_bad_sub LABELS gicv4 EXIT 2 STDERR_REGEX "unknown subcommand" ARGS its frob)
virqtool_check(NAME vt_its_bad_none LABELS gicv4 EXIT 2 ARGS its)
virqtool_check(NAME vt_its_bad_cmd LABELS gicv4 EXIT 2 STDERR_REGEX "unknown ITS command 'FOO'"
  ARGS its encode FOO device=1)
virqtool_check(NAME vt_its_bad_nocmd LABELS gicv4 EXIT 2 STDERR_REGEX "missing command" ARGS its encode)
virqtool_check(NAME vt_its_bad_field LABELS gicv4 EXIT 2 STDERR_REGEX "unknown field 'bogus'"
  ARGS its encode SYNC bogus=1)
virqtool_check(NAME vt_its_bad_unused_field LABELS gicv4 EXIT 2
  STDERR_REGEX "field 'rdbase' is not used by MAPTI" ARGS its encode MAPTI device=1 rdbase=0)
virqtool_check(NAME vt_its_bad_range_device LABELS gicv4 EXIT 2 STDERR_REGEX "field 'device' out of range"
  ARGS its encode MAPD device=0x100000000)
virqtool_check(NAME vt_its_bad_range_icid LABELS gicv4 EXIT 2 STDERR_REGEX "field 'icid' out of range"
  ARGS its encode MAPC icid=0x10000)
virqtool_check(NAME vt_its_bad_range_pintid LABELS gicv4 EXIT 2 STDERR_REGEX "field 'pintid' out of range"
  ARGS its encode MAPTI device=1 event=2 pintid=8191)
virqtool_check(NAME vt_its_bad_range_size LABELS gicv4 EXIT 2 STDERR_REGEX "field 'size' out of range"
  ARGS its encode MAPD size=32)
virqtool_check(NAME vt_its_bad_range_valid LABELS gicv4 EXIT 2 STDERR_REGEX "field 'valid' out of range"
  ARGS its encode MAPD valid=2)
virqtool_check(NAME vt_its_bad_range_procnum LABELS gicv4 EXIT 2 STDERR_REGEX "field 'procnum' out of range"
  ARGS its encode SYNC procnum=0x10000)
virqtool_check(NAME vt_its_bad_range_db LABELS gicv4 EXIT 2 STDERR_REGEX "field 'db_pintid' out of range"
  ARGS its encode VMAPI db_pintid=5)
virqtool_check(NAME vt_its_bad_align_itt LABELS gicv4 EXIT 2 STDERR_REGEX "field 'itt_addr' misaligned"
  ARGS its encode MAPD itt_addr=0x41040080)
virqtool_check(NAME vt_its_bad_align_rdbase LABELS gicv4 EXIT 2 STDERR_REGEX "field 'rdbase' misaligned"
  ARGS its encode SYNC rdbase=0x10800)
virqtool_check(NAME vt_its_bad_range_rdbase LABELS gicv4 EXIT 2 STDERR_REGEX "field 'rdbase' out of range"
  ARGS its encode SYNC rdbase=0x10000000000000)
virqtool_check(NAME vt_its_bad_prio LABELS gicv4 EXIT 2 STDERR_REGEX "field 'priority' misaligned"
  ARGS its encode VSGI priority=0x18)
virqtool_check(NAME vt_its_bad_both LABELS gicv4 EXIT 2 STDERR_REGEX "given together"
  ARGS its encode MAPC rdbase=0x10000 procnum=1)
virqtool_check(NAME vt_its_bad_twice LABELS gicv4 EXIT 2 STDERR_REGEX "given twice"
  ARGS its encode MAPC icid=1 icid=2)
virqtool_check(NAME vt_its_bad_value LABELS gicv4 EXIT 2 STDERR_REGEX "bad value 'zz'"
  ARGS its encode MAPD device=zz)
virqtool_check(NAME vt_its_bad_kv LABELS gicv4 EXIT 2 STDERR_REGEX "name=value" ARGS its encode MAPD device)
virqtool_check(NAME vt_its_bad_words LABELS gicv4 EXIT 2 STDERR_REGEX "expected 4 doublewords"
  ARGS its decode 1 2 3)
virqtool_check(NAME vt_its_bad_words5 LABELS gicv4 EXIT 2 STDERR_REGEX "expected 4 doublewords"
  ARGS its decode 1 2 3 4 5)
virqtool_check(NAME vt_its_bad_word_value LABELS gicv4 EXIT 2 STDERR_REGEX "bad doubleword"
  ARGS its decode 1 2 3 0x1ffffffffffffffff)
virqtool_check(NAME vt_its_bad_opcode LABELS gicv4 EXIT 2 STDERR_REGEX "unknown ITS opcode 0x07"
  ARGS its decode 7 0 0 0)
