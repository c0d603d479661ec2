# SPDX-License-Identifier: MIT
# Sources of the pmcvirt module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE
  pmcvirt/enc/layout.c
  pmcvirt/enc/msrmap.c
  pmcvirt/caps.c
  pmcvirt/vcpu.c
  pmcvirt/switch.c
  pmcvirt/nested.c)
