# SPDX-License-Identifier: MIT
# ctest memory_table: the rows TOOL prints must be the table between the
# "memtable:begin" and "memtable:end" comments of DOC, line for line.
execute_process(COMMAND ${TOOL} OUTPUT_VARIABLE measured RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "memtable failed (${rc})")
endif()
file(READ ${DOC} doc)
string(REGEX MATCH "<!-- memtable:begin -->\n(.*)<!-- memtable:end -->" _m "${doc}")
if(NOT _m)
  message(FATAL_ERROR "${DOC}: no memtable:begin / memtable:end markers")
endif()
set(documented "${CMAKE_MATCH_1}")
if(NOT documented STREQUAL measured)
  message(FATAL_ERROR "${DOC}'s memory table is not what the library takes now; "
                      "replace the rows between the memtable markers with:\n${measured}")
endif()
message(STATUS "memory table: documented rows match the measurement")
