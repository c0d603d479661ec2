# SPDX-License-Identifier: MIT
# virq_warnings: the warning set every libvirq target compiles with.
set(LIBVIRQ_WARNING_FLAGS
  -Wall -Wextra -Wconversion -Wsign-conversion -Wshadow -Wstrict-prototypes
  -Wmissing-prototypes -Wundef -Wpointer-arith -Wvla
  $<$<BOOL:${LIBVIRQ_WERROR}>:-Werror>)
add_library(virq_warnings INTERFACE)
target_compile_options(virq_warnings INTERFACE ${LIBVIRQ_WARNING_FLAGS})
