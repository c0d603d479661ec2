/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief ITS driver: probe and errata quirks, GITS_BASER tables, command
 * queue bring-up, collections, devices and physical LPI mappings.
 *
 * Built on the command encoders (gicv4/its_cmd.h) and the command queue
 * (gicv4/its_queue.h). Every operation encodes all of its commands first
 * (an encoding error queues nothing), then pushes them with the SYNC or
 * VSYNC each needs (IHI 0069H §5.2; @ref gic-its-command-sync), publishes with one
 * GITS_CWRITER write and waits, bounded, for completion. When the queue
 * fails (::LIBVIRQ_ETIMEDOUT, ::LIBVIRQ_ESTALLED) the queue is reset
 * (virq_its_queue_reset(): once the ITS is quiescent, GITS_CREADR says
 * which commands ran; the later ones are dropped) and the operation
 * returns the error. The tracking then follows what GITS_CREADR showed:
 * a mapping command (MAPTI, VMAPTI, DISCARD, MOVI, VMOVI) it passed is
 * tracked as done, one it did not pass as not done; when the reset fails
 * too (the ITS is marked dead, every later call returns ::LIBVIRQ_EDEAD)
 * the commands after it may or may not have run and the tracking keeps
 * the mapping that may still be in the ITS (the old one; for a new map,
 * the new one), its vPE and LPI referenced (docs/gicv4-core.md
 * "Failures").
 *
 * Thread-safety (the SMP contract, docs/gicv4-core.md "SMP"): without a
 * lock hook the caller serialises every call that takes a given ::virq_its
 * (directly or through a device or vPE mapped on it). With a lock hook
 * (::virq_its_cfg::lock) the library takes the embedder's lock around
 * everything that touches the ITS's shared state, so calls on *different*
 * devices and vPEs that use the same ITS may run concurrently on different
 * CPUs; the caller still serialises the calls on one object (a device, an
 * event, a vPE) and those whose function comment says more. virq_its_init()
 * and virq_its_destroy() never run concurrently with any other call on the
 * ITS and take no lock.
 * Spec: Arm IHI 0069H chapter 5 (LPIs and the ITS), §12.19 (GITS_* registers).
 */
#ifndef LIBVIRQ_GICV4_ITS_H
#define LIBVIRQ_GICV4_ITS_H

#include "gic.h"
#include "its_cmd.h"
#include "its_queue.h"
#include "its_regs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Errata and platform quirks applied to an ITS (::virq_its::quirks). */
enum virq_its_quirk {
	/** Cavium ThunderX erratum 22375: device table limited to 20 DeviceID bits. */
	LIBVIRQ_ITS_QUIRK_CAVIUM_22375 = 1u << 0,
	/** Cavium ThunderX erratum 24313: table memory type ignored; program nCnB. */
	LIBVIRQ_ITS_QUIRK_CAVIUM_24313 = 1u << 1,
	/** Cavium ThunderX erratum 23144: MAPC only to CPUs on the ITS's NUMA node. */
	LIBVIRQ_ITS_QUIRK_CAVIUM_23144 = 1u << 2,
	/** Qualcomm QDF2400 erratum E0065: ITT entries are 16 bytes. */
	LIBVIRQ_ITS_QUIRK_QDF2400_E0065 = 1u << 3,
	/** HiSilicon Hip09 erratum 162100801: GICR_INVALLR after every VMOVP. */
	LIBVIRQ_ITS_QUIRK_HIP09_162100801 = 1u << 4,
	/** Rockchip RK3588 erratum 3588001: no shareability; force non-coherent. */
	LIBVIRQ_ITS_QUIRK_RK3588_3588001 = 1u << 5,
};

/** @brief One entry of the quirk table: applies when (IIDR & mask) == iidr. */
struct virq_its_quirk_entry {
	uint32_t iidr;	   /**< GITS_IIDR value to match. */
	uint32_t mask;	   /**< Bits of GITS_IIDR compared. */
	uint32_t platform; /**< ::virq_gic_platform bits also required (0: none). */
	uint32_t quirks;   /**< ::virq_its_quirk bits applied. */
	const char *name;  /**< Erratum name, for logs. */
};

/**
 * @brief Quirks for a GITS_IIDR on a platform (pure; @ref gic-its-errata).
 *
 * @param iidr     GITS_IIDR.
 * @param platform ::virq_gic_platform bits of the description.
 * @return Bit set of ::virq_its_quirk. Thread-safety: pure.
 *
 * Spec: vendor errata, not IHI 0069H (@ref gic-its-errata).
 */
uint32_t virq_its_quirks_for(uint32_t iidr, uint32_t platform);

/** @brief One GITS_BASER\<n\> table as programmed. Members are read-only. */
struct virq_its_table {
	uint64_t baser;	     /**< Value that stuck (0: table not set up). */
	uint32_t n;	     /**< BASER index 0..7. */
	uint32_t type;	     /**< ::virq_gits_baser_type. */
	uint32_t page_size;  /**< Bytes per page: 4096, 16384 or 65536. */
	uint32_t esz;	     /**< Bytes per entry. */
	uint32_t id_bits;    /**< IDs 0 .. 2^id_bits - 1 are covered. */
	uint32_t nr_l1;	     /**< Indirect: number of level-1 entries. */
	bool indirect;	     /**< Two-level table. */
	bool noncoherent;    /**< Clean writes to PoC. */
	struct virq_page l1; /**< Flat table, or the level-1 table. */
	struct virq_page l2; /**< Indirect: array of nr_l1 ::virq_page (level-2 pages). */
};

/** @brief One half of a ::virq_its_lock: takes or releases the lock named by @p arg. */
typedef void (*virq_its_lock_fn)(void *arg);

/**
 * @brief The embedder's lock around one ITS's shared state (::virq_its_cfg::lock).
 *
 * One lock per ITS, chosen over a HAL callback pair: what it protects is one
 * ITS's command queue and tracking, so independent ITSes take independent
 * locks without a lookup, the library keeps no global state, and the HAL
 * interface stays as it is.
 *
 * With a lock installed, every public function that uses the ITS
 * (gicv4/its.h, gicv4/vpe.h) calls @c acquire before it touches the ITS's
 * shared state - the command queue, GITS_CWRITER and GITS_CREADR, the ITS
 * tables and their level-2 pages, the list of mapped devices, the collection
 * map, the GICv4.0 doorbell proxy device and its slots, ::virq_its::cmds -
 * and @c release after, on every path, success or error: no function
 * returns with the lock held. The library holds at most one ITS's lock at a
 * time and never calls @c acquire while it holds that lock (no nesting, so
 * no lock order to respect). While it holds the lock it may call the HAL's
 * @c mmio_*, @c barrier, @c dcache_clean, @c now_ns, @c relax, @c log,
 * @c page_alloc and @c page_free (level-2 table pages, ITTs, the proxy
 * device); it holds it for a bounded time: the queue waits of one operation,
 * each at most the ITS's timeout.
 *
 * What the lock must guarantee: mutual exclusion among every CPU (and every
 * interrupt handler) that calls the library for this ITS; acquire semantics
 * at @c acquire and release semantics at @c release, for normal memory (the
 * command queue, the tables, the library's tracking) and for device memory
 * (GITS_CWRITER): what one CPU wrote before @c release is observed by the
 * next CPU after its @c acquire. A lock also taken in interrupt context must
 * mask interrupts. With the MMU off every access is Device memory, where
 * load/store-exclusive and atomic instructions are not architecturally
 * guaranteed to work (Arm ARM B2.9: support for exclusives on Device memory
 * is IMPLEMENTATION DEFINED); a lock built from ordered loads and stores,
 * such as Lamport's bakery algorithm with a DSB SY after each store, meets
 * the contract (examples/minihv-aarch64/smp.c). Both members NULL: no lock,
 * and the caller serialises every call that uses the ITS.
 */
struct virq_its_lock {
	virq_its_lock_fn acquire; /**< Takes the lock (may spin; cannot fail). */
	virq_its_lock_fn release; /**< Releases it. */
	void *arg;		  /**< Passed to both (e.g. the embedder's spinlock). */
};

/** @brief Optional settings for virq_its_init(). */
struct virq_its_cfg {
	uint32_t queue_bytes;  /**< Command queue size (4 KiB multiple; 0: 64 KiB). */
	uint64_t timeout_ns;   /**< Budget of each wait (0: the GIC's timeout). */
	int32_t numa_node;     /**< The ITS's NUMA node (Cavium 23144), -1 if unknown. */
	const int8_t *rd_node; /**< NUMA node of each redistributor index, or NULL. */
	/** GICv4.0 without DirectLPI: this ITS may hold the doorbell proxy
	 *  device, on the last DeviceID the device table covers. That DeviceID
	 *  is reserved at once (virq_its_device_map() refuses it); the device
	 *  itself (a MAPD and two 4 KiB allocations) is created when doorbell
	 *  masking first needs it: by virq_vpe_set_db_masking() or
	 *  virq_vpe_doorbell_invalidate(), which then report its allocation or
	 *  queue failure. One per GIC: ignored when another ITS of the GIC
	 *  already has it. */
	bool proxy_doorbells;
	/** With ::virq_its_cfg::proxy_doorbells, events (slots) of the proxy device, one
	 *  vPE's doorbell each; 0 means 16. Raised to one per redistributor
	 *  and rounded up to a power of two, lowered to 2^GITS_TYPER.ID_bits.
	 *  When every slot is taken, a vPE that needs one for an INV evicts an
	 *  owner (DISCARD, which also removes that doorbell's pending state,
	 *  IHI 0069H §5.3 DISCARD) and gives the slot back at once with an INT
	 *  raising the owner's doorbell again (::virq_its::proxy_give_backs):
	 *  nine commands instead of two and a spurious doorbell, and the give-back
	 *  removes the evicting vPE's own pending doorbell (PendingLast is then
	 *  set on it unless it is resident). Give at least as many slots as vPEs
	 *  that may be non-resident at once. */
	uint32_t proxy_slots;
	/** Map every vPE on this GICv4.0 ITS when it is created (VMAPP +
	 *  VINVALL + VSYNC in virq_vpe_init(), the 0.2 behaviour) instead of
	 *  at its first vLPI on this ITS (docs/gicv4-core.md "Lazy mapping").
	 *  The first vLPI map here then sends no VMAPP, at the cost of three
	 *  commands per vPE here at creation and a VMOVP here at every move.
	 *  A GICv4.1 ITS always maps eagerly. */
	bool eager_vpes;
	/** Optional lock around this ITS's shared state (::virq_its_lock);
	 *  both members NULL: none. */
	struct virq_its_lock lock;
};

struct virq_its_device;
struct virq_its_pool_page;

/** @brief Most batches one ITS holds published but not waited for (virq_its_settle()). */
#define LIBVIRQ_ITS_DEFER_MAX 8u

/**
 * @brief Private: one batch of a deferred device published without a wait
 * (virq_its_device_set_deferred()): where it is in the queue, and what its
 * event's tracking was before the call, restored if the ITS never ran it.
 */
struct virq_its_deferred {
	struct virq_its_device *dev; /**< Private: the device. */
	struct virq_vpe *vpe;	     /**< Private: the event's vPE before the call. */
	uint64_t base;		     /**< Private: linear queue position of the first command. */
	uint64_t end;		     /**< Private: linear position after the last (its ticket). */
	uint32_t event;		     /**< Private: the event. */
	uint32_t intid;		     /**< Private: its INTID before the call (0: not mapped). */
	uint16_t aux;		     /**< Private: its doorbell word before the call. */
	bool undo;		     /**< Private: the call changed the event's tracking. */
};

/** @brief One ITS. Caller storage; members are read-only for the embedder. */
struct virq_its {
	uint32_t state;	       /**< ::virq_gicv4_state (see gicv4/state.h). */
	struct virq_gic *gic;  /**< The GIC it belongs to. */
	uint64_t base;	       /**< Control frame address. */
	uint64_t size;	       /**< Register region size from the description (bytes). */
	bool direct_vsgi;      /**< GICv4.1 direct vSGI usable: GITS_TYPER.VSGI and GITS_SGIR
				    inside the region (size >= 0x20028). */
	uint64_t typer;	       /**< GITS_TYPER. */
	uint32_t iidr;	       /**< GITS_IIDR. */
	uint32_t mpidr;	       /**< GITS_MPIDR (GICv4.1; 0 otherwise): affinity of SVPET sharing. */
	uint32_t quirks;       /**< ::virq_its_quirk bits applied. */
	uint32_t slot;	       /**< Index in ::virq_gic::its. */
	uint32_t its_number;   /**< GITS_CTLR.ITS_Number (VMOVP ITSList bit). */
	uint32_t itt_esz;      /**< ITT entry size in bytes (after quirks). */
	bool noncoherent;      /**< Tables forced non-shareable/non-cacheable. */
	bool dead;	       /**< A queue failure could not be recovered. */
	int32_t numa_node;     /**< From the configuration. */
	const int8_t *rd_node; /**< From the configuration. */
	struct virq_its_limits lim; /**< Limits for the encoders. */
	struct virq_its_queue q;    /**< The command queue. */
	struct virq_its_table
	    tbl[3];		  /**< Device, collection, vPE tables (index ::virq_its_tbl_idx). */
	struct virq_page col_map; /**< Bitmap of mapped collections (ICID = RD index). */
	struct virq_its_device *proxy; /**< GICv4.0 doorbell proxy device once created, or NULL. */
	bool proxy_ok; /**< This ITS holds the GIC's proxy (::virq_its_cfg::proxy_doorbells). */
	uint32_t proxy_devid; /**< DeviceID reserved for the proxy (with @ref proxy_ok). */
	uint32_t proxy_next;  /**< Next proxy slot to use (round robin). */
	uint32_t proxy_slots; /**< ::virq_its_cfg::proxy_slots as given (0: the default). */
	/** Evictions of a proxy slot's owner, each followed by the give-back
	 *  (DISCARD, SYNC, MAPTI, INT, SYNC) that raises its doorbell again
	 *  (statistics: each is a spurious doorbell at most). */
	uint32_t proxy_give_backs;
	bool eager_vpes;     /**< vPEs mapped here at creation (::virq_its_cfg::eager_vpes or
				  GICv4.1). */
	uint64_t cmds;	     /**< Commands sent (statistics). */
	uint32_t nr_devices; /**< Devices mapped (the proxy device excluded). */
	uint32_t nr_vpes;    /**< vPEs mapped (VMAPP) on this ITS. */
	/** Devices mapped on this ITS (the proxy device included), linked
	 *  through ::virq_its_device::next. */
	struct virq_its_device *devices;
	struct virq_its_lock lock; /**< From the configuration (::virq_its_lock). */
	uint64_t deferred_batches; /**< Batches published without a wait (statistics). */
	uint64_t deferred_waits;   /**< Waits for deferred batches: virq_its_settle() that polled
					past one read, a full journal, a teardown (statistics). */
	uint32_t deferred_undone;  /**< Deferred batches the ITS never ran, their tracking
					restored (statistics). */
	uint32_t nr_deferred;	   /**< Private: entries of @ref deferred. */
	bool deferred_reset;	   /**< Private: the queue was reset with batches deferred. */
	uint64_t deferred_epoch;   /**< Private: queue epoch of the oldest deferred batch. */
	uint64_t deferred_t0;	   /**< Private: HAL time of the oldest deferred batch (ns). */
	/** Private: batches published and not waited for, oldest first. */
	struct virq_its_deferred deferred[LIBVIRQ_ITS_DEFER_MAX];
	struct virq_page dev_ht; /**< Private: index of the mapped DeviceIDs (O(1) lookup). */
	uint32_t dev_ht_used;	 /**< Private: devices in @ref dev_ht. */
	struct virq_its_pool_page
	    *pool; /**< Private: pages that small ITTs and event tracking are carved from. */
	struct virq_hal
	    hal; /**< Private: the GIC's HAL, kept after teardown (@ref virq_failures). */
};

/** @brief Index of a table in ::virq_its::tbl. */
enum virq_its_tbl_idx {
	LIBVIRQ_ITS_TBL_DEV = 0, /**< Device table. */
	LIBVIRQ_ITS_TBL_COL = 1, /**< Collection table. */
	LIBVIRQ_ITS_TBL_VPE = 2, /**< vPE table (GICv4). */
};

/** @brief What an event is mapped to (::virq_its_event::kind). */
enum virq_its_event_kind {
	LIBVIRQ_ITS_EV_NONE = 0,  /**< Not mapped. */
	LIBVIRQ_ITS_EV_PHYS = 1,  /**< Physical LPI (MAPTI). */
	LIBVIRQ_ITS_EV_VIRT = 2,  /**< vLPI (VMAPTI). */
	LIBVIRQ_ITS_EV_PROXY = 3, /**< GICv4.0 doorbell proxy slot. */
};

struct virq_vpe;

/** @brief Tracking of one event of a device. */
struct virq_its_event {
	uint32_t kind;	      /**< ::virq_its_event_kind. */
	uint32_t icid;	      /**< Physical: collection (= RD index). */
	uint32_t intid;	      /**< pINTID or vINTID. */
	uint32_t db;	      /**< vLPI doorbell pINTID, or 1023. */
	struct virq_vpe *vpe; /**< vLPI or proxy: the vPE. */
};

/**
 * @brief A device mapped on an ITS (MAPD). Caller storage, which must stay
 * in place (not copied or moved) while mapped: the ITS links its mapped
 * devices through ::virq_its_device::next. Members are read-only for the
 * embedder.
 */
struct virq_its_device {
	uint32_t state;	      /**< ::virq_gicv4_state: live while mapped. */
	struct virq_its *its; /**< Its ITS; NULL when not mapped. */
	uint32_t device_id;   /**< DeviceID. */
	uint32_t nr_events;   /**< Events (power of two, >= 2). */
	uint32_t nr_mapped;   /**< Events currently mapped. */
	bool deferred;	      /**< Calls publish without a wait (virq_its_device_set_deferred()). */
	struct virq_page itt; /**< Interrupt translation table (pool block or pages). */
	struct virq_page ev;  /**< Private: tracking (read: virq_its_event_get()). */
	struct virq_its_device *next; /**< Next device in ::virq_its::devices (NULL: last). */
	struct virq_its_device *prev; /**< Private: previous device in the list (NULL: first). */
	struct virq_hal hal; /**< Private: the ITS's HAL, kept after unmap (@ref virq_failures). */
};

/**
 * @brief Probes an ITS, sets up its tables and command queue, and enables it.
 *
 * Reads GITS_PIDR2 (ArchRev 3/4), GITS_TYPER, GITS_IIDR and applies the
 * quirk table. Disables the ITS if enabled and waits for Quiescent. For
 * each GITS_BASER\<n\> of type Devices, Collections and (GICv4) vPEs:
 * probes the page size (64, 16, 4 KiB), sizes the table from the ID width
 * (DeviceID bits, number of redistributors, vPEID bits), makes it two-level
 * when one level would exceed two pages and Indirect sticks, writes Inner
 * shareable + RaWaWb (or non-shareable + nC when not coherent), reads back,
 * and cleans tables the ITS does not snoop (@ref gic-table-attributes). Then the queue
 * (virq_its_queue_init()), GITS_CTLR.ITS_Number (for VMOVP ITSLists),
 * registers the ITS with the GIC (GICv4.1: the RDs' vPE tables attached)
 * and last sets Enabled (+ ImDe on GICv4).
 *
 * @param its  Storage (overwritten).
 * @param gic  An initialised GIC.
 * @param desc The ITS's description (base, dma_noncoherent).
 * @param cfg  Optional settings, or NULL.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EBUSY (@p its is live: double init, nothing changed;
 *         gicv4/state.h; or @p desc's region overlaps an ITS already initialised on
 *         @p gic, through other storage: nothing read or written, the first ITS
 *         untouched);
 *         ::LIBVIRQ_EINVAL (@p gic NULL, never initialised or destroyed; @p its or
 *         @p desc NULL; bad cfg: also a ::virq_its_lock with
 *         only one of @c acquire and @c release; a region, virq_gic_its_desc::size,
 *         smaller than the 64 KiB control frame ::LIBVIRQ_GIC_FRAME_SIZE, whose ID
 *         registers GITS_PIDR2 at 0xFFE8 is read: nothing read); ::LIBVIRQ_ENOTSUP (not an
 *         ITS, no physical LPIs); ::LIBVIRQ_ENOSPC (GIC has 16 ITSes);
 *         ::LIBVIRQ_ETIMEDOUT (never quiescent); ::LIBVIRQ_ENOMEM; ::LIBVIRQ_EHW
 *         (a BASER does not take its address, or GITS_TYPER.VMOVP = 0 and
 *         GITS_CTLR.ITS_Number reads the same as another such ITS's, so
 *         the two could not be told apart in an ITSList); ::LIBVIRQ_ENOHAL (non-coherent
 *         and no dcache_clean). On failure nothing stays allocated (every page taken
 *         is freed), the ITS is not registered with @p gic (a retry on the same
 *         storage registers it once) and stays disabled: every check that can fail
 *         runs before GITS_CTLR.Enabled is written, so no second Quiescent wait (which
 *         could time out) is needed to release its memory.
 *
 * Spec: IHI 0069H §12.19.1 GITS_BASER, §5.2.
 *
 * Thread-safety: the caller serialises this with every call on @p gic (the ITS registers
 * itself there) and uses @p its only after it returns, on any CPU (publishing @p its to
 * the others with its own release/acquire ordering). Takes no ITS lock.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_init(struct virq_its *its, struct virq_gic *gic,
					     const struct virq_gic_its_desc *desc,
					     const struct virq_its_cfg *cfg);

/** @brief What virq_its_probe() read from an ITS (plain data). */
struct virq_its_id {
	uint64_t typer;	   /**< GITS_TYPER. */
	uint32_t iidr;	   /**< GITS_IIDR. */
	uint32_t arch_rev; /**< GITS_PIDR2.ArchRev: 3 or 4. */
	/** The level virq_its_init() would drive the ITS at: GITS_TYPER's
	 *  (Virtual, VMAPP), lowered to the GIC's (::virq_gic::version): a
	 *  GICv3 GIC makes every ITS ::LIBVIRQ_ITS_V3, a GICv4.0 one at most
	 *  ::LIBVIRQ_ITS_V40. */
	enum virq_its_version version;
	uint32_t quirks; /**< ::virq_its_quirk bits virq_its_init() would apply. */
};

/**
 * @brief Identifies an ITS without taking it over: reads GITS_PIDR2,
 * GITS_TYPER and GITS_IIDR, writes nothing.
 *
 * For an embedder that must decide, before anything changes, whether to
 * hand an ITS to libvirq (virq_its_init() disables it, reprograms every
 * GITS_BASER\<n\> and the queue) or keep its own driver: e.g. a hypervisor
 * that gives libvirq its ITSes only when they all implement virtual LPIs.
 * With virq_gic_init() (which writes no register either) it tells the
 * level libvirq would use, quirks included.
 *
 * @param gic  An initialised GIC (its HAL and version are used).
 * @param desc The ITS's description (base, size > 0).
 * @param out  Receives the identification (written only on success).
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL (@p gic NULL, never initialised or destroyed,
 *         gicv4/state.h; NULL @p desc or @p out, size 0);
 *         ::LIBVIRQ_ENOTSUP (GITS_PIDR2.ArchRev not 3 or 4: not an ITS; or
 *         GITS_TYPER.Physical = 0).
 *
 * Hardware accesses: three reads, no write. Thread-safety: reads @p gic
 * only; safe concurrently with other readers of @p gic and with any call on
 * another ITS (it takes no ITS lock: the ITS need not be initialised).
 * Spec: IHI 0069H §12.19 (GITS_PIDR2, GITS_TYPER, GITS_IIDR).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_probe(const struct virq_gic *gic,
					      const struct virq_gic_its_desc *desc,
					      struct virq_its_id *out);

/**
 * @brief Disables the ITS (bounded Quiescent wait) and frees its tables and
 * queue. Devices and vPEs using it must be gone.
 *
 * @param its An initialised ITS (NULL ignored).
 * On GICv4.1, redistributors that used this ITS's vPE table are pointed
 * at another GICv4.1 ITS's table, or their GICR_VPROPBASER is cleared.
 *
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL also for a NULL, never initialised or already
 *         destroyed object (nothing touched; gicv4/state.h); ::LIBVIRQ_EBUSY (devices or vPEs
 *         still mapped: nothing
 *         done); ::LIBVIRQ_ETIMEDOUT (never quiescent: memory is kept, ITS
 *         disabled).
 *
 * Thread-safety: as virq_its_init(); no other call may use @p its meanwhile or after (on
 * any CPU). Takes no ITS lock.
 * Spec: IHI 0069H §12.19 (GITS_CTLR Enabled, Quiescent), §12.11 (GICR_VPROPBASER, GICv4.1).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_destroy(struct virq_its *its);

/**
 * @brief Maps collection ICID = @p rd to redistributor @p rd: MAPC + SYNC.
 *
 * Refused until virq_gic_rdist_init() has made EnableLPIs visible on that
 * RD (@ref gic-rd-bringup-order). RDbase is the RD's address when GITS_TYPER.PTA = 1, else
 * its processor number. Cavium 23144: refused when the RD is on another
 * NUMA node than the ITS.
 *
 * @param its An initialised ITS.
 * @param rd  Redistributor index.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; bad index, other node); ::LIBVIRQ_EBUSY (LPIs not enabled on @p rd);
 *         ::LIBVIRQ_ERANGE (ICID beyond the ITS); ::LIBVIRQ_ENOMEM (level-2 page); queue
 *         errors.
 *
 * Thread-safety: with the ITS lock (::virq_its_lock) concurrent with every other call that
 * uses @p its, from any CPU, except the same collection's; without it the caller
 * serialises every call that uses @p its (docs/gicv4-core.md, "SMP").
 * Spec: IHI 0069H §5.3 (MAPC, SYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_map_collection(struct virq_its *its, uint32_t rd);

/**
 * @brief Maps a device: allocates its ITT (events rounded up to a power of
 * two, at least 2; 256-byte aligned, zeroed, cleaned before MAPD when the
 * ITS is not coherent) and its event tracking, and sends MAPD.
 *
 * An ITT of at most 2 KiB and the tracking (12 bytes an event on a 64-bit
 * host) are carved from 4 KiB pages the ITS owns, in 64-byte units, so that
 * a small device costs what it uses: five devices of 32 events share a page
 * (about 850 bytes each with the DeviceID index and the device table, with
 * 8- or 12-byte ITT entries). A page goes back to
 * the HAL with its last block. On a non-coherent ITS every ITT takes whole
 * pages, so that no line the CPU writes shares memory with it. Larger ITTs
 * and tracking take whole pages. Memory per device and per vLPI:
 * docs/gicv4-core.md, "Memory".
 *
 * MAPD of a DeviceID that is already mapped would silently replace the
 * first device's ITT (IHI 0069H §5.3 MAPD), so the ITS keeps an index of its
 * mapped DeviceIDs (a hash table in a HAL page, O(1) per map and unmap;
 * grown by doubling, which is the one allocation here besides the ITT) and
 * refuses a duplicate before sending anything.
 *
 * @param its       An initialised ITS.
 * @param dev       Storage for the device (overwritten unless it is
 *                  already mapped on @p its).
 * @param device_id DeviceID (< 2^Devbits; not the proxy's).
 * @param nr_events Events needed, 1 .. 2^ID_bits.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EBUSY: @p dev is live, i.e. mapped already (on @p its or on any
 *         other ITS, whatever @p device_id): the storage of a live device; nothing
 *         read beyond its state, nothing changed (gicv4/state.h);
 *         ::LIBVIRQ_EEXIST: @p dev is not live but @p device_id is mapped on @p its by
 *         another device, or is the DeviceID virq_its_init() reserved for the
 *         doorbell proxy (::virq_its_cfg::proxy_doorbells); nothing changed;
 *         ::LIBVIRQ_EINVAL (@p its NULL, never initialised or destroyed; @p dev NULL,
 *         @p nr_events 0);
 *         ::LIBVIRQ_ERANGE (@p device_id beyond GITS_TYPER.Devbits or the device
 *         table, @p nr_events beyond GITS_TYPER.ID_bits); ::LIBVIRQ_ENOMEM (DeviceID
 *         index, level-2 table page, ITT or tracking); ::LIBVIRQ_ENOHAL (non-coherent
 *         ITT and no dcache_clean); queue errors (MAPD).
 *         On failure nothing stays allocated or recorded.
 *
 * Thread-safety: with the ITS lock (::virq_its_lock) concurrent with calls on other
 * devices and vPEs that use @p its (the duplicate check, the level-2 table page, MAPD and
 * the device list are one step under the lock); the caller serialises calls on @p dev.
 * Without the lock the caller serialises every call that uses @p its.
 * Spec: IHI 0069H §5.3 (MAPD, ITT_addr and Size).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_device_map(struct virq_its *its,
						   struct virq_its_device *dev, uint32_t device_id,
						   uint32_t nr_events);

/**
 * @brief Unmaps a device (MAPD V=0) and frees its ITT.
 *
 * On a dead ITS (::virq_its::dead, also when the MAPD is what killed it) no
 * command is sent: the device is released and ::LIBVIRQ_OK returned, so that
 * virq_its_destroy() can run (it frees the ITS memory only once the ITS is
 * quiescent).
 *
 * @param dev A mapped device with no mapped events.
 * @return ::LIBVIRQ_OK;
 *         ::LIBVIRQ_EINVAL (a NULL, never initialised or already unmapped device: nothing
 *         touched; gicv4/state.h); ::LIBVIRQ_EBUSY (events still mapped); queue errors
 *         (the device stays mapped).
 *
 * Thread-safety: the caller serialises the calls on @p dev. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the same ITS, from
 * any CPU; without it the caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (MAPD with V = 0).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_device_unmap(struct virq_its_device *dev);

/**
 * @brief Maps an event to a physical LPI in collection @p icid: MAPTI + SYNC.
 *
 * @param dev   A mapped device.
 * @param event EventID (< nr_events), not mapped yet.
 * @param pintid An allocated LPI (virq_lpi_alloc()).
 * @param icid  A mapped collection (= RD index).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ERANGE; ::LIBVIRQ_EEXIST (event mapped); ::LIBVIRQ_ENOENT
 *         (collection not mapped or LPI not allocated); ::LIBVIRQ_EBUSY (@p pintid is a vPE's
 *         doorbell, see virq_vpe_init()); ::LIBVIRQ_ENOSPC (65534 events map @p pintid
 *         already); queue errors: the event is tracked as mapped (the LPI referenced, so that
 *         virq_lpi_free() refuses it) when GITS_CREADR passed the MAPTI or the ITS is dead,
 *         else as unmapped; unmap a tracked event with virq_its_unmap_event().
 *
 * Thread-safety: the caller serialises the calls on @p dev. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the same ITS, from
 * any CPU; without it the caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (MAPTI, SYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_map_lpi(struct virq_its_device *dev, uint32_t event,
						uint32_t pintid, uint32_t icid);

/**
 * @brief Unmaps an event (physical or virtual): DISCARD + SYNC/VSYNC.
 *
 * @param dev   A mapped device.
 * @param event A mapped EventID.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOENT (not mapped); ::LIBVIRQ_EDEAD (ITS dead: nothing
 *         sent, the tracking is released so that the teardown can finish); queue errors: when
 *         GITS_CREADR passed the DISCARD the event is unmapped (only its SYNC/VSYNC failed),
 *         otherwise it stays tracked as mapped with its vPE's vLPI count and its LPI's
 *         reference kept (virq_vpe_destroy() and virq_lpi_free() return ::LIBVIRQ_EBUSY): the
 *         ITS may still map it; call again to finish.
 *
 * Thread-safety: the caller serialises the calls on @p dev. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the same ITS, from
 * any CPU; without it the caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (DISCARD, SYNC), §5.3 (VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_unmap_event(struct virq_its_device *dev, uint32_t event);

/**
 * @brief Unmaps @p count consecutive events (physical LPIs or vLPIs) in one
 * batch: @p count DISCARDs written straight into the queue, then one SYNC
 * per collection and one VSYNC per vPE involved, published with one
 * GITS_CWRITER write per queue-full and one completion wait (the batched
 * counterpart of virq_its_unmap_event(); minimum: 1 CWRITER write and 1
 * CREADR read per batch that fits the queue).
 *
 * Every argument is checked before anything is queued. If the queue fails
 * part-way the error is returned and the queue is reset, which reads
 * GITS_CREADR once the ITS is quiescent: the events whose DISCARD it
 * passed are unmapped, every other event of the range stays tracked as
 * mapped, its vPE or LPI referenced (the ITS may still map it; unmap it
 * again). If the reset fails the ITS is marked dead and only the DISCARDs
 * GITS_CREADR was seen to pass count as done (IHI 0069H §5.2).
 *
 * @param dev         A live device.
 * @param first_event First EventID.
 * @param count       1 .. nr_events - first_event; every event mapped
 *                    (physical or virtual; not a proxy slot).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; @p dev not live, see gicv4/state.h); ::LIBVIRQ_ERANGE (count 0 or past
 *         nr_events); ::LIBVIRQ_ENOENT (an event of the range is not mapped: nothing sent);
 *         ::LIBVIRQ_EDEAD (ITS dead); queue errors as above.
 *
 * Thread-safety: the caller serialises this with calls on @p dev and on the vPEs involved
 * (their vLPI counts change), and with every other unmap-range call on the GIC (the batch
 * marks its SYNC targets in GIC-wide scratch fields). With the ITS lock (::virq_its_lock)
 * otherwise concurrent with calls on other devices and vPEs of the ITS; without it the
 * caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (DISCARD, SYNC), §5.3 (VSYNC), §5.2 (queue).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_unmap_range(struct virq_its_device *dev,
						    uint32_t first_event, uint32_t count);

/**
 * @brief Moves a physical LPI to another collection: MOVI, then SYNC to the
 * collection it leaves and SYNC to the one it joins.
 *
 * The old redistributor may hold the interrupt's pending state until the
 * MOVI is complete there; waiting on the new collection alone could report
 * the move complete too early (IHI 0069H §5.3 MOVI, SYNC; Linux's
 * its_build_movi_cmd() syncs the collection the event was mapped to before
 * the command). Moving to the current collection does nothing.
 *
 * @param dev   A live device. @param event An event mapped to a physical LPI.
 * @param icid  A mapped collection (= RD index).
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h; @p dev not live); ::LIBVIRQ_ERANGE; ::LIBVIRQ_ENOENT (event not a
 *         physical LPI, or collection not mapped); queue errors (the event is tracked in the
 *         new collection when GITS_CREADR passed the MOVI, else in the old one: move again).
 *
 * Thread-safety: the caller serialises the calls on @p dev. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the same ITS, from
 * any CPU; without it the caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (MOVI, SYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_move_lpi(struct virq_its_device *dev, uint32_t event,
						 uint32_t icid);

/**
 * @brief Makes an event's interrupt pending: INT + SYNC (physical) or
 * VSYNC (vLPI).
 *
 * @param dev   A mapped device. @param event A mapped EventID.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ENOENT; queue errors.
 *
 * Thread-safety: the caller serialises the calls on @p dev. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the same ITS, from
 * any CPU; without it the caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (INT, SYNC), §5.3 (VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_int(struct virq_its_device *dev, uint32_t event);

/**
 * @brief Clears an event's pending interrupt: CLEAR + SYNC/VSYNC.
 *
 * @param dev   A mapped device. @param event A mapped EventID.
 * @return As virq_its_int().
 *
 * Thread-safety: the caller serialises the calls on @p dev. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the same ITS, from
 * any CPU; without it the caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (CLEAR, SYNC), §5.3 (VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_clear(struct virq_its_device *dev, uint32_t event);

/**
 * @brief Makes the ITS re-read an event's configuration byte: INV + SYNC/VSYNC.
 *
 * @param dev   A mapped device. @param event A mapped EventID.
 * @return As virq_its_int().
 *
 * Thread-safety: the caller serialises the calls on @p dev. With the ITS lock
 * (::virq_its_lock) concurrent with calls on other devices and vPEs of the same ITS, from
 * any CPU; without it the caller serialises every call that uses @p dev's ITS.
 * Spec: IHI 0069H §5.3 (INV, SYNC), §5.3 (VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_inv(struct virq_its_device *dev, uint32_t event);

/**
 * @brief Makes a device's vLPI calls complete without a wait (deferred
 * completion), or wait again.
 *
 * Deferred, these calls on @p dev's events write their commands (the same
 * commands, each batch ending with its VSYNC or SYNC), publish them with one
 * GITS_CWRITER write and return without polling GITS_CREADR:
 * virq_vlpi_map(), virq_vlpi_map_config(), virq_vlpi_unmap() and
 * virq_its_unmap_event() of a vLPI, virq_vlpi_move(), virq_vlpi_set_config(),
 * virq_its_inv(), virq_its_int() and virq_its_clear(). Their checks and
 * their result are those of the waiting form; the tracking (virq_its_event_get())
 * says what the batch does once the ITS runs it. virq_its_settle() learns
 * whether it ran: an emulated ITS reports its guest's commands done (its
 * GITS_CREADR) only once virq_its_settle() returned ::LIBVIRQ_OK, which
 * lets a hypervisor return to its guest without a host round trip per guest
 * command (IHI 0069H §5.2: the ITS runs a queue's commands in order, so
 * later commands on the same ITS see their effects). At most
 * ::LIBVIRQ_ITS_DEFER_MAX batches are outstanding: the call that would
 * exceed it waits for them first. Every other call on a deferred device
 * (virq_its_map_lpi(), the ranges, virq_vlpi_remap(), virq_vlpi_set_doorbell(),
 * virq_its_device_unmap()), virq_vpe_destroy(), this function turning
 * deferral off, and every call on the ITS that waits for its own commands
 * (VINVALL, VMOVP, VMAPP, the doorbell proxy, another device's) settle the
 * outstanding batches of the ITS first, so that they never fail with them.
 * After a queue reset the next deferrable call settles before it looks at
 * the tracking; virq_its_event_get() may until then show a batch's result
 * that a settle will undo.
 *
 * @param dev A mapped device. @param on True: deferred; false: every call waits.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (@p dev not mapped); when turning
 *         deferral off, what virq_its_settle() waiting returns (deferral is
 *         off even then).
 *
 * Thread-safety: as a call on @p dev (the caller serialises the calls on
 * @p dev; the ITS lock orders it with the other users of the ITS).
 * Spec: IHI 0069H §5.2 (command queue, GITS_CREADR), §5.3 (SYNC, VSYNC).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_device_set_deferred(struct virq_its_device *dev, bool on);

/**
 * @brief Learns whether the ITS ran every batch its deferred devices
 * published (virq_its_device_set_deferred()).
 *
 * @p wait false: one GITS_CREADR read at most while the ITS makes progress
 * (none when it already read past them; a Stalled bit or an impossible
 * value is handled as a waiting call handles it: bounded, then a reset);
 * @p wait true, or when the oldest batch is older than the queue's deadline
 * (::virq_its_cfg::timeout_ns): a bounded wait as every other call does. A batch the ITS never ran
 * (a queue failure, this one or another CPU's, reset the queue before GITS_CREADR reached its first
 * command) has its event's tracking restored to what it was before the
 * call (logged, counted in ::virq_its::deferred_undone); one that may have
 * run (the ITS is dead, or more resets followed than the queue keeps) stays
 * tracked as the call left it. Either way the batches are then settled.
 *
 * @param its  An initialised ITS. @param wait Whether to wait (bounded).
 * @return ::LIBVIRQ_OK: every batch ran (or there was none);
 *         ::LIBVIRQ_EBUSY (only when not waiting): some have not run yet,
 *         call again; a queue failure (::LIBVIRQ_ETIMEDOUT,
 *         ::LIBVIRQ_ESTALLED, ::LIBVIRQ_EHW, ::LIBVIRQ_ECANCELED,
 *         ::LIBVIRQ_EDEAD): some batch did not run or may not have, as said
 *         above (reported with the event); ::LIBVIRQ_EINVAL (NULL @p its).
 *
 * Thread-safety: takes the ITS lock. Restoring the tracking changes the
 * events of deferred devices (the caller serialises it with its calls on
 * those devices, as it does the calls themselves) and their vPEs' vLPI
 * counts (atomically: calls on other ITSes may change them meanwhile).
 * Any CPU may call it.
 * Spec: IHI 0069H §5.2 (GITS_CREADR, command queue), §12.19.
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_settle(struct virq_its *its, bool wait);

/**
 * @brief What an event currently reaches, from the library's tracking.
 *
 * @param dev   A mapped device.
 * @param event EventID.
 * @param out   Receives a copy of the tracking entry.
 * @return ::LIBVIRQ_OK; ::LIBVIRQ_EINVAL (a NULL, never initialised or destroyed object,
 *         gicv4/state.h); ::LIBVIRQ_ERANGE (event >= nr_events).
 *
 * Thread-safety: reads @p dev's tracking only (no ITS lock); the caller serialises it with
 * calls that change @p dev's events.
 * Spec: not applicable (library tracking; no hardware access).
 */
LIBVIRQ_MUST_CHECK virq_status virq_its_event_get(const struct virq_its_device *dev, uint32_t event,
						  struct virq_its_event *out);

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_ITS_H */
