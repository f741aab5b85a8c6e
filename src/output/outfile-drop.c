// SPDX-License-Identifier: GPL-2.0-only
/*
 * The cached pages of an output file about to be replaced, dropped when
 * the run opens it, or before the run (ea_out_drop_old(),
 * include/eatrace/output.h).
 *
 * Why: a file eatrace replaces is most often its own previous output, tens
 * of MB of clean page cache (synced before its rename). Left cached, those
 * pages are freed by the rename at the end of the run, on the critical
 * path, while the run has taken as much fresh memory again for its own
 * buffers and the new file's pages. On a VM whose balloon reports free
 * memory to the host, fresh memory is dear: its first touch is a fault in
 * the host too (bench/README.md, "pictures, seventh round": writing a
 * 37.7 MB protobuf took 115-145 ms into such memory, 14 ms into the pages
 * dropped here). Dropped at the start, the pages are free for the run's
 * allocations while still backed.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eatrace/output.h"

void ea_out_drop_old(const char *path)
{
	struct stat st;
	int fd;

	/* no open() of a device (a tape rewinds at its close), a FIFO... */
	if (!path || !strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	/* O_NONBLOCK: a FIFO put there meanwhile does not wait for a writer */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* clean pages only: dirty ones are written back (not waited for)
	 * and stay */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}
