# SPDX-License-Identifier: MIT
# virqtool avic: worked examples computed by hand from the APM Vol 2 §15.29 table and
# exit layouts, and bad input.
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
virqtool_check(NAME vt_avic_phys_missing LABELS avic EXIT 2
  STDERR_REGEX "missing field 'valid' \\(required: host_apic_id, backing, running, valid\\)"
  ARGS avic phys-entry host_apic_id=1 backing=0 running=1)
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
  STDOUT "AVIC_INCOMPLETE_IPI vector=0xf1 delivery_mode=fixed dest_mode=physical trigger=edge shorthand=none dest=0x03 cause=TARGET_NOT_RUNNING index=0x03"
  ARGS avic exit code=0x401 info1=0x03000000000040F1 info2=0x0000000100000003 x2apic=0)
virqtool_check(NAME vt_avic_exit_not_running_x2apic LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI vector=0xf1 delivery_mode=fixed dest_mode=physical trigger=edge shorthand=none dest=0x123 cause=TARGET_NOT_RUNNING index=0x123"
  ARGS avic exit code=0x401 info1=0x00000123000040F1 info2=0x0000000100000123 x2apic=1)
virqtool_check(NAME vt_avic_exit_invalid_target LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI vector=0xf0 delivery_mode=fixed dest_mode=logical trigger=edge shorthand=none dest=0x0f cause=INVALID_TARGET index=0x02"
  ARGS avic exit code=0x401 info1=0x0F000000000008F0 info2=0x0000000200000002 x2apic=0)
virqtool_check(NAME vt_avic_exit_nmi LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI vector=0x00 delivery_mode=nmi dest_mode=physical trigger=edge shorthand=all_but_self dest=0x00 cause=INVALID_INT_TYPE index=0x00"
  ARGS avic exit code=0x401 info1=0x000000000000C0400 info2=0 x2apic=1)
virqtool_check(NAME vt_avic_exit_unknown_cause LABELS avic EXIT 0
  STDOUT "AVIC_INCOMPLETE_IPI vector=0x30 delivery_mode=sipi dest_mode=physical trigger=edge shorthand=self dest=0x00 cause=UNKNOWN index=0xfff"
  ARGS avic exit code=0x401 info1=0x0000000000040630 info2=0x0000000700000FFF x2apic=0)
virqtool_check(NAME vt_avic_exit_noaccel_trap LABELS avic EXIT 0
  STDOUT "AVIC_NOACCEL offset=0xd0 write=1 kind=trap"
  ARGS avic exit code=0x402 info1=0x1000000D0 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_exit_noaccel_fault LABELS avic EXIT 0
  STDOUT "AVIC_NOACCEL offset=0x390 write=0 kind=fault"
  ARGS avic exit code=0x402 info1=0x390 info2=0 x2apic=0)
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
virqtool_check(NAME vt_avic_exit_neg_hex LABELS avic EXIT 2 STDERR_REGEX "bad value for 'info1'"
  ARGS avic exit code=0x401 info1=0x-1 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_exit_plus_hex LABELS avic EXIT 2 STDERR_REGEX "bad value for 'info2'"
  ARGS avic exit code=0x401 info1=0 info2=0x+1 x2apic=0)
virqtool_check(NAME vt_avic_exit_double_prefix LABELS avic EXIT 2
  ARGS avic exit code=0x401 info1=0x0x03000000000040F1 info2=0 x2apic=0)
virqtool_check(NAME vt_avic_phys_neg_id LABELS avic EXIT 2
  ARGS avic phys-entry host_apic_id=0x-1 backing=0 running=1 valid=1)
# exit: x2apic=0|1 is part of the command (an ICR destination means nothing without it).
virqtool_check(NAME vt_avic_exit_no_mode LABELS avic EXIT 2 STDERR_REGEX "missing field 'x2apic'"
  ARGS avic exit code=0x401 info1=0x00000123000040F1 info2=0x0000000100000123)
# The APM's names are accepted as aliases, in any letter case.
virqtool_check(NAME vt_avic_phys_aliases LABELS avic EXIT 0 STDOUT "0xc000000123456005"
  ARGS avic phys-entry Host_APIC_ID=5 backing_pa=0x123456000 IsRunning=1 V=1)
virqtool_check(NAME vt_avic_targets_missing LABELS avic EXIT 2
  STDERR_REGEX "missing field 'apic_ids' \\(required: icr, x2apic, sender, apic_ids\\)"
  ARGS avic targets icr=1 x2apic=0 sender=0)
# Help at every level and the fields of each subcommand.
virqtool_check(NAME vt_avic_help LABELS avic EXIT 0 STDOUT_REGEX "phys-entry.*targets.*fields" ARGS avic --help)
virqtool_check(NAME vt_avic_sub_help LABELS avic EXIT 0
  STDOUT "virqtool avic logical-entry: a logical APIC ID table entry (§15.29.3.3)
  guest_apic_id  required  bits [7:0]: guest physical APIC ID (0..0xFF)
  valid          required  bit 31: valid (0|1)"
  ARGS avic logical-entry --help)
virqtool_check(NAME vt_avic_fields_one LABELS avic EXIT 0 STDOUT_REGEX "ldrs +optional"
  ARGS avic fields targets)
virqtool_check(NAME vt_avic_fields_all LABELS avic EXIT 0 STDOUT_REGEX "phys-entry.*exit.*targets"
  ARGS avic fields)
virqtool_check(NAME vt_avic_fields_bad LABELS avic EXIT 2 STDERR_REGEX "unknown subcommand 'x'"
  ARGS avic fields x)
