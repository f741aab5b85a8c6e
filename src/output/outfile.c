// SPDX-License-Identifier: GPL-2.0-only
/*
 * Output files, one set of rules for every file eatrace writes
 * (include/eatrace/output.h):
 *
 *  - a regular file (new or existing) is written to a short temporary
 *    (.eatrace-PID-XXXXXX) in its directory and renamed over it only when the
 *    whole run succeeded (ea_out_commit_all()); it keeps the existing
 *    file's mode (a new one gets 0666 less the umask); the existing
 *    file's cached pages are dropped at the open (outfile-drop.c);
 *  - a symlink is followed, its target replaced (a dangling one created);
 *  - anything else (device, FIFO, socket, /dev/stdout, /dev/fd/N of a
 *    process substitution) is written in place, never replaced;
 *  - a file the run reads (ea_input_noted(), src/input/run-inputs.c) is
 *    never written;
 *  - one regular file named as two outputs of a run (by two names, links
 *    or symlinks) is refused at the second: the later rename would
 *    silently drop the first output.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eatrace/input.h"
#include "eatrace/output.h"
#include "output/outfile-sync.h"

struct ea_outfile {
	char *path;		/* as given, for messages */
	char *target;		/* symlinks resolved; NULL: written in place */
	char *tmp;		/* the temporary beside target */
	char *canon;		/* target's directory resolved + its name */
	bool existed;		/* target existed at open: dev and ino are its */
	dev_t dev;
	ino_t ino;
	bool committed;		/* written completely, waiting for the end */
	struct out_sync *sync;	/* its fsync() still running (commit_later) */
	struct ea_outfile *next;
};

static struct ea_outfile *files;	/* every file opened, newest first */

static bool is_input(const struct stat *st)
{
	return ea_input_noted(st->st_dev, st->st_ino);
}

static int refuse_input(const char *path, struct ea_err *err)
{
	return ea_err_set(err, "%s: is an input of this run; refusing to overwrite it",
			  path);
}

static void discard_atexit(void)
{
	ea_out_discard_all();
}

/* The descriptor a name stands for: /dev/stdout, /dev/fd/N, ...; -1: none. */
static int fd_name(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long n;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t len = strlen(dirs[i]);

		if (strncmp(path, dirs[i], len) || !path[len])
			continue;
		errno = 0;
		n = strtol(path + len, &end, 10);
		if (!*end && !errno && n >= 0 && n <= INT_MAX)
			return (int)n;
	}
	return -1;
}

/*
 * path with its symlinks followed (the last component need not exist);
 * *fdnum set when a link leads to a descriptor (/dev/stdin -> /proc/self/fd/0).
 */
static char *resolve(const char *path, int *fdnum)
{
	char *cur = strdup(path);

	for (int hops = 0; cur && hops < 40; hops++) {
		char buf[PATH_MAX], *next, *slash;
		struct stat st;
		ssize_t n;

		*fdnum = fd_name(cur);
		if (*fdnum >= 0 || lstat(cur, &st) || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, buf, sizeof(buf) - 1);
		if (n < 0)
			return cur;
		buf[n] = '\0';
		slash = strrchr(cur, '/');
		if (buf[0] == '/' || !slash) {
			next = strdup(buf);
		} else if (asprintf(&next, "%.*s/%s", (int)(slash - cur), cur, buf) < 0) {
			next = NULL;
		}
		free(cur);
		cur = next;
	}
	return cur;
}

/*
 * A temporary in target's directory, .eatrace-PID-XXXXXX: at most 26 bytes
 * of name whatever the target's, and the PID tells a killed run's
 * leftovers (eatrace record removes them, src/record/extract.c).
 */
static int make_tmp(struct ea_outfile *of)
{
	const char *slash = strrchr(of->target, '/');
	int fd, pid = (int)getpid();

	if (!slash) {
		if (asprintf(&of->tmp, ".eatrace-%d-XXXXXX", pid) < 0)
			of->tmp = NULL;
	} else if (asprintf(&of->tmp, "%.*s/.eatrace-%d-XXXXXX",
			    (int)(slash - of->target), of->target, pid) < 0) {
		of->tmp = NULL;
	}
	if (!of->tmp) {
		errno = ENOMEM;
		return -1;
	}
	fd = mkostemp(of->tmp, O_CLOEXEC);
	if (fd < 0) {
		free(of->tmp);
		of->tmp = NULL;
	}
	return fd;
}

/* target with its directory resolved: one name per regular output file. */
static char *canonical(const char *target)
{
	const char *slash = strrchr(target, '/');
	char *dir, *real, *out = NULL;

	if (!slash)
		dir = strdup(".");
	else if (slash == target)
		dir = strdup("/");
	else
		dir = strndup(target, (size_t)(slash - target));
	real = dir ? realpath(dir, NULL) : NULL;
	if (real && asprintf(&out, "%s/%s", real, slash ? slash + 1 : target) < 0)
		out = NULL;
	free(real);
	free(dir);
	return out;
}

/* Whether another output of this run is the same regular file. */
static const struct ea_outfile *named_before(const struct ea_outfile *of)
{
	for (const struct ea_outfile *o = files; o; o = o->next)
		if ((o->canon && of->canon && !strcmp(o->canon, of->canon)) ||
		    (o->existed && of->existed && o->dev == of->dev && o->ino == of->ino))
			return o;
	return NULL;
}

static void outfile_free(struct ea_outfile *of)
{
	free(of->canon);
	free(of->path);
	free(of->target);
	free(of->tmp);
	free(of);
}

static void unlist(struct ea_outfile *of)
{
	for (struct ea_outfile **p = &files; *p; p = &(*p)->next)
		if (*p == of) {
			*p = of->next;
			return;
		}
}

/* A file that is not regular, written where it is. */
static int open_in_place(struct ea_outfile *of, int fdnum, struct ea_err *err)
{
	struct stat st;
	int fd;

	if (fdnum >= 0)
		fd = fcntl(fdnum, F_DUPFD_CLOEXEC, 3);
	else
		fd = open(of->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: cannot write: %s", of->path, strerror(errno));
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && is_input(&st)) {
		close(fd);
		return refuse_input(of->path, err);
	}
	return fd;
}

static int open_replaced(struct ea_outfile *of, struct ea_err *err)
{
	struct stat st;
	const struct ea_outfile *twice;
	mode_t mode, mask;
	bool exists;
	int fd, unused;

	exists = !stat(of->target, &st);
	if (exists && is_input(&st))
		return refuse_input(of->path, err);
	of->canon = canonical(of->target);
	of->existed = exists;
	of->dev = exists ? st.st_dev : 0;
	of->ino = exists ? st.st_ino : 0;
	twice = named_before(of);
	if (twice && !strcmp(twice->path, of->path))
		return ea_err_set(err, "%s: named twice as an output of this run", of->path);
	if (twice)
		return ea_err_set(err, "%s: is already an output of this run (as %s)",
				  of->path, twice->path);
	fd = make_tmp(of);
	if (fd < 0)
		return ea_err_set(err, "%s: cannot write: %s", of->path, strerror(errno));
	if (exists) {
		ea_out_drop_old(of->target);
		mode = st.st_mode & 07777;
		/* the owner too, when we may (else the new owner is us) */
		unused = fchown(fd, st.st_uid, st.st_gid);
		(void)unused;
	} else {
		mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fchmod(fd, mode);
	return fd;
}

int ea_out_open(struct ea_out *o, const char *path, struct ea_err *err)
{
	static bool hooked;
	struct ea_outfile *of;
	struct stat st;
	int fd, fdnum;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!hooked) {
		if (atexit(discard_atexit))
			return ea_err_set(err, "%s: out of memory", path);
		hooked = true;
	}
	of = calloc(1, sizeof(*of));
	if (!of || !(of->path = strdup(path))) {
		free(of);
		return ea_err_set(err, "%s: out of memory", path);
	}
	of->target = resolve(path, &fdnum);
	if (!of->target) {
		ea_err_set(err, "%s: out of memory", path);
		fd = -1;
	} else if (fdnum < 0 && !stat(path, &st) && S_ISDIR(st.st_mode)) {
		ea_err_set(err, "%s: is a directory", path);
		fd = -1;
	} else if (fdnum >= 0 || (!stat(path, &st) && !S_ISREG(st.st_mode))) {
		free(of->target);
		of->target = NULL;
		fd = open_in_place(of, fdnum, err);
	} else {
		fd = open_replaced(of, err);
	}
	if (fd >= 0 && !(o->f = fdopen(fd, "w"))) {
		ea_err_set(err, "%s: cannot write: %s", path, strerror(errno));
		close(fd);
		if (of->tmp)
			unlink(of->tmp);
		fd = -1;
	}
	if (fd < 0) {
		outfile_free(of);
		memset(o, 0, sizeof(*o));
		return -1;
	}
	o->file = of;
	of->next = files;
	files = of;
	return 0;
}

const char *ea_out_pending_path(const struct ea_out *o)
{
	return o->file ? o->file->tmp : NULL;
}

const char *ea_out_dir_of(const struct ea_out *o, char *buf, size_t size)
{
	const char *t = o->file ? o->file->tmp : NULL;
	const char *slash = t ? strrchr(t, '/') : NULL;

	if (!t)
		return NULL;
	if (!slash)
		return ".";
	if ((size_t)(slash - t) >= size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)(slash - t), t);
	return buf;
}

int ea_out_adopt(struct ea_out *o, const char *file, struct ea_err *err)
{
	struct ea_outfile *of = o->file;
	const char *name = of ? of->path : "stdout";
	char buf[65536];
	ssize_t n;
	int in;

	if (of && of->tmp) {
		struct stat st;

		/* same directory, so same file system: a rename */
		if (!fstat(fileno(o->f), &st) && !rename(file, of->tmp)) {
			int fd = open(of->tmp, O_RDONLY | O_CLOEXEC);

			fclose(o->f);
			o->f = NULL;
			if (fd < 0 || fsync(fd) || fchmod(fd, st.st_mode & 07777)) {
				int e = errno;

				if (fd >= 0)
					close(fd);
				return ea_err_set(err, "%s: write error: %s", name, strerror(e));
			}
			close(fd);
			return 0;
		}
	}
	in = open(file, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return ea_err_set(err, "%s: %s", file, strerror(errno));
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (fwrite(buf, 1, (size_t)n, o->f) != (size_t)n)
			break;
	close(in);
	if (n)
		return ea_err_set(err, "%s: write error: %s", name, strerror(errno));
	unlink(file);
	return 0;
}

/* The files at least this large that ea_out_commit_later() syncs on a
 * thread of their own (smaller ones: as ea_out_commit()). */
#define SYNC_LATER_BYTES (1L << 20)

static int commit(struct ea_out *o, bool later, struct ea_err *err)
{
	struct ea_outfile *of = o->file;
	int rc = 0;

	if (!of) {
		if (o->f && (fflush(o->f) || ferror(o->f)))
			rc = ea_err_set(err, "stdout: write error: %s", strerror(errno));
		memset(o, 0, sizeof(*o));
		return rc;
	}
	if (o->f) {
		int e = 0;

		if (fflush(o->f) || ferror(o->f))
			e = errno ? errno : EIO;
		else if (of->tmp && later && ftell(o->f) >= SYNC_LATER_BYTES &&
			 (of->sync = out_sync_start(o->f)))
			o->f = NULL; /* closed there */
		else if (of->tmp && fsync(fileno(o->f)))
			e = errno ? errno : EIO;
		if (o->f && fclose(o->f) && !e)
			e = errno ? errno : EIO;
		o->f = NULL;
		if (e) {
			rc = ea_err_set(err, "%s: write error: %s", of->path, strerror(e));
			ea_out_abort(o);
			return rc;
		}
	}
	if (of->tmp)
		of->committed = true;
	else {
		unlist(of);
		outfile_free(of);
	}
	memset(o, 0, sizeof(*o));
	return 0;
}

int ea_out_commit(struct ea_out *o, struct ea_err *err)
{
	return commit(o, false, err);
}

int ea_out_commit_later(struct ea_out *o, struct ea_err *err)
{
	return commit(o, true, err);
}

/* Waits for of's fsync() if it runs on a thread: 0 or its errno. */
static int sync_wait(struct ea_outfile *of)
{
	int e = 0;

	if (of->sync)
		e = out_sync_wait(of->sync);
	of->sync = NULL;
	return e;
}

void ea_out_abort(struct ea_out *o)
{
	struct ea_outfile *of = o->file;

	if (of) {
		if (o->f)
			fclose(o->f);
		/* committed later: its thread joined, its error dropped */
		(void)sync_wait(of);
		if (of->tmp)
			unlink(of->tmp);
		unlist(of);
		outfile_free(of);
	}
	memset(o, 0, sizeof(*o));
}

int ea_out_commit_all(struct ea_err *err)
{
	struct ea_outfile *of;
	struct stat st;
	int rc = 0;

	/* refuse before replacing anything; every file on disk first */
	for (of = files; of; of = of->next) {
		int e = sync_wait(of);

		if (e && !rc)
			rc = ea_err_set(err, "%s: write error: %s", of->path,
					strerror(e));
	}
	for (of = files; !rc && of; of = of->next) {
		if (!of->committed) {
			rc = ea_err_set(err, "%s: not written completely", of->path);
			break;
		}
		if (!stat(of->target, &st) && is_input(&st)) {
			rc = refuse_input(of->path, err);
			break;
		}
	}
	if (rc) {
		ea_out_discard_all();
		return rc;
	}
	while ((of = files)) {
		files = of->next;
		if (!rc && rename(of->tmp, of->target))
			rc = ea_err_set(err, "%s: cannot replace: %s", of->path,
					strerror(errno));
		if (rc)
			unlink(of->tmp);
		outfile_free(of);
	}
	return rc;
}

void ea_out_discard_all(void)
{
	struct ea_outfile *of;

	while ((of = files)) {
		files = of->next;
		(void)sync_wait(of);
		if (of->tmp)
			unlink(of->tmp);
		outfile_free(of);
	}
}
