// SPDX-License-Identifier: MIT
/*
 * uirq-lockdep: run an unmodified dynamically linked program under lockdep.
 *
 * It finds libuirq-lockdep-preload.so, appends it to LD_PRELOAD, turns its
 * own flags into the module's environment options and exec()s the program,
 * so the exit status is the program's own (or --exit-code's).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "self-path.h"

/* Exit statuses, as a shell uses them. */
#define EXIT_USAGE	2
#define EXIT_NOEXEC	126	/* found but cannot be run under the validator */
#define EXIT_NOTFOUND	127
#define EXIT_NOPRELOAD	125	/* our own installation is broken */

static const char *prog_name = "uirq-lockdep";

static void usage(FILE *out)
{
	fprintf(out,
		"usage: %s [OPTIONS] PROGRAM [ARGS...]\n"
		"Run PROGRAM under lockdep, the kernel's lock validator, through a pthread\n"
		"interposer: lock-order inversions, recursive locking, bad unlocks, freed held\n"
		"locks and threads exiting with locks held are reported as they become possible.\n"
		"\n"
		"  --fatal              abort at the first report\n"
		"  --exit-code N        exit with N (0-255) if anything was reported\n"
		"  --classes MODE       instance (default): a lock class per lock;\n"
		"                       site: a class per pthread_*_init call site\n"
		"  --log FILE           append reports to FILE instead of stderr\n"
		"  --json FILE          append reports to FILE as JSON records too, one a line\n"
		"  --suppress FILE      do not report what FILE's rules cover (see uirq-lockdep(1))\n"
		"  --stat               lock statistics at exit: acquisitions, contentions, wait\n"
		"                       and hold times, the call sites that waited most\n"
		"  --help               show this help\n"
		"  --version            show the version\n"
		"\n"
		"Otherwise the exit status is PROGRAM's own.  UIRQ_LOCKDEP=0 turns the\n"
		"validator off; UIRQ_LOCKDEP_PRELOAD names another preload library.\n",
		prog_name);
}

static bool readable(const char *path)
{
	return path && *path && access(path, R_OK) == 0;
}

/*
 * The preload library of this runner, found from the runner's own folder:
 * the installed library's place relative to bindir, else the build tree's
 * relative to tools/ - so an installed runner never reaches into a build
 * tree, nor a build-tree runner into an installation.  UIRQ_LOCKDEP_PRELOAD
 * overrides both.  NULL: the message is out.
 */
static const char *find_preload(void)
{
	static char lib[PATH_MAX], built[PATH_MAX];
	const char *env = getenv("UIRQ_LOCKDEP_PRELOAD");

	if (env && *env) {
		if (readable(env))
			return env;
		fprintf(stderr, "%s: UIRQ_LOCKDEP_PRELOAD=%s: %s (unset it to use the installed one)\n", prog_name,
			env, strerror(errno));
		return NULL;
	}
	if (self_path(UIRQ_LOCKDEP_INSTALLED_PRELOAD, false, lib, sizeof(lib)))
		return lib;
	if (self_path(UIRQ_LOCKDEP_BUILD_PRELOAD, false, built, sizeof(built)))
		return built;
	fprintf(stderr, "%s: no preload library at %s (installed) nor %s (build tree): is uirq installed whole?\n",
		prog_name, lib, built);
	return NULL;
}

/* Where execvp would find name, or NULL with errno set. */
static char *resolve_program(const char *name)
{
	const char *path = getenv("PATH");
	int saved = ENOENT;

	if (strchr(name, '/'))
		return access(name, F_OK) == 0 ? strdup(name) : NULL;
	if (!path)
		path = "/usr/local/bin:/bin:/usr/bin";
	for (const char *p = path;; p++) {
		const char *end = strchrnul(p, ':');
		char *full;

		if (asprintf(&full, "%.*s%s%s", (int)(end - p), p, end == p ? "" : "/", name) < 0)
			return NULL;
		if (access(full, X_OK) == 0) {
			struct stat st;

			if (stat(full, &st) == 0 && S_ISREG(st.st_mode))
				return full;
		} else if (errno == EACCES) {
			saved = EACCES;
		}
		free(full);
		if (*end == '\0')
			break;
		p = end;
	}
	errno = saved;
	return NULL;
}

enum elf_verdict { ELF_DYNAMIC, ELF_STATIC, ELF_OTHER };

/* Only a program with an interpreter (PT_INTERP) runs the dynamic loader that honours LD_PRELOAD. */
static enum elf_verdict elf_kind(const char *path)
{
	unsigned char ident[EI_NIDENT];
	enum elf_verdict verdict = ELF_OTHER;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return ELF_OTHER;	/* let exec report why */
	if (pread(fd, ident, sizeof(ident), 0) != (ssize_t)sizeof(ident) ||
	    memcmp(ident, ELFMAG, SELFMAG) != 0)
		goto out;
	verdict = ELF_STATIC;
	if (ident[EI_CLASS] == ELFCLASS64) {
		Elf64_Ehdr eh;
		Elf64_Phdr ph;

		if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
			goto out;
		for (unsigned int i = 0; i < eh.e_phnum; i++) {
			off_t off = (off_t)(eh.e_phoff + (Elf64_Off)i * eh.e_phentsize);

			if (pread(fd, &ph, sizeof(ph), off) != (ssize_t)sizeof(ph))
				break;
			if (ph.p_type == PT_INTERP)
				verdict = ELF_DYNAMIC;
		}
	} else if (ident[EI_CLASS] == ELFCLASS32) {
		Elf32_Ehdr eh;
		Elf32_Phdr ph;

		if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
			goto out;
		for (unsigned int i = 0; i < eh.e_phnum; i++) {
			off_t off = (off_t)(eh.e_phoff + (Elf32_Off)i * eh.e_phentsize);

			if (pread(fd, &ph, sizeof(ph), off) != (ssize_t)sizeof(ph))
				break;
			if (ph.p_type == PT_INTERP)
				verdict = ELF_DYNAMIC;
		}
	} else {
		verdict = ELF_OTHER;
	}
out:
	close(fd);
	return verdict;
}

/* NAME="existing:value" (value alone if NAME is unset or empty); value is len bytes. */
static int append_env(const char *name, const char *value, size_t len)
{
	const char *old = getenv(name);
	char *val;
	int ret;

	if (asprintf(&val, "%s%s%.*s", old ? old : "", old && *old ? ":" : "", (int)len, value) < 0)
		return -1;
	ret = setenv(name, val, 1);
	free(val);
	return ret;
}

/*
 * LD_PRELOAD="existing:ours".  The loader splits LD_PRELOAD at ':' and
 * blanks, with no way to quote, so a library whose folder has a blank in its
 * path (a build tree under "/home/me/my projects") is listed by its file
 * name alone, and its folder added to LD_LIBRARY_PATH, which the loader
 * splits at ':' and ';' only and searches for a name without a slash.  A
 * path with ':', or a file name with a blank, fits neither.
 */
static int add_preload(const char *lib)
{
	const char *slash = strrchr(lib, '/');

	if (!strpbrk(lib, ": \t"))
		return append_env("LD_PRELOAD", lib, strlen(lib));
	if (!strpbrk(lib, ":;") && slash && !strpbrk(slash + 1, " \t")) {
		if (append_env("LD_LIBRARY_PATH", lib, (size_t)(slash - lib)) != 0)
			return -1;
		return append_env("LD_PRELOAD", slash + 1, strlen(slash + 1));
	}
	fprintf(stderr, "%s: %s: the preload library's path contains ':' (or ';', or a blank in the file's "
		"own name), which neither LD_PRELOAD nor LD_LIBRARY_PATH can express\n", prog_name, lib);
	return -1;
}

/*
 * A suppression file is text: a directory, or binary data (a NUL byte, or
 * control characters other than tab, CR and newline), is the wrong file
 * given, which the module would take for no rules at all.  NULL: fine.
 */
static const char *not_rules(int fd)
{
	struct stat st;
	unsigned char buf[4096];
	ssize_t n;

	if (fstat(fd, &st) != 0)
		return strerror(errno);
	if (S_ISDIR(st.st_mode))
		return strerror(EISDIR);
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] < 0x20 && buf[i] != '\t' && buf[i] != '\n' && buf[i] != '\r')
				return "binary data, not a suppression file (see uirq-lockdep(1), SUPPRESSIONS)";
	return n < 0 ? strerror(errno) : NULL;
}

/*
 * A file option for the module: relative to where the user typed it, not to
 * where the program chdir()s; one that cannot be opened (for appending, or
 * for reading) is an error here, before the program runs, not a surprise in
 * its output.
 */
static int set_file(const char *opt, const char *env, const char *file, bool output)
{
	char *abs = NULL;
	char cwd[PATH_MAX];
	int ret, fd;

	const char *why;

	fd = output ? open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644) : open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "%s: %s %s: %s\n", prog_name, opt, file, strerror(errno));
		return -1;
	}
	why = output ? NULL : not_rules(fd);
	close(fd);
	if (why) {
		fprintf(stderr, "%s: %s %s: %s\n", prog_name, opt, file, why);
		return -1;
	}
	if (file[0] != '/' && getcwd(cwd, sizeof(cwd))) {
		if (asprintf(&abs, "%s/%s", cwd, file) < 0)
			return -1;
		file = abs;
	}
	ret = setenv(env, file, 1);
	free(abs);
	return ret;
}

/*
 * A program built with AddressSanitizer refuses to start when its runtime
 * is not first in the library list, and ours is before it.  The module
 * defines no allocator function, so the order is harmless: say so to the
 * runtime (harmless too for a program without it).
 */
static int asan_allow_preload(void)
{
	const char *old = getenv("ASAN_OPTIONS"), *opt = "verify_asan_link_order=0";

	if (old && strstr(old, "verify_asan_link_order"))
		return 0;	/* the user's own choice */
	return append_env("ASAN_OPTIONS", opt, strlen(opt));
}

/*
 * Would the dynamic loader run program in secure-execution mode, where it
 * ignores LD_PRELOAD?  A set-user-ID program whose owner is not the caller,
 * or a set-group-ID one of another group - unless the bits are ignored (a
 * nosuid mount, or no_new_privs).  "user" or "group", or NULL.
 */
static const char *secure_exec(const char *program)
{
	struct stat st;
	struct statvfs fs;

	if (stat(program, &st) != 0 || (statvfs(program, &fs) == 0 && (fs.f_flag & ST_NOSUID)) ||
	    prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return NULL;
	if ((st.st_mode & S_ISUID) && st.st_uid != getuid())
		return "user";
	if ((st.st_mode & S_ISGID) && st.st_gid != getgid())
		return "group";
	return NULL;
}

/*
 * A program the validator cannot see into: said plainly, and with
 * --exit-code the run fails (the program runs, and its status is replaced
 * by N, whatever it was: nothing was checked).
 */
static int run_unchecked(const char *program, char **args, const char *which)
{
	const char *code = getenv("UIRQ_LOCKDEP_EXIT_CODE");
	int status;
	pid_t pid;

	fprintf(stderr, "%s: %s is set-%s-ID: the dynamic loader ignores LD_PRELOAD for it, so it runs "
		"UNCHECKED (no lock is validated)%s\n", prog_name, args[0], which,
		code && *code ? "; --exit-code fails the run" : "");
	if (!code || !*code) {
		execv(program, args);
		fprintf(stderr, "%s: %s: %s\n", prog_name, args[0], strerror(errno));
		return errno == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		execv(program, args);
		fprintf(stderr, "%s: %s: %s\n", prog_name, args[0], strerror(errno));
		_exit(errno == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC);
	}
	/* as system() does: the terminal's signals are the program's to act on */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return atoi(code);
}

/* exec PROGRAM under the preload library; returns only on failure, with the exit status. */
static int run(const char *program, char **args)
{
	const char *preload, *secure;

	if (elf_kind(program) == ELF_STATIC) {
		fprintf(stderr, "%s: %s is statically linked; uirq-lockdep needs a dynamically "
			"linked program\n", prog_name, args[0]);
		return EXIT_NOEXEC;
	}
	/* the kernel ignores the bits on a script */
	secure = elf_kind(program) == ELF_DYNAMIC ? secure_exec(program) : NULL;
	if (secure)
		return run_unchecked(program, args, secure);
	preload = find_preload();
	if (!preload)
		return EXIT_NOPRELOAD;
	if (add_preload(preload) != 0 || asan_allow_preload() != 0)
		return EXIT_NOPRELOAD;
	execv(program, args);
	fprintf(stderr, "%s: %s: %s\n", prog_name, args[0], strerror(errno));
	return errno == ENOENT ? EXIT_NOTFOUND : EXIT_NOEXEC;
}

int main(int argc, char **argv)
{
	enum { OPT_FATAL = 256, OPT_EXIT_CODE, OPT_CLASSES, OPT_LOG, OPT_JSON, OPT_SUPPRESS, OPT_STAT,
	       OPT_HELP, OPT_VERSION };
	static const struct option opts[] = {
		{ "fatal", no_argument, NULL, OPT_FATAL },
		{ "exit-code", required_argument, NULL, OPT_EXIT_CODE },
		{ "classes", required_argument, NULL, OPT_CLASSES },
		{ "log", required_argument, NULL, OPT_LOG },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "suppress", required_argument, NULL, OPT_SUPPRESS },
		{ "stat", no_argument, NULL, OPT_STAT },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 },
	};
	char *program;
	int c, status;

	/* '+': options end at PROGRAM, whose own options are left alone. */
	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		char *end;
		long n;

		switch (c) {
		case OPT_FATAL:
			setenv("UIRQ_LOCKDEP_FATAL", "1", 1);
			break;
		case OPT_EXIT_CODE:
			n = strtol(optarg, &end, 10);
			if (!*optarg || *end || n < 0 || n > 255) {
				fprintf(stderr, "%s: --exit-code wants a number from 0 to 255, not '%s'\n",
					prog_name, optarg);
				return EXIT_USAGE;
			}
			setenv("UIRQ_LOCKDEP_EXIT_CODE", optarg, 1);
			break;
		case OPT_CLASSES:
			if (strcmp(optarg, "instance") != 0 && strcmp(optarg, "site") != 0) {
				fprintf(stderr, "%s: --classes is 'instance' or 'site', not '%s'\n",
					prog_name, optarg);
				return EXIT_USAGE;
			}
			setenv("UIRQ_LOCKDEP_CLASSES", optarg, 1);
			break;
		case OPT_LOG:
			if (set_file("--log", "UIRQ_LOCKDEP_LOG", optarg, true) != 0)
				return EXIT_USAGE;
			break;
		case OPT_JSON:
			if (set_file("--json", "UIRQ_LOCKDEP_JSON", optarg, true) != 0)
				return EXIT_USAGE;
			break;
		case OPT_SUPPRESS:
			if (set_file("--suppress", "UIRQ_LOCKDEP_SUPPRESS", optarg, false) != 0)
				return EXIT_USAGE;
			break;
		case OPT_STAT:
			setenv("UIRQ_LOCKDEP_STAT", "1", 1);
			break;
		case OPT_HELP:
			usage(stdout);
			return 0;
		case OPT_VERSION:
			printf("uirq-lockdep %s\n", UIRQ_VERSION);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}

	program = resolve_program(argv[optind]);
	if (!program) {
		fprintf(stderr, "%s: %s: %s\n", prog_name, argv[optind], strerror(errno));
		return errno == EACCES ? EXIT_NOEXEC : EXIT_NOTFOUND;
	}
	status = run(program, argv + optind);
	free(program);
	return status;
}
