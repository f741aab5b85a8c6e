// SPDX-License-Identifier: GPL-2.0-only
/*
 * Read-only mmap windows over a trace.dat's CPU data, and the SIGBUS
 * handler that turns a file cut short under them into zeros and a flag
 * (dat-map.h says why and how the reader reports it).
 *
 * The registry: DM_SLOTS entries of [lo, hi) addresses, claimed by a
 * compare-and-swap, read by the handler without a lock (lock-free
 * atomics are async-signal-safe). A window's entry is filled after its
 * mmap() and emptied before its munmap(), so no two entries ever cover
 * the same address even when the kernel reuses a range. Past DM_SLOTS
 * live windows (thousands of CPUs, or many readers) a window is read by
 * pread() instead.
 *
 * The handler calls mmap() (a system call, not on POSIX's list of
 * async-signal-safe functions, but a plain one on Linux, with no lock of
 * the C library's).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/dat-map.h"

#define DM_WINDOW (2u << 20)	/* bytes per CPU */
#define DM_TOTAL (64u << 20)	/* cap on all a reader's windows */
#define DM_SLOTS 1024

struct dm_slot {
	atomic_uintptr_t lo, hi;	/* the window's addresses, 0: free */
	atomic_int used;
	atomic_int cut;
};

static struct dm_slot slots[DM_SLOTS];
static size_t sys_page;
static struct sigaction old_bus;

bool dm_fault(const siginfo_t *si)
{
	uintptr_t a = (uintptr_t)si->si_addr, p;
	int k;

	if (si->si_signo != SIGBUS || !sys_page)
		return false;
	for (k = 0; k < DM_SLOTS; k++) {
		uintptr_t lo = atomic_load(&slots[k].lo);
		uintptr_t hi = atomic_load(&slots[k].hi);

		if (!lo || a < lo || a >= hi)
			continue;
		/* zeros from the page at fault to the window's end */
		p = a & ~(uintptr_t)(sys_page - 1);
		if (mmap((void *)p, hi - p, PROT_READ,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1,
			 0) == MAP_FAILED)
			return false;
		atomic_store(&slots[k].cut, 1);
		return true;
	}
	return false;
}

static void bus_handler(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;

	if (dm_fault(si)) {
		errno = saved;
		return;
	}
	/* not a window's: what would have happened without this handler */
	if (old_bus.sa_flags & SA_SIGINFO) {
		old_bus.sa_sigaction(sig, si, uc);
	} else if (old_bus.sa_handler != SIG_DFL &&
		   old_bus.sa_handler != SIG_IGN) {
		old_bus.sa_handler(sig);
	} else {
		/* pending until the handler returns, then the default */
		signal(SIGBUS, SIG_DFL);
		raise(SIGBUS);
	}
	errno = saved;
}

/*
 * Make bus_handler() SIGBUS's handler, the one in place kept for the
 * faults that are not a window's: at the first window, and again when
 * another has been installed since (a host program's, a test harness's).
 * A sigaction() call per window mapped.
 */
static bool ensure_handler(void)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	struct sigaction sa, cur;
	long ps = sysconf(_SC_PAGESIZE);
	bool ok = true;

	if (ps <= 0 || (ps & (ps - 1)))
		return false;
	pthread_mutex_lock(&lock);
	if (sigaction(SIGBUS, NULL, &cur)) {
		ok = false;
	} else if (!(cur.sa_flags & SA_SIGINFO) ||
		   cur.sa_sigaction != bus_handler) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = bus_handler;
		sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
		sigemptyset(&sa.sa_mask);
		old_bus = cur;
		sys_page = (size_t)ps;
		ok = sigaction(SIGBUS, &sa, NULL) == 0;
	}
	pthread_mutex_unlock(&lock);
	return ok;
}

size_t dm_window(int n, uint32_t page_size)
{
	const char *env = getenv("EATRACE_NO_MMAP");
	size_t win = DM_WINDOW, unit;
	long ps = sysconf(_SC_PAGESIZE);

	if ((env && *env && strcmp(env, "0")) || ps <= 0 || (ps & (ps - 1)))
		return 0;
	env = getenv("EATRACE_MMAP_KIB");
	if (env && *env) {
		unsigned long k = strtoul(env, NULL, 10);

		if (k >= 4 && k <= (1u << 20))
			win = (size_t)k << 10;
	}
	if (n > 0 && win > DM_TOTAL / (unsigned)n)
		win = DM_TOTAL / (unsigned)n;
	/* both sizes are powers of two: the larger is a multiple of both */
	unit = (size_t)ps > page_size ? (size_t)ps : page_size;
	win &= ~(unit - 1);
	return win ? win : unit;
}

static int claim(void)
{
	int k;

	for (k = 0; k < DM_SLOTS; k++) {
		int f = 0;

		if (!atomic_load_explicit(&slots[k].used, memory_order_relaxed) &&
		    atomic_compare_exchange_strong(&slots[k].used, &f, 1))
			return k;
	}
	return -1;
}

const unsigned char *dm_map(struct dm_win *m, int fd, unsigned long long off,
			    size_t len)
{
	unsigned long long at;
	struct stat st;
	size_t adj;
	void *p;
	int k;

	memset(m, 0, sizeof(*m));
	if (!len || !ensure_handler())
		return NULL;
	/* past the end now: pread() says where the file ends */
	if (fstat(fd, &st) || off > (unsigned long long)st.st_size ||
	    len > (unsigned long long)st.st_size - off)
		return NULL;
	at = off & ~(unsigned long long)(sys_page - 1);
	adj = (size_t)(off - at);
	k = claim();
	if (k < 0)
		return NULL;
	/* populated: the page tables filled here, not by a fault a page */
	p = mmap(NULL, adj + len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd,
		 (off_t)at);
	if (p == MAP_FAILED) {
		atomic_store(&slots[k].used, 0);
		return NULL;
	}
	atomic_store(&slots[k].cut, 0);
	atomic_store(&slots[k].hi, (uintptr_t)p + adj + len);
	atomic_store(&slots[k].lo, (uintptr_t)p);
	m->base = p;
	m->len = adj + len;
	m->slot = k;
	return m->base + adj;
}

bool dm_cut(const struct dm_win *m)
{
	return m->base && atomic_load(&slots[m->slot].cut);
}

bool dm_unmap(struct dm_win *m)
{
	bool cut;

	if (!m->base)
		return false;
	atomic_store(&slots[m->slot].lo, 0);
	atomic_store(&slots[m->slot].hi, 0);
	cut = atomic_load(&slots[m->slot].cut);
	munmap(m->base, m->len);
	atomic_store(&slots[m->slot].used, 0);
	memset(m, 0, sizeof(*m));
	return cut;
}
