/* SPDX-License-Identifier: MIT */
/* Self-test of `lint.sh xen-names`: a libvirq 0.1 status code, which collides
 * with Xen's public/xen.h (VIRQ_ENOMEM is virtual IRQ 12 there). */
int lint_xen_names_bad_(void);
int lint_xen_names_bad_(void)
{
	return VIRQ_ENOMEM;
}
