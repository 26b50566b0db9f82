// SPDX-License-Identifier: MIT
/*
 * Exit with the status given as argv[1]; "env" prints the environment the
 * runner set up instead (LD_PRELOAD and the UIRQ_LOCKDEP_* options).
 */
#include "prog.h"

int main(int argc, char **argv)
{
	static const char *const names[] = {
		"LD_PRELOAD", "UIRQ_LOCKDEP_FATAL", "UIRQ_LOCKDEP_EXIT_CODE",
		"UIRQ_LOCKDEP_CLASSES", "UIRQ_LOCKDEP_LOG", "ASAN_OPTIONS",
	};
	static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

	ok(pthread_mutex_lock(&m));
	ok(pthread_mutex_unlock(&m));
	if (argc > 1 && strcmp(argv[1], "env") == 0) {
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			const char *v = getenv(names[i]);

			printf("%s=%s\n", names[i], v ? v : "(unset)");
		}
		for (int i = 2; i < argc; i++)
			printf("arg=%s\n", argv[i]);
		return 0;
	}
	return argc > 1 ? atoi(argv[1]) : 0;
}
