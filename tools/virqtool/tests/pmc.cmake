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
virqtool_check(NAME virqtool_pmc_msr_nocounters LABELS pmcvirt EXIT 2 STDERR_REGEX "missing counters" ARGS pmc msr 0xC0010200)
virqtool_check(NAME virqtool_pmc_msr_badmsr LABELS pmcvirt EXIT 2 STDERR_REGEX "bad MSR" ARGS pmc msr zz counters=6)
virqtool_check(NAME virqtool_pmc_msr_bigmsr LABELS pmcvirt EXIT 2 STDERR_REGEX "bad MSR" ARGS pmc msr 0x1C0010200 counters=6)
virqtool_check(NAME virqtool_pmc_msr_extra LABELS pmcvirt EXIT 2 STDERR_REGEX "unknown field" ARGS pmc msr 0xC0010200 counters=6 foo=1)
virqtool_check(NAME virqtool_pmc_msr_noarg LABELS pmcvirt EXIT 2 ARGS pmc msr)
virqtool_check(NAME virqtool_pmc_unknown LABELS pmcvirt EXIT 2 STDERR_REGEX "unknown pmc command" ARGS pmc frob)
virqtool_check(NAME virqtool_pmc_noarg LABELS pmcvirt EXIT 2 ARGS pmc)
