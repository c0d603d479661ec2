/* SPDX-License-Identifier: MIT */
/*
 * AVIC pure encoders and decoders: physical/logical APIC ID table entries,
 * ICR, #VMEXIT information, trap/fault classification, x2APIC MSR policy and
 * the raw VMCB writer. APM Vol 2 §15.29 and App. B. No state, no I/O.
 */
#include "fields.h"

virq_status virq_avic_phys_entry_encode(const struct virq_avic_phys_entry *f, uint64_t *out)
{
	if (!f || !out)
		return LIBVIRQ_EINVAL;
	if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_AVIC_PHYS_HostApicId, f->host_apic_id))
		return LIBVIRQ_ERANGE;
	if (f->backing_pa & 0xFFFu)
		return LIBVIRQ_EALIGN;
	if (!LIBVIRQ_ADDR_FITS(LIBVIRQ_AVIC_PHYS_BackingPage, f->backing_pa))
		return LIBVIRQ_ERANGE;
	*out = LIBVIRQ_FIELD_PREP(LIBVIRQ_AVIC_PHYS_HostApicId, f->host_apic_id) | f->backing_pa |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_AVIC_PHYS_IsRunning, f->is_running) |
	       LIBVIRQ_FIELD_PREP(LIBVIRQ_AVIC_PHYS_Valid, f->valid);
	return LIBVIRQ_OK;
}

virq_status virq_avic_phys_entry_decode(uint64_t e, struct virq_avic_phys_entry *f)
{
	if (!f)
		return LIBVIRQ_EINVAL;
	f->host_apic_id = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_PHYS_HostApicId, e);
	f->backing_pa = e & LIBVIRQ_FIELD_MASK(LIBVIRQ_AVIC_PHYS_BackingPage);
	f->is_running = LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_PHYS_IsRunning, e) != 0;
	f->valid = LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_PHYS_Valid, e) != 0;
	return (e & LIBVIRQ_FIELD_MASK(LIBVIRQ_AVIC_PHYS_Rsvd)) ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

virq_status virq_avic_logical_entry_encode(uint32_t guest_apic_id, bool valid, uint32_t *out)
{
	if (!out)
		return LIBVIRQ_EINVAL;
	if (!LIBVIRQ_FIELD_FITS(LIBVIRQ_AVIC_LOG_GuestApicId, guest_apic_id))
		return LIBVIRQ_ERANGE;
	*out = (uint32_t)(LIBVIRQ_FIELD_PREP(LIBVIRQ_AVIC_LOG_GuestApicId, guest_apic_id) |
			  LIBVIRQ_FIELD_PREP(LIBVIRQ_AVIC_LOG_Valid, valid));
	return LIBVIRQ_OK;
}

virq_status virq_avic_logical_entry_decode(uint32_t e, uint32_t *guest_apic_id, bool *valid)
{
	if (!guest_apic_id || !valid)
		return LIBVIRQ_EINVAL;
	*guest_apic_id = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_LOG_GuestApicId, e);
	*valid = LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_LOG_Valid, e) != 0;
	return (e & LIBVIRQ_FIELD_MASK(LIBVIRQ_AVIC_LOG_Rsvd)) ? LIBVIRQ_ERANGE : LIBVIRQ_OK;
}

static bool one_bit_(uint32_t x)
{
	return x && !(x & (x - 1));
}

virq_status virq_avic_logical_index(uint32_t dfr, uint32_t ldr, uint32_t *index)
{
	uint32_t id = ldr >> 24, model = dfr >> 28;

	if (!index)
		return LIBVIRQ_EINVAL;
	if (model == 0xFu) {
		if (!one_bit_(id))
			return LIBVIRQ_ENOENT;
		*index = (uint32_t)__builtin_ctz(id);
		return LIBVIRQ_OK;
	}
	if (model != 0)
		return LIBVIRQ_EINVAL;
	/* Cluster 0xF is the broadcast cluster: never an entry. */
	if ((id >> 4) == 0xFu || !one_bit_(id & 0xFu))
		return LIBVIRQ_ENOENT;
	*index = (id >> 4) * 4u + (uint32_t)__builtin_ctz(id & 0xFu);
	return LIBVIRQ_OK;
}

uint32_t virq_avic_x2apic_ldr(uint32_t x2apic_id)
{
	return ((x2apic_id >> 4) << 16) | (1u << (x2apic_id & 0xFu));
}

virq_status virq_avic_icr_decode(uint64_t icr, bool sender_x2apic, struct virq_avic_icr *out)
{
	if (!out)
		return LIBVIRQ_EINVAL;
	out->vector = (uint8_t)LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_Vector, icr);
	out->delivery_mode =
	    (enum virq_avic_apic_dm)LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_DeliveryMode, icr);
	out->logical = LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_DestMode, icr) != 0;
	out->busy = LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_DeliveryStatus, icr) != 0;
	out->level_assert = LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_Level, icr) != 0;
	out->level_trigger = LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_TriggerMode, icr) != 0;
	out->shorthand =
	    (enum virq_avic_apic_shorthand)LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_Shorthand, icr);
	/* The format of the destination is the SENDER's mode
	 * (docs/rationale.md#avic-icr-sender-mode). */
	out->dest = sender_x2apic ? (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_X2apicDest, icr)
				  : (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_ICR_XapicDest, icr);
	out->x2apic = sender_x2apic;
	return LIBVIRQ_OK;
}

virq_status virq_avic_icr_encode(const struct virq_avic_icr *f, uint64_t *out)
{
	uint64_t v;

	if (!f || !out || (unsigned)f->delivery_mode > 7u || (unsigned)f->shorthand > 3u)
		return LIBVIRQ_EINVAL;
	if (!f->x2apic && f->dest > 0xFFu)
		return LIBVIRQ_ERANGE;
	v = LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_Vector, f->vector) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_DeliveryMode, f->delivery_mode) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_DestMode, f->logical) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_DeliveryStatus, f->busy) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_Level, f->level_assert) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_TriggerMode, f->level_trigger) |
	    LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_Shorthand, f->shorthand);
	v |= f->x2apic ? LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_X2apicDest, f->dest)
		       : LIBVIRQ_FIELD_PREP(LIBVIRQ_ICR_XapicDest, f->dest);
	*out = v;
	return LIBVIRQ_OK;
}

virq_status virq_avic_exit_ipi_decode(uint64_t info1, uint64_t info2, bool sender_x2apic,
				      struct virq_avic_exit_ipi *out)
{
	virq_status st;

	if (!out)
		return LIBVIRQ_EINVAL;
	st = virq_avic_icr_decode(info1, sender_x2apic, &out->icr);
	if (st != LIBVIRQ_OK)
		return st;
	out->raw_cause = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_EXITINFO2_Cause, info2);
	out->cause = out->raw_cause <= LIBVIRQ_AVIC_IPI_INVALID_VECTOR
			 ? (enum virq_avic_ipi_cause)out->raw_cause
			 : LIBVIRQ_AVIC_IPI_UNKNOWN;
	/* Index width: 11:0 (4K x2AVIC); UNCERTAIN in the APM
	 * (docs/rationale.md#avic-exitinfo2-index-width). */
	out->index = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_EXITINFO2_Index, info2);
	return LIBVIRQ_OK;
}

bool virq_avic_noaccel_is_trap(uint32_t offset)
{
	switch (offset) {
	case 0x020:
	case 0x0B0:
	case 0x0C0:
	case 0x0D0:
	case 0x0E0:
	case 0x0F0:
	case 0x280:
	case 0x300:
	case 0x320:
	case 0x330:
	case 0x340:
	case 0x350:
	case 0x360:
	case 0x370:
	case 0x380:
	case 0x3E0:
		return true;
	default:
		return false;
	}
}

virq_status virq_avic_exit_noaccel_decode(uint64_t info1, uint64_t info2,
					  struct virq_avic_exit_noaccel *out)
{
	if (!out)
		return LIBVIRQ_EINVAL;
	out->offset = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_NOACCEL_Offset, info1) << 4;
	out->write = LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_NOACCEL_Write, info1) != 0;
	out->trap = virq_avic_noaccel_is_trap(out->offset);
	out->vector = (uint32_t)LIBVIRQ_FIELD_GET(LIBVIRQ_AVIC_NOACCEL_Vector, info2);
	return LIBVIRQ_OK;
}

enum virq_avic_msr_access virq_avic_x2apic_msr_access(uint32_t msr)
{
	switch (msr) {
	case 0x808: /* TPR */
	case 0x830: /* ICR */
		return LIBVIRQ_AVIC_MSR_PASS_READ_WRITE;
	case 0x80B: /* EOI (write only: reads #GP, intercept them) */
	case 0x83F: /* SELF_IPI (write only) */
		return LIBVIRQ_AVIC_MSR_PASS_WRITE;
	case 0x802:
	case 0x803:
	case 0x80A:
	case 0x80D:
	case 0x80F:
	case 0x828:
		return LIBVIRQ_AVIC_MSR_PASS_READ;
	default:
		break;
	}
	/* ISR, TMR, IRR 0x810..0x827; LVT CMCI..Error 0x82F, 0x832..0x837; TMICT 0x838. */
	if ((msr >= 0x810 && msr <= 0x827) || msr == 0x82F || (msr >= 0x832 && msr <= 0x838))
		return LIBVIRQ_AVIC_MSR_PASS_READ;
	return LIBVIRQ_AVIC_MSR_INTERCEPT;
}

/* Little-endian accessors for the raw VMCB (independent of host byte order). */
static void put_le_(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le_(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

virq_status virq_avic_vmcb_write(void *vmcb, const struct virq_avic_vmcb_values *v)
{
	uint8_t *b = vmcb;
	uint32_t ctl, clean;

	if (!vmcb || !v)
		return LIBVIRQ_EINVAL;
	ctl = (uint32_t)get_le_(b + LIBVIRQ_VMCB_INT_CTL, 4);
	ctl = (ctl & ~v->int_ctl_clear) | v->int_ctl_set;
	put_le_(b + LIBVIRQ_VMCB_INT_CTL, ctl, 4);
	put_le_(b + LIBVIRQ_VMCB_AVIC_APIC_BAR, v->apic_bar, 8);
	put_le_(b + LIBVIRQ_VMCB_AVIC_BACKING_PAGE, v->backing_page, 8);
	put_le_(b + LIBVIRQ_VMCB_AVIC_LOGICAL_TABLE, v->logical_table, 8);
	put_le_(b + LIBVIRQ_VMCB_AVIC_PHYSICAL_TABLE, v->physical_table, 8);
	clean = (uint32_t)get_le_(b + LIBVIRQ_VMCB_CLEAN, 4);
	put_le_(b + LIBVIRQ_VMCB_CLEAN, clean & ~v->clean_clear, 4);
	return LIBVIRQ_OK;
}
