# SPDX-License-Identifier: MIT
# Sources of the pmcvirt module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE
  pmcvirt/layout.c
  pmcvirt/msrmap.c
  pmcvirt/caps.c
  pmcvirt/vcpu.c
  pmcvirt/switch.c
  pmcvirt/nested.c)
