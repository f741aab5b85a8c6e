// SPDX-License-Identifier: GPL-2.0-only
/* A finished output file's fsync() and fclose() on a thread of their own
 * (outfile-sync.h). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "output/outfile-sync.h"
#include "util/thread.h"

struct out_sync {
	pthread_t th;
	FILE *f;
	int err; /* the thread's: read after pthread_join() */
};

static void *sync_main(void *arg)
{
	struct out_sync *s = arg;

	if (fsync(fileno(s->f)))
		s->err = errno ? errno : EIO;
	if (fclose(s->f) && !s->err)
		s->err = errno ? errno : EIO;
	return NULL;
}

struct out_sync *out_sync_start(FILE *f)
{
	struct out_sync *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return NULL;
	s->f = f;
	/* signals stay the main thread's (its handlers, its EINTRs) */
	rc = ea_thread_start(&s->th, sync_main, s, NULL);
	if (rc) {
		free(s);
		return NULL;
	}
	return s;
}

int out_sync_wait(struct out_sync *s)
{
	int err;

	pthread_join(s->th, NULL);
	err = s->err;
	free(s);
	return err;
}
