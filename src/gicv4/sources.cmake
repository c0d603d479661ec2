# SPDX-License-Identifier: MIT
# Sources of the gicv4 module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE)
# --- gicv4-its: ITS command encoders/decoders and command queue ---
target_sources(virq PRIVATE gicv4/enc/its_cmd.c gicv4/its_queue.c)
# --- end gicv4-its ---
# --- gicv4-core (GIC, redistributors, LPIs, ITS tables, vPEs, vLPIs, doorbells, VMOVP) ---
target_sources(virq PRIVATE
  gicv4/gic.c
  gicv4/lpi.c
  gicv4/residency.c
  gicv4/its.c
  gicv4/its_table.c
  gicv4/device.c
  gicv4/vpe.c
  gicv4/vlpi.c)
# --- end gicv4-core ---
