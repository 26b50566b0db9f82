/* SPDX-License-Identifier: MIT */
/*
 * Files found relative to the running program, so that neither a build tree
 * nor an installed tree needs the other, nor its absolute path: the tools
 * are built with the relative paths from their own folder to what they run
 * (meson.build computes them for the build tree and for the installed one).
 */
#ifndef UIRQ_TOOLS_SELF_PATH_H
#define UIRQ_TOOLS_SELF_PATH_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * rel resolved against the folder of /proc/self/exe (rel itself when
 * absolute: a tree configured with absolute install folders) into out;
 * true when that file can be executed (exec) or read.
 */
static inline bool self_path(const char *rel, bool exec, char *out, size_t len)
{
	char self[PATH_MAX];
	ssize_t n;
	char *slash;

	int w;

	if (rel[0] == '/') {
		w = snprintf(out, len, "%s", rel);
	} else {
		n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (n <= 0)
			return false;
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
		w = snprintf(out, len, "%s/%s", self, rel);
	}
	if (w <= 0 || (size_t)w >= len || access(out, exec ? X_OK : R_OK) != 0)
		return false;
	/* "bin/../lib/x" as "lib/x": what a user reads in LD_PRELOAD or a message */
	if (realpath(out, self) && strlen(self) < len)
		strcpy(out, self);
	return true;
}

#endif
