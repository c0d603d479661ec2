# SPDX-License-Identifier: MIT
# virq_warnings: the warning set every libvirq target compiles with.
set(LIBVIRQ_WARNING_FLAGS
  -Wall -Wextra -Wconversion -Wsign-conversion -Wshadow -Wstrict-prototypes
  -Wmissing-prototypes -Wundef -Wpointer-arith -Wvla
  $<$<BOOL:${LIBVIRQ_WERROR}>:-Werror>)
add_library(virq_warnings INTERFACE)
target_compile_options(virq_warnings INTERFACE ${LIBVIRQ_WARNING_FLAGS})

# virq_host_warnings: what Xen's and Linux's builds add on top, for the
# library's own sources (libvirq.a, libvirq_fdt.a), so code that would break
# inside those trees fails here first. Xen: -std=gnu99 -Wdeclaration-after-statement
# -Wredundant-decls -Wwrite-strings -Wnested-externs -Wvla; Linux:
# -Wimplicit-fallthrough=5 (only the fallthrough attribute counts, not comments).
set(LIBVIRQ_HOST_WARNING_FLAGS
  -Wdeclaration-after-statement -Wnested-externs -Wredundant-decls -Wwrite-strings
  -Wmissing-prototypes -Wvla -Wold-style-definition -Winit-self -Wundef
  $<IF:$<C_COMPILER_ID:GNU>,-Wimplicit-fallthrough=5,-Wimplicit-fallthrough>)
add_library(virq_host_warnings INTERFACE)
target_compile_options(virq_host_warnings INTERFACE ${LIBVIRQ_HOST_WARNING_FLAGS})
