/* SPDX-License-Identifier: MIT */
/*
 * The layout walk: holds a table of libvirq/amd/fields.h (through its
 * descriptor) to tests/data/amd_layouts.txt, a transcription of the manuals
 * kept apart from the tables. Shared by the AVIC and PMC suites; cmocka must
 * be included first. LIBVIRQ_AMD_LAYOUTS names the data file.
 */
#ifndef AMD_LAYOUT_WALK_H
#define AMD_LAYOUT_WALK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvirq/amd/fields.h>

#define WALK_LINE_ 512

/* The data file's lines, without their newline; *n receives the count. */
static char **walk_lines_(size_t *n)
{
	FILE *f = fopen(LIBVIRQ_AMD_LAYOUTS, "r");
	char buf[WALK_LINE_], **v = NULL;
	size_t k = 0;

	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f)) {
		buf[strcspn(buf, "\r\n")] = 0;
		v = realloc(v, (k + 1) * sizeof(*v));
		assert_non_null(v);
		v[k] = malloc(strlen(buf) + 1);
		assert_non_null(v[k]);
		strcpy(v[k++], buf);
	}
	fclose(f);
	*n = k;
	return v;
}

static void walk_free_(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Holds @l to its "layout NAME" block of the data: source, bits, and row by row. */
static void walk_layout_(const struct virq_amd_layout *l)
{
	size_t n, i = 0;
	char **v = walk_lines_(&n), head[WALK_LINE_];
	unsigned bits = 0;
	uint16_t row = 0;

	snprintf(head, sizeof(head), "layout %s ", l->name);
	while (i < n && strncmp(v[i], head, strlen(head)))
		i++;
	if (i == n)
		fail_msg("layout %s: not in the transcription", l->name);
	bits = (unsigned)strtoul(v[i] + strlen(head), NULL, 0);
	assert_int_equal(bits, l->bits);
	i++;
	assert_true(i < n && !strncmp(v[i], "source ", 7));
	if (strcmp(v[i] + 7, l->source))
		fail_msg("layout %s: source '%s', the transcription says '%s'", l->name, l->source,
			 v[i] + 7);
	for (i++; i < n && strcmp(v[i], "end"); i++, row++) {
		unsigned hi, lo;
		int used = 0;
		const struct virq_amd_field *f;
		const char *name;

		assert_int_equal(sscanf(v[i], "%u %u %n", &hi, &lo, &used), 2);
		name = v[i] + used;
		if (row >= l->nfields)
			fail_msg("layout %s: the table lacks '%s'", l->name, v[i]);
		f = &l->fields[row];
		if (f->hi != hi || f->lo != lo)
			fail_msg("layout %s row %u: table [%u:%u], manual [%u:%u] %s", l->name, row,
				 f->hi, f->lo, hi, lo, name);
		if (!strcmp(name, "Reserved")) {
			if (f->kind != LIBVIRQ_AMD_FIELD_RESERVED)
				fail_msg("layout %s [%u:%u]: reserved in the manual", l->name, hi,
					 lo);
			continue;
		}
		if (f->kind == LIBVIRQ_AMD_FIELD_RESERVED || strcmp(f->manual, name))
			fail_msg("layout %s [%u:%u]: table '%s', manual '%s'", l->name, hi, lo,
				 f->manual, name);
		if (f->kind == LIBVIRQ_AMD_FIELD_PART || f->kind == LIBVIRQ_AMD_FIELD_PART_HIGH)
			assert_int_equal(f->mhi - f->mlo, f->hi - f->lo);
	}
	if (row != l->nfields)
		fail_msg("layout %s: %u rows in the table, %u in the manual", l->name, l->nfields,
			 row);
	walk_free_(v, n);
}

/*
 * Every "layout" block of the data whose name starts with @prefix (any other
 * when @other) is one of @layouts (NULL-terminated): no layout the
 * transcription has goes unchecked.
 */
static void walk_all_listed_(const struct virq_amd_layout *const *layouts, const char *prefix,
			     bool other)
{
	size_t n;
	char **v = walk_lines_(&n);

	for (size_t i = 0; i < n; i++) {
		char name[128];
		bool found = false;

		if (sscanf(v[i], "layout %127s", name) != 1)
			continue;
		if ((strncmp(name, prefix, strlen(prefix)) == 0) == other)
			continue;
		for (const struct virq_amd_layout *const *l = layouts; *l; l++)
			found = found || !strcmp((*l)->name, name);
		if (!found)
			fail_msg("the transcription's layout %s has no table", name);
	}
	walk_free_(v, n);
}

#endif
