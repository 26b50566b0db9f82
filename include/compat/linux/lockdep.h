/* SPDX-License-Identifier: MIT */
/* Kernel names for the lock validator (uirq/lockdep.h). */
#ifndef UIRQ_COMPAT_LINUX_LOCKDEP_H
#define UIRQ_COMPAT_LINUX_LOCKDEP_H

#include "uirq/lockdep.h"

#define MAX_LOCKDEP_SUBCLASSES		UIRQ_MAX_LOCKDEP_SUBCLASSES
#define SINGLE_DEPTH_NESTING		1
#define lock_class_key			uirq_lock_class_key
#define lockdep_map			uirq_lockdep_map
#define debug_locks			uirq_debug_locks
#define debug_locks_off()		uirq_lockdep_off()
#define lockdep_register_key(k)		uirq_lockdep_register_key(k)
#define lockdep_unregister_key(k)	uirq_lockdep_unregister_key(k)
#define lockdep_init_map(m, n, k, s)	uirq_lockdep_init_map((m), (n), (k), (s))
#define lockdep_set_class(l, k)		uirq_lockdep_init_map(&(l)->dep_map, #k, (k), 0)
#define lockdep_set_class_and_name(l, k, n) uirq_lockdep_init_map(&(l)->dep_map, (n), (k), 0)
#define lockdep_set_subclass(l, s)	uirq_lockdep_init_map(&(l)->dep_map, (l)->dep_map.name, (l)->dep_map.key, (s))
#define lockdep_is_held(l)		uirq_lockdep_is_held_type(&(l)->dep_map, -1)
#define debug_show_held_locks()		uirq_lockdep_print_held_locks()
#define debug_check_no_locks_freed(m, n) uirq_lockdep_check_no_locks_freed((m), (n))
#define lockdep_assert_held(l)		uirq_lockdep_assert_held(l)
#define lockdep_assert_not_held(l)	uirq_lockdep_assert_not_held(l)
#define lockdep_assert_held_write(l)	uirq_lockdep_assert_held_write(l)
#define lockdep_assert_held_read(l)	uirq_lockdep_assert_held_read(l)
#define lockdep_assert_irqs_disabled()	uirq_lockdep_assert_irqs_disabled()
#define lockdep_assert_irqs_enabled()	uirq_lockdep_assert_irqs_enabled()
#define lockdep_assert_in_irq()		uirq_lockdep_assert_in_irq()

#endif
