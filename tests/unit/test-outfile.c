// SPDX-License-Identifier: GPL-2.0-only
/*
 * The output layer (src/output/outfile.c) through its library interface:
 * nothing replaced before ea_out_commit_all(), nothing after a discard,
 * modes kept, inputs refused. Everything happens in a mkdtemp directory.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "scratch-dir.h"
#include "eatrace/input.h"
#include "eatrace/output.h"

static int setup(void **unused)
{
	return scratch_make("outfile");
}

static int teardown(void **unused)
{
	return scratch_remove();
}

static void put(const char *name, const char *text, mode_t mode)
{
	FILE *f = fopen(scratch_at(name), "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	chmod(scratch_at(name), mode);
}

static int entries(void)
{
	struct dirent *de;
	DIR *d = opendir(scratch_dir);
	int n = 0;

	while ((de = readdir(d)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return n;
}

static void content(const char *name, const char *want)
{
	char buf[64] = "";
	FILE *f = fopen(scratch_at(name), "r");

	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, want);
}

/* Two outputs: neither replaced until commit_all, both after it. */
static void test_commit_together(void **unused)
{
	struct ea_out a, b;
	struct ea_err err;
	struct stat st;

	put("a", "old a\n", 0640);
	assert_int_equal(ea_out_open(&a, scratch_at("a"), &err), 0);
	assert_int_equal(ea_out_open(&b, scratch_at("b"), &err), 0);
	fputs("new a\n", a.f);
	fputs("new b\n", b.f);
	assert_int_equal(ea_out_commit(&a, &err), 0);
	assert_int_equal(ea_out_commit(&b, &err), 0);
	content("a", "old a\n");
	assert_int_not_equal(stat(scratch_at("b"), &st), 0);
	assert_int_equal(entries(), 3);		/* a and two temporaries */
	assert_int_equal(ea_out_commit_all(&err), 0);
	content("a", "new a\n");
	content("b", "new b\n");
	assert_int_equal(stat(scratch_at("a"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(), 2);
}

/* A failed run: the finished output is dropped with the unfinished one. */
static void test_discard(void **unused)
{
	struct ea_out a, b;
	struct ea_err err;

	put("keep", "old\n", 0600);
	assert_int_equal(ea_out_open(&a, scratch_at("keep"), &err), 0);
	assert_int_equal(ea_out_open(&b, scratch_at("other"), &err), 0);
	fputs("new\n", a.f);
	assert_int_equal(ea_out_commit(&a, &err), 0);
	ea_out_discard_all();
	content("keep", "old\n");
	assert_int_equal(entries(), 1);
	/* and a commit_all after it replaces nothing */
	assert_int_equal(ea_out_commit_all(&err), 0);
	content("keep", "old\n");
}

/* An input of the run is refused as an output, by device and inode. */
static void test_input_refused(void **unused)
{
	struct ea_out o;
	struct ea_err err;

	put("in.txt", "trace\n", 0644);
	assert_int_equal(ea_input_check(scratch_at("in.txt"), &err), 0);
	assert_int_equal(link(scratch_at("in.txt"), scratch_at("hard.txt")), 0);
	assert_int_equal(ea_out_open(&o, scratch_at("hard.txt"), &err), -1);
	assert_non_null(strstr(err.msg, "hard.txt: is an input of this run"));
	content("in.txt", "trace\n");
	assert_int_equal(entries(), 2);
}

/*
 * One file named as two outputs (by a second spelling, a symlink or a hard
 * link) is refused at the second open: the second rename would drop the
 * first output without a word. The first output is still written.
 */
static void test_output_twice(void **unused)
{
	struct ea_out a, b;
	struct ea_err err;
	char twice[600];

	put("old", "old\n", 0644);
	assert_int_equal(link(scratch_at("old"), scratch_at("hard")), 0);
	assert_int_equal(symlink("new", scratch_at("sym")), 0);
	assert_int_equal(ea_out_open(&a, scratch_at("new"), &err), 0);
	snprintf(twice, sizeof(twice), "%s/./new", scratch_dir);
	assert_int_equal(ea_out_open(&b, twice, &err), -1);
	assert_non_null(strstr(err.msg, "/./new: is already an output of this run (as "));
	assert_int_equal(ea_out_open(&b, scratch_at("sym"), &err), -1);
	assert_non_null(strstr(err.msg, "sym: is already an output of this run"));
	assert_int_equal(ea_out_open(&b, scratch_at("old"), &err), 0);
	assert_int_equal(ea_out_open(&a, scratch_at("hard"), &err), -1);
	assert_non_null(strstr(err.msg, "hard: is already an output of this run"));
	ea_out_discard_all();
}

/* A FIFO as input: refused at once (O_NONBLOCK open), not waited on. */
static void test_fifo_input(void **unused)
{
	struct ea_err err;

	assert_int_equal(mkfifo(scratch_at("fifo"), 0600), 0);
	assert_int_equal(ea_input_check(scratch_at("fifo"), &err), -1);
	assert_non_null(strstr(err.msg, "fifo: not a regular file (a FIFO"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commit_together, setup, teardown),
		cmocka_unit_test_setup_teardown(test_discard, setup, teardown),
		/* before any input is noted: a deleted input's inode is reused */
		cmocka_unit_test_setup_teardown(test_output_twice, setup, teardown),
		cmocka_unit_test_setup_teardown(test_input_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_input, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
