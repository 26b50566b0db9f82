/* SPDX-License-Identifier: MIT */
/*
 * Error values in pointers, as the kernel returns them: the last 4095
 * addresses are -errno, never a valid pointer.
 */
#ifndef UIRQ_COMPAT_LINUX_ERR_H
#define UIRQ_COMPAT_LINUX_ERR_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/compiler_types.h>
#include <linux/errno.h>

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)(intptr_t)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((uintptr_t)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

static inline void *ERR_CAST(const void *ptr)
{
	return (void *)(uintptr_t)ptr;
}

static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif
