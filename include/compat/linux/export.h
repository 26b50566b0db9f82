/* SPDX-License-Identifier: MIT */
/* Exports between modules: everything here is linked into one program, so they mark nothing. */
#ifndef UIRQ_COMPAT_LINUX_EXPORT_H
#define UIRQ_COMPAT_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)
#define EXPORT_SYMBOL_NS(sym, ns)
#define EXPORT_SYMBOL_NS_GPL(sym, ns)
#define THIS_MODULE	((struct module *)0)

#endif
