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

# Decode: every field of the command, named as in IHI 0069H §5.3 and in its order (DW0
# first, low bits first), in a form encode accepts back.
virqtool_check(NAME vt_its_dec_v1_mapd LABELS gicv4 EXIT 0
  STDOUT "MAPD DeviceID=0x5 Size=0x4 ITT_addr=0x41040000 V=0x1"
  ARGS its decode 0x0000000500000008 4 0x8000000041040000 0)
virqtool_check(NAME vt_its_dec_v2_mapc LABELS gicv4 EXIT 0
  STDOUT "MAPC ICID=0x3 RDbase=0x30000 V=0x1"
  ARGS its decode 9 0 0x8000000000030003 0)
virqtool_check(NAME vt_its_dec_v3_mapti LABELS gicv4 EXIT 0
  STDOUT "MAPTI DeviceID=0x5 EventID=0x3 pINTID=0x2003 ICID=0x0"
  ARGS its decode 0x000000050000000A 0x0000200300000003 0 0)
virqtool_check(NAME vt_its_dec_v6_vmapp LABELS gicv4 EXIT 0
  STDOUT "VMAPP Alloc=0x0 PTZ=0x0 VCONF_addr=0x0 Default_Doorbell=0x0 vPEID=0x1 RDbase=0x80a0000 V=0x1 VPT_size=0xf VPT_addr=0x41080000"
  ARGS its decode 0x29 0x0000000100000000 0x80000000080A0000 0x000000004108000F)
virqtool_check(NAME vt_its_dec_v8_vmapi LABELS gicv4 EXIT 0
  STDOUT "VMAPI DeviceID=0x5 EventID=0x2008 vPEID=0x1 Dbell_pINTID=0x3ff"
  ARGS its decode 0x000000050000002B 0x0000000100002008 0x000003FF00000000 0)
virqtool_check(NAME vt_its_dec_v9_vmovp LABELS gicv4 EXIT 0
  STDOUT "VMOVP SequenceNumber=0x1234 ITSList=0x3 vPEID=0x42 RDbase=0x8160000 DB=0x0 Default_Doorbell=0x0"
  ARGS its decode 0x0000123400000022 0x0000004200000003 0x08160000 0)
virqtool_check(NAME vt_its_dec_vmovi LABELS gicv4 EXIT 0
  STDOUT "VMOVI DeviceID=0x1 EventID=0x2 vPEID=0x3 D=0x1 Dbell_pINTID=0x2000"
  ARGS its decode 0x0000000100000021 0x0000000300000002 0x0000200000000001 0)
virqtool_check(NAME vt_its_dec_vsgi LABELS gicv4 EXIT 0
  STDOUT "VSGI Enable=0x1 Clear=0x1 Group=0x1 Priority=0xa0 vINTID=0x5 vPEID=0x7"
  ARGS its decode 0x0000000500a00723 0x0000000700000000 0 0)
# Round trip of the decoded form back through encode (spec names, and virqtool 0.1's
# lower-case names, which stay accepted as aliases).
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
  STDERR_REGEX "field 'RDbase' is not used by MAPTI" ARGS its encode MAPTI device=1 rdbase=0)
virqtool_check(NAME vt_its_bad_range_device LABELS gicv4 EXIT 2 STDERR_REGEX "field 'DeviceID' out of range"
  ARGS its encode MAPD device=0x100000000)
virqtool_check(NAME vt_its_bad_range_icid LABELS gicv4 EXIT 2 STDERR_REGEX "field 'ICID' out of range"
  ARGS its encode MAPC icid=0x10000)
virqtool_check(NAME vt_its_bad_range_pintid LABELS gicv4 EXIT 2 STDERR_REGEX "field 'pINTID' out of range"
  ARGS its encode MAPTI device=1 event=2 pintid=8191)
virqtool_check(NAME vt_its_bad_range_size LABELS gicv4 EXIT 2 STDERR_REGEX "field 'Size' out of range"
  ARGS its encode MAPD size=32)
virqtool_check(NAME vt_its_bad_range_valid LABELS gicv4 EXIT 2 STDERR_REGEX "field 'V' out of range"
  ARGS its encode MAPD valid=2)
virqtool_check(NAME vt_its_bad_range_procnum LABELS gicv4 EXIT 2 STDERR_REGEX "field 'procnum' out of range"
  ARGS its encode SYNC procnum=0x10000)
virqtool_check(NAME vt_its_bad_range_db LABELS gicv4 EXIT 2 STDERR_REGEX "field 'Dbell_pINTID' out of range"
  ARGS its encode VMAPI db_pintid=5)
virqtool_check(NAME vt_its_bad_align_itt LABELS gicv4 EXIT 2 STDERR_REGEX "field 'ITT_addr' misaligned"
  ARGS its encode MAPD itt_addr=0x41040080)
virqtool_check(NAME vt_its_bad_align_rdbase LABELS gicv4 EXIT 2 STDERR_REGEX "field 'RDbase' misaligned"
  ARGS its encode SYNC rdbase=0x10800)
virqtool_check(NAME vt_its_bad_range_rdbase LABELS gicv4 EXIT 2 STDERR_REGEX "field 'RDbase' out of range"
  ARGS its encode SYNC rdbase=0x10000000000000)
virqtool_check(NAME vt_its_bad_prio LABELS gicv4 EXIT 2 STDERR_REGEX "field 'Priority' misaligned"
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
virqtool_check(NAME vt_its_roundtrip_spec_names LABELS gicv4 EXIT 0
  STDOUT "0x0000123400000022 0x0000004200000003 0x0000000008160000 0x0000000000000000"
  ARGS its encode VMOVP vPEID=0x42 RDbase=0x8160000 SequenceNumber=0x1234 ITSList=0x3 Default_Doorbell=0x0 DB=0x0)
# Spec names in any letter case; the old names are aliases.
virqtool_check(NAME vt_its_enc_spec_mapti LABELS gicv4 EXIT 0
  STDOUT "0x000000050000000a 0x0000200300000003 0x0000000000000000 0x0000000000000000"
  ARGS its encode MAPTI DeviceID=5 EventID=3 pINTID=8195 ICID=0)
virqtool_check(NAME vt_its_enc_lowercase_mapti LABELS gicv4 EXIT 0
  STDOUT "0x000000050000000a 0x0000200300000003 0x0000000000000000 0x0000000000000000"
  ARGS its encode mapti deviceid=5 eventid=3 PINTID=8195 icid=0)
virqtool_check(NAME vt_its_bad_alias_twice LABELS gicv4 EXIT 2 STDERR_REGEX "given together with 'DeviceID'"
  ARGS its encode MAPD DeviceID=1 device=2)
virqtool_check(NAME vt_its_bad_case_twice LABELS gicv4 EXIT 2 STDERR_REGEX "given twice"
  ARGS its encode MAPD DeviceID=1 deviceid=2)
# A field the command needs but the user left out: "missing", with the list.
virqtool_check(NAME vt_its_missing_pintid LABELS gicv4 EXIT 2
  STDERR_REGEX "^virqtool: missing field 'pINTID' \\(required: pINTID\\)"
  ARGS its encode MAPTI DeviceID=1 EventID=2)
virqtool_check(NAME vt_its_missing_vmapti LABELS gicv4 EXIT 2
  STDERR_REGEX "missing field 'vINTID' \\(required: vINTID, Dbell_pINTID\\)"
  ARGS its encode VMAPTI DeviceID=1 EventID=2 vPEID=3)
virqtool_check(NAME vt_its_missing_db LABELS gicv4 EXIT 2
  STDERR_REGEX "missing field 'Dbell_pINTID' \\(required: Dbell_pINTID\\)"
  ARGS its encode VMAPI DeviceID=1)
# ... while a value given and wrong stays "out of range".
virqtool_check(NAME vt_its_given_range_pintid LABELS gicv4 EXIT 2 STDERR_REGEX "field 'pINTID' out of range"
  ARGS its encode MAPTI pINTID=8191)

# Help at every level, and the fields of each command.
virqtool_check(NAME vt_its_help LABELS gicv4 EXIT 0 STDOUT_REGEX "virqtool its fields" ARGS its --help)
virqtool_check(NAME vt_its_encode_help LABELS gicv4 EXIT 0 STDOUT_REGEX "usage: virqtool its encode"
  ARGS its encode --help)
virqtool_check(NAME vt_its_decode_help LABELS gicv4 EXIT 0 STDOUT_REGEX "usage: virqtool its decode"
  ARGS its decode -h)
virqtool_check(NAME vt_its_fields_help LABELS gicv4 EXIT 0 STDOUT_REGEX "usage: virqtool its fields"
  ARGS its fields --help)
virqtool_check(NAME vt_its_encode_cmd_help LABELS gicv4 EXIT 0
  STDOUT "MAPTI (opcode 0x0a)
  DeviceID          optional  DW0[63:32]  device
  EventID           optional  DW1[31:0]   event of the device
  pINTID            required  DW1[63:32]  physical LPI (>= 8192)
  ICID              optional  DW2[15:0]   collection"
  ARGS its encode MAPTI --help)
virqtool_check(NAME vt_its_fields_mapti LABELS gicv4 EXIT 0
  STDOUT "MAPTI (opcode 0x0a)
  DeviceID          optional  DW0[63:32]  device
  EventID           optional  DW1[31:0]   event of the device
  pINTID            required  DW1[63:32]  physical LPI (>= 8192)
  ICID              optional  DW2[15:0]   collection"
  ARGS its fields mapti)
virqtool_check(NAME vt_its_fields_all LABELS gicv4 EXIT 0
  STDOUT_REGEX "VMAPTI   DeviceID EventID vPEID vINTID\\* Dbell_pINTID\\*" ARGS its fields)
virqtool_check(NAME vt_its_fields_bad LABELS gicv4 EXIT 2 STDERR_REGEX "unknown ITS command 'NOPE'"
  ARGS its fields NOPE)

# RES0 bits (IHI 0069H §5.3: every bit a command's format does not name): decode names
# each run that is set on a second line; with --strict they are an error (exit 2).
virqtool_check(NAME vt_its_dec_res0_mapti LABELS gicv4 EXIT 0
  STDOUT "MAPTI DeviceID=0x5 EventID=0x3 pINTID=0x2003 ICID=0x2
RES0 set: DW2[31:16]=0xffff (ignored, --strict refuses them)"
  ARGS its decode 0x000000050000000A 0x0000200300000003 0x00000000ffff0002 0)
virqtool_check(NAME vt_its_dec_res0_strict LABELS gicv4 EXIT 2
  STDERR_REGEX "^virqtool: MAPTI: RES0 bits set: DW2\\[31:16\\]=0xffff"
  ARGS its decode --strict 0x000000050000000A 0x0000200300000003 0x00000000ffff0002 0)
virqtool_check(NAME vt_its_dec_res0_strict_after LABELS gicv4 EXIT 2
  STDERR_REGEX "RES0 bits set: DW0\\[8\\]=0x1, DW3\\[63\\]=0x1"
  ARGS its decode 0x000000050000010A 0x0000200300000003 2 0x8000000000000000 --strict)
virqtool_check(NAME vt_its_dec_strict_clean LABELS gicv4 EXIT 0
  STDOUT "MAPTI DeviceID=0x5 EventID=0x3 pINTID=0x2003 ICID=0x2"
  ARGS its decode --strict 0x000000050000000A 0x0000200300000003 2 0)
virqtool_check(NAME vt_its_dec_res0_vmapp_all LABELS gicv4 EXIT 0
  STDOUT "VMAPP Alloc=0x1 PTZ=0x1 VCONF_addr=0xfffffffff0000 Default_Doorbell=0xffffffff vPEID=0xffff RDbase=0xfffffffff0000 V=0x1 VPT_size=0xff VPT_addr=0xfffffffff0000
RES0 set: DW0[15:10]=0x3f, DW0[63:52]=0xfff, DW1[63:48]=0xffff, DW2[15:0]=0xffff, DW2[62:52]=0x7ff, DW3[15:8]=0xff, DW3[63:52]=0xfff (ignored, --strict refuses them)"
  ARGS its decode 0xffffffffffffff29 0xffffffffffffffff 0xffffffffffffffff 0xffffffffffffffff)
virqtool_check(NAME vt_its_dec_strict_words LABELS gicv4 EXIT 2 STDERR_REGEX "expected 4 doublewords, got 3"
  ARGS its decode --strict 1 2 3)
virqtool_check(NAME vt_its_dec_strict_words5 LABELS gicv4 EXIT 2 STDERR_REGEX "expected 4 doublewords, got 5"
  ARGS its decode 0x29 0 0 0 0 --strict)
virqtool_check(NAME vt_its_decode_help_strict LABELS gicv4 EXIT 0
  STDOUT_REGEX "usage: virqtool its decode \\[--strict\\] DW0 DW1 DW2 DW3" ARGS its decode --help)

# "virqtool help its [...]" is the help of that level, not the top-level usage.
virqtool_check(NAME vt_help_its LABELS gicv4 EXIT 0 STDOUT_REGEX "^usage: virqtool its encode"
  ARGS help its)
virqtool_check(NAME vt_help_its_decode LABELS gicv4 EXIT 0
  STDOUT_REGEX "^usage: virqtool its decode \\[--strict\\]" ARGS help its decode)
virqtool_check(NAME vt_help_its_encode_cmd LABELS gicv4 EXIT 0 STDOUT_REGEX "^MAPTI \\(opcode 0x0a\\)"
  ARGS help its encode MAPTI)
virqtool_check(NAME vt_help_unknown LABELS gicv4 EXIT 2 STDERR_REGEX "help: unknown command 'frob'"
  ARGS help frob)
