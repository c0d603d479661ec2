# SPDX-License-Identifier: MIT
# Compiles one snippet and checks the outcome (ctest: bitfield_compile_*).
#   cmake -DCC=<compiler> -DINC=<include dir> -DSRC=<file.c> -DEXPECT=ok|fail -P check.cmake
# A snippet expected to fail must fail because of the range check (the
# diagnostic names virq_bad_bit_range_), not for some unrelated reason.
execute_process(COMMAND ${CC} -std=c11 -Wall -Wextra -Werror -I${INC} -c ${SRC} -o /dev/null
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "ok")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SRC} should compile but failed:\n${out}${err}")
  endif()
else()
  if(rc EQUAL 0)
    message(FATAL_ERROR "${SRC} compiled, but its bad bit range must be rejected")
  endif()
  if(NOT err MATCHES "virq_bad_bit_range_")
    message(FATAL_ERROR "${SRC} failed, but not on the range check:\n${err}")
  endif()
endif()
message(STATUS "${SRC}: ${EXPECT} as expected")
