/* SPDX-License-Identifier: MIT */
/*
 * The system's uAPI <linux/types.h> (__u8 ... for the uAPI headers that
 * include it), plus the kernel-internal fixed-size names drivers use.
 */
#ifndef UIRQ_COMPAT_LINUX_TYPES_H
#define UIRQ_COMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif
