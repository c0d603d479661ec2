# SPDX-License-Identifier: MIT
# Sources of the gicv4 module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE)
# --- gicv4-its (issue 3): ITS command encoders/decoders and command queue ---
target_sources(virq PRIVATE gicv4/its_cmd.c gicv4/its_queue.c)
# --- end gicv4-its ---
