# SPDX-License-Identifier: MIT
# Sources of the gicv4 module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE)
