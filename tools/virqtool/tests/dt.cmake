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
set(_its "its base=0x8080000 size=0x20000 phandle=")
# QEMU 7.2 virt's PCIe host: high ECAM, I/O, 32-bit and 64-bit MEM windows.
set(_pci_ranges "pci 0 io pci=0x0 cpu=0x3eff0000 size=0x10000\npci 0 mem32 pci=0x10000000 cpu=0x10000000 size=0x2eff0000\npci 0 mem64 pci=0x8000000000 cpu=0x8000000000 size=0x8000000000")
set(_pci "pci 0 ecam cfg=0x4010000000 size=0x10000000 bus=0x0-0xff msi-map\n${_pci_ranges}")
set(_pci_noits "pci 0 ecam cfg=0x4010000000 size=0x10000000 bus=0x0-0xff\n${_pci_ranges}")
# The ITS phandle QEMU assigns moves with the CPU count.
virq_dt_check(qemu_v3_smp1 0 STDOUT "${_d}${_r0}${_its}0x8003\n${_pci}")
virq_dt_check(qemu_v3_smp8 0 STDOUT "${_d}${_r0}${_its}0x800a\n${_pci}")
virq_dt_check(qemu_v3_smp128 0 STDOUT "${_d}${_r0}${_r1}${_its}0x8082\n${_pci}")
virq_dt_check(qemu_v3_noits 0 STDOUT "${_d}${_r0}${_pci_noits}")
virq_dt_check(qemu_v4_smp1 0 STDOUT "${_d}${_r0}${_its}0x8003\n${_pci}")
virq_dt_check(qemu_v4_smp2 0 STDOUT "${_d}${_r0}${_its}0x8004\n${_pci}")
virq_dt_check(qemu_v4_smp4 0 STDOUT "${_d}${_r0}${_its}0x8006\n${_pci}")
virq_dt_check(qemu_v4_smp64 0 STDOUT "${_d}${_r0}${_r1}${_its}0x8042\n${_pci}")
virq_dt_check(qemu_v4_noits 0 STDOUT "${_d}${_r0}${_pci_noits}")
virq_dt_check(good_two_regions 0 STDOUT
  "gicd base=0xfe600000 size=0x10000\ngicr base=0xfe680000 size=0x100000 stride=0x40000\ngicr base=0x100000000 size=0x80000 stride=0x40000\nits base=0xfe640000 size=0x20000 phandle=0x0\nits base=0xfe660000 size=0x20000 phandle=0x0")
virq_dt_check(good_cells1 0 STDOUT
  "gicd base=0x2f000000 size=0x10000\ngicr base=0x2f100000 size=0x200000 stride=0x0\ngicc base=0x2c000000 size=0x2000\ngich base=0x2c010000 size=0x2000\ngicv base=0x2c02f000 size=0x2000\nits base=0x2f020000 size=0x20000 phandle=0x0")
virq_dt_check(good_soc_ranges 0 STDOUT
  "gicd base=0x20100000 size=0x10000\ngicr base=0x20200000 size=0x100000 stride=0x0\nits base=0x20180000 size=0x20000 phandle=0x2")
# An empty redistributor region is skipped and said so; GICC/GICH/GICV shown.
virq_dt_check(good_gicr_empty_cpuif 0 STDOUT
  "gicd base=0x11000000 size=0x10000\ngicr base=0x11100000 size=0x40000 stride=0x0\ngicr base=0x11300000 size=0x80000 stride=0x0\ngicr skipped=1 (empty regions)\ngicc base=0x12000000 size=0x2000\ngich base=0x12010000 size=0x2000\ngicv base=0x12020000 size=0x2000\nits base=0x11080000 size=0x20000 phandle=0x1\nnote: ok, but an empty (size 0) redistributor region was skipped")

# MSI look-ups (rid=, host=, its=): QEMU's edu at RID 0x10 -> DeviceID 0x10 on the ITS.
virqtool_check(NAME virqtool_dt_msi_qemu_edu LABELS fdt EXIT 0
  STDOUT "rid=0x10 its=0 base=0x8080000 phandle=0x8004 devid=0x10 via=msi-map"
  ARGS dt ${PROJECT_SOURCE_DIR}/tests/data/dtb/qemu72_v4_smp2_edu.dtb rid=0x10)
virqtool_check(NAME virqtool_dt_msi_qemu_smp1 LABELS fdt EXIT 0
  STDOUT "rid=0x8 its=0 base=0x8080000 phandle=0x8003 devid=0x8 via=msi-map"
  ARGS dt ${PROJECT_SOURCE_DIR}/tests/data/dtb/qemu72_v4_smp1.dtb rid=8)
set(_pm ${_dtbs}/pci_msi.dtb)
foreach(c "split;rid=0x10;rid=0x10 its=0 base=0x8080000 phandle=0x1 devid=0x8010 via=msi-map"
          "split_its1;rid=0x10 its=1;rid=0x10 its=1 base=0x8100000 phandle=0x2 devid=0x10 via=msi-map"
          "mask;rid=0x312 host=1;rid=0x312 its=1 base=0x8100000 phandle=0x2 devid=0x112 via=msi-map"
          "parent;rid=0x42 host=3;rid=0x42 its=0 base=0x8080000 phandle=0x1 devid=0x42 via=msi-parent")
  list(GET c 0 name)
  list(GET c 1 args)
  list(GET c 2 out)
  string(REPLACE " " ";" args "${args}")
  virqtool_check(NAME virqtool_dt_msi_${name} LABELS fdt EXIT 0 STDOUT "${out}" ARGS dt ${_pm} ${args})
  set_tests_properties(virqtool_dt_msi_${name} PROPERTIES FIXTURES_REQUIRED fdt_dtbs)
endforeach()
foreach(c "hole;rid=0x100 host=7;no msi-map entry matches the RID"
          "not_its;rid=0x10 host=4;not ITSes of the description"
          "no_host;rid=0x10 host=8;fewer enabled generic PCI host bridges"
          "rid_range;rid=0x10000;is not a number"
          "its_range;rid=1 its=16;is not a number"
          "its_absent;rid=0x10 its=2;: its=2: no such ITS [(]the tree's are its=0..1[)]"
          "unknown_arg;rid=1 bogus=2;unknown argument"
          "no_rid;host=1;usage")
  list(GET c 0 name)
  list(GET c 1 args)
  list(GET c 2 err)
  string(REPLACE " " ";" args "${args}")
  virqtool_check(NAME virqtool_dt_msi_${name} LABELS fdt EXIT 2 STDERR_REGEX "${err}" ARGS dt ${_pm} ${args})
  set_tests_properties(virqtool_dt_msi_${name} PROPERTIES FIXTURES_REQUIRED fdt_dtbs)
endforeach()
virqtool_check(NAME virqtool_dt_msi_hostile LABELS fdt EXIT 2 STDERR_REGEX "overlap"
               ARGS dt ${_dtbs}/pci_msi_bad.dtb rid=1)
set_tests_properties(virqtool_dt_msi_hostile PROPERTIES FIXTURES_REQUIRED fdt_dtbs)

foreach(bad cells00 size_cells0 addr_cells3 addr_cells_huge cells_len reg_short reg_partial
        no_reg nrr0 nrr_huge nrr_len nrr_more_than_reg gicd_size0 gicr_size0 its_size0 wrap
        stride_1cell stride_unaligned stride_zero outside_ranges no_ranges ranges_partial
        gicr_all_empty gicv_wrap gicc_outside_ranges)
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
               ARGS dt ${PROJECT_SOURCE_DIR}/tests/fuzz/regress/fuzz_fdt/version15.dtb)

# The error names the argument the user gave, never the library's parameter.
virqtool_check(NAME virqtool_dt_msi_its_one LABELS fdt EXIT 2
  STDERR_REGEX ": its=1: no such ITS [(]the tree's are its=0..0[)]"
  ARGS dt ${PROJECT_SOURCE_DIR}/tests/data/dtb/qemu72_v4_smp2_edu.dtb rid=0x10 its=1)

# Linear in the tree: virqtool's dt code and the FDT sources linked with
# libfdt's static archive, whose tag and node steps are counted through
# --wrap (tests/dt_work.c); 4x the PCI host bridges must cost at most 5x the
# steps (0.2's walk took 14.8x).
find_library(LIBVIRQ_LIBFDT_STATIC NAMES libfdt.a)
if(LIBVIRQ_LIBFDT_STATIC)
  add_executable(virqtool_dt_work tests/dt_work.c cli.c common.c dt.c
                 ${PROJECT_SOURCE_DIR}/src/gicv4/fdt.c ${PROJECT_SOURCE_DIR}/src/gicv4/fdt_pci.c)
  target_compile_definitions(virqtool_dt_work PRIVATE VIRQTOOL_HAVE_DT)
  target_include_directories(virqtool_dt_work PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                             $<TARGET_PROPERTY:virq_fdt,LIBVIRQ_LIBFDT_INCLUDE_DIRS>)
  target_link_libraries(virqtool_dt_work PRIVATE virq ${LIBVIRQ_LIBFDT_STATIC})
  target_link_options(virqtool_dt_work PRIVATE -Wl,--wrap=fdt_next_tag,--wrap=fdt_next_node)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/dt_work)
  add_test(NAME virqtool_dt_linear
           COMMAND virqtool_dt_work ${CMAKE_CURRENT_BINARY_DIR}/dt_work)
  set_tests_properties(virqtool_dt_linear PROPERTIES LABELS "virqtool;fdt")
else()
  message(STATUS "virqtool_dt_linear: no libfdt.a (libfdt-dev): test left out")
endif()
