/* SPDX-License-Identifier: MIT */
/*
 * minihv's hypervisor state: the libvirq objects (caller storage, as the
 * library wants), the passthrough PCI device, the event/vINTID layout and
 * the per-scenario results. Shared by scenarios.c and migrate.c.
 *
 * Layout (vCPU 0 = the vCPU that migrates; its vINTIDs are "slots"):
 *   DeviceID 0 (a CPU write to GITS_TRANSLATER on QEMU; also INT commands):
 *     events 0..43, 48..63 -> vPE 0, vINTID 8192 + event, with doorbell
 *        0..15  direct / doorbell / remap scenarios
 *        0..39  migration: written to GITS_TRANSLATER by the other CPU
 *        40..43 migration: INT commands from the other CPU (command queue)
 *        48..59 migration: probes fired by the CPU that moves the vCPU
 *     events 64..79 -> physical LPIs at EL2 (emulated baseline)
 *     events 80 + 16 (i - 1) + k -> vPE i (i >= 1), vINTID 8192 + k
 *   the edu PCI device (its DeviceID from the host bridge's msi-map):
 *     event 0 -> vPE 0, vINTID 8192 + 44 (slot 44)     direct
 *     event 1 -> physical LPI at EL2                    emulated
 */
#ifndef MINIHV_HV_H
#define MINIHV_HV_H

#include "minihv.h"
#include "pci.h"
#include "vcpu.h"

#include <libvirq/gicv4.h>
#include <libvirq/gicv4/its.h>
#include <libvirq/gicv4/vpe.h>
#include <libvirq/histogram.h>

#define MAX_RD 8u
/*
 * 14 INTID bits (8192 LPIs) for both the physical and the virtual side: QEMU
 * scans the whole pending table on LPI state changes, so the ID space size is
 * part of the measured cost; equal sizes keep the comparison fair.
 */
#define LPI_BITS 14u
#define GITS_TRANSLATER 0x10040u
#define EDU_VENDOR 0x1234u
#define EDU_DEVICE 0x11e8u
#define EDU_IDENT 0x00 /* reads 0x010000ed */
#define EDU_RAISE 0x60 /* a write ORs into irq_status and sends the MSI */

#define NR_VEV 16u    /* dev0 events 0..15: direct / doorbell / remap */
#define SLOT_TR_N 40u /* migration: slots 0..39 via GITS_TRANSLATER */
#define SLOT_INT0 40u /* migration: slots 40..43 via INT commands */
#define SLOT_INT_N 4u
#define SLOT_EDU 44u	/* the edu's vLPI */
#define SLOT_PROBE0 48u /* migration probes 48..59 */
#define SLOT_PROBE_N 12u
#define DEV0_PHYS_EV0 64u /* dev0 events 64..79: physical LPIs */
#define DEV0_VCPU_EV0 80u /* dev0 events of vCPUs 1..7 */
#define DEV0_EVENTS 256u
#define REMAP_VINTID0 (VINTID0 + 64u) /* remap targets 8256..8271 */
#define EDU_EV_VIRT 0u
#define EDU_EV_PHYS 1u

enum scen {
	SC_EMUL_TR,    /* CPU write -> physical LPI -> EL2 -> list register */
	SC_DIRECT_TR,  /* CPU write -> vLPI */
	SC_EDU_EMUL,   /* edu MSI -> physical LPI -> EL2 -> list register */
	SC_EDU_DIRECT, /* edu MSI (the guest writes the BAR) -> vLPI */
	SC_EDU_HVC,    /* guest HVC -> EL2 writes the BAR -> MSI -> vLPI */
	SC_DOORBELL,
	SC_REMAP,
	SC_NEG,	   /* edu mapped under a wrong DeviceID: nothing may arrive */
	SC_SMP,	   /* every vCPU on its own CPU at once */
	SC_MIG,	   /* vCPU 0 moves between CPUs, no doorbells */
	SC_MIG_DB, /* ... with doorbells, blocked while it moves */
	SC_COUNT
};

struct result {
	uint32_t samples;      /* interrupts expected */
	uint32_t silent;       /* windows where nothing may arrive */
	uint64_t el2_delivery; /* EL2 IRQ entries while it ran */
	uint64_t el2_harness;  /* harness HVCs (requests, yields, final exit) */
	uint32_t ok, missing, wrong, dups, spurious;
	uint32_t arrived; /* expected interrupts with the right vINTID */
	uint32_t quiet;	  /* silent windows that stayed silent */
	struct virq_hist hist;
	bool ran;
};

/* What migration measured (one pass). */
struct mig_result {
	uint32_t legs, moves;
	uint32_t sent, received; /* interrupts */
	uint32_t sent_dev, sent_int, sent_tr, sent_probe;
	uint32_t missing_slots; /* slots with fewer received than sent */
	uint32_t dups, bad;
	uint32_t desched, pl_probed, pl_set; /* PendingLast after probes while resident */
	uint32_t blocked, wakes_local, wakes_forwarded, wake_timeouts;
	uint64_t stale_after_move;  /* A's doorbell pending on the old RD after a move */
	uint64_t stale_doorbells;   /* doorbells taken for a vPE that had moved away */
	uint64_t doorbells;	    /* doorbells taken on the vPE's own RD */
	uint64_t doorbells_in_move; /* of them: on the target RD while the move ran */
	uint64_t move_cmds;	    /* ITS commands of all virq_vpe_move() calls */
	uint64_t el2_irq, el2_hvc;
	struct virq_hist move_ticks;
	struct virq_hist lat; /* send -> guest handler */
	bool final_pl;
	bool drained;
	bool harness_ok;
};

struct cost {
	const char *what;
	uint64_t cmds;
	uint32_t times;
};

struct hv {
	struct virq_gic gic;
	struct virq_gic_rdist rds[MAX_RD];
	struct virq_its its;
	struct virq_its_device dev0, edu_dev;
	struct virq_gic_vm vm;
	uint32_t plpi0, plpi_edu;
	uint64_t translater;
	struct pcie_host host;
	struct pci_fn edu;
	uint32_t nr_pci_functions;
	uint32_t edu_devid;	   /* DeviceID from the msi-map */
	uint32_t edu_mapped_devid; /* what minihv mapped (differs only in the negative build) */
	uint32_t edu_its;	   /* index into the GIC description's ITSes */
	uint32_t edu_its_phandle;
	bool remap_mapped;
	/* The ITS lock libvirq takes around every use of the ITS's shared state
	 * (virq_its_cfg::lock): a bakery lock, since the MMU is off. */
	struct bakery its_lock;
	struct result res[SC_COUNT];
	struct mig_result mig[2];
	struct cost costs[16];
	uint32_t nr_costs;
	uint64_t doorbells_sc; /* doorbells during the doorbell scenario */
	volatile enum scen cur;
	virq_status hook_err;
	uint64_t timeout_ticks;
};

extern struct hv hv;

void check(virq_status st, const char *what);
void cost_add(const char *what, uint64_t cmds);
void cost_addn(const char *what, uint64_t cmds, uint32_t times);
uint32_t cpu_of_rd(uint32_t rd);
void inject_lr(uint32_t vintid);
void doorbell_irq(struct percpu *p, struct vcpu *x);
/* Records one EL2-owned interrupt hook: doorbells and the emulated paths. */
void irq_main(struct vcpu *v, uint32_t intid);

/* migrate.c */
void run_migration(enum scen s, struct mig_result *m);
/* The migration's state word (leg, owner, generator) now, for diagnostics. */
uint64_t mig_state_now(void);
/* The first stale doorbell of the run: where the vPE and the CPUs were. */
struct stale_diag {
	uint32_t taken;
	volatile uint32_t valid;
	uint32_t vcpu, cpu, cpu_rd, vpe_rd, flags, moving_to;
	uint64_t state;
};
extern struct stale_diag stale_diag;
void mig_report(enum scen s, const struct mig_result *m);
int mig_verdict(enum scen s, const struct mig_result *m);

#endif
