/* SPDX-License-Identifier: MIT */
/*
 * cpu_to_le32() and its kin for a little-endian host (every host uirq
 * runs on: x86-64 and arm64 as Debian builds it); the __le and __be types
 * come from the system's uAPI <linux/types.h>.
 */
#ifndef UIRQ_COMPAT_LINUX_BYTEORDER_H
#define UIRQ_COMPAT_LINUX_BYTEORDER_H

#include <linux/types.h>

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "uirq's kernel compatibility layer assumes a little-endian host"
#endif

#define cpu_to_le16(x)	((__le16)(u16)(x))
#define cpu_to_le32(x)	((__le32)(u32)(x))
#define cpu_to_le64(x)	((__le64)(u64)(x))
#define le16_to_cpu(x)	((u16)(__le16)(x))
#define le32_to_cpu(x)	((u32)(__le32)(x))
#define le64_to_cpu(x)	((u64)(__le64)(x))
#define cpu_to_be16(x)	((__be16)__builtin_bswap16((u16)(x)))
#define cpu_to_be32(x)	((__be32)__builtin_bswap32((u32)(x)))
#define cpu_to_be64(x)	((__be64)__builtin_bswap64((u64)(x)))
#define be16_to_cpu(x)	__builtin_bswap16((u16)(__be16)(x))
#define be32_to_cpu(x)	__builtin_bswap32((u32)(__be32)(x))
#define be64_to_cpu(x)	__builtin_bswap64((u64)(__be64)(x))

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] | b[1] << 8);
}

static inline u16 get_unaligned_be16(const void *p)
{
	const u8 *b = p;

	return (u16)(b[0] << 8 | b[1]);
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] | (u32)b[1] << 8 | (u32)b[2] << 16 | (u32)b[3] << 24;
}

static inline void put_unaligned_le16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = (u8)v;
	b[1] = (u8)(v >> 8);
}

static inline void put_unaligned_be16(u16 v, void *p)
{
	u8 *b = p;

	b[0] = (u8)(v >> 8);
	b[1] = (u8)v;
}

#endif
