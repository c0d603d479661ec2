/* SPDX-License-Identifier: MIT */
/*
 * scc: prints the cycles of a directed graph (tests/build/structure/check.sh).
 *
 * Reads edges "FROM TO" (one per line, names without blanks) on stdin and
 * prints every strongly connected component with more than one node, or a
 * node with an edge to itself: one line per cycle, its members sorted and
 * separated by blanks, the lines sorted. Exit status 0 (cycles or not).
 * Tarjan's algorithm, iterative (no recursion depth limit).
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct node {
	char *name;
	int *out;
	int nout, capout;
	int index, low, onstack, self;
};

static struct node *nodes;
static int nnodes, capnodes;

static int node_of(const char *name)
{
	for (int i = 0; i < nnodes; i++)
		if (!strcmp(nodes[i].name, name))
			return i;
	if (nnodes == capnodes) {
		capnodes = capnodes ? capnodes * 2 : 64;
		nodes = realloc(nodes, (size_t)capnodes * sizeof(*nodes));
		if (!nodes)
			exit(2);
	}
	memset(&nodes[nnodes], 0, sizeof(nodes[0]));
	nodes[nnodes].name = strdup(name);
	nodes[nnodes].index = -1;
	return nnodes++;
}

static void add_edge(int a, int b)
{
	struct node *n = &nodes[a];

	if (a == b) {
		n->self = 1;
		return;
	}
	for (int i = 0; i < n->nout; i++)
		if (n->out[i] == b)
			return;
	if (n->nout == n->capout) {
		n->capout = n->capout ? n->capout * 2 : 8;
		n->out = realloc(n->out, (size_t)n->capout * sizeof(int));
		if (!n->out)
			exit(2);
	}
	n->out[n->nout++] = b;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	char a[1024], b[1024];
	int *stack, *cstack, *cpos, sp = 0, csp = 0, idx = 0, nlines = 0;
	char **lines;

	while (scanf("%1023s %1023s", a, b) == 2) {
		int ia = node_of(a);

		add_edge(ia, node_of(b));
	}
	stack = calloc((size_t)nnodes + 1, sizeof(int));
	cstack = calloc((size_t)nnodes + 1, sizeof(int));
	cpos = calloc((size_t)nnodes + 1, sizeof(int));
	lines = calloc((size_t)nnodes + 1, sizeof(char *));
	if (!stack || !cstack || !cpos || !lines)
		return 2;
	for (int root = 0; root < nnodes; root++) {
		if (nodes[root].index >= 0)
			continue;
		/* cstack: the DFS call stack, cpos: next edge to look at. */
		cstack[csp] = root;
		cpos[csp++] = 0;
		nodes[root].index = nodes[root].low = idx++;
		stack[sp++] = root;
		nodes[root].onstack = 1;
		while (csp) {
			int v = cstack[csp - 1];
			struct node *n = &nodes[v];

			if (cpos[csp - 1] < n->nout) {
				int w = n->out[cpos[csp - 1]++];

				if (nodes[w].index < 0) {
					nodes[w].index = nodes[w].low = idx++;
					stack[sp++] = w;
					nodes[w].onstack = 1;
					cstack[csp] = w;
					cpos[csp++] = 0;
				} else if (nodes[w].onstack && nodes[w].index < n->low) {
					n->low = nodes[w].index;
				}
				continue;
			}
			if (n->low == n->index) {
				char *members[4096];
				int k = 0, w;
				size_t len = 0;

				do {
					w = stack[--sp];
					nodes[w].onstack = 0;
					if (k < 4096)
						members[k++] = nodes[w].name;
				} while (w != v);
				if (k > 1 || n->self) {
					char *line;

					qsort(members, (size_t)k, sizeof(char *), cmp_str);
					for (int i = 0; i < k; i++)
						len += strlen(members[i]) + 1;
					line = calloc(len + 1, 1);
					if (!line)
						return 2;
					for (int i = 0; i < k; i++) {
						strcat(line, members[i]);
						if (i + 1 < k)
							strcat(line, " ");
					}
					lines[nlines++] = line;
				}
			}
			csp--;
			if (csp) {
				struct node *p = &nodes[cstack[csp - 1]];

				if (n->low < p->low)
					p->low = n->low;
			}
		}
	}
	qsort(lines, (size_t)nlines, sizeof(char *), cmp_str);
	for (int i = 0; i < nlines; i++)
		printf("%s\n", lines[i]);
	return 0;
}
