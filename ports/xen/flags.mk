# SPDX-License-Identifier: MIT
# The compiler flags a Xen source file needs to include libvirq's headers
# (the env header, the module switches), for any Makefile of Xen's tree:
# ports/xen/Makefile uses it for the library's own objects, and the
# embedder's code in another directory of Xen uses it the same way:
#
#   LIBVIRQ_XEN_DIR := $(srctree)/common/libvirq
#   include $(LIBVIRQ_XEN_DIR)/ports/xen/flags.mk
#   CFLAGS-y += $(LIBVIRQ_XEN_CFLAGS)
#
# LIBVIRQ_XEN_DIR is the directory ports/xen/import.sh copied the library
# into (docs/integration.md, "Xen"). LIBVIRQ_MODULES (make command line or
# environment) overrides the modules: default gicv4 on arm64, avic and
# pmcvirt on x86_64.

ifeq ($(LIBVIRQ_XEN_DIR),)
$(error libvirq: set LIBVIRQ_XEN_DIR to the imported library (xen/common/libvirq) before including ports/xen/flags.mk)
endif

LIBVIRQ_MODULES-$(CONFIG_ARM_64) += gicv4
LIBVIRQ_MODULES-$(CONFIG_X86_64) += avic pmcvirt
LIBVIRQ_MODULES ?= $(LIBVIRQ_MODULES-y)

LIBVIRQ_XEN_CFLAGS := -I$(LIBVIRQ_XEN_DIR)/include -I$(LIBVIRQ_XEN_DIR)/ports/xen/include \
  -DLIBVIRQ_ENV_HEADER='"virq_env_xen.h"' \
  $(foreach m,$(LIBVIRQ_MODULES),-DLIBVIRQ_HAVE_$(shell echo $(m) | tr a-z A-Z)=1)
