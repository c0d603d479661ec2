# SPDX-License-Identifier: MIT
# Install rules: headers, the static archives, an exported CMake package
# (find_package(libvirq) -> libvirq::virq, libvirq::virq_fdt, libvirq::virq_sim)
# and pkg-config files (libvirq.pc, libvirq-fdt.pc, libvirq-sim.pc). Everything is relocatable, so
# `cmake --install build --prefix <anywhere>` gives a usable tree.
# The package version is the project's; the header must say the same.
file(STRINGS ${PROJECT_SOURCE_DIR}/include/libvirq/virq.h _virq_ver_lines
     REGEX "^#define LIBVIRQ_VERSION_(MAJOR|MINOR|PATCH) [0-9]+")
set(_virq_hdr_ver "")
foreach(_part MAJOR MINOR PATCH)
  foreach(_l ${_virq_ver_lines})
    if(_l MATCHES "^#define LIBVIRQ_VERSION_${_part} ([0-9]+)")
      list(APPEND _virq_hdr_ver ${CMAKE_MATCH_1})
    endif()
  endforeach()
endforeach()
list(JOIN _virq_hdr_ver "." _virq_hdr_ver)
if(NOT _virq_hdr_ver VERSION_EQUAL PROJECT_VERSION)
  message(FATAL_ERROR "virq.h says version ${_virq_hdr_ver}, CMakeLists.txt ${PROJECT_VERSION}")
endif()

option(LIBVIRQ_INSTALL "Generate the install rules" ${PROJECT_IS_TOP_LEVEL})
if(NOT LIBVIRQ_INSTALL)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LIBVIRQ_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/libvirq)
set(LIBVIRQ_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/libvirq
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")

install(TARGETS virq EXPORT libvirqTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(LIBVIRQ_PACKAGE_HAS_FDT OFF)
if(TARGET virq_fdt)
  install(TARGETS virq_fdt EXPORT libvirqTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(LIBVIRQ_PACKAGE_HAS_FDT ON)
endif()

# The simulator (host library: libc + pthreads), headers libvirq/sim/*.h.
set(LIBVIRQ_PACKAGE_HAS_SIM OFF)
if(TARGET virq_sim)
  install(TARGETS virq_sim EXPORT libvirqTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/sim/include/libvirq/sim
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/libvirq FILES_MATCHING PATTERN "*.h")
  set(LIBVIRQ_PACKAGE_HAS_SIM ON)
endif()

install(EXPORT libvirqTargets NAMESPACE libvirq:: DESTINATION ${LIBVIRQ_CMAKE_DIR}
        FILE libvirqTargets.cmake)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/libvirqConfig.cmake.in
  ${PROJECT_BINARY_DIR}/libvirqConfig.cmake INSTALL_DESTINATION ${LIBVIRQ_CMAKE_DIR})
# 0.x: minor releases may break the API, so only the same minor version matches.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/libvirqConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${PROJECT_BINARY_DIR}/libvirqConfig.cmake
              ${PROJECT_BINARY_DIR}/libvirqConfigVersion.cmake
        DESTINATION ${LIBVIRQ_CMAKE_DIR})

# pkg-config: prefix is found relative to the .pc file (${pcfiledir}).
if(IS_ABSOLUTE "${LIBVIRQ_PC_DIR}")
  set(LIBVIRQ_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH _virq_up "/root/${LIBVIRQ_PC_DIR}" "/root")
  string(REGEX REPLACE "/$" "" _virq_up "${_virq_up}")
  set(LIBVIRQ_PC_PREFIX "\${pcfiledir}/${_virq_up}")
endif()
foreach(_d LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${_d}}")
    set(LIBVIRQ_PC_${_d} "${CMAKE_INSTALL_${_d}}")
  else()
    set(LIBVIRQ_PC_${_d} "\${prefix}/${CMAKE_INSTALL_${_d}}")
  endif()
endforeach()
# The module switches consumers see (same as the exported target's definitions).
set(LIBVIRQ_PC_CFLAGS "")
foreach(_m AVIC GICV4 PMCVIRT)
  if(LIBVIRQ_${_m})
    string(APPEND LIBVIRQ_PC_CFLAGS " -DLIBVIRQ_HAVE_${_m}=1")
  endif()
endforeach()
configure_file(${CMAKE_CURRENT_LIST_DIR}/libvirq.pc.in ${PROJECT_BINARY_DIR}/libvirq.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/libvirq.pc DESTINATION ${LIBVIRQ_PC_DIR})
if(LIBVIRQ_PACKAGE_HAS_SIM)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/libvirq-sim.pc.in ${PROJECT_BINARY_DIR}/libvirq-sim.pc
                 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/libvirq-sim.pc DESTINATION ${LIBVIRQ_PC_DIR})
endif()
if(LIBVIRQ_PACKAGE_HAS_FDT)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/libvirq-fdt.pc.in ${PROJECT_BINARY_DIR}/libvirq-fdt.pc
                 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/libvirq-fdt.pc DESTINATION ${LIBVIRQ_PC_DIR})
endif()
