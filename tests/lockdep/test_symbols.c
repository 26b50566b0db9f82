// SPDX-License-Identifier: MIT
/*
 * The report symbolizer (lib/symbolize.c, compiled in here): code
 * addresses to func+off (file:line) [module] and lock addresses to variable
 * names, through .symtab, the DWARF line table and libc's .dynsym.
 *
 * Built with -DSYM_PLUGIN this file is instead the library the test
 * dlopen()s after the symbolizer has read the process's modules.
 */
#ifdef SYM_PLUGIN

int sym_plugin_fn(int x);

int sym_plugin_fn(int x)
{
	return x * 3 + 1;
}

#else

#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "harness.h"
#include "symbolize.h"

/* Each function one symbol, named as written: not inlined, no GCC clone (".constprop.0"). */
#ifdef __clang__
#define SYM_FN	__attribute__((noinline))
#else
#define SYM_FN	__attribute__((noinline, noclone))
#endif

/* The caller's return address: the call it returns to lies on the caller's line. */
static SYM_FN unsigned long caller_ip(void)
{
	unsigned long ip = (unsigned long)__builtin_return_address(0);

	__asm__ volatile("" : : "r"(ip) : "memory");
	return ip;
}

unsigned long sym_global_fn(int *line);

SYM_FN unsigned long sym_global_fn(int *line)
{
	unsigned long ip = caller_ip(); *line = __LINE__;

	return ip;
}

/* Static: named only in .symtab, never in .dynsym. */
static SYM_FN unsigned long sym_static_fn(int *line)
{
	unsigned long ip = caller_ip(); *line = __LINE__;

	return ip;
}

static pthread_mutex_t stats_lock = PTHREAD_MUTEX_INITIALIZER;

struct pool {
	long nr;
	long cap;
	pthread_mutex_t lock;
};
struct pool pool = { .cap = 64 };

/* So large that its end is anonymous memory past the file-backed pages. */
static struct {
	char pad[256 << 10];
	pthread_mutex_t lock;
} far_bss;

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* This executable's file name, as reports name its module. */
static const char *self_name(void)
{
	static char path[256];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	path[n > 0 ? n : 0] = '\0';
	return base_name(path);
}

UIRQ_TEST(symbols, own_function_and_line, .timeout = 30)
{
	struct uirq_sym s;
	int line;
	unsigned long ip = sym_global_fn(&line);

	assert_true(uirq_sym_code(ip, false, &s));
	assert_str_eq(s.func, "sym_global_fn");
	assert_not_null(s.file);
	assert_str_eq(base_name(s.file), base_name(__FILE__));
	assert_eq(s.line, line);
	assert_str_eq(s.module, self_name());
	assert_gt(s.func_off, 0);
	assert_lt(s.func_off, 0x100);
}

UIRQ_TEST(symbols, static_function_through_symtab, .timeout = 30)
{
	struct uirq_sym s;
	char buf[512], want[512];
	int line;
	unsigned long ip = sym_static_fn(&line);

	assert_true(uirq_sym_code(ip, false, &s));
	assert_str_eq(s.func, "sym_static_fn");
	assert_eq(s.line, line);

	uirq_sym_format(ip, false, buf, sizeof(buf));
	snprintf(want, sizeof(want), "sym_static_fn+0x%lx (%s:%d) [%s]",
		 s.func_off, base_name(__FILE__), line, self_name());
	assert_str_eq(buf, want);
}

UIRQ_TEST(symbols, static_variable_and_offsets, .timeout = 30)
{
	char buf[64];

	assert_true(uirq_sym_data((unsigned long)&stats_lock, buf, sizeof(buf)));
	assert_str_eq(buf, "stats_lock");
	assert_true(uirq_sym_data((unsigned long)&stats_lock + 4, buf, sizeof(buf)));
	assert_str_eq(buf, "stats_lock+4");
	assert_true(uirq_sym_data((unsigned long)&pool.lock, buf, sizeof(buf)));
	assert_str_eq(buf, "pool+16");
	assert_true(uirq_sym_data((unsigned long)&far_bss.lock, buf, sizeof(buf)));
	assert_str_eq(buf, "far_bss+262144");
	/* a truncated name is still a string */
	assert_true(uirq_sym_data((unsigned long)&stats_lock, buf, 5));
	assert_str_eq(buf, "stat");
}

UIRQ_TEST(symbols, libc_function, .timeout = 30)
{
	/* libc's own qsort, not a sanitizer's interceptor of it */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	struct link_map *map = NULL;
	struct uirq_sym s;
	unsigned long fn;
	Dl_info info;

	assert_not_null(libc);
	fn = (unsigned long)dlsym(libc, "qsort");
	assert_ne(fn, 0);
	assert_true(dladdr1((void *)fn, &info, (void **)&map, RTLD_DL_LINKMAP));

	assert_true(uirq_sym_code(fn + 4, true, &s));
	assert_str_eq(s.func, "qsort");
	assert_eq(s.func_off, 4);
	assert_str_eq(s.module, "libc.so.6");
	assert_eq(s.module_off, fn + 4 - map->l_addr);
	/* a return address just past the entry still belongs to it */
	assert_true(uirq_sym_code(fn + 1, false, &s));
	assert_str_eq(s.func, "qsort");
	assert_eq(s.func_off, 1);
	/* a versioned symbol (from libc's own .symtab, where libc6-dbg is installed) without its version */
	fn = (unsigned long)dlsym(libc, "pthread_mutex_lock");
	assert_true(uirq_sym_code(fn + 0x10, true, &s));
	assert_true(!strcmp(s.func, "pthread_mutex_lock") || !strcmp(s.func, "__pthread_mutex_lock"),
		  "%s", s.func);
	dlclose(libc);
}

UIRQ_TEST(symbols, library_loaded_later, .timeout = 30)
{
	struct uirq_sym s;
	char buf[256];
	void *h;
	unsigned long fn;
	int line;

	/* the first call reads the modules without the plugin */
	assert_true(uirq_sym_code(sym_global_fn(&line), false, &s));
	h = dlopen(SYM_PLUGIN_PATH, RTLD_NOW | RTLD_LOCAL);
	assert_not_null(h, "%s", dlerror());
	fn = (unsigned long)dlsym(h, "sym_plugin_fn");
	assert_ne(fn, 0);

	assert_true(uirq_sym_code(fn, true, &s));
	assert_str_eq(s.func, "sym_plugin_fn");
	assert_str_eq(s.module, "libsym_plugin.so");
	assert_eq(s.func_off, 0);
	assert_not_null(s.file);
	assert_str_eq(base_name(s.file), base_name(__FILE__));
	uirq_sym_format(fn, true, buf, sizeof(buf));
	assert_true(strstr(buf, "sym_plugin_fn+0x0 (test_symbols.c:") == buf, "%s", buf);

	/* unloaded again: its address no longer names it */
	dlclose(h);
	assert_true(!uirq_sym_code(fn, true, &s) || !s.func || strcmp(s.func, "sym_plugin_fn"));
}

UIRQ_TEST(symbols, bad_addresses, .timeout = 30)
{
	long page = sysconf(_SC_PAGESIZE);
	struct uirq_sym s;
	char buf[64], want[32];
	int local = 0;
	void *p;

	assert_false(uirq_sym_code(0x10, false, &s));
	assert_false(uirq_sym_code(0, false, &s));
	uirq_sym_format(0x10, false, buf, sizeof(buf));
	assert_str_eq(buf, "0x10");

	/* a page that was mapped and is no more */
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_ne(p, MAP_FAILED);
	munmap(p, page);
	assert_false(uirq_sym_code((unsigned long)p + 8, false, &s));
	uirq_sym_format((unsigned long)p + 8, false, buf, sizeof(buf));
	snprintf(want, sizeof(want), "0x%lx", (unsigned long)p + 8);
	assert_str_eq(buf, want);
	assert_false(uirq_sym_data((unsigned long)p + 8, buf, sizeof(buf)));
	assert_str_eq(buf, "");

	assert_false(uirq_sym_data(0x10, buf, sizeof(buf)));
	assert_false(uirq_sym_data(~0UL, buf, sizeof(buf)));
	assert_false(uirq_sym_data((unsigned long)&local, buf, sizeof(buf)));
	/* a code address is no variable */
	assert_false(uirq_sym_data((unsigned long)sym_static_fn, buf, sizeof(buf)));
}

/* Reports on several threads at once serialise on the symbolizer's own lock. */
static void *format_many(void *arg)
{
	(void)arg;
	char buf[256];
	int line;
	unsigned long ip = sym_static_fn(&line);

	for (int i = 0; i < 50; i++) {
		uirq_sym_format(ip, false, buf, sizeof(buf));
		if (strncmp(buf, "sym_static_fn+0x", 16) ||
		    !uirq_sym_data((unsigned long)&pool.lock, buf, sizeof(buf)) || strcmp(buf, "pool+16"))
			return (void *)format_many;	/* any non-NULL: a wrong answer */
	}
	return NULL;
}

UIRQ_TEST(symbols, concurrent_callers, .timeout = 60)
{
	pthread_t t[4];
	void *ret;

	for (int i = 0; i < 4; i++)
		assert_eq(pthread_create(&t[i], NULL, format_many, NULL), 0);
	for (int i = 0; i < 4; i++) {
		assert_eq(pthread_join(t[i], &ret), 0);
		assert_null(ret);
	}
}

#endif
