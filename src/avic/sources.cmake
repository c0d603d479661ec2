# SPDX-License-Identifier: MIT
# Sources of the avic module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE
  avic/caps.c
  avic/enc/encode.c
  avic/enc/iommu.c
  avic/enc/layouts.c
  avic/tables.c
  avic/vm.c
  avic/run.c
  avic/dest.c
  avic/exits.c
  avic/iommu.c)
# (Inline AArch64 atomics for the freestanding archive: see src/CMakeLists.txt.)
