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
 * and CPU time, 256 MiB of address space (RLIMIT_AS: /incbin/ of a device
 * grew dtc to 2 GB) and 64 MiB per output file. They may read only
 * regular files in SRC's directory tree and the -I directories
 * (dt-confine.c checks what they read: cpp's -H, dtc's /include/ and
 * /incbin/ in cpp's output, dtc's -d). A line scan of the files SRC
 * includes refuses the plain cases first, with their line, before cpp
 * could block on a FIFO.
 *
 * Every blob, compiled or read, then passes ea_dt_check(): the header
 * (versions 16 and 17) and libfdt's fdt_check_full() of the whole blob,
 * before import-dt.c walks it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libfdt.h>

#include "model/dt-confine.h"
#include "model/import-priv.h"
#include "model/import.h"

#define RUN_SECONDS 10
#define RUN_MEMORY (256ul << 20)	/* RLIMIT_AS of cpp (and cc1) and dtc */
#define RUN_MEMORY_STR "256 MiB"
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

/* The files scan_includes() has read (each once), at most MAX_SCANNED. */
#define MAX_SCANNED 1024
struct scanned {
	char *path[MAX_SCANNED];
	int n;
};

/* Is PATH new (then it is recorded, and *path taken)? */
static bool first_visit(struct scanned *v, char **path)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->path[i], *path))
			return false;
	if (v->n == MAX_SCANNED)
		return false;	/* enough: cpp's and dtc's time limit remains */
	v->path[v->n++] = *path;
	*path = NULL;
	return true;
}

/*
 * Lines of TEXT (FILE) starting with #include "x" / <x> or /include/ "x":
 * each file found must be one cpp and dtc may read (ea_dt_refusal(): a
 * regular file in the tree), then it is read (size-capped) and scanned in
 * turn, once. A missing #include is left to cpp to report; a missing
 * /include/ is reported here (dtc would not say where it was). Includes
 * through macros are dt-confine.c's, after cpp.
 */
static int scan_includes(const char *file, const char *text,
			 const struct ea_import_opts *o,
			 const struct ea_dt_confine *c, int depth,
			 struct scanned *v, struct ea_err *err)
{
	int line = 0;

	for (const char *s = text; s; s = strchr(s, '\n'), s = s ? s + 1 : s) {
		const char *q = s + strspn(s, " \t");
		bool dtc = !strncmp(q, "/include/", 9);
		char *name, *path, *t, why[600];
		struct ea_err e2;
		size_t n;
		int rc = 0;

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
		if (!path && dtc)
			return -1;
		if (path && ea_dt_refusal(c, path, why, sizeof(why))) {
			ea_err_set(err, "%s:%d: cannot include: %s: %s", file, line, path, why);
			free(path);
			return -1;
		}
		if (!path || depth >= MAX_INCLUDE_DEPTH || !first_visit(v, &path)) {
			free(path);
			continue;
		}
		path = v->path[v->n - 1];
		if (ea_read_file(path, EA_MODEL_MAX_FILE, &t, &n, &e2))
			return ea_err_set(err, "%s:%d: cannot include: %s", file, line, e2.msg);
		rc = scan_includes(path, t, o, c, depth + 1, v, err);
		free(t);
		if (rc)
			return -1;
	}
	return 0;
}

/* The first line of log that says "error", else its first line (cpp's
 * -H lines and what follows "Multiple include guards" left out). */
static const char *error_line(const char *text)
{
	const char *first = NULL;

	for (const char *l = text; *l; l = *strchrnul(l, '\n') ? strchrnul(l, '\n') + 1 : "") {
		size_t n = strcspn(l, "\n"), dots = strspn(l, ".");
		char *line;
		bool err;

		if (!strncmp(l, "Multiple include guards may be useful for:", 42))
			break;
		if (!n || (dots && l[dots] == ' '))
			continue;
		line = strndup(l, n);
		err = line && strcasestr(line, "error");
		free(line);
		if (err)
			return l;
		if (!first)
			first = l;
	}
	return first;
}

/*
 * The program's message: "PROG: LINE" when the line starts with a
 * position ("FILE:LINE"), else "SRC: PROG: LINE"; out of memory adds the
 * limit.
 */
static int tool_error(const char *src, const char *prog, const char *log,
		      int status, struct ea_err *err)
{
	const char *l = NULL, *t, *mem = "";
	char *text = NULL;
	bool at = false;
	struct ea_err e2;
	size_t n;

	if (!ea_read_file(log, 1 << 20, &text, &n, &e2))
		l = error_line(text);
	if (!l) {
		ea_err_set(err, "%s: %s failed (%s %d)", src, prog,
			   WIFSIGNALED(status) ? "signal" : "exit status",
			   WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		free(text);
		return -1;
	}
	n = strcspn(l, "\n");
	t = strncmp(l, "Error: ", 7) ? l : l + 7;	/* dtc's syntax errors */
	for (size_t i = 0; i + 1 < strcspn(t, " \n"); i++)
		at |= t[i] == ':' && t[i + 1] >= '0' && t[i + 1] <= '9';
	if (memmem(l, n, "out of memory", 13) || memmem(l, n, "memory exhausted", 16) ||
	    memmem(l, n, "alloc() failed", 14))
		mem = " (cpp and dtc run with at most " RUN_MEMORY_STR " of memory)";
	if (at)
		ea_err_set(err, "%s: %.*s%s", prog, (int)n, l, mem);
	else
		ea_err_set(err, "%s: %s: %.*s%s", src, prog, (int)n, l, mem);
	free(text);
	return -1;
}

/*
 * Runs argv[0] (from PATH) with stdout and stderr to LOG; 0 if it exits 0.
 * pfd tells an exec failure (closed on exec); alive stays open in the
 * program and whatever it runs (cpp runs cc1): its end is their end.
 * *said: the error is the program's own message (from LOG), which may
 * quote what it read.
 */
static int run(const char *src, char *const argv[], const char *log,
	       bool *said, struct ea_err *err)
{
	int pfd[2], alive[2], status = 0, e = 0;
	struct pollfd pw;
	pid_t pid;

	*said = false;
	if (pipe2(pfd, O_CLOEXEC))
		return ea_err_set(err, "%s: pipe: %s", src, strerror(errno));
	if (pipe(alive)) {
		close(pfd[0]);
		close(pfd[1]);
		return ea_err_set(err, "%s: pipe: %s", src, strerror(errno));
	}
	fcntl(alive[0], F_SETFD, FD_CLOEXEC);
	pid = fork();
	if (pid == 0) {
		struct rlimit fs = { MAX_OUT, MAX_OUT }, cpu = { RUN_SECONDS, RUN_SECONDS };
		struct rlimit as = { RUN_MEMORY, RUN_MEMORY };
		int in = open("/dev/null", O_RDONLY);
		int out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		/* the address-space limit last: nothing is allocated after it */
		if (setpgid(0, 0) || in < 0 || out < 0 || dup2(in, 0) < 0 ||
		    dup2(out, 1) < 0 || dup2(out, 2) < 0 || setrlimit(RLIMIT_FSIZE, &fs) ||
		    setrlimit(RLIMIT_CPU, &cpu) || setenv("LC_ALL", "C", 1) ||
		    setrlimit(RLIMIT_AS, &as))
			e = errno ? errno : EIO;
		else
			execvp(argv[0], argv);
		e = e ? e : errno;
		if (write(pfd[1], &e, sizeof(e)) < 0)
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	close(alive[1]);
	if (pid < 0) {
		close(pfd[0]);
		close(alive[0]);
		return ea_err_set(err, "%s: fork: %s", src, strerror(errno));
	}
	if (read(pfd[0], &e, sizeof(e)) != sizeof(e))
		e = 0;		/* closed by exec: it runs */
	close(pfd[0]);
	pw = (struct pollfd){ .fd = alive[0], .events = POLLIN };
	while (poll(&pw, 1, RUN_SECONDS * 1000) < 0 && errno == EINTR)
		;
	close(alive[0]);
	if (!pw.revents) {
		kill(-pid, SIGKILL);	/* its group: cpp and cc1 */
		waitpid(pid, &status, 0);
		return ea_err_set(err, "%s: %s ran more than %d s: stopped",
				  src, argv[0], RUN_SECONDS);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (e == ENOENT)
		return ea_err_set(err, "%s: dts needs the program '%s', not found in PATH (Debian package %s)",
				  src, argv[0], strcmp(argv[0], "dtc") ? "cpp" : "device-tree-compiler");
	if (e)
		return ea_err_set(err, "%s: cannot run %s: %s", src, argv[0], strerror(e));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		*said = true;
		return tool_error(src, argv[0], log, status, err);
	}
	return 0;
}

/* A file the programs wrote, "" when they did not. */
static char *written(const char *file)
{
	struct ea_err e2;
	char *text;
	size_t n;

	return ea_read_file(file, MAX_OUT, &text, &n, &e2) ? strdup("") : text;
}

/*
 * cpp, then what it read checked (whatever its exit status: its messages
 * are shown only when it read nothing it may not), then the files dtc
 * would read checked in its output, dtc, and what dtc read checked.
 * f: in/in.dts, out.dtb, out.dts, log, deps.
 */
static int compile(const char *src, char **cpp, char **dtc, char f[][4200],
		   const char *const *search, int nsearch, struct ea_dt_confine *c,
		   struct ea_err *err)
{
	char *log = NULL, *pre = NULL, *deps = NULL;
	struct ea_err run_err;
	bool said;
	int rc = -1, ran;

	ran = run(src, cpp, f[3], &said, &run_err);
	if (!(log = written(f[3])) || !(pre = written(f[0]))) {
		ea_err_set(err, "%s: out of memory", src);
		goto out;
	}
	if (ea_dt_check_cpp(c, src, log, pre, err))
		goto out;
	if (ran) {
		*err = run_err;
		goto out;
	}
	if (ea_dt_check_dtc(c, f[0], pre, search, nsearch, err))
		goto out;
	ran = run(src, dtc, f[3], &said, &run_err);
	if (ran && !said) {
		*err = run_err;	/* stopped, or not run: nothing of what it read */
		goto out;
	}
	if (!(deps = written(f[4]))) {
		ea_err_set(err, "%s: out of memory", src);
		goto out;
	}
	if (ea_dt_check_deps(c, src, f[1], deps, err))
		goto out;
	if (ran)
		*err = run_err;
	rc = ran ? -1 : 0;
out:
	free(log);
	free(pre);
	free(deps);
	return rc;
}

int ea_dt_compile(const char *src, const char *text,
		  const struct ea_import_opts *o, char **dtb, size_t *len,
		  struct ea_dt_locs **where, struct ea_err *err)
{
	static const char *const leaf[] = { "in/in.dts", "out.dtb", "out.dts", "log", "deps" };
	const char *tmp = getenv("TMPDIR");
	char dir[4096], in[4200], f[5][4200], *srcdir = dir_of(src), *annot = NULL;
	char *srcarg = join(src[0] == '-' ? "." : NULL, src);	/* not an option */
	char **cpp = calloc((size_t)(16 + 2 * o->nincdirs), sizeof(char *));
	char **dtc = calloc((size_t)(16 + 2 * o->nincdirs), sizeof(char *));
	const char **search = calloc((size_t)(1 + o->nincdirs), sizeof(char *));
	struct ea_dt_confine *c = ea_dt_confine_new(src, o);
	int nc = 0, nd = 0, rc = -1;
	struct scanned *v;
	bool said;
	size_t n;

	*dtb = NULL;
	*where = NULL;
	if (!srcdir || !srcarg || !cpp || !dtc || !search || !c) {
		ea_err_set(err, "%s: out of memory", src);
		goto out;
	}
	v = calloc(1, sizeof(*v));
	if (!v) {
		ea_err_set(err, "%s: out of memory", src);
		goto out;
	}
	rc = scan_includes(src, text, o, c, 0, v, err);
	for (int i = 0; i < v->n; i++)
		free(v->path[i]);
	free(v);
	if (rc)
		goto out;
	rc = -1;
	snprintf(dir, sizeof(dir), "%s/eatrace-dtc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		ea_err_set(err, "%s: cannot make a temporary directory: %s", src,
			   strerror(errno));
		goto out;
	}
	ea_dt_confine_private(c, dir);
	for (int i = 0; i < 5; i++)
		snprintf(f[i], sizeof(f[i]), "%s/%s", dir, leaf[i]);
	/* dtc looks for a relative /incbin/ beside its input first: alone there */
	snprintf(in, sizeof(in), "%s/in", dir);
	if (mkdir(in, 0700)) {
		ea_err_set(err, "%s: cannot make a temporary directory: %s", src,
			   strerror(errno));
		goto rm;
	}
	for (const char *const *a = (const char *const[]){ "cpp", "-nostdinc",
		"-undef", "-D__DTS__", "-x", "assembler-with-cpp", "-H", "-w", NULL }; *a; a++)
		cpp[nc++] = (char *)*a;
	for (const char *const *a = (const char *const[]){ "dtc", "-q", "-I",
		"dts", "-O", "dtb", "-o", f[1], "-d", f[4], "-i", srcdir, NULL }; *a; a++)
		dtc[nd++] = (char *)*a;
	search[0] = srcdir;
	for (int i = 0; i < o->nincdirs; i++) {
		cpp[nc++] = "-I";
		cpp[nc++] = (char *)o->incdirs[i];
		dtc[nd++] = "-i";
		dtc[nd++] = (char *)o->incdirs[i];
		search[1 + i] = o->incdirs[i];
	}
	cpp[nc++] = "-o";
	cpp[nc++] = f[0];
	cpp[nc++] = srcarg;
	dtc[nd++] = f[0];
	if (compile(src, cpp, dtc, f, search, 1 + o->nincdirs, c, err))
		goto rm;
	/* again, as annotated dts text (the same input: the same files read):
	 * where each node and property was set */
	dtc[5] = "dts";
	dtc[7] = f[2];
	dtc[nd] = "-T";
	dtc[nd + 1] = "-T";
	if (run(src, dtc, f[3], &said, err) ||
	    ea_read_file(f[1], MAX_OUT, dtb, len, err) ||
	    ea_read_file(f[2], MAX_OUT, &annot, &n, err))
		goto rm;
	*where = ea_dt_locs(annot);
	rc = *where ? 0 : ea_err_set(err, "%s: out of memory", src);
rm:
	for (int i = 0; i < 5; i++)
		unlink(f[i]);
	rmdir(in);
	rmdir(dir);
out:
	if (rc) {
		free(*dtb);
		*dtb = NULL;
	}
	ea_dt_confine_free(c);
	free(annot);
	free(srcarg);
	free(search);
	free(cpp);
	free(dtc);
	free(srcdir);
	return rc;
}

/*
 * Where dtc's annotated dts (-O dts -T -T) says each node and property was
 * set, as records "PATH\tPROP\tFILE:LINE" (PROP empty for a node) sorted
 * for bsearch(). Its lines are "[LABEL: ]NAME { /\* FILE:L:C-L:C[, ...]
 * *\/", "};" and "NAME[ = VALUE]; /\* FILE:L:C-L:C *\/".
 */
struct ea_dt_locs {
	char **rec;
	size_t n;
};

static size_t keylen(const char *r)
{
	const char *t = strchr(r, '\t');

	t = t ? strchr(t + 1, '\t') : NULL;
	return t ? (size_t)(t - r) + 1 : strlen(r);
}

static int keycmp(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

static int cmp_rec(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	return keycmp(x, keylen(x), y, keylen(y));
}

static int cmp_key(const void *k, const void *r)
{
	const char *y = *(char *const *)r;

	return keycmp(k, strlen(k), y, keylen(y));
}

/* The record of line l (its comment at c), or 0 when it has no location. */
static int add_rec(struct ea_dt_locs *w, const char *path, const char *prop,
		   size_t nprop, const char *c)
{
	size_t k = strcspn(c += 4, ",*\n");
	char **nr;

	while (k && c[k - 1] != '-')	/* cut ":COLUMN-LINE:COLUMN" */
		k--;
	while (k && c[k - 1] != ':')
		k--;
	if (k < 2 || c[0] == '<')
		return 0;
	nr = realloc(w->rec, (w->n + 1) * sizeof(*nr));
	if (!nr)
		return -1;
	w->rec = nr;
	if (asprintf(&nr[w->n], "%s\t%.*s\t%.*s", path, (int)nprop, prop, (int)k - 1, c) < 0)
		return -1;
	w->n++;
	return 0;
}

struct ea_dt_locs *ea_dt_locs(const char *annot)
{
	struct ea_dt_locs *w = calloc(1, sizeof(*w));
	char cur[1024] = "";
	size_t depth = 0, lens[256];

	for (const char *s = annot; w && *s; s = *strchrnul(s, '\n') ? strchrnul(s, '\n') + 1 : "") {
		const char *l = s + strspn(s, "\t"), *e = strchrnul(l, '\n');
		const char *c = NULL, *name = l;
		int rc = 0;

		for (const char *q = l; q + 3 < e; q++)
			if (!strncmp(q, " /* ", 4))
				c = q;
		if (!strncmp(l, "};", 2) && depth) {
			cur[lens[--depth]] = '\0';
		} else if (c && c > l + 1 && c[-1] == '{') {
			for (const char *q = l; q < c; q++)
				if (q[0] == ':' && q[1] == ' ')
					name = q + 2;
			if (depth == sizeof(lens) / sizeof(lens[0]))
				break;
			lens[depth++] = strlen(cur);
			snprintf(cur + strlen(cur), sizeof(cur) - strlen(cur), "%s%.*s",
				 depth > 2 ? "/" : "", (int)(c - 2 - name), name);
			rc = add_rec(w, cur, "", 0, c);
		} else if (c && c > l) {
			rc = add_rec(w, cur, l, strcspn(l, " ;"), c);
		} else {
			continue;
		}
		if (rc) {
			ea_dt_locs_free(w);
			return NULL;
		}
	}
	if (w && w->n)
		qsort(w->rec, w->n, sizeof(*w->rec), cmp_rec);
	return w;
}

void ea_dt_locs_free(struct ea_dt_locs *w)
{
	for (size_t i = 0; w && i < w->n; i++)
		free(w->rec[i]);
	if (w)
		free(w->rec);
	free(w);
}

bool ea_dt_where(const struct ea_dt_locs *w, const char *path,
		 const char *prop, char *buf, size_t size)
{
	char key[1100], **r;

	snprintf(key, sizeof(key), "%s\t%s\t", path, prop ? prop : "");
	r = w && w->n ? bsearch(key, w->rec, w->n, sizeof(*w->rec), cmp_key) : NULL;
	if (!r)
		return false;
	snprintf(buf, size, "%s", *r + keylen(*r));
	return true;
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
