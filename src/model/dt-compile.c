// SPDX-License-Identifier: GPL-2.0-only
/*
 * dts text to a dtb blob with the toolchain that defines the language, as
 * the kernel build runs it:
 *
 *	cpp -nostdinc -undef -D__DTS__ -x assembler-with-cpp -I DIR... SRC
 *	dtc -I dts -O dtb -i SRCDIR -i DIR... (and -O dts -T -T: where each
 *	    node and property was set, for error messages)
 *
 * Both run by fork/exec (no shell) in a private temporary directory that
 * is removed afterwards, stdin /dev/null, LC_ALL=C, at most 10 s of wall
 * and CPU time and 64 MiB per output file. Includes that are not regular
 * files (a FIFO would block cpp or dtc) are refused first, by a line scan
 * of the files SRC includes.
 *
 * Every blob, compiled or read, then passes ea_dt_check(): the header
 * (versions 16 and 17) and libfdt's fdt_check_full() of the whole blob,
 * before import-dt.c walks it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <libfdt.h>

#include "model/import.h"

#define RUN_SECONDS 10
#define MAX_OUT (64u << 20)
#define MAX_INCLUDE_DEPTH 16

/* DIR/NAME, or NAME when it is absolute or DIR is NULL. */
static char *join(const char *dir, const char *name)
{
	char *p;

	if (name[0] == '/' || !dir)
		return strdup(name);
	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

static char *dir_of(const char *file)
{
	const char *s = strrchr(file, '/');

	return s ? strndup(file, (size_t)(s == file ? 1 : s - file)) : strdup(".");
}

/* The first existing file NAME names, as cpp and dtc search, or NULL. */
static char *find_include(const char *from, const char *name, bool quoted,
			  const struct ea_import_opts *o)
{
	struct stat st;
	char *dir = dir_of(from), *p = NULL;

	for (int i = quoted ? -1 : 0; dir && i < o->nincdirs; i++) {
		p = join(i < 0 ? dir : o->incdirs[i], name);
		if (!p || !stat(p, &st))
			break;
		free(p);
		p = NULL;
	}
	free(dir);
	return p;
}

/*
 * Lines of TEXT (FILE) starting with #include "x" / <x> or /include/ "x":
 * each file found is read (ea_read_file: a regular file, size-capped) and
 * scanned in turn. A missing #include is left to cpp to report; a missing
 * /include/ is reported here (dtc would not say where it was).
 */
static int scan_includes(const char *file, const char *text,
			 const struct ea_import_opts *o, int depth,
			 struct ea_err *err)
{
	int line = 0;

	for (const char *s = text; s; s = strchr(s, '\n'), s = s ? s + 1 : s) {
		const char *q = s + strspn(s, " \t");
		bool dtc = !strncmp(q, "/include/", 9);
		char *name, *path, *t;
		struct ea_err e2;
		size_t n;
		int rc;

		line++;
		if (dtc)
			q += 9;
		else if (*q == '#' && !strncmp(q + 1 + strspn(q + 1, " \t"), "include", 7))
			q += 1 + strspn(q + 1, " \t") + 7;
		else
			continue;
		q += strspn(q, " \t");
		if (*q != '"' && (*q != '<' || dtc))
			continue;
		n = strcspn(q + 1, *q == '"' ? "\"\n" : ">\n");
		name = strndup(q + 1, n);
		if (!name)
			return ea_err_set(err, "%s: out of memory", file);
		path = find_include(file, name, *q == '"', o);
		if (!path && dtc)
			ea_err_set(err, "%s:%d: cannot include: %s: not found", file, line, name);
		free(name);
		if (!path || depth >= MAX_INCLUDE_DEPTH) {
			free(path);
			if (dtc)
				return -1;
			continue;
		}
		if (ea_read_file(path, EA_MODEL_MAX_FILE, &t, &n, &e2)) {
			free(path);
			return ea_err_set(err, "%s:%d: cannot include: %s", file, line, e2.msg);
		}
		rc = scan_includes(path, t, o, depth + 1, err);
		free(t);
		free(path);
		if (rc)
			return -1;
	}
	return 0;
}

/* The first line of the program's messages that says what went wrong. */
static int tool_error(const char *src, const char *prog, const char *log,
		      int status, struct ea_err *err)
{
	const char *l = NULL, *p;
	char *text = NULL;
	size_t n;
	struct ea_err e2;

	if (!ea_read_file(log, 1 << 20, &text, &n, &e2)) {
		for (p = text; p && *p && !l; p = strchr(p, '\n'), p = p ? p + 1 : p)
			if (strcasestr(p, "error") && strcasestr(p, "error") < strchrnul(p, '\n'))
				l = p;
		if (!l)
			l = text[0] && text[0] != '\n' ? text : NULL;
	}
	if (!l)
		ea_err_set(err, "%s: %s failed (%s %d)", src, prog,
			   WIFSIGNALED(status) ? "signal" : "exit status",
			   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	else if (strcspn(l, "0123456789\n") < strcspn(l, "\n") && strstr(l, ":"))
		ea_err_set(err, "%s: %.*s", prog, (int)strcspn(l, "\n"), l);
	else
		ea_err_set(err, "%s: %s: %.*s", src, prog, (int)strcspn(l, "\n"), l);
	free(text);
	return -1;
}

/* Runs argv[0] (from PATH) with stdout and stderr to LOG; 0 if it exits 0. */
static int run(const char *src, char *const argv[], const char *log,
	       struct ea_err *err)
{
	const struct timespec tick = { 0, 10 * 1000 * 1000 };
	int pfd[2], status = 0, e = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return ea_err_set(err, "%s: pipe: %s", src, strerror(errno));
	pid = fork();
	if (pid == 0) {
		struct rlimit fs = { MAX_OUT, MAX_OUT }, cpu = { RUN_SECONDS, RUN_SECONDS };
		int in = open("/dev/null", O_RDONLY);
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
		    dup2(out, 2) < 0 || setrlimit(RLIMIT_FSIZE, &fs) ||
		    setrlimit(RLIMIT_CPU, &cpu) || setenv("LC_ALL", "C", 1))
			e = errno ? errno : EIO;
		else
			execvp(argv[0], argv);
		e = e ? e : errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return ea_err_set(err, "%s: fork: %s", src, strerror(errno));
	}
	if (read(pfd[0], &e, sizeof(e)) != sizeof(e))
		e = 0;		/* closed by exec: it runs */
	close(pfd[0]);
	for (int i = 0; waitpid(pid, &status, WNOHANG) != pid; i++) {
		if (i == RUN_SECONDS * 100) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return ea_err_set(err, "%s: %s ran more than %d s: stopped",
					  src, argv[0], RUN_SECONDS);
		}
		nanosleep(&tick, NULL);
	}
	if (e == ENOENT)
		return ea_err_set(err, "%s: dts needs the program '%s', not found in PATH (Debian package %s)",
				  src, argv[0], strcmp(argv[0], "dtc") ? "cpp" : "device-tree-compiler");
	if (e)
		return ea_err_set(err, "%s: cannot run %s: %s", src, argv[0], strerror(e));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return tool_error(src, argv[0], log, status, err);
	return 0;
}

int ea_dt_compile(const char *src, const char *text,
		  const struct ea_import_opts *o, char **dtb, size_t *len,
		  char **where, struct ea_err *err)
{
	static const char *const leaf[] = { "in.dts", "out.dtb", "out.dts", "log" };
	const char *tmp = getenv("TMPDIR");
	char dir[4096], f[4][4200], *srcdir = dir_of(src);
	char **cpp = calloc((size_t)(16 + 2 * o->nincdirs), sizeof(char *));
	char **dtc = calloc((size_t)(16 + 2 * o->nincdirs), sizeof(char *));
	int nc = 0, nd = 0, rc = -1;
	size_t n;

	*dtb = *where = NULL;
	if (!srcdir || !cpp || !dtc) {
		ea_err_set(err, "%s: out of memory", src);
		goto out;
	}
	if (scan_includes(src, text, o, 0, err))
		goto out;
	snprintf(dir, sizeof(dir), "%s/eatrace-dtc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ea_err_set(err, "%s: cannot make a temporary directory: %s", src,
			   strerror(errno));
		goto out;
	}
	for (int i = 0; i < 4; i++)
		snprintf(f[i], sizeof(f[i]), "%s/%s", dir, leaf[i]);
	for (const char *const *a = (const char *const[]){ "cpp", "-nostdinc",
		"-undef", "-D__DTS__", "-x", "assembler-with-cpp", NULL }; *a; a++)
		cpp[nc++] = (char *)*a;
	for (const char *const *a = (const char *const[]){ "dtc", "-q", "-I",
		"dts", "-O", "dtb", "-o", f[1], "-i", srcdir, NULL }; *a; a++)
		dtc[nd++] = (char *)*a;
	for (int i = 0; i < o->nincdirs; i++) {
		cpp[nc++] = "-I";
		cpp[nc++] = (char *)o->incdirs[i];
		dtc[nd++] = "-i";
		dtc[nd++] = (char *)o->incdirs[i];
	}
	cpp[nc++] = "-o";
	cpp[nc++] = f[0];
	cpp[nc++] = (char *)src;
	dtc[nd++] = f[0];
	if (run(src, cpp, f[3], err) || run(src, dtc, f[3], err))
		goto rm;
	/* again, as annotated dts text: where each node and property was set */
	dtc[5] = "dts";
	dtc[7] = f[2];
	dtc[nd] = "-T";
	dtc[nd + 1] = "-T";
	if (run(src, dtc, f[3], err) ||
	    ea_read_file(f[1], MAX_OUT, dtb, len, err) ||
	    ea_read_file(f[2], MAX_OUT, where, &n, err))
		goto rm;
	rc = 0;
rm:
	for (int i = 0; i < 4; i++)
		unlink(f[i]);
	rmdir(dir);
out:
	if (rc) {
		free(*dtb);
		free(*where);
		*dtb = *where = NULL;
	}
	free(cpp);
	free(dtc);
	free(srcdir);
	return rc;
}

/*
 * Where the annotated dts (dtc -O dts -T -T) says node PATH, or its
 * property PROP, was set: "FILE:LINE" in buf, or false. Its lines are
 * "[LABEL: ]NAME { /\* FILE:L:C-L:C[, ...] *\/", "};" and
 * "NAME[ = VALUE]; /\* FILE:L:C-L:C *\/".
 */
bool ea_dt_where(const char *where, const char *path, const char *prop,
		 char *buf, size_t size)
{
	char cur[1024] = "";
	size_t depth = 0, lens[64];

	for (const char *s = where; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : s) {
		const char *l = s + strspn(s, "\t"), *e = strchrnul(l, '\n');
		const char *c = NULL, *name;
		size_t k;

		for (const char *q = l; q + 2 < e; q++)
			if (!strncmp(q, " /* ", 4))
				c = q;
		if (!strncmp(l, "};", 2)) {
			if (depth)
				cur[lens[--depth]] = '\0';
			continue;
		}
		if (!c || c == l)
			continue;
		if (c[-1] == '{') {
			name = l;
			for (const char *q = l; q < c; q++)
				if (q[0] == ':' && q[1] == ' ')
					name = q + 2;
			k = (size_t)(c - 2 - name);
			if (depth == sizeof(lens) / sizeof(lens[0]))
				return false;
			lens[depth++] = strlen(cur);
			snprintf(cur + strlen(cur), sizeof(cur) - strlen(cur), "%s%.*s",
				 depth > 2 ? "/" : "", (int)k, name);
			if (prop || strcmp(cur, path))
				continue;
		} else if (!prop || strcmp(cur, path) ||
			   strncmp(l, prop, strlen(prop)) ||
			   !strchr(" ;", l[strlen(prop)])) {
			continue;
		}
		/* the first location, up to its ":COLUMN-LINE:COLUMN" */
		c += 4;
		k = strcspn(c, ",*\n");
		while (k && c[k - 1] != '-')
			k--;
		while (k && c[k - 1] != ':')
			k--;
		if (k < 2 || c[0] == '<')
			return false;
		snprintf(buf, size, "%.*s", (int)k - 1, c);
		return true;
	}
	return false;
}

int ea_dt_check(const char *src, const void *blob, size_t len,
		struct ea_err *err)
{
	uint32_t version, comp;
	int rc;

	if (len < sizeof(struct fdt_header))
		return ea_err_set(err, "%s: truncated dtb header", src);
	version = fdt_version(blob);
	comp = fdt_last_comp_version(blob);
	if (fdt_totalsize(blob) > len)
		return ea_err_set(err, "%s: truncated dtb (header says %u bytes, file has %zu)",
				  src, fdt_totalsize(blob), len);
	/* 17 is the newest version there is (and libfdt's last) */
	if (version < 16 || version > 17 || comp > 17)
		return ea_err_set(err, "%s: offset 20: dtb version %u (compatible with %u) not supported (16 or 17)",
				  src, version, comp);
	rc = fdt_check_full(blob, len);
	if (rc)
		return ea_err_set(err, "%s: not a valid dtb: %s (libfdt)", src, fdt_strerror(rc));
	return 0;
}
