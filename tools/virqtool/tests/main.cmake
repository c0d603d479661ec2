# SPDX-License-Identifier: MIT
virqtool_check(NAME virqtool_no_args EXIT 2 ARGS "")
virqtool_check(NAME virqtool_unknown_cmd EXIT 2 STDERR_REGEX "unknown command" ARGS frobnicate)
