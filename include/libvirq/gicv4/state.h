/* SPDX-License-Identifier: MIT */
/**
 * @file
 * @ingroup virq_gicv4
 * @brief Lifecycle state of the GICv4 module's objects, and the one policy
 * every entry point applies.
 *
 * Every object the caller stores (::virq_gic, ::virq_its, ::virq_its_device,
 * ::virq_gic_vm, ::virq_vpe, ::virq_its_queue) has a @c state member that the
 * library writes: ::LIBVIRQ_GICV4_LIVE after a successful initialisation
 * (virq_gic_init(), virq_its_init(), virq_its_device_map(),
 * virq_gic_vm_init(), virq_vpe_init(), virq_its_queue_init()),
 * ::LIBVIRQ_GICV4_GONE after a successful teardown; any other value means
 * "never initialised" (zeroed storage, or anything else).
 *
 * The policy, checked first by every entry point, before anything is read
 * from or written to the object or the hardware:
 * - NULL, never initialised, or destroyed where a live object is needed:
 *   ::LIBVIRQ_EINVAL (use after destroy included);
 * - initialising an object that is live (double init, which would leak
 *   its tables or register an ITS twice): ::LIBVIRQ_EBUSY, nothing changed
 *   — destroy it first;
 * - destroying an object that is still in use (a GIC with ITSes or VMs, an
 *   ITS with devices or vPEs, a device with mapped events, a VM with vPEs,
 *   a vPE that is resident or has vLPIs, a queue owned by an ITS):
 *   ::LIBVIRQ_EBUSY, nothing changed;
 * - destroying an object that is not live: ::LIBVIRQ_EINVAL, nothing touched.
 * Each function's @c \@return lists these with its other statuses. A
 * failed initialisation leaves the object not live (it may be initialised
 * again); a teardown that fails half-way (a queue error) leaves it live
 * and says how to finish.
 *
 * Storage that happens to hold the bytes of ::LIBVIRQ_GICV4_LIVE at the
 * @c state member (for example a byte copy of a live object) is taken for
 * a live object: initialise zeroed storage, never a copy of a live object.
 *
 * Spec: not applicable (library lifecycle); see docs/gicv4-core.md.
 */
#ifndef LIBVIRQ_GICV4_STATE_H
#define LIBVIRQ_GICV4_STATE_H

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Values of the @c state member of GICv4 objects. */
enum virq_gicv4_state {
	LIBVIRQ_GICV4_LIVE = 0x4C495645, /**< Initialised and usable ("LIVE"). */
	LIBVIRQ_GICV4_GONE = 0x474F4E45, /**< Destroyed ("GONE"); may be initialised again. */
};

#ifdef __cplusplus
}
#endif

#endif /* LIBVIRQ_GICV4_STATE_H */
