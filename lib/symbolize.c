// SPDX-License-Identifier: MIT
/*
 * Symbols for reports, from elfutils libdwfl: function names from .symtab
 * (static functions too) or .dynsym, file:line from the DWARF line table,
 * variable names for lock addresses.  libdwfl because it is what the field
 * uses (perf, systemd-coredump, eu-stack) and it finds separate debuginfo
 * the standard way (the object's own .debug_* sections, then build-id files
 * under /usr/lib/debug); GCC's libbacktrace, the other candidate, is not
 * packaged as a library in Debian 12.
 *
 * libdw is dlopen()ed at the first call, not linked.  Measured on the
 * 2-core build machine, `hyperfine -N --warmup 50 --runs 1000` of
 * `uirq-lockdep /bin/true` (the runner exec()s the program with the module):
 *	the preload module as it was			6.2 ms +- 0.9
 *	plus this file, libdw linked			6.9 ms +- 0.6
 *	plus this file, libdw dlopen()ed		6.0 ms +- 0.5
 * and over 5 interleaved rounds of 200 runs, medians 7.0, 7.9 and 7.4 ms.
 * Linking maps and relocates libdw, libelf, libz, liblzma and libbz2 at
 * every start of every program run under lockdep, report or not: +0.7 to
 * 0.9 ms, and five more libraries in the search scope of programs that may
 * bring their own libelf or zlib.  The dlopen() costs 1.5-6 ms (median
 * 2.8), once, at the first report; that whole first report (examples/abba)
 * takes 24 ms more than with dladdr(), 150 ms more where libc6-dbg is
 * installed (libz inflating libc's debug sections for its two frames).
 * Later frames take 2 us, 50 us in libc (a scan of its 10k-entry .symtab).
 * Without libdw.so.1 at run time every call still answers, at dladdr()
 * quality (exported symbols, module+offset).
 *
 * State: one Dwfl for the process, built from the dynamic loader's list of
 * objects; re-read when the loader knows an address that no module holds (a
 * library dlopen()ed later) or holds as another object (one dlclose()d).
 * Modules that stay keep their parsed ELF and DWARF.  It is serialised by a
 * spin lock on the owner's tid, not a pthread lock: this runs inside the
 * preload module, which interposes pthread_mutex_*, with lockdep's graph
 * lock held.  Reports are rare, so spinning is fine.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <link.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symbolize.h"

/* The libdwfl calls used, resolved from libdw.so.1 at the first call. */
static struct {
	__typeof__(dwfl_begin) *begin;
	__typeof__(dwfl_end) *end;
	__typeof__(dwfl_report_begin) *report_begin;
	__typeof__(dwfl_report_end) *report_end;
	__typeof__(dwfl_report_begin_add) *report_begin_add;
	__typeof__(dwfl_report_elf) *report_elf;
	__typeof__(dwfl_addrmodule) *addrmodule;
	__typeof__(dwfl_module_info) *module_info;
	__typeof__(dwfl_module_getelf) *module_getelf;
	__typeof__(dwfl_module_addrinfo) *module_addrinfo;
	__typeof__(dwfl_module_getsrc) *module_getsrc;
	__typeof__(dwfl_lineinfo) *lineinfo;
	__typeof__(dwfl_module_getdwarf) *module_getdwarf;
	__typeof__(dwfl_module_nextcu) *module_nextcu;
	__typeof__(dwarf_getaranges) *getaranges;
	__typeof__(dwarf_haspc) *haspc;
	__typeof__(dwarf_getsrc_die) *getsrc_die;
	__typeof__(dwarf_lineno) *lineno;
	__typeof__(dwarf_linesrc) *linesrc;
	__typeof__(dwfl_standard_find_debuginfo) *standard_find_debuginfo;
	__typeof__(dwfl_build_id_find_debuginfo) *build_id_find_debuginfo;
} dw;

static struct {
	int libdw;			/* 0: not tried, 1: loaded, -1: unavailable */
	Dwfl_Callbacks callbacks;
	Dwfl *dwfl;
	unsigned long gen;		/* bumped when modules may have gone */
} sym;

/*
 * Frames already symbolized, by address: a program that reports often
 * reports from the same few places, and libdwfl looks a function up by a
 * scan of the whole symbol table (50 us in libc's, each time).
 */
#define SYM_CACHE 128
static struct sym_cached {
	Dwfl_Module *mod;
	unsigned long ip, addr, gen;
	struct uirq_sym sym;
} sym_cache[SYM_CACHE];
static unsigned char sym_cache_last[SYM_CACHE / 2];

/* tid of the thread using the state above, 0 when free */
static _Atomic pid_t sym_owner;

/*
 * false: this thread already holds it (a report from a signal handler that
 * interrupted one), and the caller falls back to dladdr().  A holder that is
 * not a thread of this process is a fork child's copy of another thread's
 * hold: the lock is taken over and the state it may have left half made is
 * abandoned (leaked, never freed: it may be inconsistent).
 */
static bool sym_lock(void)
{
	pid_t self = gettid(), cur = 0;

	while (!atomic_compare_exchange_weak_explicit(&sym_owner, &cur, self,
						      memory_order_acquire, memory_order_relaxed)) {
		if (cur == self)
			return false;
		if (cur && tgkill(getpid(), cur, 0) && errno == ESRCH &&
		    atomic_compare_exchange_strong_explicit(&sym_owner, &cur, self,
							    memory_order_acquire, memory_order_relaxed)) {
			sym.dwfl = NULL;
			return true;
		}
		cur = 0;
		sched_yield();
	}
	return true;
}

static void sym_unlock(void)
{
	atomic_store_explicit(&sym_owner, 0, memory_order_release);
}

/*
 * Free the Dwfl at exit, when no report is using it.  Only for leak
 * checkers: libdw's trees (glibc tsearch, whose pointers carry a colour
 * bit) look "possibly lost" to Memcheck, which fails a run on those by
 * default, for every program that reported under Valgrind.
 */
__attribute__((destructor)) static void sym_exit(void)
{
	pid_t free_ = 0;

	if (atomic_compare_exchange_strong_explicit(&sym_owner, &free_, gettid(),
						    memory_order_acquire, memory_order_relaxed)) {
		if (sym.dwfl)
			dw.end(sym.dwfl);
		sym.dwfl = NULL;
		sym_unlock();
	}
}

/*
 * Where a module's DWARF is when its file has none: the standard search
 * (build-id under /usr/lib/debug, then .gnu_debuglink), except that it asks
 * no debuginfod server.  The standard one does when DEBUGINFOD_URLS is set
 * and nothing is found locally, and a report would wait for it with the
 * graph lock held (seen: one connect() per module without debuginfo, each
 * allowed DEBUGINFOD_TIMEOUT, 90 s by default).  With it set, the build-id
 * look-up alone is made, which stays local.
 */
static int sym_find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			      Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			      GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");

	if (urls && *urls)
		return dw.build_id_find_debuginfo(mod, userdata, modname, base, file_name,
						  debuglink_file, debuglink_crc, debuginfo_file_name);
	return dw.standard_find_debuginfo(mod, userdata, modname, base, file_name,
					  debuglink_file, debuglink_crc, debuginfo_file_name);
}

static bool sym_load_libdw(void)
{
	void *h;

	if (sym.libdw)
		return sym.libdw > 0;
	sym.libdw = -1;
	h = dlopen("libdw.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return false;
#define DW(field, name)	if (!(field = (__typeof__(field))dlsym(h, #name))) return false
	DW(dw.begin, dwfl_begin);
	DW(dw.end, dwfl_end);
	DW(dw.report_begin, dwfl_report_begin);
	DW(dw.report_end, dwfl_report_end);
	DW(dw.report_begin_add, dwfl_report_begin_add);
	DW(dw.report_elf, dwfl_report_elf);
	DW(dw.addrmodule, dwfl_addrmodule);
	DW(dw.module_info, dwfl_module_info);
	DW(dw.module_getelf, dwfl_module_getelf);
	DW(dw.module_addrinfo, dwfl_module_addrinfo);
	DW(dw.module_getsrc, dwfl_module_getsrc);
	DW(dw.lineinfo, dwfl_lineinfo);
	DW(dw.module_getdwarf, dwfl_module_getdwarf);
	DW(dw.module_nextcu, dwfl_module_nextcu);
	DW(dw.getaranges, dwarf_getaranges);
	DW(dw.haspc, dwarf_haspc);
	DW(dw.getsrc_die, dwarf_getsrc_die);
	DW(dw.lineno, dwarf_lineno);
	DW(dw.linesrc, dwarf_linesrc);
	DW(sym.callbacks.find_elf, dwfl_linux_proc_find_elf);
	DW(dw.standard_find_debuginfo, dwfl_standard_find_debuginfo);
	DW(dw.build_id_find_debuginfo, dwfl_build_id_find_debuginfo);
	sym.callbacks.find_debuginfo = sym_find_debuginfo;
#undef DW
	/* the handle stays open: libdw's code and the Dwfl live as long as the process */
	sym.libdw = 1;
	return true;
}

/* An object of the dynamic loader's list, reported after its callback (under the loader's lock). */
struct sym_obj {
	char *path;
	bool exe;		/* the main program */
	unsigned long bias;
	unsigned long start;	/* where its first segment is */
};

struct sym_objs {
	struct sym_obj *v;
	size_t n, cap;
};

static int sym_collect(struct dl_phdr_info *info, size_t size, void *data)
{
	struct sym_objs *o = data;
	char exe[4096];
	const char *path = info->dlpi_name;
	struct sym_obj *v;
	ssize_t n;

	(void)size;
	/* the main program is the entry without a name */
	if (!path[0]) {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return 0;
		exe[n] = '\0';
		path = exe;
	}
	if (o->n == o->cap) {
		v = realloc(o->v, (o->cap * 2 + 16) * sizeof(*v));
		if (!v)
			return 1;
		o->v = v;
		o->cap = o->cap * 2 + 16;
	}
	v = &o->v[o->n];
	v->exe = path == exe;
	v->bias = info->dlpi_addr;
	v->start = 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_LOAD) {
			v->start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
			break;
		}
	v->path = strdup(path);
	if (v->path)
		o->n++;
	return 0;
}

/*
 * Report the objects the dynamic loader has mapped: all of them (full),
 * dropping those gone since, or only those not known yet.  Not from
 * /proc/self/maps (dwfl_linux_proc_report): there libelf's own mmap()s of
 * the files it reads look like more mappings of those objects, and an
 * object's range ends with its file-backed pages, before the rest of .bss.
 * An object whose file cannot be read (the vDSO) is left to dladdr().
 */
static bool sym_report(bool full)
{
	struct sym_objs o = { 0 };

	if (!sym.dwfl)
		sym.dwfl = dw.begin(&sym.callbacks);
	if (!sym.dwfl)
		return false;
	dl_iterate_phdr(sym_collect, &o);
	sym.gen++;	/* a module reported again may be a new one where the old one was */
	if (full)
		dw.report_begin(sym.dwfl);
	else
		dw.report_begin_add(sym.dwfl);
	for (size_t i = 0; i < o.n; i++) {
		struct sym_obj *v = &o.v[i];
		/* a program rebuilt while it runs is "path (deleted)": still open through /proc */
		const char *file = v->exe && access(v->path, R_OK) ? "/proc/self/exe" : v->path;

		if (full || !dw.addrmodule(sym.dwfl, v->start))
			dw.report_elf(sym.dwfl, v->path, file, -1, v->bias, false);
		free(v->path);
	}
	free(o.v);
	dw.report_end(sym.dwfl, NULL, NULL);
	return true;
}

/* Whether mod is the module of the loaded object map (the main program's has no name). */
static bool sym_same(Dwfl_Module *mod, const struct link_map *map)
{
	const char *name = dw.module_info(mod, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	GElf_Addr bias;

	if (!dw.module_getelf(mod, &bias) || bias != map->l_addr)
		return false;
	return !map->l_name[0] || (name && !strcmp(name, map->l_name));
}

/*
 * The module containing addr, NULL if none (or no libdw).  The loader says
 * whether addr is in an object at all and which (dladdr() takes its
 * dl_load_lock, which fork() resets in the child; dl_iterate_phdr() takes
 * another lock, which it does not: a child forked while another thread is
 * in there hangs in its own next call, so it is called only to re-read).
 */
static Dwfl_Module *sym_module(unsigned long addr)
{
	struct link_map *map = NULL;
	Dwfl_Module *mod;
	Dl_info info;

	if (!dladdr1((void *)addr, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
		return NULL;
	if (!sym_load_libdw() || (!sym.dwfl && !sym_report(true)))
		return NULL;
	mod = dw.addrmodule(sym.dwfl, addr);
	if (!mod)		/* an object dlopen()ed since */
		sym_report(false);
	else if (!sym_same(mod, map))	/* one dlclose()d since, where another is now */
		sym_report(true);
	else
		return mod;
	mod = dw.addrmodule(sym.dwfl, addr);
	return mod && sym_same(mod, map) ? mod : NULL;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Copy s into out's storage; one too long keeps its tail if tail (a path's file name). */
static char *sym_put(struct uirq_sym *out, size_t *used, const char *s, bool tail)
{
	size_t room = sizeof(out->store) - *used, n = strlen(s);
	char *dst = out->store + *used;

	if (room < 2)
		return NULL;
	if (n > room - 1) {
		if (tail)
			s += n - (room - 1);
		n = room - 1;
	}
	memcpy(dst, s, n);
	dst[n] = '\0';
	*used += n + 1;
	return dst;
}

/*
 * The source line of addr when dwfl_module_getsrc() has none: libdw 0.188
 * finds an address's CU through .debug_aranges only, which clang does not
 * emit by default.  Then the CUs are searched by their address ranges.
 */
static const char *sym_line_by_cu(Dwfl_Module *mod, unsigned long addr, int *lineno)
{
	Dwarf_Die *cu = NULL;
	Dwarf_Aranges *ar;
	Dwarf_Line *line;
	Dwarf_Addr bias;
	size_t n;
	Dwarf *dbg = dw.module_getdwarf(mod, &bias);

	if (!dbg || dw.getaranges(dbg, &ar, &n) || n)
		return NULL;
	while ((cu = dw.module_nextcu(mod, cu, &bias)))
		if (dw.haspc(cu, addr - bias) > 0) {
			line = dw.getsrc_die(cu, addr - bias);
			return line && !dw.lineno(line, lineno) ? dw.linesrc(line, NULL, NULL) : NULL;
		}
	return NULL;
}

/* Copy a symbolized frame, its strings pointing into the copy's own store. */
static void sym_copy(struct uirq_sym *to, const struct uirq_sym *from)
{
	const char **fields[] = { &to->func, &to->file, &to->module };

	*to = *from;
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (*fields[i])
			*fields[i] = to->store + (*fields[i] - from->store);
}

static bool sym_code_dwfl(unsigned long ip, unsigned long addr, struct uirq_sym *out,
			  size_t *used)
{
	Dwfl_Module *mod = sym_module(addr);
	/* two ways a set, the one not used last replaced */
	size_t set = (size_t)(((ip + (ip != addr)) * UINT64_C(0x9e3779b97f4a7c15)) >> 58) * 2;
	struct sym_cached *c = &sym_cache[set];
	const char *path, *name, *src;
	Dwarf_Addr low;
	GElf_Addr bias;
	GElf_Off off;
	GElf_Sym s;
	Dwfl_Line *line;
	int lineno;

	if (!mod)
		return false;
	for (int way = 0; way < 2; way++, c++)
		if (c->mod == mod && c->ip == ip && c->addr == addr && c->gen == sym.gen) {
			sym_cache_last[set / 2] = (unsigned char)way;
			sym_copy(out, &c->sym);
			return true;
		}
	c = &sym_cache[set + !sym_cache_last[set / 2]];
	sym_cache_last[set / 2] = (unsigned char)(c - &sym_cache[set]);
	path = dw.module_info(mod, NULL, &low, NULL, NULL, NULL, NULL, NULL);
	/* no ELF file (unreadable): offsets from the first mapping, as dladdr gives */
	if (!dw.module_getelf(mod, &bias))
		bias = low;
	out->module = sym_put(out, used, path ? base_name(path) : "?", false);
	out->module_off = ip - bias;

	name = dw.module_addrinfo(mod, addr, &off, &s, NULL, NULL, NULL);
	if (name && GELF_ST_TYPE(s.st_info) != STT_OBJECT && GELF_ST_TYPE(s.st_info) != STT_TLS) {
		char *func = sym_put(out, used, name, false);

		/* a separate .symtab names versioned symbols "__pthread_mutex_lock@GLIBC_2.2.5" */
		if (func)
			func[strcspn(func, "@")] = '\0';
		out->func = func;
		out->func_off = ip - (addr - off);
	}
	line = dw.module_getsrc(mod, addr);
	if (line)
		src = dw.lineinfo(line, NULL, &lineno, NULL, NULL, NULL);
	else
		src = sym_line_by_cu(mod, addr, &lineno);
	if (src) {
		out->file = sym_put(out, used, src, true);
		out->line = out->file ? lineno : 0;
	}
	c->mod = mod;
	c->ip = ip;
	c->addr = addr;
	c->gen = sym.gen;
	sym_copy(&c->sym, out);
	return true;
}

/* dladdr() quality: exported symbols only, and no line. */
static bool sym_code_dladdr(unsigned long ip, unsigned long addr, struct uirq_sym *out,
			    size_t *used)
{
	struct link_map *map = NULL;
	Dl_info info;

	if (!dladdr1((void *)addr, &info, (void **)&map, RTLD_DL_LINKMAP) || !map)
		return false;
	if (info.dli_fname && *info.dli_fname)
		out->module = sym_put(out, used, base_name(info.dli_fname), false);
	else
		out->module = sym_put(out, used, "?", false);
	out->module_off = ip - map->l_addr;
	if (info.dli_sname && info.dli_saddr) {
		out->func = sym_put(out, used, info.dli_sname, false);
		out->func_off = ip - (unsigned long)info.dli_saddr;
	}
	return true;
}

__thread bool uirq_sym_dladdr_only;

bool uirq_sym_code(unsigned long ip, bool exact, struct uirq_sym *out)
{
	/* a return address may be the first byte of the next function or line */
	unsigned long addr = exact ? ip : ip - 1;
	int saved = errno;
	size_t used = 0;
	bool ok = false;

	memset(out, 0, offsetof(struct uirq_sym, store));
	if (ip >= 2) {
		if (!uirq_sym_dladdr_only && sym_lock()) {
			ok = sym_code_dwfl(ip, addr, out, &used);
			sym_unlock();
		}
		if (!ok) {
			memset(out, 0, offsetof(struct uirq_sym, store));
			used = 0;
			ok = sym_code_dladdr(ip, addr, out, &used);
		}
	}
	errno = saved;
	return ok;
}

static bool sym_data_dwfl(unsigned long addr, char *buf, size_t len)
{
	Dwfl_Module *mod = sym_module(addr);
	const char *name;
	GElf_Off off;
	GElf_Sym s;

	if (!mod)
		return false;
	name = dw.module_addrinfo(mod, addr, &off, &s, NULL, NULL, NULL);
	if (!name || (GELF_ST_TYPE(s.st_info) != STT_OBJECT &&
		      GELF_ST_TYPE(s.st_info) != STT_COMMON))
		return false;
	/* the nearest symbol below addr that does not contain it is not its name */
	if (s.st_size ? off >= s.st_size : off != 0)
		return false;
	snprintf(buf, len, off ? "%.*s+%lu" : "%.*s", (int)strcspn(name, "@"), name, (unsigned long)off);
	return true;
}

static bool sym_data_dladdr(unsigned long addr, char *buf, size_t len)
{
	const ElfW(Sym) *s = NULL;
	unsigned long off;
	Dl_info info;

	if (!dladdr1((void *)addr, &info, (void **)&s, RTLD_DL_SYMENT) || !s || !info.dli_sname ||
	    GELF_ST_TYPE(s->st_info) != STT_OBJECT)
		return false;
	off = addr - (unsigned long)info.dli_saddr;
	if (s->st_size ? off >= s->st_size : off != 0)
		return false;
	snprintf(buf, len, off ? "%s+%lu" : "%s", info.dli_sname, off);
	return true;
}

bool uirq_sym_data(unsigned long addr, char *buf, size_t len)
{
	int saved = errno;
	bool ok = false;

	if (!len)
		return false;
	buf[0] = '\0';
	if (addr >= 2) {
		if (!uirq_sym_dladdr_only && sym_lock()) {
			ok = sym_data_dwfl(addr, buf, len);
			sym_unlock();
		}
		if (!ok)
			ok = sym_data_dladdr(addr, buf, len);
	}
	errno = saved;
	return ok;
}

int uirq_sym_format(unsigned long ip, bool exact, char *buf, size_t len)
{
	struct uirq_sym s;

	if (!uirq_sym_code(ip, exact, &s))
		return snprintf(buf, len, "0x%lx", ip);
	if (!s.func)
		return snprintf(buf, len, "%s+0x%lx", s.module, s.module_off);
	if (s.file)
		return snprintf(buf, len, "%s+0x%lx (%s:%d) [%s]",
				s.func, s.func_off, base_name(s.file), s.line, s.module);
	return snprintf(buf, len, "%s+0x%lx [%s]", s.func, s.func_off, s.module);
}
