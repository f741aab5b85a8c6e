// SPDX-License-Identifier: GPL-2.0-only
/*
 * The progress line (src/util/progress.c, included here for its state):
 * one percentage that never goes back, even when the reader's descriptors
 * on the file move apart or one closes (issue 17: it showed 74, 21, 83, 33).
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../../src/util/progress.c"

static char dir[64], trace[96], errlog[96];

/* Poll as the pipeline does (once per event) until a line is drawn. */
static void poll_now(void)
{
	p.last = 0;
	for (int i = 0; i < POLL_EVERY; i++)
		ea_progress_poll();
}

/* The last percentage drawn on the redirected stderr. */
static int last_pct(void)
{
	char buf[4096];
	const char *s;
	FILE *f;
	size_t n;
	int pct = -1;

	fflush(stderr);
	f = fopen(errlog, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	s = strrchr(buf, '\r');
	assert_non_null(s);
	assert_int_equal(sscanf(s, "\rtrace.txt: %d%% read", &pct), 1);
	return pct;
}

static void test_monotonic(void **unused)
{
	struct stat st;
	int a, b;
	FILE *f = fopen(trace, "w");

	assert_non_null(f);
	for (int i = 0; i < 1000; i++)
		fputc('x', f);
	fclose(f);
	assert_non_null(freopen(errlog, "w", stderr));
	setvbuf(stderr, NULL, _IONBF, 0);
	ea_progress_start(trace);	/* stderr is no terminal: off ... */
	assert_false(p.on);
	assert_int_equal(stat(trace, &st), 0);
	p.on = true;			/* ... so turn it on by hand */
	p.dev = st.st_dev;
	p.ino = st.st_ino;
	p.size = st.st_size;
	snprintf(p.name, sizeof(p.name), "trace.txt");
	p.t0 = now_ns() - 2 * DELAY_NS;
	a = open(trace, O_RDONLY);
	b = open(trace, O_RDONLY);
	assert_true(a >= 0 && b >= 0);
	/* two descriptors at 740 and 210 of 1000 bytes: 74% */
	lseek(a, 740, SEEK_SET);
	lseek(b, 210, SEEK_SET);
	poll_now();
	assert_int_equal(last_pct(), 74);
	/* the one ahead closes: still 74%, not 21% */
	close(a);
	poll_now();
	assert_int_equal(last_pct(), 74);
	/* the other moves past it: 83% */
	lseek(b, 830, SEEK_SET);
	poll_now();
	assert_int_equal(last_pct(), 83);
	close(b);
	ea_progress_end();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_monotonic),
	};
	int rc;

	snprintf(dir, sizeof(dir), "/tmp/eatrace-test-progress.XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(trace, sizeof(trace), "%s/trace.txt", dir);
	snprintf(errlog, sizeof(errlog), "%s/stderr", dir);
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	unlink(trace);
	unlink(errlog);
	rmdir(dir);
	return rc;
}
