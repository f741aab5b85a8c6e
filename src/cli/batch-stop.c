// SPDX-License-Identifier: GPL-2.0-only
/*
 * `eatrace batch` stopped by a signal, and what a killed one left behind
 * (src/cli/batch-stop.h). The handlers only record the signal and ask the
 * worker pool to stop; cmd-batch.c then writes the rows finished so far
 * and commits the table, so --resume goes on from them.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/batch-stop.h"
#include "cli/msg.h"
#include "eatrace/pool.h"

static volatile sig_atomic_t stopped_by;

static void on_stop(int sig)
{
	if (!stopped_by)
		stopped_by = sig;
	ea_pool_stop();
}

void batch_catch_stop(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	/* one ignored when eatrace started (nohup, a background job of a
	 * script) stays ignored */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!sigaction(sigs[i], NULL, &old) &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
}

int batch_stopped_by(void)
{
	return stopped_by;
}

const char *batch_signal_name(int sig)
{
	return sig == SIGINT	? "SIGINT"
	       : sig == SIGTERM ? "SIGTERM"
	       : sig == SIGHUP	? "SIGHUP"
				: "a signal";
}

/* The PID of a name outfile.c gives its temporaries, .eatrace-PID-XXXXXX;
 * 0 for any other name. */
static long temp_pid(const char *name)
{
	const char *p = name + 9, *dash;
	char *end;
	long pid;

	if (strncmp(name, ".eatrace-", 9) || !(dash = strchr(p, '-')) ||
	    strlen(dash + 1) != 6 ||
	    strspn(dash + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			     "abcdefghijklmnopqrstuvwxyz0123456789") != 6)
		return 0;
	pid = strtol(p, &end, 10);
	return end == dash && pid > 0 ? pid : 0;
}

static int remove_in(const char *dir, bool quiet)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid = temp_pid(e->d_name);
		char path[PATH_MAX];
		struct stat st;

		if (!pid || pid == (long)getpid() ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(path))
			continue;
		/* a process that exists (or one we may not signal) keeps it */
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid())
			continue;
		if (!unlink(path)) {
			n++;
			if (!quiet)
				ea_msg("batch: removed %s, left by process %ld "
				       "(gone)",
				       path, pid);
		}
	}
	closedir(d);
	return n;
}

static char *dir_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? strndup(path, (size_t)(s == path ? 1 : s - path))
		 : strdup(".");
}

int batch_remove_stale(const char *output, bool quiet)
{
	char *dir = dir_of(output), *real = realpath(output, NULL),
	     *rdir = NULL;
	char *a = dir ? realpath(dir, NULL) : NULL;
	int n = 0;

	if (dir)
		n += remove_in(dir, quiet);
	/* a symlinked table is written beside its target */
	rdir = real ? dir_of(real) : NULL;
	if (rdir && (!a || strcmp(a, rdir)))
		n += remove_in(rdir, quiet);
	free(dir);
	free(real);
	free(rdir);
	free(a);
	return n;
}
