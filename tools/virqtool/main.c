/* SPDX-License-Identifier: MIT */
#include "virqtool.h"

/* A result that did not reach stdout (a full disk, a closed pipe) is a
 * failure: exit 1, one line on stderr. */
int main(int argc, char **argv)
{
	int rc = virqtool_main(argc, argv);

	if (fflush(stdout) != 0 || ferror(stdout)) {
		fputs("virqtool: cannot write the output\n", stderr);
		return 1;
	}
	return rc;
}
