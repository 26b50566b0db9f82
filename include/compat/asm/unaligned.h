/* SPDX-License-Identifier: MIT */
/* get_unaligned_be16() and its kin: byte by byte, in <linux/byteorder.h>. */
#ifndef UIRQ_COMPAT_ASM_UNALIGNED_H
#define UIRQ_COMPAT_ASM_UNALIGNED_H

#include <linux/byteorder.h>

#endif
