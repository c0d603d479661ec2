/* SPDX-License-Identifier: MIT */
/* Fixture of the namespace check's self-test: libvirq 0.1's status codes as
 * macros. Xen's public/xen.h and Linux's xen/interface/xen.h define
 * VIRQ_ENOMEM (virtual IRQ 12): the check must fail on it. */
#ifndef LIBVIRQ_FIXTURE_STATUS_H
#define LIBVIRQ_FIXTURE_STATUS_H
#define VIRQ_OK 0
#define VIRQ_EINVAL (-1)
#define VIRQ_ENOMEM (-4)
const char *virq_strerror(int status);
#endif
