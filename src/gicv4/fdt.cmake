# SPDX-License-Identifier: MIT
# Optional GIC discovery from a device tree: its own archive, virq_fdt
# (libvirq::fdt), so that embedders without libfdt never link it.
#
# libfdt is taken from, in order:
#   VIRQ_LIBFDT_ROOT  a directory with include/libfdt.h and lib/.../libfdt.a, for
#                     cross builds (for example Debian's arm64 libfdt-dev unpacked
#                     with dpkg -x: <root>/usr/include, <root>/usr/lib/aarch64-linux-gnu);
#   pkg-config libfdt;
#   the compiler's default include and library paths.
set(VIRQ_LIBFDT_ROOT "" CACHE PATH "Root of an unpacked libfdt (cross builds)")

if(VIRQ_LIBFDT_ROOT)
  find_path(VIRQ_LIBFDT_INCLUDE_DIR libfdt.h
    PATHS ${VIRQ_LIBFDT_ROOT}/usr/include ${VIRQ_LIBFDT_ROOT}/include
    NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
  file(GLOB_RECURSE _virq_fdt_libs ${VIRQ_LIBFDT_ROOT}/libfdt.a)
  set(VIRQ_LIBFDT_LIBRARY "")
  if(_virq_fdt_libs)
    list(GET _virq_fdt_libs 0 VIRQ_LIBFDT_LIBRARY)
  endif()
  if(NOT VIRQ_LIBFDT_INCLUDE_DIR OR NOT VIRQ_LIBFDT_LIBRARY)
    message(FATAL_ERROR "VIRQ_LIBFDT_ROOT=${VIRQ_LIBFDT_ROOT} has no libfdt.h / libfdt.a")
  endif()
  add_library(virq_libfdt_ STATIC IMPORTED)
  set_target_properties(virq_libfdt_ PROPERTIES IMPORTED_LOCATION ${VIRQ_LIBFDT_LIBRARY}
    INTERFACE_INCLUDE_DIRECTORIES ${VIRQ_LIBFDT_INCLUDE_DIR})
  set(VIRQ_LIBFDT_TARGET virq_libfdt_)
else()
  find_package(PkgConfig QUIET)
  if(PKG_CONFIG_FOUND)
    pkg_check_modules(VIRQ_PC_LIBFDT QUIET IMPORTED_TARGET libfdt)
  endif()
  if(VIRQ_PC_LIBFDT_FOUND)
    set(VIRQ_LIBFDT_TARGET PkgConfig::VIRQ_PC_LIBFDT)
  else()
    # Debian's libfdt-dev ships no .pc file: fall back to the default paths.
    find_path(VIRQ_LIBFDT_INCLUDE_DIR libfdt.h)
    find_library(VIRQ_LIBFDT_LIBRARY NAMES fdt)
    if(NOT VIRQ_LIBFDT_INCLUDE_DIR OR NOT VIRQ_LIBFDT_LIBRARY)
      message(FATAL_ERROR "libfdt not found: install libfdt-dev (Debian) or configure "
                          "with -DVIRQ_FDT=OFF")
    endif()
    add_library(virq_libfdt_ UNKNOWN IMPORTED)
    set_target_properties(virq_libfdt_ PROPERTIES IMPORTED_LOCATION ${VIRQ_LIBFDT_LIBRARY}
      INTERFACE_INCLUDE_DIRECTORIES ${VIRQ_LIBFDT_INCLUDE_DIR})
    set(VIRQ_LIBFDT_TARGET virq_libfdt_)
  endif()
endif()

add_library(virq_fdt STATIC gicv4/fdt.c)
add_library(libvirq::fdt ALIAS virq_fdt)
add_library(libvirq::virq_fdt ALIAS virq_fdt)
# Installed as libvirq::virq_fdt (cmake/VirqInstall.cmake, component "fdt").
set_target_properties(virq_fdt PROPERTIES OUTPUT_NAME virq_fdt EXPORT_NAME virq_fdt)
target_include_directories(virq_fdt
  PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include> $<INSTALL_INTERFACE:include>
  PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
target_compile_options(virq_fdt PRIVATE -ffreestanding -fno-common)
# In the build tree libfdt is the target found above; an installed package's
# consumers link the system's libfdt by name (-lfdt).
target_link_libraries(virq_fdt PUBLIC $<BUILD_INTERFACE:${VIRQ_LIBFDT_TARGET}>
                      $<INSTALL_INTERFACE:fdt> PRIVATE $<BUILD_INTERFACE:virq_warnings>)
