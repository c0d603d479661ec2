/* SPDX-License-Identifier: MIT */
/* Fixture of the namespace check's self-test: libvirq 0.1's status enum, and
 * a lowercase name Linux already has (struct virqfd, linux/vfio.h): the check
 * must fail on both. */
#ifndef LIBVIRQ_FIXTURE_STATUS_H
#define LIBVIRQ_FIXTURE_STATUS_H
typedef enum virq_status {
	VIRQ_OK = 0,
	VIRQ_EINVAL = -1,
	VIRQ_ENOMEM = -4,
} virq_status;
struct virqfd {
	int fd;
};
struct virqfd *virq_fd_lookup(int fd);
#endif
