/* SPDX-License-Identifier: MIT */
#include <libvirq/status.h>

struct status_text_ {
	const char *name;
	const char *text;
};

/* Indexed by -status. */
static const struct status_text_ status_table_[LIBVIRQ_STATUS_COUNT] = {
    {"LIBVIRQ_OK", "success"},
    {"LIBVIRQ_EINVAL", "invalid argument"},
    {"LIBVIRQ_ERANGE", "value out of range for its field"},
    {"LIBVIRQ_EALIGN", "address or size misaligned"},
    {"LIBVIRQ_ENOMEM", "page allocation failed"},
    {"LIBVIRQ_ETIMEDOUT", "hardware wait timed out"},
    {"LIBVIRQ_EBUSY", "object busy"},
    {"LIBVIRQ_ENOTSUP", "not supported by the hardware"},
    {"LIBVIRQ_EHW", "hardware error"},
    {"LIBVIRQ_ESTALLED", "ITS command queue stalled"},
    {"LIBVIRQ_ENOENT", "no such object"},
    {"LIBVIRQ_EEXIST", "object already exists"},
    {"LIBVIRQ_ENOSPC", "no space left in table or ID range"},
    {"LIBVIRQ_EBADDT", "malformed device tree"},
    {"LIBVIRQ_EHALVER", "unsupported HAL version"},
    {"LIBVIRQ_ENOHAL", "required HAL callback missing"},
    {"LIBVIRQ_EINHIBITED", "acceleration inhibited"},
    {"LIBVIRQ_EDEAD", "object dead after an earlier failure"},
    {"LIBVIRQ_EUNKNOWN", "unknown encoding"},
    {"LIBVIRQ_ECANCELED", "dropped by a command queue reset"},
};

static const struct status_text_ *lookup_(int status)
{
	if (status > 0 || status <= -LIBVIRQ_STATUS_COUNT)
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

	return t ? t->name : "LIBVIRQ_E?";
}

#include <libvirq/virq.h>

uint32_t virq_version(void)
{
	/* cppcheck-suppress badBitmaskCheck ; the major version is 0 today */
	return ((uint32_t)LIBVIRQ_VERSION_MAJOR << 16) | ((uint32_t)LIBVIRQ_VERSION_MINOR << 8) |
	       (uint32_t)LIBVIRQ_VERSION_PATCH;
}
