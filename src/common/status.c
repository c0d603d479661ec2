/* SPDX-License-Identifier: MIT */
#include <libvirq/status.h>

struct status_text_ {
	const char *name;
	const char *text;
};

/* Indexed by -status. */
static const struct status_text_ status_table_[VIRQ_STATUS_COUNT] = {
	{ "VIRQ_OK", "success" },
	{ "VIRQ_EINVAL", "invalid argument" },
	{ "VIRQ_ERANGE", "value out of range for its field" },
	{ "VIRQ_EALIGN", "address or size misaligned" },
	{ "VIRQ_ENOMEM", "page allocation failed" },
	{ "VIRQ_ETIMEDOUT", "hardware wait timed out" },
	{ "VIRQ_EBUSY", "object busy" },
	{ "VIRQ_ENOTSUP", "not supported by the hardware" },
	{ "VIRQ_EHW", "hardware error" },
	{ "VIRQ_ESTALLED", "ITS command queue stalled" },
	{ "VIRQ_ENOENT", "no such object" },
	{ "VIRQ_EEXIST", "object already exists" },
	{ "VIRQ_ENOSPC", "no space left in table or ID range" },
	{ "VIRQ_EBADDT", "malformed device tree" },
	{ "VIRQ_EHALVER", "unsupported HAL version" },
	{ "VIRQ_ENOHAL", "required HAL callback missing" },
	{ "VIRQ_EINHIBITED", "acceleration inhibited" },
	{ "VIRQ_EDEAD", "object dead after an earlier failure" },
	{ "VIRQ_EUNKNOWN", "unknown encoding" },
};

static const struct status_text_ *lookup_(int status)
{
	if (status > 0 || status <= -VIRQ_STATUS_COUNT)
		return NULL;
	return &status_table_[-status];
}

const char *virq_strerror(int status)
{
	const struct status_text_ *t = lookup_(status);

	return t ? t->text : "unknown status";
}

const char *virq_status_name(int status)
{
	const struct status_text_ *t = lookup_(status);

	return t ? t->name : "VIRQ_E?";
}

#include <libvirq/virq.h>

uint32_t virq_version(void)
{
	/* cppcheck-suppress badBitmaskCheck ; the major version is 0 today */
	return ((uint32_t)VIRQ_VERSION_MAJOR << 16) | ((uint32_t)VIRQ_VERSION_MINOR << 8) |
	       (uint32_t)VIRQ_VERSION_PATCH;
}
