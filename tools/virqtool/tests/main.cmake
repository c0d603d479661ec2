# SPDX-License-Identifier: MIT
virqtool_check(NAME virqtool_no_args EXIT 2 ARGS "")
virqtool_check(NAME virqtool_unknown_cmd EXIT 2 STDERR_REGEX "unknown command" ARGS frobnicate)
# Several arguments must reach virqtool as separate words (regression: they were split wrongly).
virqtool_check(NAME virqtool_multi_args EXIT 2 STDERR_REGEX "unknown command 'a'" ARGS a b c)
# Help at the top level (exit 0, stdout) lists the subcommands built.
virqtool_check(NAME virqtool_help EXIT 0 STDOUT_REGEX "usage: virqtool COMMAND" ARGS --help)
virqtool_check(NAME virqtool_help_h EXIT 0 STDOUT_REGEX "usage: virqtool COMMAND" ARGS -h)
virqtool_check(NAME virqtool_help_word EXIT 0 STDOUT_REGEX "usage: virqtool COMMAND" ARGS help)
if(VIRQTOOL_WITH_DT)
  virqtool_check(NAME virqtool_dt_help LABELS fdt EXIT 0 STDOUT_REGEX "usage: virqtool dt FILE.dtb"
                 ARGS dt --help)
endif()

# A result that cannot be written is a failure (exit 1), not a silent success.
if(EXISTS /dev/full)
  add_test(NAME vt_write_error
           COMMAND sh -c "\"$1\" its fields >/dev/full; test $? -eq 1" sh $<TARGET_FILE:virqtool>)
  set_tests_properties(vt_write_error PROPERTIES LABELS "virqtool")
endif()
