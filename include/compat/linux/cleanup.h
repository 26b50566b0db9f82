/* SPDX-License-Identifier: MIT */
/*
 * Scope-based cleanup (the kernel's <linux/cleanup.h>, which Debian's 6.1
 * drivers use): guard(name)(args) takes a lock that the end of the scope
 * releases, through the compiler's cleanup attribute, as the kernel's
 * does.  Lock headers define their guards with DEFINE_GUARD() and
 * DEFINE_LOCK_GUARD_1().
 */
#ifndef UIRQ_COMPAT_LINUX_CLEANUP_H
#define UIRQ_COMPAT_LINUX_CLEANUP_H

#define uirq__paste_(a, b)	a##b
#define uirq__paste(a, b)	uirq__paste_(a, b)
#define __UNIQUE_ID(prefix)	uirq__paste(uirq__paste(__UNIQUE_ID_, prefix), __COUNTER__)
#define __cleanup(func)		__attribute__((__cleanup__(func)))

/* A class: a type, a constructor from the arguments, a destructor run at the end of the scope. */
#define DEFINE_CLASS(_name, _type, _exit, _init, _init_args...)				\
	typedef _type class_##_name##_t;							\
	static inline void class_##_name##_destructor(_type *p)				\
	{											\
		_type _T = *p;									\
		_exit;										\
	}											\
	static inline _type class_##_name##_constructor(_init_args)				\
	{											\
		_type t = _init;								\
		return t;									\
	}

#define CLASS(_name, var)								\
	class_##_name##_t var __cleanup(class_##_name##_destructor) = class_##_name##_constructor

/* A guard on a lock that is its own state (a mutex): _lock and _unlock on _T. */
#define DEFINE_GUARD(_name, _type, _lock, _unlock)					\
	DEFINE_CLASS(_name, _type, if (_T) { _unlock; }, ({ _lock; _T; }), _type _T)

/* A guard on a lock with state of its own (irqsave's flags): _T->lock is the lock, _T->flags the state. */
#define DEFINE_LOCK_GUARD_1(_name, _type, _lock, _unlock, ...)				\
	typedef struct {									\
		_type *lock;									\
		__VA_ARGS__;									\
	} class_##_name##_t;								\
	static inline void class_##_name##_destructor(class_##_name##_t *_T)		\
	{											\
		if (_T->lock) {									\
			_unlock;								\
		}										\
	}											\
	static inline class_##_name##_t class_##_name##_constructor(_type *l)		\
	{											\
		class_##_name##_t _t = { .lock = l }, *_T = &_t;				\
		_lock;										\
		return _t;									\
	}

#define guard(_name)	CLASS(_name, __UNIQUE_ID(guard))

#endif
