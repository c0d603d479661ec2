/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @brief Optional GIC discovery from a flattened device tree (archive @c virq_fdt).
 *
 * Fills a ::virq_gic_desc from a DTB using libfdt. This is the only part of
 * libvirq that knows about device trees; it lives in its own archive
 * (@c libvirq_fdt.a, CMake target @c libvirq::fdt) so that embedders that use
 * ACPI, or that have no libfdt, do not link it.
 *
 * Binding followed (Linux Documentation/devicetree/bindings/interrupt-controller/
 * arm,gic-v3.yaml):
 * - the first enabled node compatible with @c "arm,gic-v3" is the GIC; its
 *   @c reg holds the distributor, then one entry per redistributor region
 *   (@c \#redistributor-regions, default 1), then optional GICC/GICH/GICV entries
 *   (ignored);
 * - @c redistributor-stride (optional, a 64-bit value in two cells, a non-zero
 *   multiple of 64 KiB) applies to every region;
 * - enabled children compatible with @c "arm,gic-v3-its" that carry the
 *   @c msi-controller property are ITSes (as in Linux, an ITS node without
 *   @c msi-controller is ignored); their first @c reg entry is the ITS frame;
 * - @c dma-noncoherent on the GIC node marks the redistributor tables, on an
 *   ITS node that ITS's tables and queue, as non-coherent
 *   (docs/rationale.md: @ref gic-table-attributes);
 * - a root compatible with @c "rockchip,rk3588" sets ::LIBVIRQ_GIC_PLAT_RK3588
 *   (erratum RK3588001: shareability does not work).
 *
 * Addresses are translated through every ancestor's @c ranges up to the
 * root (an empty @c ranges is the identity) and honour each bus's
 * @c \#address-cells / @c \#size-cells (defaults 2 and 1 when absent; values
 * other than 1 or 2 are rejected because libvirq addresses are 64-bit).
 *
 * The GIC version is not in the tree; read it from the registers.
 */
#ifndef LIBVIRQ_FDT_H
#define LIBVIRQ_FDT_H

#include "virq_env.h"
#include "status.h"
#include "gicv4/desc.h"

/** @brief Largest DTB (in bytes) virq_fdt_discover_gic() accepts: 64 MiB. */
#define LIBVIRQ_FDT_MAX_SIZE (64u * 1024u * 1024u)

/** @brief Most redistributor regions a well-formed tree may declare (binding limit). */
#define LIBVIRQ_FDT_MAX_REDIST_REGIONS_DT 4096u

/**
 * @brief Describes the GIC found in a flattened device tree.
 *
 * The blob is validated completely first (header, every tag, every
 * property length and name offset: libfdt's @c fdt_check_full()), then
 * every property libvirq reads is length-checked before use, so a hostile
 * blob cannot make this function read outside [@p fdt, @p fdt + @p bufsize),
 * divide by zero, or loop without bound.
 *
 * @param fdt     The blob; 8-byte alignment is not required (4 bytes is).
 * @param bufsize Bytes readable at @p fdt (the blob's @c totalsize must fit;
 *                at most ::LIBVIRQ_FDT_MAX_SIZE are examined).
 * @param desc    Receives the description; fully written on success,
 *                zeroed on failure.
 * @param reason  Optional; receives a constant English sentence naming the
 *                problem on failure, or "ok" on success. Never NULL on return
 *                when non-NULL on entry.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL when @p fdt or @p desc is NULL;
 *         ::LIBVIRQ_EBADDT when the blob or the GIC/ITS nodes are malformed: bad
 *         magic/version/header, truncated, bad structure, @c \#address-cells or
 *         @c \#size-cells not 1 or 2, @c reg or @c ranges length not a whole
 *         number of entries or too short for the declared regions, a zero-size
 *         or wrapping region, an address outside every parent @c ranges entry,
 *         @c \#redistributor-regions 0 or above 4096, a bad
 *         @c redistributor-stride;
 *         ::LIBVIRQ_ENOENT when no enabled @c "arm,gic-v3" node exists;
 *         ::LIBVIRQ_ENOSPC when the tree is valid but has more than
 *         ::LIBVIRQ_GIC_MAX_REDIST_REGIONS redistributor regions or more than
 *         ::LIBVIRQ_GIC_MAX_ITS enabled ITSes.
 *
 * Thread-safety: reentrant; reads @p fdt only.
 * Spec: devicetree binding arm,gic-v3 (see file comment); Devicetree
 * Specification v0.4 §2.3.5 (cells), §2.3.8 (ranges), §5 (FDT format).
 */
LIBVIRQ_MUST_CHECK virq_status virq_fdt_discover_gic(const void *fdt, size_t bufsize,
						  struct virq_gic_desc *desc, const char **reason);

#endif /* LIBVIRQ_FDT_H */
