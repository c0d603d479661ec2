/* SPDX-License-Identifier: MIT */
/*
 * ITS errata and platform quirks: the table and its lookup (pure).
 * Facts restated from Linux Documentation/arch/arm64/silicon-errata.rst and
 * the quirk table of drivers/irqchip/irq-gic-v3-its.c; no code copied.
 * Hip09 162100801: Linux commit f82e62d470cc.
 */
#include <libvirq/gicv4/its.h>

static const struct virq_its_quirk_entry quirk_table_[] = {
    {0xa100034cu, 0xffff0fffu, 0,
     LIBVIRQ_ITS_QUIRK_CAVIUM_22375 | LIBVIRQ_ITS_QUIRK_CAVIUM_24313 |
	 LIBVIRQ_ITS_QUIRK_CAVIUM_23144,
     "Cavium ThunderX 22375/24313/23144"},
    {0x00001070u, 0xffffffffu, 0, LIBVIRQ_ITS_QUIRK_QDF2400_E0065, "QDF2400 E0065"},
    {0x00051736u, 0xffffffffu, 0, LIBVIRQ_ITS_QUIRK_HIP09_162100801, "Hip09 162100801"},
    {0x0201743bu, 0xffffffffu, LIBVIRQ_GIC_PLAT_RK3588, LIBVIRQ_ITS_QUIRK_RK3588_3588001,
     "Rockchip RK3588 3588001"},
};

uint32_t virq_its_quirks_for(uint32_t iidr, uint32_t platform)
{
	uint32_t q = 0;

	for (size_t i = 0; i < sizeof(quirk_table_) / sizeof(quirk_table_[0]); i++) {
		const struct virq_its_quirk_entry *e = &quirk_table_[i];

		if ((iidr & e->mask) == e->iidr && (platform & e->platform) == e->platform)
			q |= e->quirks;
	}
	return q;
}
