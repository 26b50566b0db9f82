/* SPDX-License-Identifier: MIT */
/*
 * The system's uAPI <linux/types.h> (__u8 ..., __le16 ... for the uAPI
 * headers that include it), plus the kernel-internal names drivers use.
 */
#ifndef UIRQ_COMPAT_LINUX_TYPES_H
#define UIRQ_COMPAT_LINUX_TYPES_H

#include_next <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef u64 resource_size_t;
typedef u64 phys_addr_t;
typedef u64 dma_addr_t;
typedef unsigned int gfp_t;
typedef unsigned short umode_t;

#endif
