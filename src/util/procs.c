// SPDX-License-Identifier: GPL-2.0-only
/* Threads to processes, from Perfetto's process_tree (eatrace/procs.h). */
#include <stdlib.h>
#include <string.h>

#include "eatrace/procs.h"
#include "util/grow.h"

/* Room for one more than n items (first capacity 64). */
static int grow(void **a, size_t *cap, size_t n, size_t elem)
{
	return ea_grow(a, cap, n + 1, elem, 64);
}

int ea_procs_add_thread(struct ea_procs *p, int32_t tid, int32_t tgid)
{
	if (grow((void **)&p->threads, &p->capthreads, p->nthreads,
		 sizeof(*p->threads)))
		return -1;
	p->threads[p->nthreads] =
		(struct ea_thread_of){tid, tgid, (uint32_t)p->nthreads};
	p->nthreads++;
	return 0;
}

int ea_procs_add_proc(struct ea_procs *p, int32_t pid, const char *name,
		      size_t len)
{
	struct ea_proc_name *e;

	if (grow((void **)&p->procs, &p->capprocs, p->nprocs,
		 sizeof(*p->procs)))
		return -1;
	e = &p->procs[p->nprocs];
	e->pid = pid;
	e->seq = (uint32_t)p->nprocs++;
	if (len >= sizeof(e->name))
		len = sizeof(e->name) - 1;
	if (len)
		memcpy(e->name, name, len);
	e->name[len] = '\0';
	return 0;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct ea_thread_of *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct ea_proc_name *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int key_thread(const void *a, const void *b)
{
	int32_t k = *(const int32_t *)a,
		t = ((const struct ea_thread_of *)b)->tid;

	return k < t ? -1 : k > t;
}

static int key_proc(const void *a, const void *b)
{
	int32_t k = *(const int32_t *)a,
		t = ((const struct ea_proc_name *)b)->pid;

	return k < t ? -1 : k > t;
}

void ea_procs_finish(struct ea_procs *p)
{
	size_t k = 0;

	if (p->nthreads)
		qsort(p->threads, p->nthreads, sizeof(*p->threads), cmp_thread);
	for (size_t i = 0; i < p->nthreads; i++) {
		if (k && p->threads[k - 1].tid == p->threads[i].tid)
			k--; /* the later one wins */
		p->threads[k++] = p->threads[i];
	}
	p->nthreads = k;
	if (p->nprocs)
		qsort(p->procs, p->nprocs, sizeof(*p->procs), cmp_proc);
	k = 0;
	for (size_t i = 0; i < p->nprocs; i++) {
		if (k && p->procs[k - 1].pid == p->procs[i].pid)
			k--;
		p->procs[k++] = p->procs[i];
	}
	p->nprocs = k;
}

void ea_procs_free(struct ea_procs *p)
{
	if (!p)
		return;
	free(p->threads);
	free(p->procs);
	free(p);
}

int32_t ea_procs_tgid(const struct ea_procs *p, int32_t tid)
{
	const struct ea_thread_of *t;

	t = p->nthreads ? bsearch(&tid, p->threads, p->nthreads, sizeof(*t),
				  key_thread) : NULL;
	if (t)
		return t->tgid;
	if (p->nprocs &&
	    bsearch(&tid, p->procs, p->nprocs, sizeof(*p->procs), key_proc))
		return tid;
	return -1;
}

const char *ea_procs_name(const struct ea_procs *p, int32_t pid)
{
	const struct ea_proc_name *e;

	e = p->nprocs ? bsearch(&pid, p->procs, p->nprocs, sizeof(*e), key_proc)
		      : NULL;
	return e ? e->name : NULL;
}
