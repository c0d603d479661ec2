/* SPDX-License-Identifier: MIT */
/* The embedder of tests/build/subproject: links libvirq::virq. */
#include <libvirq/virq.h>

#include <stdio.h>

int main(void)
{
	return puts(virq_strerror(LIBVIRQ_ENOMEM)) < 0;
}
