/* SPDX-License-Identifier: MIT */
/*
 * Regression for a hang found by fuzz_fdt: virq_fdt_discover_gic() never
 * returned on regress/fuzz_fdt/prop_len_wrap.dtb, a 304-byte blob whose structure
 * block holds an FDT_PROP with len = 0xFFFFFFF4. libfdt 1.6.1 (Debian 12) adds
 * the length to the offset in fdt_next_tag() without an overflow check, so the
 * offset wraps back 12 bytes onto the same tag and fdt_check_full() loops
 * forever. src/gicv4/fdt.c now walks the structure block itself first.
 *
 * This program runs the discovery in a child process and exits 1 when it has
 * not returned within 5 seconds (hang), 3 when it did not reject the blob with
 * LIBVIRQ_EBADDT, and 0 when it rejected it.
 */
#define _DEFAULT_SOURCE 1 /* kill, usleep under -std=c11 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libvirq/fdt.h>

int main(int argc, char **argv)
{
	static unsigned char blob[4096] __attribute__((aligned(8)));
	struct virq_gic_desc d;
	const char *why = NULL;
	size_t n;
	FILE *f;
	pid_t pid;
	int status = 0;

	if (argc < 2 || !(f = fopen(argv[1], "rb")))
		return 2;
	n = fread(blob, 1, sizeof(blob), f);
	fclose(f);
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		virq_status st = virq_fdt_discover_gic(blob, n, &d, &why);

		printf("discovery returned %d (%s)\n", (int)st, why ? why : "-");
		fflush(stdout);
		_exit(st == LIBVIRQ_EBADDT ? 0 : 1);
	}
	for (int i = 0; i < 50; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 3;
		usleep(100000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	printf("virq_fdt_discover_gic did not return within 5 s on %s (hang)\n", argv[1]);
	return 1;
}
