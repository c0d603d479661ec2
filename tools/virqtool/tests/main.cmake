# SPDX-License-Identifier: MIT
virqtool_check(NAME virqtool_no_args EXIT 2 ARGS "")
virqtool_check(NAME virqtool_unknown_cmd EXIT 2 STDERR_REGEX "unknown command" ARGS frobnicate)
# Several arguments must reach virqtool as separate words (regression: they were split wrongly).
virqtool_check(NAME virqtool_multi_args EXIT 2 STDERR_REGEX "unknown command 'a'" ARGS a b c)
