// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arrivals merged ahead, on a thread of its own (sim_ahead_start()):
 * the order in which activations arrive depends on the workload alone,
 * not on what the simulation does with them, so the tournament of each
 * task's next arrival (sim-arrivals.c) can be played on another thread
 * while the simulator runs, which then only reads the arrivals in order.
 * For a run with a core to spare (docs/replay.md "Threads"), beside the
 * pricing thread (sim-apart.c), which idles more than half the time.
 *
 * A ring of AHEAD_NBUF chunks (util/hand-ring.h): the thread fills one
 * with the next arrivals and each one's activation as rp_task_act() reads
 * it, and hands it over; the simulator reads the chunk it holds as its
 * sorted arrivals (s->arr, s->narr, s->ai: sim_arr_peek() unchanged),
 * putting each activation in its task's cache of activations read
 * (sim_task_act(): the same values it would have read itself), then gives
 * the chunk back and takes the next.
 *
 * The thread holds the tournament (s->tour) until sim_ahead_end(), which
 * stops it wherever the run is (the run's end, or a failure) and gives
 * the tournament back, as far as it was played.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "replay/sim.h"
#include "util/hand-ring.h"
#include "util/thread.h"

#define AHEAD_NBUF 8

struct sim_ahead {
	struct ea_hand_ring ring;
	struct sim_arrival *arr[AHEAD_NBUF];
	struct rp_act *act[AHEAD_NBUF];
	size_t n[AHEAD_NBUF];
	size_t chunk; /* arrivals per chunk */
	int held; /* the chunk the simulator reads, -1 */
	struct sim_tour tour; /* the thread's while it runs */
	const struct sim *s; /* the thread reads its w and keep_gaps only */
	atomic_bool quit; /* the simulator wants no more */
	pthread_t th;
};

static void *merge_main(void *arg)
{
	struct sim_ahead *a = arg;
	const struct rp_task *tasks = a->s->w->tasks;
	int slot = 0;

	for (;;) {
		struct sim_arrival *arr = a->arr[slot];
		struct rp_act *act = a->act[slot];
		size_t n = 0;

		while (n < a->chunk && a->tour.nheap) {
			arr[n] = sim_tour_pop_apart(a->s, &a->tour);
			act[n] = rp_task_act(&tasks[arr[n].task], arr[n].act);
			n++;
		}
		a->n[slot] = n;
		if (n)
			slot = ea_hand_ring_hand(&a->ring);
		if (!a->tour.nheap ||
		    atomic_load_explicit(&a->quit, memory_order_relaxed))
			break;
	}
	ea_hand_ring_stop(&a->ring);
	return NULL;
}

/* The next chunk as s's arrivals, the one read given back; none left:
 * no arrivals. */
static void next_chunk(struct sim *s, struct sim_ahead *a)
{
	if (a->held >= 0)
		ea_hand_ring_give_back(&a->ring);
	a->held = ea_hand_ring_take(&a->ring);
	if (a->held < 0) {
		s->arr = NULL;
		s->narr = s->ai = 0;
		return;
	}
	s->arr = a->arr[a->held];
	s->narr = a->n[a->held];
	s->ai = 0;
}

static void ahead_free(struct sim_ahead *a)
{
	for (int i = 0; i < AHEAD_NBUF; i++) {
		free(a->arr[i]);
		free(a->act[i]);
	}
	free(a);
}

int sim_ahead_start(struct sim *s, size_t chunk)
{
	struct sim_ahead *a;

	/* sorted arrivals (s->arr) are read in order already */
	if (s->ahead || !s->tour.heap)
		return 0;
	a = calloc(1, sizeof(*a));
	if (!a)
		return -1;
	a->chunk = chunk ? chunk : SIM_AHEAD_CHUNK;
	for (int i = 0; i < AHEAD_NBUF; i++) {
		a->arr[i] = malloc(a->chunk * sizeof(*a->arr[i]));
		a->act[i] = malloc(a->chunk * sizeof(*a->act[i]));
		if (!a->arr[i] || !a->act[i]) {
			ahead_free(a);
			return -1;
		}
	}
	a->held = -1;
	a->s = s;
	a->tour = s->tour;
	ea_hand_ring_init(&a->ring, AHEAD_NBUF);
	if (ea_thread_start(&a->th, merge_main, a, NULL)) {
		ea_hand_ring_destroy(&a->ring);
		ahead_free(a);
		return -1; /* merged here: slower, not wrong */
	}
	s->tour = (struct sim_tour){0};
	s->ahead = a;
	next_chunk(s, a);
	return 0;
}

struct sim_arrival sim_ahead_pop(struct sim *s)
{
	struct sim_ahead *a = s->ahead;
	size_t i = s->ai++;
	struct sim_arrival x = s->arr[i];
	struct sim_task *t = &s->tasks[x.task];
	size_t j = x.act & 1;

	/* sim_task_act()'s cache: as if the simulator had read it */
	t->ac[j] = a->act[a->held][i];
	t->ak[j] = (size_t)x.act + 1;
	if (s->ai == s->narr)
		next_chunk(s, a);
	return x;
}

void sim_ahead_end(struct sim *s)
{
	struct sim_ahead *a = s->ahead;

	if (!a)
		return;
	atomic_store_explicit(&a->quit, true, memory_order_relaxed);
	/* every chunk given back: the thread, if waiting, goes on, sees
	 * quit after its next hand-over and stops */
	if (a->held >= 0)
		ea_hand_ring_give_back(&a->ring);
	while (ea_hand_ring_take(&a->ring) >= 0)
		ea_hand_ring_give_back(&a->ring);
	pthread_join(a->th, NULL);
	ea_hand_ring_destroy(&a->ring);
	s->tour = a->tour;
	s->arr = NULL;
	s->narr = s->ai = 0;
	s->ahead = NULL;
	ahead_free(a);
}
