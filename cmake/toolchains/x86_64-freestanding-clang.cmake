# SPDX-License-Identifier: MIT
# Freestanding x86-64 build of the libvirq libraries with Clang: no red zone and
# no SSE/x87 (as in a hypervisor or kernel). Only static libraries are built.
#   cmake -S . -B build-x64c --toolchain cmake/toolchains/x86_64-freestanding-clang.cmake
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER clang)
set(CMAKE_C_COMPILER_TARGET x86_64-none-elf)
set(CMAKE_AR llvm-ar CACHE FILEPATH "")
set(CMAKE_RANLIB llvm-ranlib CACHE FILEPATH "")
set(LIBVIRQ_NM llvm-nm CACHE FILEPATH "nm for the freestanding check")
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "-ffreestanding -nostdlib -mno-red-zone -mgeneral-regs-only")
set(LIBVIRQ_FREESTANDING ON CACHE BOOL "Build only the libraries, freestanding")
