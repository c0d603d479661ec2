# SPDX-License-Identifier: MIT
# Runs one CLI invocation and checks it exactly. Invoked as
#   cmake -DCMD=<exe> -DARGS=<;-list> -DEXIT=<n> [-DSTDOUT=<exact text>]
#         [-DSTDOUT_FILE=<file with exact text>] [-DSTDOUT_REGEX=<regex>]
#         [-DSTDERR_REGEX=<regex>] -P VirqCliCheck.cmake
# Rules checked: exit status == EXIT; stdout == STDOUT (trailing newline
# ignored) when given; on EXIT != 0, stdout is empty and stderr is exactly one line.
execute_process(COMMAND ${CMD} ${ARGS}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXIT)
  message(FATAL_ERROR "exit ${rc}, expected ${EXIT}\nstdout: ${out}\nstderr: ${err}")
endif()
if(DEFINED STDOUT_FILE)
  file(READ ${STDOUT_FILE} STDOUT)
endif()
string(REGEX REPLACE "\n$" "" out_t "${out}")
if(DEFINED STDOUT)
  string(REGEX REPLACE "\n$" "" want_t "${STDOUT}")
  if(NOT out_t STREQUAL want_t)
    message(FATAL_ERROR "stdout mismatch\n--- got\n${out}\n--- want\n${STDOUT}")
  endif()
endif()
if(NOT EXIT EQUAL 0)
  if(NOT out STREQUAL "")
    message(FATAL_ERROR "stdout must be empty on failure, got: ${out}")
  endif()
  string(REGEX MATCHALL "\n" nls "${err}")
  list(LENGTH nls nl)
  if(NOT nl EQUAL 1)
    message(FATAL_ERROR "stderr must be exactly one line, got: ${err}")
  endif()
endif()
if(DEFINED STDOUT_REGEX AND NOT out MATCHES "${STDOUT_REGEX}")
  message(FATAL_ERROR "stdout '${out}' does not match '${STDOUT_REGEX}'")
endif()
if(DEFINED STDERR_REGEX AND NOT err MATCHES "${STDERR_REGEX}")
  message(FATAL_ERROR "stderr '${err}' does not match '${STDERR_REGEX}'")
endif()
