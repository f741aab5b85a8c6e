/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A helper thread started with signals blocked (src/util/thread.c): the
 * signals eatrace handles or waits for (the crash guard's, SIGPIPE, SIGINT,
 * the open guard's alarm) must reach the thread that asked for them, not
 * a helper that happens to run when they come.
 */
#ifndef EATRACE_UTIL_THREAD_H
#define EATRACE_UTIL_THREAD_H

#include <pthread.h>
#include <signal.h>

/*
 * pthread_create(th, NULL, fn, arg) with the new thread's signal mask
 * `mask`, or every signal when mask is NULL; the caller's mask is as it
 * was on return. pthread_create()'s result: 0, or an error number.
 */
int ea_thread_start(pthread_t *th, void *(*fn)(void *), void *arg,
		    const sigset_t *mask);

#endif
