# SPDX-License-Identifier: MIT
# Optional GIC discovery from a device tree: its own archive, virq_fdt
# (libvirq::fdt), so that embedders without libfdt never link it.
#
# libfdt is taken from, in order:
#   LIBVIRQ_LIBFDT_ROOT  a directory with include/libfdt.h and lib/.../libfdt.a, for
#                     cross builds (for example Debian's arm64 libfdt-dev unpacked
#                     with dpkg -x: <root>/usr/include, <root>/usr/lib/aarch64-linux-gnu);
#   pkg-config libfdt;
#   the compiler's default include and library paths.
set(LIBVIRQ_LIBFDT_ROOT "" CACHE PATH "Root of an unpacked libfdt (cross builds)")

if(LIBVIRQ_LIBFDT_ROOT)
  find_path(LIBVIRQ_LIBFDT_INCLUDE_DIR libfdt.h
    PATHS ${LIBVIRQ_LIBFDT_ROOT}/usr/include ${LIBVIRQ_LIBFDT_ROOT}/include
    NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  file(GLOB_RECURSE _virq_fdt_libs ${LIBVIRQ_LIBFDT_ROOT}/libfdt.a)
  set(LIBVIRQ_LIBFDT_LIBRARY "")
  if(_virq_fdt_libs)
    list(GET _virq_fdt_libs 0 LIBVIRQ_LIBFDT_LIBRARY)
  endif()
  if(NOT LIBVIRQ_LIBFDT_INCLUDE_DIR OR NOT LIBVIRQ_LIBFDT_LIBRARY)
    message(FATAL_ERROR "LIBVIRQ_LIBFDT_ROOT=${LIBVIRQ_LIBFDT_ROOT} has no libfdt.h / libfdt.a")
  endif()
  add_library(virq_libfdt_ STATIC IMPORTED)
  set_target_properties(virq_libfdt_ PROPERTIES IMPORTED_LOCATION ${LIBVIRQ_LIBFDT_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${LIBVIRQ_LIBFDT_INCLUDE_DIR})
  set(LIBVIRQ_LIBFDT_TARGET virq_libfdt_)
else()
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(LIBVIRQ_PC_LIBFDT QUIET IMPORTED_TARGET libfdt)
  endif()
  if(LIBVIRQ_PC_LIBFDT_FOUND)
    set(LIBVIRQ_LIBFDT_TARGET PkgConfig::LIBVIRQ_PC_LIBFDT)
  else()
    # Debian's libfdt-dev ships no .pc file: fall back to the default paths.
    find_path(LIBVIRQ_LIBFDT_INCLUDE_DIR libfdt.h)
    find_library(LIBVIRQ_LIBFDT_LIBRARY NAMES fdt)
    if((NOT LIBVIRQ_LIBFDT_INCLUDE_DIR OR NOT LIBVIRQ_LIBFDT_LIBRARY)
       AND LIBVIRQ_FDT STREQUAL "AUTO")
      message(STATUS "libvirq: FDT discovery (libvirq_fdt.a, virqtool dt) skipped: libfdt "
                     "not found (Debian: apt-get install libfdt-dev)")
      return()
    elseif(NOT LIBVIRQ_LIBFDT_INCLUDE_DIR OR NOT LIBVIRQ_LIBFDT_LIBRARY)
      message(FATAL_ERROR "LIBVIRQ_FDT=ON needs libfdt: install libfdt-dev (Debian) or "
                          "configure with -DLIBVIRQ_FDT=OFF")
    endif()
    add_library(virq_libfdt_ UNKNOWN IMPORTED)
    set_target_properties(virq_libfdt_ PROPERTIES IMPORTED_LOCATION ${LIBVIRQ_LIBFDT_LIBRARY}
      INTERFACE_INCLUDE_DIRECTORIES ${LIBVIRQ_LIBFDT_INCLUDE_DIR})
    set(LIBVIRQ_LIBFDT_TARGET virq_libfdt_)
  endif()
endif()

add_library(virq_fdt STATIC gicv4/fdt.c gicv4/fdt_pci.c)
add_library(libvirq::fdt ALIAS virq_fdt)
add_library(libvirq::virq_fdt ALIAS virq_fdt)
# Installed as libvirq::virq_fdt (cmake/VirqInstall.cmake, component "fdt").
set_target_properties(virq_fdt PROPERTIES OUTPUT_NAME virq_fdt EXPORT_NAME virq_fdt)
target_include_directories(virq_fdt
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>)
target_compile_options(virq_fdt PRIVATE -ffreestanding -fno-common)
# In the build tree libfdt is the target found above; an installed package's
# consumers link the system's libfdt by name (-lfdt).
target_link_libraries(virq_fdt PUBLIC $<BUILD_INTERFACE:${LIBVIRQ_LIBFDT_TARGET}>
                      $<INSTALL_INTERFACE:fdt> PRIVATE $<BUILD_INTERFACE:virq_warnings> $<BUILD_INTERFACE:virq_host_warnings>)
# libfdt's include directories, for checks that compile the sources themselves
# (the imported target is visible in this directory only).
get_target_property(_virq_fdt_inc ${LIBVIRQ_LIBFDT_TARGET} INTERFACE_INCLUDE_DIRECTORIES)
if(NOT _virq_fdt_inc)
  set(_virq_fdt_inc "")
endif()
set_target_properties(virq_fdt PROPERTIES LIBVIRQ_LIBFDT_INCLUDE_DIRS "${_virq_fdt_inc}")
