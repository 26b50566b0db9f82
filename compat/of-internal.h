/* SPDX-License-Identifier: MIT */
/* Inside the compat layer: of.c frees a node, of-phandle.c forgets its phandle.  Not installed. */
#ifndef UIRQ_COMPAT_OF_INTERNAL_H
#define UIRQ_COMPAT_OF_INTERNAL_H

#include <linux/of.h>

/* np is being freed: its phandle names nothing from now on. */
void uirq_of_node_forget_phandle(struct device_node *np);

#endif
