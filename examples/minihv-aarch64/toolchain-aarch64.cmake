# SPDX-License-Identifier: MIT
# Cross toolchain for minihv: Debian's aarch64-linux-gnu-gcc, freestanding.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_AR aarch64-linux-gnu-ar)
set(CMAKE_RANLIB aarch64-linux-gnu-ranlib)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# MMU off at EL2 and EL1: every access is Device memory, unaligned accesses
# fault (-mstrict-align); no FP/SIMD state is switched (-mgeneral-regs-only);
# no libgcc helpers for atomics (-mno-outline-atomics).
set(CMAKE_C_FLAGS_INIT "-O2 -g -ffreestanding -fno-stack-protector -mgeneral-regs-only -mstrict-align -mno-outline-atomics -fno-pic -fno-pie")
set(CMAKE_ASM_FLAGS_INIT "-g")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib -static -no-pie")
