# SPDX-License-Identifier: MIT
# Compiles one snippet and checks the outcome (ctest: bitfield_compile_*).
#   cmake -DCC=<compiler> -DINC=<include dir> -DSRC=<file.c|file.cpp> -DEXPECT=ok|fail
#         [-DLANG=c|c++ -DSTD=<-std value>] -P check.cmake
# LANG=c++ compiles a .c snippet as C++ (the same macros must reject the same
# ranges there). A snippet expected to fail must fail because of the range
# check (the diagnostic names virq_bad_bit_range_), not for some unrelated
# reason.
if(NOT LANG)
  set(LANG c)
endif()
if(NOT STD)
  if(LANG STREQUAL "c")
    set(STD c11)
  else()
    set(STD c++17)
  endif()
endif()
execute_process(COMMAND ${CC} -x ${LANG} -std=${STD} -Wall -Wextra -Wpedantic -Werror -I${INC}
                        -c ${SRC} -o /dev/null
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(EXPECT STREQUAL "ok")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${SRC} (${LANG}, -std=${STD}) should compile but failed:\n${out}${err}")
  endif()
else()
  if(rc EQUAL 0)
    message(FATAL_ERROR "${SRC} (${LANG}, -std=${STD}) compiled, but its bad bit range must be rejected")
  endif()
  if(NOT err MATCHES "virq_bad_bit_range_")
    message(FATAL_ERROR "${SRC} (${LANG}) failed, but not on the range check:\n${err}")
  endif()
endif()
message(STATUS "${SRC} (${LANG}, -std=${STD}): ${EXPECT} as expected")
