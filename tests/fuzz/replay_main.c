/* SPDX-License-Identifier: MIT */
/*
 * Stand-in for libFuzzer's main when the compiler has no libFuzzer (gcc,
 * coverage builds): runs LLVMFuzzerTestOneInput once on every file named on
 * the command line, or on every regular file of a named directory, so the
 * seed corpora are exercised (and counted by coverage) in every build.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_common.h"

static int run_file_(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;
	size_t got;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)len + 1);
	if (!buf) {
		fclose(f);
		return -1;
	}
	got = fread(buf, 1, (size_t)len, f);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, got);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long runs = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *e;

		if (argv[i][0] == '-')
			continue; /* libFuzzer flags: ignored */
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "replay: cannot stat %s\n", argv[i]);
			return 1;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (run_file_(argv[i]) != 0)
				return 1;
			runs++;
			continue;
		}
		d = opendir(argv[i]);
		if (!d)
			return 1;
		while ((e = readdir(d)) != NULL) {
			char path[4096];
			struct stat fs;

			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (stat(path, &fs) != 0 || !S_ISREG(fs.st_mode))
				continue;
			if (run_file_(path) != 0) {
				closedir(d);
				return 1;
			}
			runs++;
		}
		closedir(d);
	}
	if (runs == 0) {
		fprintf(stderr, "replay: no input\n");
		return 1;
	}
	printf("replay: %lu inputs, all properties held\n", runs);
	return 0;
}
