# SPDX-License-Identifier: MIT
# The `docs` target's step: finds doxygen when the target is built (not when
# the project was configured) and runs it on DOXYFILE, or fails saying why.
find_program(LIBVIRQ_DOXYGEN doxygen NO_CACHE)
if(LIBVIRQ_DOXYGEN)
  # (a file that is there but does not run counts as absent)
  execute_process(COMMAND ${LIBVIRQ_DOXYGEN} --version RESULT_VARIABLE _v OUTPUT_QUIET
                  ERROR_QUIET)
  if(NOT _v EQUAL 0)
    set(LIBVIRQ_DOXYGEN "")
  endif()
endif()
if(NOT LIBVIRQ_DOXYGEN)
  message(FATAL_ERROR "docs: doxygen not found on PATH: install doxygen (Debian: "
                      "apt-get install doxygen), then build the docs target again")
endif()
execute_process(COMMAND ${LIBVIRQ_DOXYGEN} ${DOXYFILE} RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "docs: doxygen failed (${_rc})")
endif()
