/* SPDX-License-Identifier: MIT */
/* Allocation flags: accepted; only __GFP_ZERO changes anything here (linux/slab.h). */
#ifndef UIRQ_COMPAT_LINUX_GFP_H
#define UIRQ_COMPAT_LINUX_GFP_H

#include <linux/types.h>

#define GFP_KERNEL	0u
#define GFP_ATOMIC	0u
#define GFP_NOWAIT	0u
#define GFP_DMA		0u
#define __GFP_ZERO	0x100u

#endif
