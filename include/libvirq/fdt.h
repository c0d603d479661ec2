/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_fdt
 * @brief Optional discovery from a flattened device tree (archive @c virq_fdt):
 *        the GIC, generic PCI host bridges, device MSI topology.
 *
 * Fills a ::virq_gic_desc from a DTB using libfdt, describes generic PCI
 * host bridges and translates a PCI requester ID to an ITS and DeviceID. This is the only part of
 * libvirq that knows about device trees; it lives in its own archive
 * (@c libvirq_fdt.a, CMake target @c libvirq::virq_fdt) so that embedders that use
 * ACPI, or that have no libfdt, do not link it.
 *
 * Binding followed (Linux Documentation/devicetree/bindings/interrupt-controller/
 * arm,gic-v3.yaml):
 * - the first enabled node compatible with @c "arm,gic-v3" is the GIC; its
 *   @c reg holds the distributor, then one entry per redistributor region
 *   (@c \#redistributor-regions, default 1), then the optional GICC, GICH
 *   and GICV entries (virq_gic_desc::gicc_base etc.; later entries are
 *   ignored);
 * - an empty (size 0) redistributor region is left out and counted
 *   (virq_gic_desc::nr_redist_skipped, ::LIBVIRQ_GIC_SKIP_REDIST): firmware
 *   publishes them; an empty GICC/GICH/GICV entry is reported absent
 *   (::LIBVIRQ_GIC_SKIP_CPUIF);
 * - @c redistributor-stride (optional, a 64-bit value in two cells, a non-zero
 *   multiple of 64 KiB) applies to every region;
 * - enabled children compatible with @c "arm,gic-v3-its" that carry the
 *   @c msi-controller property are ITSes (as in Linux, an ITS node without
 *   @c msi-controller is ignored); their first @c reg entry is the ITS frame;
 *   their phandle and node offset are recorded (virq_gic_its_desc::phandle);
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

/**
 * @defgroup virq_fdt FDT discovery
 * @brief The GIC, PCI host bridges and MSI topology from a flattened device tree
 *        (libvirq_fdt.a).
 */
#ifndef LIBVIRQ_FDT_H
#define LIBVIRQ_FDT_H

#include "virq_env.h"
#include "status.h"
#include "gicv4/desc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Largest DTB (in bytes) virq_fdt_discover_gic() accepts: 64 MiB. */
#define LIBVIRQ_FDT_MAX_SIZE (64u * 1024u * 1024u)

/** @brief Most redistributor regions a well-formed tree may declare (binding limit). */
#define LIBVIRQ_FDT_MAX_REDIST_REGIONS_DT 4096u

/**
 * @brief Describes the GIC found in a flattened device tree.
 *
 * The blob is validated completely first (header, every tag, every
 * property length and name offset: libvirq's own header and structure
 * walk, then libfdt's @c fdt_check_full()), then every property libvirq
 * reads is length-checked before use, so a hostile blob cannot make this
 * function read outside [@p fdt, @p fdt + @p bufsize), divide by zero, or
 * loop without bound. Checked before libfdt runs, because libfdt 1.6.1 (the
 * oldest supported) does not check them safely: FDT version 16 or later
 * (older blobs made 1.6.1's @c fdt_check_full() read NULL; upstream dtc
 * commit fda71da), a 4-byte aligned structure block and an 8-byte aligned
 * memory reservation block (dtc commit 8d15a63), property lengths that stay
 * inside the structure block (dtc commit 7359034).
 *
 * @param fdt     The blob, 8-byte aligned (libfdt requires it).
 * @param bufsize Bytes readable at @p fdt (the blob's @c totalsize must fit;
 *                at most ::LIBVIRQ_FDT_MAX_SIZE are examined).
 * @param desc    Receives the description; fully written on success,
 *                zeroed on failure.
 * @param reason  Optional; receives a constant English sentence: on failure
 *                naming the problem; on success "ok", or, when something was
 *                left out (virq_gic_desc::skipped non-zero), a sentence
 *                starting "ok, but" naming the first thing left out (the
 *                discovery has no HAL: this is its warning line). Never NULL
 *                on return when non-NULL on entry.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL when @p fdt or @p desc is NULL;
 *         ::LIBVIRQ_EALIGN when @p fdt is not 8-byte aligned;
 *         ::LIBVIRQ_EBADDT when the blob or the GIC/ITS nodes are malformed: bad
 *         magic, version below 16 or last_comp_version above 17, misaligned
 *         sub-blocks, bad header, truncated, bad structure, @c \#address-cells or
 *         @c \#size-cells not 1 or 2, @c reg or @c ranges length not a whole
 *         number of entries or too short for the declared regions, a zero-size
 *         GICD or ITS region, every redistributor region empty, a wrapping
 *         region, an address outside every parent @c ranges entry,
 *         @c \#redistributor-regions 0 or above 4096, a bad
 *         @c redistributor-stride;
 *         ::LIBVIRQ_ENOENT when no enabled @c "arm,gic-v3" node exists;
 *         ::LIBVIRQ_ENOSPC when the tree is valid but has more than
 *         ::LIBVIRQ_GIC_MAX_REDIST_REGIONS non-empty redistributor regions or
 *         more than ::LIBVIRQ_GIC_MAX_ITS enabled ITSes.
 *
 * Thread-safety: reentrant; reads @p fdt only.
 * Spec: devicetree binding arm,gic-v3 (see file comment); Devicetree
 * Specification v0.4 §2.3.5 (cells), §2.3.8 (ranges), §5 (FDT format).
 */
LIBVIRQ_MUST_CHECK virq_status virq_fdt_discover_gic(const void *fdt, size_t bufsize,
						     struct virq_gic_desc *desc,
						     const char **reason);

/* ------------------------------------------------------------------------ */
/** @name PCI host bridges and device MSI topology
 *
 * For a bare-metal embedder that enumerates a PCIe bus itself and passes a
 * device's MSIs through an ITS: virq_fdt_discover_pci_host() gives the host bridge's
 * configuration window, bus range and address windows;
 * virq_fdt_msi_map() turns a requester ID into (which ITS of a
 * ::virq_gic_desc, which DeviceID).
 *
 * A typical sequence (QEMU's virt machine, its @c edu device):
 * @code
 *   struct virq_gic_desc gic;           // virq_fdt_discover_gic(dtb, n, &gic, &why)
 *   struct virq_fdt_pci_host host;      // virq_fdt_discover_pci_host(dtb, n, 0, &host, &why)
 *   // scan bus host.bus_start: config address of (bus, dev, fn, reg) from
 *   // virq_fdt_pci_cfg_addr(); find vendor:device 1234:11e8 at RID
 *   // bus << 8 | dev << 3 | fn; size BAR0 and place it in a
 *   // LIBVIRQ_FDT_PCI_MEM32 window of host.ranges[] (program the PCI
 *   // address, access the CPU address);
 *   struct virq_fdt_msi_target t;       // virq_fdt_msi_map(dtb, n, &gic, host.node,
 *                                       //                  rid, LIBVIRQ_FDT_ANY_ITS, &t, &why)
 *   // MSI address = gic.its[t.its_index].base + 0x10040 (GITS_TRANSLATER),
 *   // MAPD with DeviceID t.devid on that ITS.
 * @endcode
 *
 * Not parsed (the embedder does it if it needs it): @c interrupt-map /
 * @c interrupt-map-mask (INTx routing), @c dma-ranges, @c iommu-map,
 * @c linux,pci-domain, the second @c reg entry some non-generic hosts have,
 * and the devices below the bridge (PCI devices have no nodes in QEMU's
 * tree; enumerate the bus through the configuration window).
 * @{
 */

/** @brief Most @c ranges entries a ::virq_fdt_pci_host holds. */
#define LIBVIRQ_FDT_PCI_MAX_RANGES 16u

/** @brief Most @c msi-map entries virq_fdt_msi_map() accepts (more: ::LIBVIRQ_ENOSPC). */
#define LIBVIRQ_FDT_MSI_MAP_MAX_ENTRIES 1024u

/** @brief virq_fdt_msi_map() @p its_filter: any ITS of the description. */
#define LIBVIRQ_FDT_ANY_ITS 0xffffffffu

/**
 * @brief Address space of a PCI @c ranges entry: the @c ss field, bits
 *        [25:24] of the entry's phys.hi cell (IEEE Std 1275-1994 PCI bus
 *        binding, "phys.hi cell: npt000ss bbbbbbbb dddddfff rrrrrrrr").
 */
enum virq_fdt_pci_space {
	LIBVIRQ_FDT_PCI_CONFIG = 0, /**< Configuration space (unusual in @c ranges). */
	LIBVIRQ_FDT_PCI_IO = 1,	    /**< I/O space: PCI port addresses, reached at @c cpu_base. */
	LIBVIRQ_FDT_PCI_MEM32 = 2,  /**< 32-bit memory space (for 32-bit BARs). */
	LIBVIRQ_FDT_PCI_MEM64 = 3,  /**< 64-bit memory space (for 64-bit BARs). */
};

/** @brief Layout of a host bridge's configuration window. */
enum virq_fdt_pci_cfg_layout {
	/** "pci-host-ecam-generic": bus << 20 | device << 15 | function << 12 | register. */
	LIBVIRQ_FDT_PCI_ECAM = 0,
	/** "pci-host-cam-generic": bus << 16 | device << 11 | function << 8 | register. */
	LIBVIRQ_FDT_PCI_CAM = 1,
};

/** @brief One address window of a PCI host bridge (one @c ranges entry). */
struct virq_fdt_pci_range {
	uint32_t space;	   /**< ::virq_fdt_pci_space. */
	bool prefetchable; /**< The @c p bit (phys.hi bit 30): prefetchable memory. */
	uint64_t pci_base; /**< First PCI bus address (phys.mid:phys.lo): what a BAR is programmed
			      with. */
	uint64_t cpu_base; /**< The CPU address it is reached at, translated through every
			      ancestor's @c ranges. */
	uint64_t size; /**< Bytes; > 0; neither side wraps; a MEM32 or I/O window ends at or below 4
			  GiB. */
};

/** @brief A generic PCI host bridge (binding pci/host-generic-pci.yaml). */
struct virq_fdt_pci_host {
	int32_t node; /**< Its node offset (for virq_fdt_msi_map()); valid for the same unmodified
			 blob. */
	uint32_t layout; /**< ::virq_fdt_pci_cfg_layout of the configuration window. */
	/** CPU address of the configuration space of bus @ref bus_start (first
	    @c reg entry, translated through every ancestor's @c ranges). */
	uint64_t cfg_base;
	uint64_t cfg_size;  /**< Bytes; > 0, at least one bus. */
	uint32_t bus_start; /**< First bus number (@c bus-range, default 0). */
	/** Last bus number (@c bus-range, default 255), at most what the
	    configuration window covers: a larger @c bus-range is reduced to it,
	    as Linux's ECAM driver does, with ::LIBVIRQ_FDT_PCI_BUS_REDUCED set. */
	uint32_t bus_end;
	uint32_t flags;	    /**< Bit set of ::virq_fdt_pci_flag. */
	uint32_t nr_ranges; /**< Valid entries in @ref ranges (0..16). */
	/** The usable windows, in @c ranges order; zero-size entries left out. */
	struct virq_fdt_pci_range ranges[LIBVIRQ_FDT_PCI_MAX_RANGES];
};

/** @brief ::virq_fdt_pci_host flags. */
enum virq_fdt_pci_flag {
	LIBVIRQ_FDT_PCI_BUS_REDUCED = 1u << 0,	  /**< @c bus-range was larger than the window. */
	LIBVIRQ_FDT_PCI_RANGE_SKIPPED = 1u << 1,  /**< A zero-size @c ranges entry was left out. */
	LIBVIRQ_FDT_PCI_DMA_COHERENT = 1u << 2,	  /**< The node has @c dma-coherent. */
	LIBVIRQ_FDT_PCI_HAS_MSI_MAP = 1u << 3,	  /**< The node has @c msi-map. */
	LIBVIRQ_FDT_PCI_HAS_MSI_PARENT = 1u << 4, /**< The node has @c msi-parent. */
};

/**
 * @brief Describes the @p index-th enabled generic PCI host bridge of a tree.
 *
 * Host bridges are the nodes compatible with @c "pci-host-ecam-generic" or
 * @c "pci-host-cam-generic" (also as a later entry of a vendor compatible
 * list, e.g. Arm Juno's) whose @c status is absent or okay, counted in tree
 * order from 0. The node must have @c \#address-cells = 3 and
 * @c \#size-cells = 2 (binding pci/pci-bus.yaml). Read:
 * - @c reg (first entry): the configuration window, in the parent bus's
 *   cells, translated to a CPU address; its base is the configuration space
 *   of the first bus of @c bus-range (binding host-generic-pci.yaml);
 * - @c bus-range: two cells, first ≤ last ≤ 255; absent means 0..255;
 * - @c ranges: entries of (3 PCI address cells, parent address cells, 2 size
 *   cells), each decoded into a ::virq_fdt_pci_range and its CPU side
 *   translated through every ancestor's @c ranges; zero-size entries are left
 *   out (as Linux does) with ::LIBVIRQ_FDT_PCI_RANGE_SKIPPED.
 *
 * @param fdt     The blob, 8-byte aligned; validated as in virq_fdt_discover_gic().
 * @param bufsize Bytes readable at @p fdt (at most ::LIBVIRQ_FDT_MAX_SIZE examined).
 * @param index   Which host bridge, 0-based in tree order.
 * @param host    Receives the description; fully written on success,
 *                zeroed on failure.
 * @param reason  Optional; a constant English sentence: "ok", a note naming
 *                the first thing adjusted or left out on success, or the
 *                problem on failure.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL when @p fdt or @p host is NULL;
 *         ::LIBVIRQ_EALIGN when @p fdt is not 8-byte aligned;
 *         ::LIBVIRQ_EBADDT when the blob is malformed (as in
 *         virq_fdt_discover_gic()) or the host node is: cells not 3/2, no or
 *         partial @c reg, a configuration window smaller than one bus,
 *         @c bus-range not two cells or not first ≤ last ≤ 255, @c ranges
 *         absent or not whole entries, a window that wraps, a MEM32 or I/O
 *         window that ends above 4 GiB on the PCI side, an address outside
 *         its parent's @c ranges;
 *         ::LIBVIRQ_ENOENT when the tree has fewer than @p index + 1 such host bridges;
 *         ::LIBVIRQ_ENOSPC when @c ranges has more than ::LIBVIRQ_FDT_PCI_MAX_RANGES
 *         non-empty entries.
 *
 * Cost: one validation of the blob plus one walk of its nodes (linear in
 * its size). Thread-safety: reentrant; reads @p fdt only.
 * Spec: binding pci/host-generic-pci.yaml; IEEE Std 1275-1994 PCI bus
 * binding (phys.hi); Devicetree Specification v0.4 §2.3.8 (ranges).
 */
LIBVIRQ_MUST_CHECK virq_status virq_fdt_discover_pci_host(const void *fdt, size_t bufsize,
							  uint32_t index,
							  struct virq_fdt_pci_host *host,
							  const char **reason);

/**
 * @brief Called by virq_fdt_for_each_pci_host() for each host bridge.
 *
 * @param ctx   The @p ctx given to virq_fdt_for_each_pci_host().
 * @param index The host bridge's index, as virq_fdt_discover_pci_host() counts.
 * @param host  Its description (valid only during the call).
 * @param note  "ok", or a sentence starting "ok, but" naming the first thing
 *              adjusted or left out (as virq_fdt_discover_pci_host()'s reason).
 * @return 0 to go on to the next host bridge, anything else to stop.
 *
 * On Xen x86 with CET-IBT, the function must be @c cf_check (it is called
 * through a pointer).
 */
typedef int (*virq_fdt_pci_host_fn)(void *ctx, uint32_t index, const struct virq_fdt_pci_host *host,
				    const char *note);

/**
 * @brief Describes every enabled generic PCI host bridge of a tree, in one pass.
 *
 * The same host bridges, in the same order and with the same descriptions
 * as virq_fdt_discover_pci_host() with index 0, 1, 2, ..., but the blob is
 * validated once and its nodes are walked once: the cost is linear in the
 * blob's size whatever the number of host bridges (calling
 * virq_fdt_discover_pci_host() for each index costs one validation per
 * call). Stops at the first malformed host bridge.
 *
 * @param fdt     The blob, 8-byte aligned; validated as in virq_fdt_discover_gic().
 * @param bufsize Bytes readable at @p fdt (at most ::LIBVIRQ_FDT_MAX_SIZE examined).
 * @param fn      Called for each host bridge in tree order until it returns non-zero.
 * @param ctx     Passed to @p fn.
 * @param count   Optional; receives the number of host bridges passed to
 *                @p fn that returned 0 (on failure: the index of the malformed one).
 * @param reason  Optional; "ok", or on failure the problem (as
 *                virq_fdt_discover_pci_host() names it).
 * @return ::LIBVIRQ_OK after the last host bridge (none is not an error) or
 *         when @p fn stopped the walk;
 *         ::LIBVIRQ_EINVAL when @p fdt or @p fn is NULL;
 *         ::LIBVIRQ_EALIGN, ::LIBVIRQ_EBADDT, ::LIBVIRQ_ENOSPC as
 *         virq_fdt_discover_pci_host() for the blob or a host bridge node.
 *
 * Thread-safety: reentrant; reads @p fdt only; @p fn runs on the calling thread.
 * Spec: as virq_fdt_discover_pci_host().
 */
LIBVIRQ_MUST_CHECK virq_status virq_fdt_for_each_pci_host(const void *fdt, size_t bufsize,
							  virq_fdt_pci_host_fn fn, void *ctx,
							  uint32_t *count, const char **reason);

/**
 * @brief CPU address of a configuration register of a host bridge's bus.
 *
 * ECAM: cfg_base + ((bus - bus_start) << 20 | device << 15 | function << 12 | reg);
 * CAM: cfg_base + ((bus - bus_start) << 16 | device << 11 | function << 8 | reg)
 * (binding host-generic-pci.yaml; PCI Express Base Specification, ECAM).
 *
 * @param host     From virq_fdt_discover_pci_host().
 * @param bus      host->bus_start..host->bus_end.
 * @param device   0..31.
 * @param function 0..7.
 * @param reg      Byte offset: 0..4095 (ECAM) or 0..255 (CAM).
 * @param addr     Receives the CPU address (inside the configuration window).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL when @p host or @p addr is NULL or
 *         @p host has an unknown layout; ::LIBVIRQ_ERANGE when an argument is
 *         outside its range or the address falls outside the window.
 *
 * Thread-safety: pure function.
 */
LIBVIRQ_MUST_CHECK virq_status virq_fdt_pci_cfg_addr(const struct virq_fdt_pci_host *host,
						     uint32_t bus, uint32_t device,
						     uint32_t function, uint32_t reg,
						     uint64_t *addr);

/** @brief Where a requester ID's MSIs go: virq_fdt_msi_map()'s result. */
struct virq_fdt_msi_target {
	uint32_t its_index;   /**< Index into the description's ::virq_gic_desc::its. */
	uint32_t devid;	      /**< The DeviceID the ITS sees for the requester (MAPD's DeviceID). */
	uint32_t its_phandle; /**< The ITS's phandle (== its[its_index].phandle). */
	/** 1: through @c msi-map; 2: through the @c msi-parent fallback (DeviceID = RID). */
	uint32_t via;
};

/** @brief virq_fdt_msi_target::via values. */
enum virq_fdt_msi_via {
	LIBVIRQ_FDT_MSI_VIA_MAP = 1,	/**< An @c msi-map entry matched. */
	LIBVIRQ_FDT_MSI_VIA_PARENT = 2, /**< No @c msi-map; @c msi-parent names the ITS. */
};

/**
 * @brief Translates a PCI requester ID through a host bridge's @c msi-map
 *        (or @c msi-parent) to an ITS of @p desc and a DeviceID.
 *
 * Rules (binding pci/pci-msi.txt; Linux's of_map_id() behaves the same
 * where the binding is silent, except where noted):
 * - @c msi-map is a list of (rid-base, ITS phandle, msi-base, length); with
 *   @c msi-map-mask (one cell, default 0xffffffff) the RID is masked first;
 *   an entry matches when rid-base ≤ (RID & mask) < rid-base + length, and
 *   then DeviceID = (RID & mask) − rid-base + msi-base. The first matching
 *   entry in property order whose controller is an ITS of @p desc (and is
 *   @p its_filter, unless that is ::LIBVIRQ_FDT_ANY_ITS) wins;
 * - several entries may map the same RIDs to @e different controllers
 *   (binding example 5); @p its_filter then picks the ITS;
 * - without @c msi-map, @c msi-parent (a list of phandle + @c \#msi-cells
 *   specifier; a lone phandle is accepted) names the ITS; DeviceID = RID
 *   (what Linux uses: the binding defines no sideband translation for it; a
 *   specifier is ignored for PCI);
 * - a RID no entry matches is ::LIBVIRQ_ENOENT (Linux would pass the RID
 *   through untranslated; libvirq refuses to guess).
 *
 * The whole @c msi-map is validated on every call, whichever RID is asked
 * for, so a map either works for every RID or for none: every phandle must
 * name a node with @c msi-controller and @c \#msi-cells = 1 (an ITS's value,
 * binding arm,gic-v3.yaml; it also fixes the entry at 4 cells); length must
 * be ≥ 1; rid-base + length and msi-base + length must not pass 2^32;
 * rid-base must have no bits outside the mask (Linux refuses that too); the
 * mask must not be 0; two entries for the same controller must not overlap.
 *
 * @param fdt         The blob, 8-byte aligned; validated as in virq_fdt_discover_gic().
 * @param bufsize     Bytes readable at @p fdt.
 * @param desc        From virq_fdt_discover_gic() on the same blob (its
 *                    ITS phandles and node offsets identify the ITS).
 * @param node        The node with @c msi-map / @c msi-parent: a host bridge
 *                    (virq_fdt_pci_host::node) or any node offset of the blob.
 * @param rid         Requester ID, 0..0xffff: bus << 8 | device << 3 | function.
 * @param its_filter  ::LIBVIRQ_FDT_ANY_ITS, or an index < desc->nr_its to
 *                    ask only for that ITS.
 * @param out         Receives the target; zeroed on failure.
 * @param reason      Optional; "ok" or a constant sentence naming the problem.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL when @p fdt, @p desc or @p out is NULL, @p node is
 *         not a node offset of the blob, or @p its_filter is out of range;
 *         ::LIBVIRQ_EALIGN when @p fdt is not 8-byte aligned;
 *         ::LIBVIRQ_ERANGE when @p rid is above 0xffff;
 *         ::LIBVIRQ_EBADDT when the blob, @c msi-map, @c msi-map-mask or
 *         @c msi-parent is malformed (see the rules above: a phandle 0,
 *         0xffffffff or naming no node, a controller without
 *         @c msi-controller, @c \#msi-cells not 1, length 0, overflow, mask 0,
 *         overlapping entries for one controller, a partial entry);
 *         ::LIBVIRQ_ENOENT when the node has neither property, or no entry
 *         matches @p rid (for @p its_filter);
 *         ::LIBVIRQ_ENOTSUP when @p rid maps only to MSI controllers that are
 *         not ITSes of @p desc (e.g. a GICv2m frame, a disabled ITS);
 *         ::LIBVIRQ_ENOSPC when @c msi-map has more than
 *         ::LIBVIRQ_FDT_MSI_MAP_MAX_ENTRIES entries or names more than 32
 *         distinct controllers.
 *
 * Cost: one validation of the blob and one phandle look-up per distinct
 * controller (each linear in the blob's size), plus O(entries²) for the
 * overlap check. Thread-safety: reentrant; reads @p fdt and @p desc only.
 * Spec: binding pci/pci-msi.txt (msi-map, msi-map-mask, msi-parent),
 * interrupt-controller/msi.txt, interrupt-controller/arm,gic-v3.yaml (ITS
 * @c \#msi-cells = 1: the DeviceID).
 */
LIBVIRQ_MUST_CHECK virq_status virq_fdt_msi_map(const void *fdt, size_t bufsize,
						const struct virq_gic_desc *desc, int32_t node,
						uint32_t rid, uint32_t its_filter,
						struct virq_fdt_msi_target *out,
						const char **reason);

/** @} */

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_FDT_H */
