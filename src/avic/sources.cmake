# SPDX-License-Identifier: MIT
# Sources of the avic module (included from src/CMakeLists.txt; paths relative to src/).
target_sources(virq PRIVATE
  avic/caps.c
  avic/encode.c
  avic/vm.c
  avic/run.c
  avic/dest.c
  avic/exits.c
  avic/iommu.c)
# AArch64 GCC/Clang default to "outline" atomics that call libgcc helpers
# (__aarch64_ldadd4_acq_rel...); a freestanding library must inline them.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64|ARM64)$")
  include(CheckCCompilerFlag)
  check_c_compiler_flag(-mno-outline-atomics VIRQ_CC_NO_OUTLINE_ATOMICS)
  if(VIRQ_CC_NO_OUTLINE_ATOMICS)
    target_compile_options(virq PRIVATE -mno-outline-atomics)
  endif()
endif()
