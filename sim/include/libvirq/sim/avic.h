/* SPDX-License-Identifier: MIT */
/*
 * virq_sim_avic: a model of the AVIC hardware's handling of a guest ICR write
 * (AMD APM Vol 2 §15.29.3.1), written independently of libvirq's own
 * resolution and decoders: it reads the raw VMCB, the physical and logical
 * APIC ID tables and the backing pages through the fake HAL's PA -> VA map
 * with its own masks. An ICR write either sets IRR bits in the targets'
 * backing pages (recording doorbells for running targets) or produces the
 * #VMEXIT AVIC_INCOMPLETE_IPI with a cause and index.
 */
#ifndef LIBVIRQ_SIM_AVIC_H
#define LIBVIRQ_SIM_AVIC_H

#include <stdbool.h>
#include <stdint.h>
#include <libvirq/sim/hal.h>

#define LIBVIRQ_SIM_AVIC_MAX 4097

struct virq_sim_avic_result {
	bool exited;	       /* #VMEXIT taken */
	uint64_t exit_code;    /* 0x401 */
	uint64_t info1, info2; /* EXITINFO1/2 */
	uint32_t nirr;	       /* physical-table indexes whose IRR bit was set */
	uint32_t irr[LIBVIRQ_SIM_AVIC_MAX];
	uint32_t ndoorbell; /* host APIC IDs signalled */
	uint32_t doorbell[LIBVIRQ_SIM_AVIC_MAX];
};

/* Model options. */
struct virq_sim_avic_opts {
	bool check_vector; /* vectors < 16 exit with INVALID_IPI_VECTOR (newer CPUs) */
};

/*
 * The guest running on host CPU @host_apic_id with VMCB @vmcb writes
 * ICR2 = @icr_hi then ICR = @icr_lo (xAPIC) or the 64-bit ICR MSR (x2APIC;
 * @icr_hi = destination). Returns 0, or -1 when the VMCB does not enable
 * AVIC or a table is not mapped (test setup error).
 */
int virq_sim_avic_icr_write(struct virq_sim *fh, const void *vmcb, uint32_t host_apic_id,
			 uint32_t icr_lo, uint32_t icr_hi, const struct virq_sim_avic_opts *opts,
			 struct virq_sim_avic_result *r);

/* Test helpers reading a backing page by VA with the model's own offsets. */
bool virq_sim_avic_irr_test(const void *backing_va, uint8_t vector);
void virq_sim_avic_irr_clear(void *backing_va, uint8_t vector);

/* Records doorbell MSR writes made by the library (values = host APIC IDs). */
struct virq_sim_avic_doorbells {
	uint32_t n;
	uint64_t last;
	uint32_t per_host[4096];
};
void virq_sim_avic_watch_doorbells(struct virq_sim *fh, struct virq_sim_avic_doorbells *d);

#endif
