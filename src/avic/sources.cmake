# SPDX-License-Identifier: MIT
# Sources of the avic module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE)
