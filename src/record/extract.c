// SPDX-License-Identifier: GPL-2.0-only
/*
 * Writing a session's buffer as trace.dat. libtracecmd 3.1 declares no
 * output API in its public header (tracecmd_output_* are private), so the
 * file is written by 'trace-cmd extract -B INSTANCE', which only reads the
 * buffers and the event formats: it works where 'trace-cmd record' is
 * refused (no write to /proc/sys/kernel/ftrace_enabled). It runs in its own
 * process group so that a Ctrl-C at the terminal does not cut it short.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "eatrace/record.h"

#ifndef EA_TRACE_CMD
#define EA_TRACE_CMD "trace-cmd"
#endif

/* The last non-empty line of text (trace-cmd's error), in place. */
static const char *last_line(char *text)
{
	char *end = text + strlen(text), *p;

	while (end > text && (end[-1] == '\n' || end[-1] == ' '))
		*--end = '\0';
	p = strrchr(text, '\n');
	return p ? p + 1 : text;
}

int ea_record_extract(struct ea_session *s, const char *path,
		      struct ea_err *err)
{
	const char *tc = getenv("EATRACE_TRACE_CMD");
	char *tmp = NULL;
	char log[4096];
	size_t loglen = 0;
	struct stat st;
	int fd, pfd[2], status = 0;
	pid_t pid;

	if (!tc || !*tc)
		tc = EA_TRACE_CMD;
	if (asprintf(&tmp, "%s.tmp.XXXXXX", path) < 0)
		return ea_err_set(err, "out of memory");
	fd = mkstemp(tmp);
	if (fd < 0) {
		ea_err_set(err, "%s: cannot write: %s", path, strerror(errno));
		free(tmp);
		return -1;
	}
	close(fd);
	if (pipe2(pfd, O_CLOEXEC)) {
		ea_err_set(err, "pipe: %s", strerror(errno));
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		ea_err_set(err, "fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		goto fail;
	}
	if (!pid) {
		ea_signals_default();
		setpgid(0, 0);
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		execlp(tc, tc, "extract", "-B", s->name, "-o", tmp, (char *)NULL);
		dprintf(2, "cannot run %s: %s\n", tc, strerror(errno));
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char buf[512];
		ssize_t n = read(pfd[0], buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		/* keep the tail: the error is at the end */
		if (loglen + (size_t)n >= sizeof(log)) {
			size_t drop = loglen + (size_t)n - sizeof(log) + 1;

			if (drop > loglen)
				drop = loglen;
			memmove(log, log + drop, loglen - drop);
			loglen -= drop;
		}
		if ((size_t)n >= sizeof(log))
			n = sizeof(log) - 1;
		memcpy(log + loglen, buf, (size_t)n);
		loglen += (size_t)n;
	}
	close(pfd[0]);
	log[loglen] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			ea_err_set(err, "waitpid: %s", strerror(errno));
			goto fail;
		}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		const char *why = last_line(log);

		if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
			ea_err_set(err, "%s: %s (trace-cmd writes trace.dat: install it, "
				   "or set EATRACE_TRACE_CMD)", path, why);
		else
			ea_err_set(err, "%s: '%s extract' failed: %s", path, tc,
				   *why ? why : "no message");
		goto fail;
	}
	if (stat(tmp, &st) || st.st_size == 0) {
		ea_err_set(err, "%s: '%s extract' wrote nothing", path, tc);
		goto fail;
	}
	chmod(tmp, 0644);
	if (rename(tmp, path)) {
		ea_err_set(err, "%s: cannot replace: %s", path, strerror(errno));
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	return -1;
}
