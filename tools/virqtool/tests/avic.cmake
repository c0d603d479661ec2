# SPDX-License-Identifier: MIT
# virqtool avic: worked examples computed by hand from the layouts of AMD64 APM Vol 2
# rev 3.44 (§15.29.5, §15.29.8.2, §15.29.9, §16.5) and the AMD IOMMU specification 48882
# rev 3.11 (§2.2.5.3, §2.7.3), and bad input.
virqtool_check(NAME vt_avic_phys_running LABELS avic EXIT 0 STDOUT "0xc000000123456005"
  ARGS avic phys-entry host_apic_id=5 backing=0x123456000 running=1 valid=1)
virqtool_check(NAME vt_avic_phys_max_fields LABELS avic EXIT 0 STDOUT "0xc00ffffffffff1a3"
  ARGS avic phys-entry host_apic_id=0x1A3 backing=0x000FFFFFFFFFF000 running=1 valid=1)
virqtool_check(NAME vt_avic_phys_created LABELS avic EXIT 0 STDOUT "0x8000000123456000"
  ARGS avic phys-entry host_apic_id=0 backing=0x123456000 running=0 valid=1)
virqtool_check(NAME vt_avic_phys_bad_id LABELS avic EXIT 2 STDERR_REGEX "phys-entry"
  ARGS avic phys-entry host_apic_id=0x1000 backing=0x123456000 running=1 valid=1)
virqtool_check(NAME vt_avic_phys_bad_align LABELS avic EXIT 2
  ARGS avic phys-entry host_apic_id=1 backing=0x123456800 running=1 valid=1)
virqtool_check(NAME vt_avic_phys_bad_pa LABELS avic EXIT 2
  ARGS avic phys-entry host_apic_id=1 backing=0x10000000000000 running=1 valid=1)
virqtool_check(NAME vt_avic_phys_bad_bool LABELS avic EXIT 2
  ARGS avic phys-entry host_apic_id=1 backing=0 running=2 valid=1)
# Fields left out are 0; the manual's names (Table 15-23) and the old ones both work.
virqtool_check(NAME vt_avic_phys_default_zero LABELS avic EXIT 0 STDOUT "0x8000000000000001"
  ARGS avic phys-entry V=1 HostPhysicalAPICID=1)
virqtool_check(NAME vt_avic_phys_manual_names LABELS avic EXIT 0 STDOUT "0xc000000123456005"
  ARGS avic phys-entry V=1 IR=1 BackingPagePointer=0x123456000 HostPhysicalAPICID=5)
# Decoding a raw entry (the table's fields, highest first).
virqtool_check(NAME vt_avic_phys_decode LABELS avic EXIT 0
  STDOUT "V=1 IR=1 BackingPagePointer=0x123456000 HostPhysicalAPICID=0x5"
  ARGS avic phys-entry 0xc000000123456005)
virqtool_check(NAME vt_avic_phys_decode_reserved LABELS avic EXIT 0
  STDOUT "V=1 IR=0 Reserved[61:52]=0x3ff BackingPagePointer=0x0 HostPhysicalAPICID=0x0"
  ARGS avic phys-entry 0xBFF0000000000000)
virqtool_check(NAME vt_avic_phys_decode_strict LABELS avic EXIT 2 STDERR_REGEX "reserved bits set \\(--strict\\): \\[61:52\\]"
  ARGS avic phys-entry 0xBFF0000000000000 --strict)
virqtool_check(NAME vt_avic_phys_decode_strict_clean LABELS avic EXIT 0
  STDOUT "V=1 IR=1 BackingPagePointer=0x123456000 HostPhysicalAPICID=0x5"
  ARGS avic phys-entry --strict 0xc000000123456005)
virqtool_check(NAME vt_avic_phys_decode_two LABELS avic EXIT 2 STDERR_REGEX "expected 1 value"
  ARGS avic phys-entry 1 2)
virqtool_check(NAME vt_avic_log_decode LABELS avic EXIT 0 STDOUT "V=1 GuestPhysicalAPICID=0x5"
  ARGS avic logical-entry 0x80000005)
virqtool_check(NAME vt_avic_log_decode_wide LABELS avic EXIT 2 STDERR_REGEX "wider than 32 bits"
  ARGS avic logical-entry 0x180000005)
# The doorbell register takes bits 7:0 (Figure 15-22).
virqtool_check(NAME vt_avic_doorbell LABELS avic EXIT 0 STDOUT "0x00000000000000ff"
  ARGS avic doorbell PhysicalAPICID=0xFF)
virqtool_check(NAME vt_avic_doorbell_wide LABELS avic EXIT 2 STDERR_REGEX "does not fit bits 7:0"
  ARGS avic doorbell PhysicalAPICID=0x100)
virqtool_check(NAME vt_avic_doorbell_decode LABELS avic EXIT 0
  STDOUT "Reserved[63:8]=0x1 PhysicalAPICID=0xa3" ARGS avic doorbell 0x1A3)
# IOMMU IRTEs (Figures 19 and 20): GuestMode picks the layout; LO HI words.
virqtool_check(NAME vt_avic_irte_ga_encode LABELS avic EXIT 0
  STDOUT "0xdeadbeef123456a1 0xab0fedcba987605a"
  ARGS avic irte RemapEn=1 GuestMode=1 GAPPIDis=1 Destination=0xAB123456 Vector=0x5A
       GATag=0xDEADBEEF GuestVirtualAPICTableRootPointer=0xFEDCBA9876000)
virqtool_check(NAME vt_avic_irte_ga_decode LABELS avic EXIT 0
  STDOUT "Destination=0xab123456 GuestVirtualAPICTableRootPointer=0xfedcba9876000 Vector=0x5a GATag=0xdeadbeef GuestMode=1 IsRun=0 GAPPIDis=1 GALogIntr=0 SupIOPF=0 RemapEn=1"
  ARGS avic irte 0xdeadbeef123456a1 0xab0fedcba987605a)
virqtool_check(NAME vt_avic_irte_remap_decode LABELS avic EXIT 0
  STDOUT "Destination=0x1020304 Vector=0x31 GuestMode=0 DM=0 RqEoi=1 IntType=0x1 SupIOPF=0 RemapEn=1"
  ARGS avic irte 0x0000000002030425 0x0100000000000031)
virqtool_check(NAME vt_avic_irte_remap_reserved_type LABELS avic EXIT 2 STDERR_REGEX "refuses"
  ARGS avic irte RemapEn=1 IntType=2)
virqtool_check(NAME vt_avic_irte_alias LABELS avic EXIT 0 STDOUT "0x0000000000000001 0x0000000000000000"
  ARGS avic irte remap_en=1)
virqtool_check(NAME vt_avic_irte_one_word LABELS avic EXIT 2 STDERR_REGEX "expected 2 values"
  ARGS avic irte 0x81)
virqtool_check(NAME vt_avic_galog LABELS avic EXIT 0 STDOUT "OpCode=0x1 DeviceID=0xabcd GATag=0x5007"
  ARGS avic ga-log 0x1000ABCD00005007)
# Backing-page registers: Table 15-22's access and the register's fields.
virqtool_check(NAME vt_avic_backing_ldr LABELS avic EXIT 0
  STDOUT "Logical Destination Register (0D0h): read allowed, write trap
DLID=0x1" ARGS avic backing 0xD0 0x01000000)
virqtool_check(NAME vt_avic_backing_extlvt LABELS avic EXIT 0
  STDOUT "Extended Interrupt [3:0] Local Vector Table Registers (510h): read allowed with EDX[27], else fault, write trap with EDX[27], else fault"
  ARGS avic backing 0x510 0)
virqtool_check(NAME vt_avic_backing_icr LABELS avic EXIT 0
  STDOUT_REGEX "DES=0x1 Reserved\\[55:20\\]=0x0*[^ ]* DSH=0x0 RRS=0x0 TGM=0 L=0 DS=0 DM=0 MT=0x3 VEC=0x3|MT=0x3 VEC=0x3"
  ARGS avic backing 0x300 0x0100000000000303)
virqtool_check(NAME vt_avic_backing_bad LABELS avic EXIT 2 ARGS avic backing 0xD4 0)
# Bad input prints the error line only (the register line came first before; fuzz_virqtool).
virqtool_check(NAME vt_avic_backing_bad_value LABELS avic EXIT 2 STDERR_REGEX "'g' is not a number"
  ARGS avic backing 192 g)
virqtool_check(NAME vt_avic_backing_bad_plain LABELS avic EXIT 2 STDERR_REGEX "VALUE 'g' is not a number"
  ARGS avic backing 0x80 g)
virqtool_check(NAME vt_avic_backing_extra LABELS avic EXIT 2 STDERR_REGEX "got 2 words"
  ARGS avic backing 0x80 1 2)
# A value wider than 64 bits is named as such (it was taken for a name=value).
virqtool_check(NAME vt_avic_phys_too_wide LABELS avic EXIT 2
  STDERR_REGEX "'0x10000000000000000' is not a number 0..0xffffffffffffffff"
  ARGS avic phys-entry 0x10000000000000000)
# ICRH (310h) is bits 63:32 of the ICR: DES in its 31:24.
virqtool_check(NAME vt_avic_backing_icrh LABELS avic EXIT 0
  STDOUT "Interrupt Command Register High (ICRH) (310h): read allowed, write allowed
DES=0x5 DSH=0x0 RRS=0x0 TGM=0 L=0 DS=0 DM=0 MT=0x0 VEC=0x0" ARGS avic backing 0x310 0x05000000)
virqtool_check(NAME vt_avic_backing_icrh_wide LABELS avic EXIT 2 STDERR_REGEX "ICRH value=0x105000000 > 0xffffffff"
  ARGS avic backing 0x310 0x105000000)
virqtool_check(NAME vt_avic_backing_strict_bad LABELS avic EXIT 2 STDERR_REGEX "reserved bits set"
  ARGS avic backing 0x300 0x12345 --strict)
virqtool_check(NAME vt_avic_phys_unknown LABELS avic EXIT 2 STDERR_REGEX "unknown field"
  ARGS avic phys-entry host_apic_id=1 backing=0 running=1 valid=1 color=red)
virqtool_check(NAME vt_avic_log_entry LABELS avic EXIT 0 STDOUT "0x80000005"
  ARGS avic logical-entry guest_apic_id=5 valid=1)
virqtool_check(NAME vt_avic_log_entry_invalid LABELS avic EXIT 0 STDOUT "0x000000fe"
  ARGS avic logical-entry guest_apic_id=0xFE valid=0)
virqtool_check(NAME vt_avic_log_entry_range LABELS avic EXIT 2
  ARGS avic logical-entry guest_apic_id=256 valid=1)
virqtool_check(NAME vt_avic_log_index_cluster LABELS avic EXIT 0 STDOUT "index=14"
  ARGS avic logical-index dfr=cluster ldr=0x34000000)
virqtool_check(NAME vt_avic_log_index_flat LABELS avic EXIT 0 STDOUT "index=7"
  ARGS avic logical-index dfr=flat ldr=0x80000000)
virqtool_check(NAME vt_avic_log_index_multi LABELS avic EXIT 2 STDERR_REGEX "no single destination"
  ARGS avic logical-index dfr=flat ldr=0x03000000)
virqtool_check(NAME vt_avic_log_index_c15 LABELS avic EXIT 2
  ARGS avic logical-index dfr=cluster ldr=0xF1000000)
virqtool_check(NAME vt_avic_log_index_zero LABELS avic EXIT 2
  ARGS avic logical-index dfr=cluster ldr=0)
virqtool_check(NAME vt_avic_log_index_baddfr LABELS avic EXIT 2
  ARGS avic logical-index dfr=weird ldr=0x01000000)
virqtool_check(NAME vt_avic_exit_not_running_xapic LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI VEC=0xf1 MT=fixed DM=physical TGM=edge DSH=none DES=0x03 ID=TARGET_NOT_RUNNING Index=0x03"
  ARGS avic exit EXITCODE=0x401 EXITINFO1=0x03000000000040F1 EXITINFO2=0x0000000100000003 x2apic=0)
virqtool_check(NAME vt_avic_exit_not_running_x2apic LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI VEC=0xf1 MT=fixed DM=physical TGM=edge DSH=none DEST=0x123 ID=TARGET_NOT_RUNNING Index=0x123"
  ARGS avic exit code=0x401 info1=0x00000123000040F1 info2=0x0000000100000123 x2apic=1)
virqtool_check(NAME vt_avic_exit_invalid_target LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI VEC=0xf0 MT=fixed DM=logical TGM=edge DSH=none DES=0x0f ID=INVALID_TARGET Index=0x02"
  ARGS avic exit code=0x401 info1=0x0F000000000008F0 info2=0x0000000200000002 x2apic=0)
virqtool_check(NAME vt_avic_exit_nmi LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI VEC=0x00 MT=nmi DM=physical TGM=edge DSH=all_but_self DEST=0x00 ID=INVALID_INT_TYPE"
  ARGS avic exit code=0x401 info1=0x000000000000C0400 info2=0 x2apic=1)
virqtool_check(NAME vt_avic_exit_unaccelerated LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI VEC=0x30 MT=startup DM=physical TGM=edge DSH=self DES=0x00 ID=UNACCELERATED"
  ARGS avic exit code=0x401 info1=0x0000000000040630 info2=0x0000000500000FFF x2apic=0)
virqtool_check(NAME vt_avic_exit_unknown_cause LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI VEC=0x30 MT=startup DM=physical TGM=edge DSH=self DES=0x00 ID=RESERVED"
  ARGS avic exit code=0x401 info1=0x0000000000040630 info2=0x0000000700000FFF x2apic=0)
virqtool_check(NAME vt_avic_exit_remote_read LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI VEC=0x03 MT=remote_read DM=physical TGM=edge DSH=none DES=0x01 ID=INVALID_INT_TYPE"
  ARGS avic exit code=0x401 info1=0x0100000000000303 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_exit_noaccel_trap LABELS avic EXIT 0
  STDOUT "AVIC_NOACCEL APIC_Offset=0x0d0 RW=1 kind=trap"
  ARGS avic exit code=0x402 info1=0x1000000D0 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_exit_noaccel_fault LABELS avic EXIT 0
  STDOUT "AVIC_NOACCEL APIC_Offset=0x390 RW=0 kind=fault"
  ARGS avic exit code=0x402 info1=0x390 info2=0 x2apic=0)
# The EOI vector is EXITINFO2[7:0] (Table 15-29), for an EOI write only.
virqtool_check(NAME vt_avic_exit_noaccel_eoi LABELS avic EXIT 0
  STDOUT "AVIC_NOACCEL APIC_Offset=0x0b0 RW=1 kind=trap Vector=0x31"
  ARGS avic exit code=0x402 info1=0x1000000B0 info2=0xFFFFFFFFFFFFFF31 x2apic=0)
# Extended LVT writes trap only with CPUID Fn8000_000A EDX[27] (Table 15-22).
virqtool_check(NAME vt_avic_exit_noaccel_extlvt LABELS avic EXIT 0
  STDOUT "AVIC_NOACCEL APIC_Offset=0x500 RW=1 kind=trap"
  ARGS avic exit code=0x402 info1=0x100000500 info2=0 x2apic=0 ext_lvt=1)
virqtool_check(NAME vt_avic_exit_noaccel_extlvt_fault LABELS avic EXIT 0
  STDOUT "AVIC_NOACCEL APIC_Offset=0x500 RW=1 kind=fault"
  ARGS avic exit code=0x402 info1=0x100000500 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_exit_badcode LABELS avic EXIT 2 STDERR_REGEX "not an AVIC exit"
  ARGS avic exit code=0x400 info1=0 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_exit_badnum LABELS avic EXIT 2
  ARGS avic exit code=0x401 info1=0xZZ info2=0 x2apic=0)
virqtool_check(NAME vt_avic_targets_logical_invalid_target LABELS avic EXIT 0 STDOUT "targets=1,2"
  ARGS avic targets icr=0x0F000000000008F0 x2apic=0 sender=0 apic_ids=0,1,2,3
       ldrs=0,0x01000000,0x02000000,0)
virqtool_check(NAME vt_avic_targets_cluster LABELS avic EXIT 0 STDOUT "targets=0,2"
  ARGS avic targets icr=0x2500000000000830 x2apic=0 sender=1 apic_ids=0,1,2
       ldrs=0x21000000,0x12000000,0x24000000 dfr=cluster)
virqtool_check(NAME vt_avic_targets_all_but_self LABELS avic EXIT 0 STDOUT "targets=0,2,3"
  ARGS avic targets icr=0x00000000000C0400 x2apic=1 sender=1 apic_ids=0,1,2,3)
virqtool_check(NAME vt_avic_targets_x2_ff LABELS avic EXIT 0 STDOUT "targets=1"
  ARGS avic targets icr=0x000000FF00000030 x2apic=1 sender=0 apic_ids=0,0xFF,2)
virqtool_check(NAME vt_avic_targets_x_bcast LABELS avic EXIT 0 STDOUT "targets=0,1,2"
  ARGS avic targets icr=0xFF00000000000030 x2apic=0 sender=0 apic_ids=0,7,2)
virqtool_check(NAME vt_avic_targets_x2_logical LABELS avic EXIT 0 STDOUT "targets=0,2"
  ARGS avic targets icr=0x0001202000000830 x2apic=1 sender=1 apic_ids=0x15,0x4,0x1D)
virqtool_check(NAME vt_avic_targets_none LABELS avic EXIT 0 STDOUT "targets="
  ARGS avic targets icr=0x0900000000000030 x2apic=0 sender=0 apic_ids=0,1)
virqtool_check(NAME vt_avic_targets_dup LABELS avic EXIT 2 STDERR_REGEX "given twice"
  ARGS avic targets icr=0x30 x2apic=0 sender=0 apic_ids=1,1)
virqtool_check(NAME vt_avic_targets_bad_sender LABELS avic EXIT 2
  ARGS avic targets icr=0x30 x2apic=0 sender=2 apic_ids=0,1)
virqtool_check(NAME vt_avic_targets_bad_list LABELS avic EXIT 2
  ARGS avic targets icr=0x30 x2apic=0 sender=0 apic_ids=0,,1)
virqtool_check(NAME vt_avic_targets_ldr_count LABELS avic EXIT 2
  ARGS avic targets icr=0x30 x2apic=0 sender=0 apic_ids=0,1 ldrs=0x01000000)
virqtool_check(NAME vt_avic_targets_big_id LABELS avic EXIT 2
  ARGS avic targets icr=0x30 x2apic=1 sender=0 apic_ids=0,0x1000)
virqtool_check(NAME vt_avic_no_sub LABELS avic EXIT 2 ARGS avic)
virqtool_check(NAME vt_avic_bad_sub LABELS avic EXIT 2 STDERR_REGEX "unknown subcommand"
  ARGS avic frob x=1)
virqtool_check(NAME vt_avic_not_kv LABELS avic EXIT 2 ARGS avic exit 0x401)
# Numbers: "0x" must be followed by hex digits only (strtoull would take a sign,
# blanks or a second "0x" after it).
virqtool_check(NAME vt_avic_exit_neg_hex LABELS avic EXIT 2 STDERR_REGEX "bad value for 'EXITINFO1'"
  ARGS avic exit code=0x401 info1=0x-1 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_exit_plus_hex LABELS avic EXIT 2 STDERR_REGEX "bad value for 'EXITINFO2'"
  ARGS avic exit code=0x401 info1=0 info2=0x+1 x2apic=0)
virqtool_check(NAME vt_avic_exit_double_prefix LABELS avic EXIT 2
  ARGS avic exit code=0x401 info1=0x0x03000000000040F1 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_phys_neg_id LABELS avic EXIT 2
  ARGS avic phys-entry host_apic_id=0x-1 backing=0 running=1 valid=1)
# exit: x2apic=0|1 is part of the command (an ICR destination means nothing without it).
virqtool_check(NAME vt_avic_exit_no_mode LABELS avic EXIT 2 STDERR_REGEX "missing field 'x2apic'"
  ARGS avic exit code=0x401 info1=0x00000123000040F1 info2=0x0000000100000123)
# The old spellings are accepted as aliases, in any letter case.
virqtool_check(NAME vt_avic_phys_aliases LABELS avic EXIT 0 STDOUT "0xc000000123456005"
  ARGS avic phys-entry Host_APIC_ID=5 backing_pa=0x123456000 IsRunning=1 valid=1)
virqtool_check(NAME vt_avic_targets_missing LABELS avic EXIT 2
  STDERR_REGEX "missing field 'apic_ids' \\(required: icr, x2apic, sender, apic_ids\\)"
  ARGS avic targets icr=1 x2apic=0 sender=0)
# Help at every level and the fields of each subcommand.
virqtool_check(NAME vt_avic_help LABELS avic EXIT 0
  STDOUT_REGEX "phys-entry.*doorbell.*backing.*irte.*ga-log.*targets.*fields" ARGS avic --help)
virqtool_check(NAME vt_avic_sub_help LABELS avic EXIT 0
  STDOUT "virqtool avic logical-entry VALUE | Name=value...: a logical APIC ID table entry (APM Vol 2 rev 3.44 §15.29.5.3, Table 15-24)
  avic-logical-entry (AMD64 APM Vol 2 rev 3.44 §15.29.5.3, Figure 15-19, Table 15-24)
    V                                  [31]       V (aliases: valid)
    (reserved)                         [30:8]     Reserved, SBZ
    GuestPhysicalAPICID                [7:0]      Guest Physical APIC ID (aliases: guest_apic_id)"
  ARGS avic logical-entry --help)
virqtool_check(NAME vt_avic_layout_no_args LABELS avic EXIT 2 STDERR_REGEX "missing arguments"
  ARGS avic irte)
virqtool_check(NAME vt_avic_fields_one LABELS avic EXIT 0 STDOUT_REGEX "ldrs +optional"
  ARGS avic fields targets)
virqtool_check(NAME vt_avic_fields_all LABELS avic EXIT 0 STDOUT_REGEX "phys-entry.*exit.*targets"
  ARGS avic fields)
virqtool_check(NAME vt_avic_fields_bad LABELS avic EXIT 2 STDERR_REGEX "unknown subcommand 'x'"
  ARGS avic fields x)
