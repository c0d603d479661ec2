# SPDX-License-Identifier: MIT
# virqtool pmc: layout (APM Vol 2 Table B-2) and MSR -> VMCB field mapping (APM Vol 2
# §13.2; docs/rationale.md#pmc-legacy-msr-index).
set(_pmc_layout "PERF_CTL0 0x4E0 8
PERF_CTR0 0x4E8 8
PERF_CTL1 0x4F0 8
PERF_CTR1 0x4F8 8
PERF_CTL2 0x500 8
PERF_CTR2 0x508 8
PERF_CTL3 0x510 8
PERF_CTR3 0x518 8
PERF_CTL4 0x520 8
PERF_CTR4 0x528 8
PERF_CTL5 0x530 8
PERF_CTR5 0x538 8
INSTR_RETIRED_CTR 0x5C0 8
PERF_CTR_GLOBAL_STS 0x5C8 8
PERF_CTR_GLOBAL_CTL 0x5D0 4")
virqtool_check(NAME virqtool_pmc_layout LABELS pmcvirt EXIT 0 STDOUT "${_pmc_layout}" ARGS pmc layout)
virqtool_check(NAME virqtool_pmc_layout_extra LABELS pmcvirt EXIT 2 ARGS pmc layout x)

# 6-counter (PerfCtrExtCore + PerfMonV2) guest
virqtool_check(NAME virqtool_pmc_msr6_ctr5 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTR5" ARGS pmc msr 0xC001020B counters=6)
virqtool_check(NAME virqtool_pmc_msr6_ctl3 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTL3" ARGS pmc msr 0xC0010206 counters=6)
virqtool_check(NAME virqtool_pmc_msr6_ctl4 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTL4" ARGS pmc msr 0xC0010208 counters=6)
virqtool_check(NAME virqtool_pmc_msr6_k7ctr2 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTR2" ARGS pmc msr 0xC0010006 counters=6)
virqtool_check(NAME virqtool_pmc_msr6_gctl LABELS pmcvirt EXIT 0 STDOUT "PERF_CTR_GLOBAL_CTL" ARGS pmc msr 0xC0000301 counters=6)
virqtool_check(NAME virqtool_pmc_msr6_gsts LABELS pmcvirt EXIT 0 STDOUT "PERF_CTR_GLOBAL_STS" ARGS pmc msr 0xC0000300 counters=6)
virqtool_check(NAME virqtool_pmc_msr6_gclr LABELS pmcvirt EXIT 0 STDOUT "PERF_CTR_GLOBAL_STS" ARGS pmc msr 0xC0000302 counters=6)
virqtool_check(NAME virqtool_pmc_msr6_irperf LABELS pmcvirt EXIT 0 STDOUT "INSTR_RETIRED_CTR" ARGS pmc msr 0xC00000E9 counters=6)
virqtool_check(NAME virqtool_pmc_msr6_none LABELS pmcvirt EXIT 2 STDERR_REGEX "maps to no VMCB field" ARGS pmc msr 0xC001020C counters=6)
virqtool_check(NAME virqtool_pmc_msr6_hwcr LABELS pmcvirt EXIT 2 ARGS pmc msr 0xC0010015 counters=6)

# 4-counter legacy guest (translate F15h, never alias past counter 3:
# docs/rationale.md#pmc-legacy-msr-index)
virqtool_check(NAME virqtool_pmc_msr4_f15ctr1 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTR1" ARGS pmc msr 0xC0010203 counters=4)
virqtool_check(NAME virqtool_pmc_msr4_f15ctl1 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTL1" ARGS pmc msr 0xC0010202 counters=4)
virqtool_check(NAME virqtool_pmc_msr4_k7ctl0 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTL0" ARGS pmc msr 0xC0010000 counters=4)
virqtool_check(NAME virqtool_pmc_msr4_k7ctr3 LABELS pmcvirt EXIT 0 STDOUT "PERF_CTR3" ARGS pmc msr 0xC0010007 counters=4)
virqtool_check(NAME virqtool_pmc_msr4_ctl4_alias LABELS pmcvirt EXIT 2 STDERR_REGEX "maps to no VMCB field" ARGS pmc msr 0xC0010208 counters=4)
virqtool_check(NAME virqtool_pmc_msr4_ctr5 LABELS pmcvirt EXIT 2 ARGS pmc msr 0xC001020B counters=4)
virqtool_check(NAME virqtool_pmc_msr4_gctl LABELS pmcvirt EXIT 2 ARGS pmc msr 0xC0000301 counters=4)

# bad input
virqtool_check(NAME virqtool_pmc_msr_counters5 LABELS pmcvirt EXIT 2 STDERR_REGEX "counters must be 4 or 6" ARGS pmc msr 0xC0010200 counters=5)
virqtool_check(NAME virqtool_pmc_msr_nocounters LABELS pmcvirt EXIT 2 STDERR_REGEX "missing counters=4\\|6 \\(required: counters\\)" ARGS pmc msr 0xC0010200)
virqtool_check(NAME virqtool_pmc_msr_badmsr LABELS pmcvirt EXIT 2 STDERR_REGEX "bad MSR" ARGS pmc msr zz counters=6)
virqtool_check(NAME virqtool_pmc_msr_bigmsr LABELS pmcvirt EXIT 2 STDERR_REGEX "bad MSR" ARGS pmc msr 0x1C0010200 counters=6)
virqtool_check(NAME virqtool_pmc_msr_extra LABELS pmcvirt EXIT 2 STDERR_REGEX "unknown field" ARGS pmc msr 0xC0010200 counters=6 foo=1)
virqtool_check(NAME virqtool_pmc_msr_noarg LABELS pmcvirt EXIT 2 ARGS pmc msr)
virqtool_check(NAME virqtool_pmc_unknown LABELS pmcvirt EXIT 2 STDERR_REGEX "unknown pmc command" ARGS pmc frob)
virqtool_check(NAME virqtool_pmc_noarg LABELS pmcvirt EXIT 2 ARGS pmc)
# Help at every level and the fields.
virqtool_check(NAME virqtool_pmc_help LABELS pmcvirt EXIT 0 STDOUT_REGEX "pmc layout.*pmc msr" ARGS pmc --help)
virqtool_check(NAME virqtool_pmc_msr_help LABELS pmcvirt EXIT 0 STDOUT_REGEX "counters +required" ARGS pmc msr --help)
virqtool_check(NAME virqtool_pmc_layout_help LABELS pmcvirt EXIT 0 STDOUT_REGEX "usage: virqtool pmc layout" ARGS pmc layout -h)
virqtool_check(NAME virqtool_pmc_fields LABELS pmcvirt EXIT 0 STDOUT_REGEX "counters +required" ARGS pmc fields)
# PERF_CTLn / PerfEvtSeln values (AMD64 APM Vol 2 rev 3.44 Figure 13-11): decode, encode
# with the manual's names (older spellings as aliases), reserved bits named.
virqtool_check(NAME virqtool_pmc_ctl_decode LABELS pmcvirt EXIT 0
  STDOUT "PREC_RET=0 HG_ONLY=0x3 EVENT_SELECT=0x76 CNT_MASK=0x0 INV=0 EN=1 INT=1 EDGE=0 OS=1 USR=1 UNIT_MASK=0x0"
  ARGS pmc perf-ctl 0x0000030000530076)
virqtool_check(NAME virqtool_pmc_ctl_encode LABELS pmcvirt EXIT 0 STDOUT "0x00000001004300c0"
  ARGS pmc perf-ctl EVENT_SELECT=0x1C0 USR=1 OS=1 EN=1)
virqtool_check(NAME virqtool_pmc_ctl_aliases LABELS pmcvirt EXIT 0 STDOUT "0x0000000000040076"
  ARGS pmc perf-ctl EventSelect=0x76 Edge=1)
virqtool_check(NAME virqtool_pmc_ctl_event_wide LABELS pmcvirt EXIT 2 STDERR_REGEX "does not fit 12 bits"
  ARGS pmc perf-ctl EVENT_SELECT=0x1000)
virqtool_check(NAME virqtool_pmc_ctl_prec_ret LABELS pmcvirt EXIT 0
  STDOUT "PREC_RET=1 HG_ONLY=0x0 EVENT_SELECT=0xc0 CNT_MASK=0x0 INV=0 EN=1 INT=0 EDGE=0 OS=1 USR=1 UNIT_MASK=0x0"
  ARGS pmc perf-ctl 0x00000800004300c0)
virqtool_check(NAME virqtool_pmc_ctl_reserved LABELS pmcvirt EXIT 0
  STDOUT "Reserved[63:44]=0x100 PREC_RET=0 HG_ONLY=0x0 EVENT_SELECT=0x0 CNT_MASK=0x0 INV=0 EN=0 INT=0 EDGE=0 OS=0 USR=0 UNIT_MASK=0x0"
  ARGS pmc perf-ctl 0x10000000000000)
virqtool_check(NAME virqtool_pmc_ctl_strict LABELS pmcvirt EXIT 2 STDERR_REGEX "\\[63:44\\] \\[21\\]"
  ARGS pmc perf-ctl --strict 0x10000000200000)
virqtool_check(NAME virqtool_pmc_ctl_help LABELS pmcvirt EXIT 0 STDOUT_REGEX "PREC_RET +\\[43\\]"
  ARGS pmc perf-ctl --help)
virqtool_check(NAME virqtool_pmc_ctl_noarg LABELS pmcvirt EXIT 2 ARGS pmc perf-ctl)
virqtool_check(NAME virqtool_pmc_ctr LABELS pmcvirt EXIT 0 STDOUT "Count=0xffff800000000001 count48=0x800000000001"
  ARGS pmc perf-ctr 0xFFFF800000000001)
virqtool_check(NAME virqtool_pmc_ctr_odd LABELS pmcvirt EXIT 0
  STDOUT "Count=0x1000000000000 count48=0x000000000000 (bits 63:48 not the sign of bit 47)"
  ARGS pmc perf-ctr 0x1000000000000)
virqtool_check(NAME virqtool_pmc_ctr_bad LABELS pmcvirt EXIT 2 ARGS pmc perf-ctr zz)
