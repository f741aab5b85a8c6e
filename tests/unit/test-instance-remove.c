// SPDX-License-Identifier: GPL-2.0-only
/*
 * A tracefs instance stopped and removed (ea_instance_remove(), in
 * src/record/session.c), as record's and top's sweep of a killed run's
 * instances does: removed, 0; already removed by another process between
 * the sweep's look and its rmdir (two runs sweeping the same instance at
 * once), 1 and nothing to say; not removable, -1 with rmdir's errno and
 * the instance left.
 *
 * No tracefs is touched: libtracefs addresses an instance as the directory
 * TRACING_DIR/instances/NAME and removes it with rmdir(2), so a scratch
 * directory stands for the tracing directory. Expected values: rmdir of a
 * missing directory fails with ENOENT, of one holding a file with
 * ENOTEMPTY (POSIX); the instance's directory is gone after a 0 or 1 and
 * there after a -1.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "harness.h"
#include "scratch-dir.h"
#include "eatrace/record.h"

static const char *const names[] = { "eatrace-record-1", "eatrace-record-2",
				     "eatrace-top-3-1" };

static const char *inst_dir(const char *name)
{
	static char p[512];

	snprintf(p, sizeof(p), "%s/instances/%s", scratch_dir, name);
	return p;
}

static int setup(void **unused)
{
	if (scratch_make("instrm"))
		return -1;
	return mkdir(scratch_at("instances"), 0755);
}

static int teardown(void **unused)
{
	char p[600];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(p, sizeof(p), "%s/keep", inst_dir(names[i]));
		unlink(p);
		rmdir(inst_dir(names[i]));
	}
	return scratch_remove();
}

/* The instance name, as the sweep allocates it (its directory exists). */
static struct tracefs_instance *make(const char *name)
{
	struct tracefs_instance *inst;

	assert_int_equal(mkdir(inst_dir(name), 0755), 0);
	inst = tracefs_instance_alloc(scratch_dir, name);
	assert_non_null(inst);
	return inst;
}

static bool exists(const char *name)
{
	struct stat st;

	return !stat(inst_dir(name), &st);
}

static void removed(void **unused)
{
	struct tracefs_instance *inst = make(names[0]);

	assert_int_equal(ea_instance_remove(inst), 0);
	assert_false(exists(names[0]));
	tracefs_instance_free(inst);
}

/* Another run removed it after this one looked: as good as removed. */
static void already_removed(void **unused)
{
	struct tracefs_instance *inst = make(names[1]);

	assert_int_equal(rmdir(inst_dir(names[1])), 0);
	assert_int_equal(ea_instance_remove(inst), 1);
	assert_false(exists(names[1]));
	tracefs_instance_free(inst);
}

static void not_removable(void **unused)
{
	struct tracefs_instance *inst = make(names[2]);
	char p[600];
	int fd;

	snprintf(p, sizeof(p), "%s/keep", inst_dir(names[2]));
	fd = open(p, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	errno = 0;
	assert_int_equal(ea_instance_remove(inst), -1);
	assert_int_equal(errno, ENOTEMPTY);
	assert_true(exists(names[2]));
	tracefs_instance_free(inst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(removed),
		cmocka_unit_test(already_removed),
		cmocka_unit_test(not_removable),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
