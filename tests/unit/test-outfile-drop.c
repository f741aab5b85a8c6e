// SPDX-License-Identifier: GPL-2.0-only
/*
 * An existing output's cached pages dropped (src/output/outfile-drop.c),
 * by ea_out_drop_old() and by ea_out_open(): after
 * it, none of a synced file's pages is in the page cache, and its bytes
 * are the same; an output opened and discarded leaves the old file's
 * bytes; a FIFO, a missing file, a directory and "-" are left alone (a
 * FIFO without a writer does not block).
 *
 * Expected values: a file just written and fsync()ed has clean cached
 * pages, all NPAGES of them resident (mincore() of a mapping made for the
 * count says so; where it does not, e.g. a file system without a page
 * cache, the test skips), and POSIX_FADV_DONTNEED drops clean pages no
 * one maps, so a new mapping then counts 0 resident. The bytes are a
 * pattern (byte k = k * 7 mod 251) read back and compared.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "scratch-dir.h"
#include "eatrace/output.h"

#define NPAGES 64

static long page;

static int setup(void **unused)
{
	page = sysconf(_SC_PAGESIZE);
	/* not /dev/shm: tmpfs pages are the file, never dropped */
	return scratch_make("outdrop");
}

static int teardown(void **unused)
{
	return scratch_remove();
}

static unsigned char pattern(size_t k)
{
	return (unsigned char)(k * 7 % 251);
}

/* NPAGES pages of the pattern, written and synced. */
static void put_synced(const char *path)
{
	size_t n = (size_t)page * NPAGES;
	unsigned char *b = malloc(n);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_non_null(b);
	assert_true(fd >= 0);
	for (size_t k = 0; k < n; k++)
		b[k] = pattern(k);
	assert_int_equal(write(fd, b, n), (ssize_t)n);
	assert_int_equal(fsync(fd), 0);
	close(fd);
	free(b);
}

/* How many of path's NPAGES pages are in the page cache. */
static int resident(const char *path)
{
	size_t n = (size_t)page * NPAGES;
	unsigned char vec[NPAGES];
	int fd = open(path, O_RDONLY), count = 0;
	void *m;

	assert_true(fd >= 0);
	m = mmap(NULL, n, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	assert_true(m != MAP_FAILED);
	assert_int_equal(mincore(m, n, vec), 0);
	munmap(m, n);
	for (int i = 0; i < NPAGES; i++)
		count += vec[i] & 1;
	return count;
}

static void same_bytes(const char *path)
{
	size_t n = (size_t)page * NPAGES;
	unsigned char *b = malloc(n + 1);
	int fd = open(path, O_RDONLY);

	assert_non_null(b);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, b, n + 1), (ssize_t)n);
	close(fd);
	for (size_t k = 0; k < n; k++)
		if (b[k] != pattern(k))
			fail_msg("byte %zu changed", k);
	free(b);
}

static void test_dropped(void **unused)
{
	const char *f = scratch_at("old.pftrace");

	put_synced(f);
	if (resident(f) != NPAGES)
		skip();
	ea_out_drop_old(f);
	assert_int_equal(resident(f), 0);
	same_bytes(f);
}

static void test_open_drops(void **unused)
{
	const char *f = scratch_at("old.html");
	struct ea_out o;
	struct ea_err err;

	put_synced(f);
	if (resident(f) != NPAGES)
		skip();
	assert_int_equal(ea_out_open(&o, f, &err), 0);
	assert_int_equal(resident(f), 0);
	fputs("new", o.f);
	ea_out_abort(&o); /* the run failed: the old file stays */
	same_bytes(f);
}

static void test_left_alone(void **unused)
{
	assert_int_equal(mkfifo(scratch_at("fifo"), 0600), 0);
	/* returns: no writer is waited for */
	ea_out_drop_old(scratch_at("fifo"));
	ea_out_drop_old(scratch_at("missing"));
	assert_int_equal(mkdir(scratch_at("sub"), 0700), 0);
	ea_out_drop_old(scratch_at("sub"));
	assert_int_equal(access(scratch_at("missing"), F_OK), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_drops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_left_alone, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
