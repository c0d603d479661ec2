/* SPDX-License-Identifier: MIT */
/*
 * blkread: dom0's block workload for ports/xen/test.sh. Reads N blocks of
 * 4 KiB with O_DIRECT (one at a time, sequentially, wrapping at the end of
 * the device) on one CPU, and reports what the device's interrupts did:
 *
 *   blkread DEVICE N CPU IRQ_PATTERN [LATE_MS [LOST_MS]]
 *
 * DEVICE     the block device (/dev/nvme0n1, /dev/vda)
 * N          reads (each one completion interrupt: one request in flight)
 * CPU        the CPU the reads run on (sched_setaffinity); the driver's
 *            queue of that CPU completes them
 * IRQ_PATTERN  a substring of the /proc/interrupts rows of the device's
 *            queues (nvme0q, virtio0-req): their counts before and after
 *            the reads give the interrupts dom0 handled
 * LATE_MS    a read taking longer is counted as late (default 100)
 * LOST_MS    a read not done after this is a lost completion: the run stops
 *            and fails (default 10000)
 *
 * The reads run in a child process; the parent watches its progress in
 * shared memory every 10 ms, so a read that never completes is reported
 * instead of hanging the test. Prints
 *   BLK: dev=... n=N completions=C irqs=I late=L lost=0|1 errors=E us=T
 * where completions are the reads that returned 4096 bytes, irqs the
 * interrupts of the matching rows (all CPUs), errors the failed reads.
 * Exit status 0 when every read completed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#define BLK 4096

struct progress {
	volatile uint64_t done;	  /* reads completed */
	volatile uint64_t errors; /* reads that failed */
	volatile uint64_t late;	  /* reads slower than LATE_MS */
	volatile uint64_t busy;	  /* 1 while a read is in flight */
	volatile uint64_t finished;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Sum of the per-CPU counts of every /proc/interrupts row naming @pat. */
static uint64_t irq_count(const char *pat)
{
	char line[4096];
	uint64_t sum = 0;
	int ncpu = 0;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (char *p = strtok(line, " \t\n"); p; p = strtok(NULL, " \t\n"))
			ncpu++;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (!p || !strstr(line, pat))
			continue;
		p++;
		for (int i = 0; i < ncpu; i++) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);

			if (end == p)
				break;
			sum += v;
			p = end;
		}
	}
	fclose(f);
	return sum;
}

static void reader(const char *dev, uint64_t n, int cpu, uint64_t late_ns, struct progress *pr)
{
	cpu_set_t set;
	void *buf;
	uint64_t size = 0, blocks;
	int fd;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("blkread: sched_setaffinity");
		exit(2);
	}
	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size) || size < BLK) {
		perror("blkread: open");
		exit(2);
	}
	if (posix_memalign(&buf, BLK, BLK))
		exit(2);
	blocks = size / BLK;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t t = now_ns();
		ssize_t r;

		pr->busy = 1;
		r = pread(fd, buf, BLK, (off_t)((i % blocks) * BLK));
		pr->busy = 0;
		if (r != BLK)
			pr->errors++;
		else if (now_ns() - t > late_ns)
			pr->late++;
		pr->done++;
	}
	pr->finished = 1;
	exit(0);
}

int main(int argc, char **argv)
{
	uint64_t n, late_ms = 100, lost_ms = 10000, before, after, t0, last_done = 0, last_t;
	struct progress *pr;
	int cpu, status = 0, lost = 0;
	pid_t pid;

	if (argc < 5) {
		fprintf(stderr, "usage: %s DEVICE N CPU IRQ_PATTERN [LATE_MS [LOST_MS]]\n",
			argv[0]);
		return 2;
	}
	n = strtoull(argv[2], NULL, 0);
	cpu = atoi(argv[3]);
	if (argc > 5)
		late_ms = strtoull(argv[5], NULL, 0);
	if (argc > 6)
		lost_ms = strtoull(argv[6], NULL, 0);
	pr = mmap(NULL, sizeof(*pr), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (pr == MAP_FAILED)
		return 2;
	memset(pr, 0, sizeof(*pr));

	before = irq_count(argv[4]);
	t0 = last_t = now_ns();
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0)
		reader(argv[1], n, cpu, late_ms * 1000000ull, pr);
	for (;;) {
		struct timespec ts = {0, 10000000};

		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		if (pr->done != last_done || !pr->busy) {
			last_done = pr->done;
			last_t = now_ns();
		} else if (now_ns() - last_t > lost_ms * 1000000ull) {
			/* A read not done within the bound: its completion is lost. */
			lost = 1;
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		nanosleep(&ts, NULL);
	}
	after = irq_count(argv[4]);
	printf(
	    "BLK: dev=%s n=%llu completions=%llu irqs=%llu late=%llu lost=%d errors=%llu us=%llu\n",
	    argv[1], (unsigned long long)n, (unsigned long long)(pr->done - pr->errors),
	    (unsigned long long)(after - before), (unsigned long long)pr->late, lost,
	    (unsigned long long)pr->errors, (unsigned long long)((now_ns() - t0) / 1000));
	fflush(stdout);
	return !lost && pr->finished && pr->done == n && !pr->errors ? 0 : 1;
}
