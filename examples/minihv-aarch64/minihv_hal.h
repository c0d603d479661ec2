/* SPDX-License-Identifier: MIT */
#ifndef MINIHV_HAL_H
#define MINIHV_HAL_H

#include <libvirq/hal.h>

/* The HAL instance minihv gives libvirq. */
extern const struct virq_hal minihv_hal;
/* Hands [base, base + size) to the page allocator (base 2 MiB aligned). */
void minihv_pool_init(uint64_t base, uint64_t size);
/* Pages currently allocated (leak check at teardown). */
uint32_t minihv_pool_used_pages(void);
/* Highest libvirq log level printed (LIBVIRQ_LOG_*). */
void minihv_set_log_level(int level);

#endif
