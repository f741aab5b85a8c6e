// SPDX-License-Identifier: GPL-2.0-only
/*
 * The check every input file gets before it is read (a trace, a model, a
 * model source, a dts /include/): a regular file on a real file system.
 * A FIFO, socket, terminal or device, and the pseudo-files of procfs,
 * sysfs, debugfs and tracefs (trace_pipe looks regular but blocks; their
 * sizes mean nothing) are refused: reading them could block for ever.
 * Each file that passes is noted as an input of the run (run-inputs.c), so
 * that no output of the same run replaces it (src/output/outfile.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "eatrace/input.h"

#define PROC_MAGIC	0x9fa0
#define SYSFS_MAGIC	0x62656572
#define DEBUGFS_MAGIC	0x64626720
#define TRACEFS_MAGIC	0x74726163

static const char *kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

static const char *pseudo(long type)
{
	switch (type) {
	case PROC_MAGIC:
		return "procfs";
	case SYSFS_MAGIC:
		return "sysfs";
	case DEBUGFS_MAGIC:
		return "debugfs";
	case TRACEFS_MAGIC:
		return "tracefs";
	}
	return NULL;
}

int ea_input_check_fd(int fd, const char *path, bool allow_pseudo,
		      struct ea_err *err)
{
	struct statfs sf;
	struct stat st;
	const char *fs;

	if (fstat(fd, &st))
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return ea_err_set(err, "%s: is a directory", path);
	if (!S_ISREG(st.st_mode))
		return ea_err_set(err, "%s: not a regular file (%s: reading it could block)",
				  path, kind(st.st_mode));
	if (!allow_pseudo && !fstatfs(fd, &sf) && (fs = pseudo((long)sf.f_type)))
		return ea_err_set(err, "%s: not a regular file (a %s pseudo-file: "
				  "reading it could block; copy it first)", path, fs);
	ea_input_note(st.st_dev, st.st_ino);
	return 0;
}

int ea_input_check(const char *path, struct ea_err *err)
{
	int fd, rc;

	/* O_NONBLOCK: opening a FIFO must not wait for a writer */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return ea_err_set(err, "%s: %s", path, strerror(errno));
	rc = ea_input_check_fd(fd, path, false, err);
	close(fd);
	return rc;
}
