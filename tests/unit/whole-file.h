/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A whole file read into a malloc'ed buffer, for the tests that damage
 * copies of a trace (test-dat-run.c, test-reader-dat.c): any failure to
 * open or read it fails the test. The caller frees the buffer.
 */
#ifndef EATRACE_TESTS_WHOLE_FILE_H
#define EATRACE_TESTS_WHOLE_FILE_H

#include <stdio.h>
#include <stdlib.h>

static void *whole_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	void *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n > 0);
	rewind(f);
	buf = malloc((size_t)n);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

#endif
