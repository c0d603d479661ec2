/* SPDX-License-Identifier: MIT */
#ifndef MINIHV_BOOT_H
#define MINIHV_BOOT_H

#include <libvirq/fdt.h>

struct boot_info {
	uint64_t uart; /* PL011 base (0: none, semihosting console) */
	uint64_t ram_base, ram_size;
	struct virq_gic_desc gic; /* from libvirq's device-tree discovery */
	uint32_t hyp_timer_intid; /* EL2 physical timer PPI (arm,armv8-timer, 4th) */
	const char *why;	  /* discovery's reason on failure */
};

/* Validates the DTB at @dtb (at most @room bytes) and fills @bi. 0 or -1. */
int boot_discover(uint64_t dtb, size_t room, struct boot_info *bi);

#endif
