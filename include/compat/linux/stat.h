/* SPDX-License-Identifier: MIT */
/* File modes: the C library's S_I* and the kernel's shorthands for user, group and other at once. */
#ifndef UIRQ_COMPAT_LINUX_STAT_H
#define UIRQ_COMPAT_LINUX_STAT_H

#include <sys/stat.h>

#define S_IRWXUGO	(S_IRWXU | S_IRWXG | S_IRWXO)
#define S_IALLUGO	(S_ISUID | S_ISGID | S_ISVTX | S_IRWXUGO)
#define S_IRUGO		(S_IRUSR | S_IRGRP | S_IROTH)
#define S_IWUGO		(S_IWUSR | S_IWGRP | S_IWOTH)
#define S_IXUGO		(S_IXUSR | S_IXGRP | S_IXOTH)

#endif
