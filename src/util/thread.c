// SPDX-License-Identifier: GPL-2.0-only
/* A helper thread started with signals blocked (util/thread.h). */
#include "util/thread.h"

int ea_thread_start(pthread_t *th, void *(*fn)(void *), void *arg,
		    const sigset_t *mask)
{
	sigset_t all, old;
	int rc;

	if (!mask) {
		sigfillset(&all);
		mask = &all;
	}
	/* the new thread inherits the mask in force at pthread_create() */
	pthread_sigmask(SIG_SETMASK, mask, &old);
	rc = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}
