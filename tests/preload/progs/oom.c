// SPDX-License-Identifier: MIT
/*
 * The validator runs out of memory: the program caps its own address space
 * a little above what it uses, then takes more and more locks, each needing
 * lockdep memory, until none is left.  The validator must stop loudly: a
 * report at that moment, the summary at exit, and --exit-code.  (Built and
 * run without sanitizers: their shadow memory cannot live under a cap.)
 */
#include "prog.h"

#include <sys/resource.h>

static long vm_bytes(void)
{
	long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f || fscanf(f, "%ld", &pages) != 1)
		exit(4);
	fclose(f);
	return pages * sysconf(_SC_PAGESIZE);
}

int main(void)
{
	long n = 1000000;
	pthread_mutex_t *many = calloc((size_t)n, sizeof(*many));
	struct rlimit lim;

	if (!many)
		return 4;
	printf("oom: capping the address space\n");
	fflush(stdout);
	lim.rlim_cur = lim.rlim_max = (rlim_t)(vm_bytes() + (8l << 20));
	if (setrlimit(RLIMIT_AS, &lim) != 0)
		return 4;
	for (long i = 0; i < n; i++) {
		ok(pthread_mutex_lock(&many[i]));
		ok(pthread_mutex_unlock(&many[i]));
	}
	printf("oom: %ld locks taken\n", n);
	return 0;
}
