# SPDX-License-Identifier: MIT
# Sources of the gicv4 module (included from src/CMakeLists.txt; paths relative to src/).
# Layers, bottom up (each file calls only files listed before it; no cycle):
#   enc/         pure encoders and decoders (public headers + bitfield.h only)
#   its_queue.c  the ITS command queue
#   lpi.c gic.c rdist.c           LPI IDs, GIC probe, redistributor bring-up
#   its_exec.c its_table.c        command batches, GITS_BASER<n> tables
#   its_pool.c                    sub-page blocks for small ITTs and tracking
#   device.c                      devices, physical LPIs, event commands
#   doorbell.c                    GICv4.0 doorbell masking and proxy device
#   its.c vpe.c                   ITS bring-up; VMs, vPEs, VMOVP
#   vlpi.c residency.c vsgi.c     vLPI mappings; vPE residency; GICv4.1 vSGIs
#   info.c                        read-only accessors (no hardware access)
target_sources(virq PRIVATE
  gicv4/enc/its_cmd.c
  gicv4/enc/regs.c
  gicv4/enc/quirks.c
  gicv4/enc/images.c
  gicv4/its_queue.c
  gicv4/lpi.c
  gicv4/gic.c
  gicv4/rdist.c
  gicv4/its_exec.c
  gicv4/its_table.c
  gicv4/its_pool.c
  gicv4/device.c
  gicv4/doorbell.c
  gicv4/its.c
  gicv4/vpe.c
  gicv4/vlpi.c
  gicv4/residency.c
  gicv4/vsgi.c
  gicv4/info.c)
