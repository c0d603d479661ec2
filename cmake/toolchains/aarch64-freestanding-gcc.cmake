# SPDX-License-Identifier: MIT
# Freestanding AArch64 build of the libvirq libraries with the Debian cross GCC
# (gcc-aarch64-linux-gnu). Only static libraries are built: nothing is linked.
#   cmake -S . -B build-a64 --toolchain cmake/toolchains/aarch64-freestanding-gcc.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_AR aarch64-linux-gnu-ar CACHE FILEPATH "")
set(CMAKE_RANLIB aarch64-linux-gnu-ranlib CACHE FILEPATH "")
set(LIBVIRQ_NM aarch64-linux-gnu-nm CACHE FILEPATH "nm for the freestanding check")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "-ffreestanding -nostdlib -mgeneral-regs-only")
set(LIBVIRQ_FREESTANDING ON CACHE BOOL "Build only the libraries, freestanding")
