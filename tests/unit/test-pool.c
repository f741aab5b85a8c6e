// SPDX-License-Identifier: GPL-2.0-only
/*
 * The worker pool (src/util/pool.c): every job reported once with what its
 * worker wrote, a worker that dies reported by its signal (and replaced:
 * the jobs after it still run, even with one worker), one that exits in
 * the middle of a job reported as failed, one gone between two jobs
 * (its command pipe closed: the parent survives the EPIPE, the next job
 * goes to another worker), results bigger than a pipe's buffer, a worker
 * replaced after a job that leaked a descriptor, workers' stdout kept out
 * of the parent's, a run stopped by ea_pool_stop() from a signal handler,
 * and the batch row writer's --resume key read back.
 */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "eatrace/batch.h"
#include "eatrace/pool.h"

#define UNUSED __attribute__((unused))
#define NJOBS 9
#define BIG (200 * 1000)	/* > the 64 KiB of a pipe */

struct seen {
	int count[NJOBS];
	char text[NJOBS][32];
	int wstatus[NJOBS];
	size_t len[NJOBS];
};

/* Close this worker's end of its command pipe (the one FIFO it reads):
 * the parent's next job number meets a pipe with no reader (EPIPE). */
static void close_command_pipe(void)
{
	struct stat st;

	for (int fd = 3; fd < 256; fd++) {
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0 && (fl & O_ACCMODE) == O_RDONLY && !fstat(fd, &st) &&
		    S_ISFIFO(st.st_mode))
			close(fd);
	}
}

static void job(size_t i, FILE *out, void *ctx)
{
	if (i == 5)
		close_command_pipe();	/* the worker goes after this job */
	if (i == 4)
		raise(SIGKILL);	/* dies before writing */
	if (i == 2) {
		fprintf(out, "half");
		exit(0);	/* quits in the middle: no result, a failure */
	}
	if (i == 7) {
		for (int k = 0; k < BIG; k++)
			fputc('x', out);
		return;
	}
	fprintf(out, "job %zu", i);
}

static void done(size_t i, const char *buf, size_t len, int wstatus, void *ctx)
{
	struct seen *s = ctx;

	s->count[i]++;
	s->wstatus[i] = wstatus;
	s->len[i] = len;
	snprintf(s->text[i], sizeof(s->text[i]), "%s", buf);
}

static void every_job_once(int workers)
{
	struct seen s = { 0 };
	char want[32];

	assert_int_equal(ea_pool_run(NJOBS, workers, job, done, &s), 0);
	for (int i = 0; i < NJOBS; i++) {
		assert_int_equal(s.count[i], 1);
		if (i == 4) {
			assert_true(WIFSIGNALED(s.wstatus[i]));
			assert_int_equal(WTERMSIG(s.wstatus[i]), SIGKILL);
			assert_int_equal(s.len[i], 0);
		} else if (i == 2) {
			assert_true(WIFEXITED(s.wstatus[i]) && WEXITSTATUS(s.wstatus[i]) == 127);
			assert_int_equal(s.len[i], 0);
		} else if (i == 7) {
			assert_true(WIFEXITED(s.wstatus[i]) && !WEXITSTATUS(s.wstatus[i]));
			assert_int_equal(s.len[i], BIG);
		} else {
			assert_true(WIFEXITED(s.wstatus[i]) && !WEXITSTATUS(s.wstatus[i]));
			snprintf(want, sizeof(want), "job %d", i);
			assert_string_equal(s.text[i], want);
		}
	}
}

static void test_one_worker(void **state UNUSED)
{
	every_job_once(1);
}

static void test_three_workers(void **state UNUSED)
{
	every_job_once(3);
}

static void test_no_jobs(void **state UNUSED)
{
	struct seen s = { 0 };

	assert_int_equal(ea_pool_run(0, 2, job, done, &s), 0);
}

/* fork() for the pool: after forks_left successful ones (< 0: no limit), fails */
static int forks_left = -1;

pid_t fork(void)
{
	static pid_t (*real_fork)(void);

	if (!forks_left) {
		errno = EAGAIN;
		return -1;
	}
	if (forks_left > 0)
		forks_left--;
	if (!real_fork)
		real_fork = (pid_t(*)(void))dlsym(RTLD_NEXT, "fork");
	return real_fork();
}

/* Job 1 kills its worker; the others take long enough that jobs remain
 * when the dead worker is reaped and its replacement's fork fails. */
static void slow_job(size_t i, FILE *out, void *ctx UNUSED)
{
	if (i == 1)
		raise(SIGKILL);
	usleep(30 * 1000);
	fprintf(out, "job %zu", i);
}

/* Two workers, no fork after them: the survivor runs every job left, the
 * run returns 0. Before the fix: -1, and the survivor let go with jobs
 * never reported. */
static void test_failed_replacement_fork(void **state UNUSED)
{
	struct seen s = { 0 };
	char want[32];

	forks_left = 2;
	assert_int_equal(ea_pool_run(8, 2, slow_job, done, &s), 0);
	forks_left = -1;
	for (int i = 0; i < 8; i++) {
		assert_int_equal(s.count[i], 1);
		if (i == 1) {
			assert_true(WIFSIGNALED(s.wstatus[i]));
			continue;
		}
		assert_int_equal(s.wstatus[i], 0);
		snprintf(want, sizeof(want), "job %d", i);
		assert_string_equal(s.text[i], want);
	}
}

/* No fork at all: nothing can run the jobs, -1. */
static void test_no_fork(void **state UNUSED)
{
	struct seen s = { 0 };

	forks_left = 0;
	assert_int_equal(ea_pool_run(3, 2, slow_job, done, &s), -1);
	forks_left = -1;
	for (int i = 0; i < 3; i++)
		assert_int_equal(s.count[i], 0);
}

/* Each job's worker pid; job 1 taints its worker (a guard tripped) */
static void pid_job(size_t i, FILE *out, void *ctx UNUSED)
{
	if (i == 1)
		ea_pool_taint();
	fprintf(out, "%ld", (long)getpid());
}

/* Four jobs on one worker, replaced after job 1: each job ran once and
 * exited 0; jobs 0 and 1 printed one pid, 2 and 3 another. */
static void assert_replaced_after_1(const struct seen *s)
{
	for (int i = 0; i < 4; i++) {
		assert_int_equal(s->count[i], 1);
		assert_int_equal(s->wstatus[i], 0);
	}
	assert_string_equal(s->text[0], s->text[1]);
	assert_string_equal(s->text[2], s->text[3]);
	assert_string_not_equal(s->text[1], s->text[2]);
}

/* One worker: job 1's result still arrives, then the worker is replaced:
 * job 0 and 1 share a pid, 2 and 3 share another. Before the fix the
 * tainted worker ran every job. */
static void test_tainted_worker_replaced(void **state UNUSED)
{
	struct seen s = { 0 };

	assert_int_equal(ea_pool_run(4, 1, pid_job, done, &s), 0);
	assert_replaced_after_1(&s);
}

/* Job 1 opens a descriptor and keeps it (as libtracecmd does with a
 * handle it abandons); every job writes to stdout too. */
static void leaky_job(size_t i, FILE *out, void *ctx UNUSED)
{
	if (i == 1 && open("/dev/null", O_RDONLY) < 0)
		fail_msg("open /dev/null");
	printf("stdout of job %zu\n", i);
	fflush(stdout);
	fprintf(out, "%ld", (long)getpid());
}

/* One worker: the job that leaked is followed by a fresh worker (jobs 0
 * and 1 share a pid, 2 and 3 another); nothing the jobs printed reaches
 * the parent's stdout (a memfd here). Before the fix the one worker ran
 * all four and its stdout was the parent's. */
static void test_leaking_worker_replaced(void **state UNUSED)
{
	struct seen s = { 0 };
	int saved = dup(STDOUT_FILENO), mem = memfd_create("stdout", 0);
	struct stat st;

	assert_true(saved >= 0 && mem >= 0);
	fflush(stdout);
	assert_true(dup2(mem, STDOUT_FILENO) >= 0);
	assert_int_equal(ea_pool_run(4, 1, leaky_job, done, &s), 0);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	assert_int_equal(fstat(mem, &st), 0);
	close(mem);
	assert_int_equal(st.st_size, 0);
	assert_replaced_after_1(&s);
}

static void on_usr1(int sig UNUSED)
{
	ea_pool_stop();
}

/* Job 2 signals the parent, whose handler stops the pool, then hangs. */
static void stopping_job(size_t i, FILE *out, void *ctx UNUSED)
{
	if (i == 2) {
		kill(getppid(), SIGUSR1);
		sleep(20);
	}
	fprintf(out, "job %zu", i);
}

/* One worker: jobs 0 and 1 are reported, job 2's worker is killed and its
 * job not reported, jobs 3.. never run; -1 with EINTR, at once (not after
 * job 2's 20 s). Last test: a stopped pool stays stopped. */
static void test_stop(void **state UNUSED)
{
	struct seen s = { 0 };
	struct sigaction sa = { .sa_handler = on_usr1 };
	struct timespec t0, t1;

	sigemptyset(&sa.sa_mask);
	assert_int_equal(sigaction(SIGUSR1, &sa, NULL), 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	errno = 0;
	assert_int_equal(ea_pool_run(6, 1, stopping_job, done, &s), -1);
	assert_int_equal(errno, EINTR);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_true(t1.tv_sec - t0.tv_sec < 10);
	assert_int_equal(s.count[0], 1);
	assert_int_equal(s.count[1], 1);
	assert_string_equal(s.text[1], "job 1");
	for (int i = 2; i < 6; i++)
		assert_int_equal(s.count[i], 0);
	signal(SIGUSR1, SIG_DFL);
}

/* A row with a comma and a quote in its path reads back to its key. */
static void test_row_key(void **state UNUSED)
{
	struct ea_batch_row r = { .path = "a,\"b\".dat", .model = "m,1",
				  .hash = "0123456789abcdef", .power_unit = "mW",
				  .duration_ns = 2000000000, .total = 3 * EA_ENERGY_PER_UNIT };
	char *buf = NULL, model[EA_ERR_MAX], hash[EA_HASH_LEN], unit[EA_EU_NAME_LEN];
	size_t len;
	bool failed = true;

	for (int fmt = EA_BATCH_CSV; fmt <= EA_BATCH_JSONL; fmt++) {
		FILE *f = open_memstream(&buf, &len);

		ea_batch_row_write(f, fmt, &r);
		fclose(f);
		assert_int_equal(ea_batch_row_key(buf, fmt, EA_ROWS_TRACE, hash, model, unit,
						  &failed), 0);
		assert_string_equal(hash, "0123456789abcdef");
		assert_string_equal(model, "m,1");
		assert_string_equal(unit, "mW x s");
		assert_false(failed);
		/* 3 power_unit x s over 2 s: mean power 1.5 */
		assert_non_null(strstr(buf, "1.5"));
		free(buf);
	}
	assert_int_equal(ea_batch_row_key("path,model,hash,duration_s,x,x,x,x,x,x,x,x,error\n",
					  EA_BATCH_CSV, EA_ROWS_TRACE, hash, model, unit, &failed),
			 -1);
	assert_int_equal(ea_batch_row_key("not json\n", EA_BATCH_JSONL, EA_ROWS_TRACE, hash, model,
					  unit, &failed), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_worker),
		cmocka_unit_test(test_three_workers),
		cmocka_unit_test(test_no_jobs),
		cmocka_unit_test(test_tainted_worker_replaced),
		cmocka_unit_test(test_failed_replacement_fork),
		cmocka_unit_test(test_no_fork),
		cmocka_unit_test(test_row_key),
		cmocka_unit_test(test_leaking_worker_replaced),
		cmocka_unit_test(test_stop),	/* last: the pool stays stopped */
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
