# SPDX-License-Identifier: MIT
# virqtool dt: topology of every tree the discovery tests generate
# (tests/unit/fdt/gen_dtbs.sh, run as the fdt_gen_dtbs fixture), and a
# one-line error with exit 2 for every malformed one.
if(NOT TARGET virq_fdt)
  return()
endif()
# The fdt_dtbs fixture comes from tests/unit/fdt (added by tests/CMakeLists.txt).
set(_dtbs ${CMAKE_BINARY_DIR}/tests/unit/fdt/dtbs)

function(virq_dt_check name exit)
  virqtool_check(NAME virqtool_dt_${name} LABELS fdt EXIT ${exit} ${ARGN}
                 ARGS dt ${_dtbs}/${name}.dtb)
  set_tests_properties(virqtool_dt_${name} PROPERTIES FIXTURES_REQUIRED fdt_dtbs)
endfunction()

set(_d "gicd base=0x8000000 size=0x10000\n")
set(_r0 "gicr base=0x80a0000 size=0xf60000 stride=0x0\n")
set(_r1 "gicr base=0x4000000000 size=0x4000000 stride=0x0\n")
set(_its "its base=0x8080000 size=0x20000")
virq_dt_check(qemu_v3_smp1 0 STDOUT "${_d}${_r0}${_its}")
virq_dt_check(qemu_v3_smp8 0 STDOUT "${_d}${_r0}${_its}")
virq_dt_check(qemu_v3_smp128 0 STDOUT "${_d}${_r0}${_r1}${_its}")
virq_dt_check(qemu_v3_noits 0 STDOUT "${_d}gicr base=0x80a0000 size=0xf60000 stride=0x0")
virq_dt_check(qemu_v4_smp1 0 STDOUT "${_d}${_r0}${_its}")
virq_dt_check(qemu_v4_smp4 0 STDOUT "${_d}${_r0}${_its}")
virq_dt_check(qemu_v4_smp64 0 STDOUT "${_d}${_r0}${_r1}${_its}")
virq_dt_check(qemu_v4_noits 0 STDOUT "${_d}gicr base=0x80a0000 size=0xf60000 stride=0x0")
virq_dt_check(good_two_regions 0 STDOUT
  "gicd base=0xfe600000 size=0x10000\ngicr base=0xfe680000 size=0x100000 stride=0x40000\ngicr base=0x100000000 size=0x80000 stride=0x40000\nits base=0xfe640000 size=0x20000\nits base=0xfe660000 size=0x20000")
virq_dt_check(good_cells1 0 STDOUT
  "gicd base=0x2f000000 size=0x10000\ngicr base=0x2f100000 size=0x200000 stride=0x0\nits base=0x2f020000 size=0x20000")
virq_dt_check(good_soc_ranges 0 STDOUT
  "gicd base=0x20100000 size=0x10000\ngicr base=0x20200000 size=0x100000 stride=0x0\nits base=0x20180000 size=0x20000")

foreach(bad cells00 size_cells0 addr_cells3 addr_cells_huge cells_len reg_short reg_partial
        no_reg nrr0 nrr_huge nrr_len nrr_more_than_reg gicd_size0 gicr_size0 its_size0 wrap
        stride_1cell stride_unaligned stride_zero outside_ranges no_ranges ranges_partial)
  virq_dt_check(bad_${bad} 2 STDERR_REGEX "malformed device tree")
endforeach()
virq_dt_check(none_gic 2 STDERR_REGEX "no enabled arm,gic-v3 node")
virq_dt_check(disabled_gic 2 STDERR_REGEX "no enabled arm,gic-v3 node")
virqtool_check(NAME virqtool_dt_missing_file LABELS fdt EXIT 2 STDERR_REGEX "cannot open"
               ARGS dt ${_dtbs}/does_not_exist.dtb)
virqtool_check(NAME virqtool_dt_not_a_dtb LABELS fdt EXIT 2 STDERR_REGEX "bad FDT magic"
               ARGS dt ${PROJECT_SOURCE_DIR}/tests/data/dtb/README.md)
virqtool_check(NAME virqtool_dt_no_args LABELS fdt EXIT 2 STDERR_REGEX "usage" ARGS dt)
# Regression: a blob whose header says version 15 made `virqtool dt` segfault
# (NULL read in libfdt 1.6.1's fdt_check_full); it must be a one-line error.
virqtool_check(NAME virqtool_dt_version15 LABELS fdt EXIT 2 STDERR_REGEX "unsupported FDT version"
               ARGS dt ${PROJECT_SOURCE_DIR}/tests/fuzz/corpus/fuzz_fdt/crash_version15.dtb)
