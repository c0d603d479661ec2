# SPDX-License-Identifier: MIT
# Freestanding AArch64 build of the libvirq libraries with Clang (bare-metal
# target aarch64-none-elf). Only static libraries are built: nothing is linked.
#   cmake -S . -B build-a64c --toolchain cmake/toolchains/aarch64-freestanding-clang.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET aarch64-none-elf)
set(CMAKE_AR llvm-ar CACHE FILEPATH "")
set(CMAKE_RANLIB llvm-ranlib CACHE FILEPATH "")
set(LIBVIRQ_NM llvm-nm CACHE FILEPATH "nm for the freestanding check")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "-ffreestanding -nostdlib -mgeneral-regs-only")
set(LIBVIRQ_FREESTANDING ON CACHE BOOL "Build only the libraries, freestanding")
