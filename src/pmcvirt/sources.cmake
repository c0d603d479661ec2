# SPDX-License-Identifier: MIT
# Sources of the pmcvirt module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE)
