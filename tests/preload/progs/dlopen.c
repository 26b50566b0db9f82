// SPDX-License-Identifier: MIT
/*
 * dlopen() a library that locks, call into it with a lock of ours nested in
 * its locks, consistently; dlclose and open it again.  "dlopen PATH-TO-MODULE".
 */
#include "prog.h"

#include <dlfcn.h>

static pthread_mutex_t mine = PTHREAD_MUTEX_INITIALIZER;

int main(int argc, char **argv)
{
	for (int round = 0; round < 2; round++) {
		void *h = dlopen(argc > 1 ? argv[1] : "libdlmod.so", RTLD_NOW | RTLD_LOCAL);
		int (*add)(pthread_mutex_t *);

		if (!h) {
			fprintf(stderr, "dlopen: %s\n", dlerror());
			return 4;
		}
		*(void **)&add = dlsym(h, "dlmod_add");
		if (!add || add(&mine) != 1 || add(NULL) != 2)
			return 5;
		dlclose(h);
	}
	ok(pthread_mutex_lock(&mine));
	ok(pthread_mutex_unlock(&mine));
	return 0;
}
