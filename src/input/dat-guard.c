// SPDX-License-Identifier: GPL-2.0-only
/*
 * Opening a trace.dat through libtracecmd (dat-guard.h). libtracecmd 3.1.6
 * and libtraceevent 1.7:
 *  - crash on some cut or corrupt files, and some of their error paths
 *    crash too: every open runs under a crash guard (guarded_open(), or a
 *    rehearsal child in AddressSanitizer builds; rehearse_open() lists
 *    the cases);
 *  - print to stdout and stderr whatever the log level: silenced while a
 *    file is opened (quiet_begin());
 *  - `trace-cmd extract -B NAME` (and `record -B`) write an empty
 *    top-level buffer and the data as an instance buffer: when the top
 *    level has no record, the first instance buffer with records is read
 *    (open_buffers()).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "eatrace/pool.h"
#include "input/dat-guard.h"
#include "input/dat-kallsyms.h"
#include "input/dat-map.h"
#include "input/dat-rehearsed.h"
#include "input/dat-tracecmd.h"
#include "input/reader-dat.h"

/* A readable cause for a file libtracecmd refused to open. */
static int open_failure(const char *path, int saved_errno, struct ea_err *err)
{
	unsigned char head[32];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	n = read(fd, head, sizeof(head));
	if (fstat(fd, &st))
		st.st_size = 0;
	close(fd);
	if (n < (ssize_t)sizeof(dat_magic) ||
	    memcmp(head, dat_magic, sizeof(dat_magic)))
		return ea_err_set(err, "%s: not a trace.dat file", path);
	if (!memchr(head + sizeof(dat_magic), '\0', n - sizeof(dat_magic)))
		return ea_err_set(
			err, "%s: corrupt trace.dat header (no version)", path);
	if (strcmp((char *)head + sizeof(dat_magic), "6") &&
	    strcmp((char *)head + sizeof(dat_magic), "7")) {
		const char *v = (char *)head + sizeof(dat_magic);

		/* the version is shown only when printable: one line */
		for (int i = 0; i < 8 && v[i]; i++)
			if (v[i] < 0x20 || v[i] > 0x7e)
				v = "(unprintable)";
		return ea_err_set(err,
				  "%s: trace.dat version %.16s not supported "
				  "(6 and 7 are)",
				  path, v);
	}
	if (saved_errno == ENOMEM)
		return ea_err_set(err, "%s: out of memory", path);
	return ea_err_set(
		err, "%s: truncated or corrupt trace.dat headers (%lld bytes)",
		path, (long long)st.st_size);
}

/*
 * libtracecmd prints to stdout and stderr whatever its log level: e.g.
 * init_cpu_data() printf()s "File possibly truncated. Need at least N, but
 * file size is M." on stdout, where it would land in the middle of a dump.
 * While it opens a file, both go to /dev/null. Records are read without
 * this (it would cost syscalls per record). Threads opening files at once
 * (a Dask worker's) share one redirection: the first in saves stdout and
 * stderr, the last out puts them back (each thread restoring its own
 * saved copy left the process's stdout on /dev/null, or let a message
 * through, when two opens overlapped).
 */
static pthread_mutex_t quiet_lock = PTHREAD_MUTEX_INITIALIZER;
static int quiet_users, quiet_out = -1, quiet_err = -1;

static void quiet_begin(void)
{
	int null;

	pthread_mutex_lock(&quiet_lock);
	if (quiet_users++ == 0) {
		fflush(stdout);
		fflush(stderr);
		null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			quiet_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
			quiet_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
			if (quiet_out >= 0)
				dup2(null, STDOUT_FILENO);
			if (quiet_err >= 0)
				dup2(null, STDERR_FILENO);
			close(null);
		}
	}
	pthread_mutex_unlock(&quiet_lock);
}

static void quiet_end(void)
{
	pthread_mutex_lock(&quiet_lock);
	if (--quiet_users == 0) {
		fflush(stdout);
		fflush(stderr);
		if (quiet_out >= 0) {
			dup2(quiet_out, STDOUT_FILENO);
			close(quiet_out);
		}
		if (quiet_err >= 0) {
			dup2(quiet_err, STDERR_FILENO);
			close(quiet_err);
		}
		quiet_out = quiet_err = -1;
	}
	pthread_mutex_unlock(&quiet_lock);
}

#define OPEN_FLAGS \
	(TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS)

enum open_result {
	OPEN_OK = 10, /* also the exit codes of the rehearsal child */
	OPEN_HEAD, /* tracecmd_open_head() failed */
	OPEN_DATA, /* tracecmd_init_data() failed */
	OPEN_BUFFER, /* an instance buffer could not be opened */
};

/* The rehearsal child reports each step it starts on this pipe. */
static int stage_fd = -1;
/* The step open_buffers() is at, for the in-process guard. */
static volatile sig_atomic_t stage_now = OPEN_HEAD;

static void stage(enum open_result step)
{
	unsigned char c = step;

	stage_now = step;
	if (stage_fd >= 0 && write(stage_fd, &c, 1) != 1)
		stage_fd = -1;
}

/*
 * Where each CPU's reading starts, before anything is read: the page of
 * this cursor is the CPU's first page (when it holds a record) -- after a
 * peek, the cursor has moved past empty pages.
 */
static void save_cursors(struct dat_open *r, struct tracecmd_input *h)
{
	int cpu, n = tracecmd_cpus(h);

	free(r->cursor0);
	r->cursor0 = NULL;
	r->ncursor0 = 0;
	if (n <= 0 || n > EA_MAX_CPUS)
		return;
	r->cursor0 = calloc(n, sizeof(*r->cursor0));
	if (!r->cursor0)
		return;
	for (cpu = 0; cpu < n; cpu++)
		r->cursor0[cpu] = tracecmd_get_cursor(h, cpu);
	r->ncursor0 = n;
	r->cursor_h = h;
}

/*
 * tracecmd_open_head() keeping the descriptor: libtracecmd 3.1 leaks it
 * when the magic or version is bad, and a handle abandoned after a failed
 * open keeps it open; ea_dat_open_guarded() closes it then (a batch of
 * corrupt files, or a Python process, ran out of descriptors).
 */
static struct tracecmd_input *open_head(const char *path, struct dat_open *r)
{
	struct tracecmd_input *h;

	r->top_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (r->top_fd < 0 || fstat(r->top_fd, &r->top_st))
		return NULL;
	h = tracecmd_alloc_fd(r->top_fd, OPEN_FLAGS);
	if (h && tracecmd_read_headers(h, 0) < 0) {
		tracecmd_close(h); /* closes top_fd */
		r->top_fd = -1;
		return NULL;
	}
	return h;
}

/*
 * Open path's headers and data and pick the buffer to read:
 * `trace-cmd extract -B` and `record -B` leave the top-level buffer empty
 * and store the data as an instance, so when the top level has no record
 * the first instance buffer with records is read.
 */
static enum open_result open_buffers(const char *path, struct dat_open *r,
				     const char **bufname)
{
	int i, n, cpu;

	*bufname = NULL;
	stage(OPEN_HEAD);
	r->top = open_head(path, r);
	if (!r->top)
		return OPEN_HEAD;
	stage(OPEN_DATA);
	if (tracecmd_init_data(r->top) < 0)
		return OPEN_DATA;
	r->h = r->top;
	save_cursors(r, r->top);
	if (tracecmd_peek_next_data(r->top, &cpu))
		return OPEN_OK;
	n = tracecmd_buffer_instances(r->top);
	for (i = 0; i < n; i++) {
		struct tracecmd_input *ih;

		stage(OPEN_BUFFER);
		ih = tracecmd_buffer_instance_handle(r->top, i);
		if (!ih)
			return OPEN_BUFFER;
		save_cursors(r, ih);
		if (tracecmd_peek_next_data(ih, &cpu)) {
			*bufname = tracecmd_buffer_instance_name(r->top, i);
			r->h = ih;
			return OPEN_OK;
		}
		tracecmd_close(ih);
	}
	return OPEN_OK;
}

/*
 * libtracecmd 3.1.6 and libtraceevent 1.7 crash on some corrupt files, and
 * some of their error paths crash too:
 *  - tracecmd_close() after a failed tracecmd_init_data() (SIGSEGV in
 *    tracecmd_close): tracecmd_open() does exactly that on any v6 file
 *    whose CPU data is cut short. Smallest input: trappy/
 *    tests__trace_idle.dat (or any v6 file) minus its last byte.
 *  - tracecmd_buffer_instance_handle() on a cut or corrupt instance
 *    buffer calls tracecmd_close() on a shallow copy of the parent handle
 *    and crashes. Smallest input: traces/vm/vm-v6.dat minus its last byte.
 *  - corrupt event formats or printk formats in the headers: NULL
 *    dereferences and heap overreads inside tep_parse_event() and
 *    tep_parse_printk_formats(), and a strdup() overread in
 *    tracecmd_open_head(). Found by overwriting random header bytes of
 *    traces/vm/vm-v6.dat (one to sixteen bytes are enough).
 * So every open is first rehearsed in a child process, and repeated here
 * only when the child got through; otherwise the child's outcome becomes
 * a one-line error without libtracecmd being called in this process. The
 * cost is parsing the headers twice. Reading records was not seen to
 * crash (random page corruption gives garbage records or an early end).
 */
/* A rehearsal child taking longer than this is taken to loop (opening
 * reads headers and first pages only: well under a second). */
#define REHEARSE_S 10
#define REHEARSE_S_STR "10"

/*
 * The child's limit is CPU time (RLIMIT_CPU: SIGXCPU), not wall-clock
 * time: a loop burns CPU, while a loaded machine only makes the child
 * wait for it. An alarm 10 s was seen to fire under parallel ASan tests
 * on a 2-CPU machine (test-first-event: a good trace.dat rejected as
 * "looped"). The wall-clock alarm stays, far longer, for a child that
 * makes no progress at all, reported as such (REHEARSE_STALLED).
 * EATRACE_REHEARSE=CPU_S:WALL_S:SLEEP_MS (tests only) sets both limits
 * and makes the child sleep before it opens (a stand-in for a loaded
 * machine).
 */
#define REHEARSE_WALL_S 300
#define REHEARSE_STALLED "stalled"
/* What the child's or the guard's end adds to the error message. */
#define REHEARSE_LOOPED                                             \
	" (libtracecmd looped on it: stopped after " REHEARSE_S_STR \
	" s of CPU time)"
#define REHEARSE_CRASHED " (libtracecmd crashed on it)"

/* AddressSanitizer builds keep the child (see guarded_open()). */
#if defined(__SANITIZE_ADDRESS__)
#define GUARD_CHILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GUARD_CHILD 1
#endif
#endif

#ifdef GUARD_CHILD
/* The child's limits: CPU s, wall-clock s, and a sleep (ms) first. */
static void rehearse_limits(unsigned long *cpu_s, unsigned long *wall_s,
			    unsigned long *sleep_ms)
{
	const char *env = getenv("EATRACE_REHEARSE");

	*cpu_s = REHEARSE_S;
	*wall_s = REHEARSE_WALL_S;
	*sleep_ms = 0;
	if (env)
		sscanf(env, "%lu:%lu:%lu", cpu_s, wall_s, sleep_ms);
}

/*
 * Whether this process runs other threads (-j 2's look-ahead, decoding or
 * timeline threads): a child forked then can find the sanitizer's
 * allocator locked by one of them forever (seen: report -j 2 --perfetto
 * hung in the child's first malloc).
 */
static bool other_threads(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	int n = 0;

	if (!d)
		return true; /* cannot tell: do not fork */
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n > 1;
}

static enum open_result rehearse_open(const char *path, const char **crashed)
{
	enum open_result last = OPEN_HEAD;
	struct dat_open scratch;
	const char *name;
	unsigned char c;
	int status, fd[2];
	pid_t pid;

	*crashed = NULL;
	/* With other threads running, no rehearsal: just try. The opens
	 * the hostile-file tests make are on one thread (the default). */
	if (other_threads())
		return OPEN_OK;
	if (pipe2(fd, O_CLOEXEC))
		return OPEN_OK; /* cannot rehearse: just try */
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return OPEN_OK;
	}
	if (pid == 0) {
		/* die plainly: no crash handler of the parent's runs here */
		static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE,
					   SIGABRT};

		unsigned long cpu_s, wall_s, sleep_ms;
		struct rlimit rl;
		unsigned int k;

		for (k = 0; k < sizeof(sigs) / sizeof(sigs[0]); k++)
			signal(sigs[k], SIG_DFL);
		signal(SIGXCPU, SIG_DFL);
		close(fd[0]);
		rehearse_limits(&cpu_s, &wall_s, &sleep_ms);
		/* kbuffer can loop forever on a corrupt page; within an
		 * inherited hard limit (ulimit -t), else the alarm is the limit
		 */
		if (getrlimit(RLIMIT_CPU, &rl) == 0 &&
		    rl.rlim_max != RLIM_INFINITY && rl.rlim_max < cpu_s + 1) {
			rl.rlim_cur = rl.rlim_max > 0 ? rl.rlim_max - 1 : 0;
		} else {
			rl.rlim_cur = cpu_s;
			rl.rlim_max = cpu_s + 1;
		}
		if (setrlimit(RLIMIT_CPU, &rl))
			wall_s = cpu_s;
		rl.rlim_cur = rl.rlim_max = 0; /* no core dump of the child */
		setrlimit(RLIMIT_CORE, &rl);
		alarm((unsigned int)wall_s);
		if (sleep_ms) {
			struct timespec ts = {(time_t)(sleep_ms / 1000),
					      (long)(sleep_ms % 1000) *
						      1000000};

			while (nanosleep(&ts, &ts) && errno == EINTR)
				;
		}
		stage_fd = fd[1];
		memset(&scratch, 0, sizeof(scratch));
		_exit(open_buffers(path, &scratch, &name)); /* no free: exits */
	}
	close(fd[1]);
	/*
	 * The stages the child reached, to its end (EOF). errno only after a
	 * failed read(): one left at EINTR by a handled signal (libFuzzer's
	 * SIGALRM, every few seconds) made this loop spin on read()'s EOF.
	 */
	for (;;) {
		ssize_t n = read(fd[0], &c, 1);

		if (n == 1)
			last = c;
		else if (n == 0 || errno != EINTR)
			break;
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return OPEN_OK;
	if (WIFEXITED(status) && WEXITSTATUS(status) >= OPEN_OK &&
	    WEXITSTATUS(status) <= OPEN_BUFFER)
		return WEXITSTATUS(status);
	*crashed = !WIFSIGNALED(status)		 ? REHEARSE_CRASHED
		   : WTERMSIG(status) == SIGXCPU ? REHEARSE_LOOPED
		   : WTERMSIG(status) == SIGALRM ? REHEARSE_STALLED
						 : REHEARSE_CRASHED;
	return last;
}
#endif

/*
 * The same guard without a child (issue 19: the rehearsal parsed every
 * file's headers and formats twice): open_buffers() runs here under
 * handlers of the signals the known crashes raise and under the same
 * alarm, on an alternate stack (a runaway recursion is a crash too). A
 * crash or the alarm jumps back out, the handles are abandoned (never
 * closed, as after a failed open) and the file rejected with the same
 * message as the child's. Builds with AddressSanitizer keep the child:
 * ASan ends the process on the heap overreads the child absorbs (and
 * libFuzzer has its own handlers).
 */
#ifndef GUARD_CHILD
/*
 * Signal handlers are the process's: one thread at a time opens under
 * the guard (guard_lock; a Dask worker or any host may open traces from
 * several threads), both timers signal that thread only (SIGEV_THREAD_ID)
 * and a signal another thread takes meanwhile is not ours: it gets its
 * default action, as it would have without the guard. Except a SIGBUS in
 * a mapped window of a trace.dat cut short meanwhile (dat-map.h), on any
 * thread: the handler stands in for dat-map.c's while it is installed.
 */
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static sigjmp_buf guard_jmp;
static volatile sig_atomic_t guard_sig;
static volatile pid_t guard_tid;

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
	/* a page of a mapped window gone (dat-map.h): zeros now, go on */
	if (sig == SIGBUS && dm_fault(si))
		return;
	if (gettid() != guard_tid) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	guard_sig = sig;
	siglongjmp(guard_jmp, 1);
}

/* A timer on clock that sends signo to this thread; false if none. */
static bool thread_timer(clockid_t clock, int signo, timer_t *t)
{
	struct sigevent sev;

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = signo;
	sev._sigev_un._tid = gettid();
	return timer_create(clock, &sev, t) == 0;
}

static enum open_result guarded_open(const char *path, struct dat_open *r,
				     const char **bufname, const char **crashed)
{
	static const int sigs[] = {SIGSEGV, SIGBUS,  SIGILL,   SIGFPE,
				   SIGABRT, SIGALRM, SIGVTALRM};
#define NSIGS (sizeof(sigs) / sizeof(sigs[0]))
	static char altstack[1 << 16];
	struct sigaction sa, old[NSIGS];
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack)};
	stack_t old_ss;
	volatile enum open_result res;
	timer_t cpu_timer, wall_timer;
	volatile bool have_timer, have_wall;
	unsigned int k;
	bool have_ss;

	*crashed = NULL;
	pthread_mutex_lock(&guard_lock);
	guard_tid = gettid();
	have_ss = sigaltstack(&ss, &old_ss) == 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = guard_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (k = 0; k < NSIGS; k++)
		sigaction(sigs[k], &sa, &old[k]);
	stage_now = OPEN_HEAD;
	/*
	 * The limit is this thread's CPU time (SIGVTALRM), as the child's
	 * (see rehearse_open()): a loaded machine does not turn a slow open
	 * into a loop. The wall-clock timer (SIGALRM) is the backstop; it is
	 * the limit itself, of REHEARSE_S, if the CPU-time timer is missing.
	 */
	have_timer =
		thread_timer(CLOCK_THREAD_CPUTIME_ID, SIGVTALRM, &cpu_timer);
	have_wall = thread_timer(CLOCK_MONOTONIC, SIGALRM, &wall_timer);
	if (sigsetjmp(guard_jmp, 1)) {
		*crashed = guard_sig == SIGVTALRM ||
					   (guard_sig == SIGALRM && !have_timer)
				   ? REHEARSE_LOOPED
			   : guard_sig == SIGALRM ? REHEARSE_STALLED
						  : REHEARSE_CRASHED;
		res = (enum open_result)stage_now;
		/* the heap may be corrupt, a lock held: a batch worker
		 * reports this file and is replaced */
		ea_pool_taint();
	} else {
		/* kbuffer can loop forever on a corrupt page */
		struct itimerspec its = {.it_value = {REHEARSE_S, 0}};
		struct itimerspec wall = {
			.it_value = {have_timer ? REHEARSE_WALL_S : REHEARSE_S,
				     0}};

		if (have_timer)
			timer_settime(cpu_timer, 0, &its, NULL);
		if (have_wall)
			timer_settime(wall_timer, 0, &wall, NULL);
		res = open_buffers(path, r, bufname);
	}
	if (have_timer)
		timer_delete(cpu_timer);
	if (have_wall)
		timer_delete(wall_timer);
	for (k = 0; k < NSIGS; k++)
		sigaction(sigs[k], &old[k], NULL);
	if (have_ss)
		sigaltstack(&old_ss, NULL);
	guard_tid = 0;
	pthread_mutex_unlock(&guard_lock);
	return res;
#undef NSIGS
}
#endif

int ea_dat_open_guarded(const char *path, bool rehearsed, struct dat_open *o,
			struct ea_err *err)
{
	const char *bufname = NULL, *crashed;
	enum open_result res;
	int e;

	memset(o, 0, sizeof(*o));
	o->top_fd = -1;
	quiet_begin();
	ea_dat_kallsyms_skip(true); /* eatrace resolves no address nor pid */
#ifdef GUARD_CHILD
	crashed = NULL;
	/* a file opened before, unchanged since: no child (dat-rehearsed.c) */
	if (rehearsed || ea_dat_rehearsed_before(path))
		res = OPEN_OK;
	else
		res = rehearse_open(path, &crashed);
	errno = 0;
	if (res == OPEN_OK)
		res = open_buffers(path, o, &bufname);
	e = errno;
	if (res == OPEN_OK)
		ea_dat_rehearsed_note(&o->top_st);
#else
	/*
	 * errno as the child's path had it: a failed open's errno stayed in
	 * the child (a corrupt header's huge sizes give ENOMEM: not "out of
	 * memory" but a corrupt header, open_failure() says)
	 */
	res = guarded_open(path, o, &bufname, &crashed);
	e = 0;
#endif
	ea_dat_kallsyms_skip(false);
	quiet_end();
	if (res != OPEN_OK) {
		const char *why = crashed ? crashed : "";
		struct stat st;

		/* Failed handles are not closed (see rehearse_open()), but
		 * their descriptor is: still the file's, it is ours */
		if (o->top_fd >= 0 && !fstat(o->top_fd, &st) &&
		    st.st_dev == o->top_st.st_dev && st.st_ino == o->top_st.st_ino)
			close(o->top_fd);
		free(o->cursor0);
		memset(o, 0, sizeof(*o));
		if (crashed && !strcmp(crashed, REHEARSE_STALLED)) {
			unsigned long wall_s = REHEARSE_WALL_S;
#ifdef GUARD_CHILD
			unsigned long cpu_s, sleep_ms;

			rehearse_limits(&cpu_s, &wall_s, &sleep_ms);
#endif
			return ea_err_set(
				err,
				"%s: opening the trace.dat did not finish in "
				"%lu s, with little CPU time used (a stalled "
				"read, or a machine far too loaded): not read",
				path, wall_s);
		}
		if (res == OPEN_HEAD && !crashed)
			return open_failure(path, e, err);
		return ea_err_set(
			err,
			"%s: truncated or corrupt trace.dat: %s unreadable%s",
			path,
			res == OPEN_HEAD   ? "headers"
			: res == OPEN_DATA ? "CPU data"
					   : "instance buffer",
			why);
	}
	o->bufname = bufname;
	return 0;
}
