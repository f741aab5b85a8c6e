// SPDX-License-Identifier: GPL-2.0-only
/*
 * The protobuf --perfetto file's changes encoded at the end of the run by
 * two threads (ea_perfetto_split(), include/eatrace/perfetto.h;
 * src/output/perfetto-pb-split.h), when it was not encoded ahead
 * (replay's file; report's only when its encoder ahead could not stand
 * for them): the pass over the record is the file's largest work, and after
 * the run the second CPU is idle. (Instead of report's encoder ahead at -j
 * 2 it was faster on a loaded machine, slower on a quiet one:
 * bench/README.md, the eleventh round.)
 *
 * A thread of its own reads the record from its start, takes in the
 * changes before `from` without encoding them (pf_pb_skip(): each CPU
 * sequence's last timestamp, values, pending slice and interned names, as
 * the packets would leave them), and encodes the changes from there into
 * blocks (perfetto-pb.c's held_read(): the names are the state's at
 * the end, as the caller's; each place the cap is checked noted), holding
 * at most the cap (or EA_PERFETTO_AHEAD_MAX_MB). Meanwhile the caller
 * encodes the changes before `from` into the file. If it gets there (the
 * cap not reached), it takes the blocks when the cap would not have cut
 * them (perfetto-pb.c's ahead_take(), as the encoder ahead's) and goes on
 * from where the thread stopped, with its reader and sequences; otherwise
 * it goes on from `from` by itself: the same bytes either way.
 */
#include <stdlib.h>

#include "eatrace/perfetto.h"
#include "output/perfetto-ahead.h"
#include "output/perfetto-pb-split.h"
#include "output/timeline-changes.h"

static uint64_t rel(uint64_t ns, uint64_t t0)
{
	return ns > t0 ? ns - t0 : 0;
}

static void latest(struct cpu_seq *cs, uint64_t ts)
{
	if (ts > cs->last_ts)
		cs->last_ts = ts;
}

/*
 * What change() (perfetto-pb.c) leaves: every packet on a CPU's sequence
 * moves its last timestamp to the packet's when later; the first change
 * of a CPU starts its sequence there; a pending slice's END is written at
 * its end; a slice's BEGIN sets the values and interns the task's name
 * (ids 1, 2, ... in order of first slices on the sequence); a stretch that
 * is no slice writes a counter for each value that changed, at its start,
 * where an END that carries its values was (the values and the time come
 * out the same whether the END or the counters carried them).
 */
bool pf_pb_skip(struct tracks *k, const struct ea_tl_change *ch, uint64_t t0)
{
	struct cpu_seq *cs;
	long long f, i;
	uint64_t ts;
	bool busy;

	if (ch->cpu >= k->ncpus || ch->t1 <= ch->t0)
		return true;
	cs = &k->cpu[ch->cpu];
	busy = ch->mode == EA_CPU_BUSY;
	f = busy ? (ch->freq_khz ? ch->freq_khz : cs->assumed_khz) : 0;
	i = ch->mode == EA_CPU_IDLE ? ch->idle_state : -1;
	ts = rel(ch->t0, t0);
	if (!cs->started) {
		cs->last_ts = ts;
		cs->started = true;
	}
	if (cs->pending) {
		latest(cs, cs->pending_end);
		cs->pending = false;
	}
	if (busy) {
		size_t slot;

		if (!ea_pf_pid_map_room(&cs->names))
			return false;
		slot = ea_pf_pid_slot(&cs->names, ch->pid);
		if (!cs->names.val[slot]) {
			cs->names.pid[slot] = ch->pid;
			cs->names.val[slot] = ++cs->names.n;
		}
		latest(cs, ts);
		cs->pending = true;
		cs->pending_end = rel(ch->t1, t0);
	} else if (f != cs->f || i != cs->i) {
		latest(cs, ts);
	}
	cs->f = f;
	cs->i = i;
	return true;
}

size_t pf_pb_split_from(size_t split_min, size_t nchanges)
{
	size_t from = nchanges / 10 * 7 + nchanges % 10 * 7 / 10;

	if (!split_min || nchanges < split_min || nchanges < 2)
		return 0;
	/* the thread reads and takes in the changes before from too (173
	 * instructions a change against 290 to encode one, rec.dat; and the
	 * thread's blocks take fresh memory as the caller's write() copies):
	 * 7/10 for the caller */
	return from ? from : 1;
}

size_t pf_pb_split_hold_max;

size_t pf_pb_split_hold(long long cap)
{
	const long long most = EA_PERFETTO_AHEAD_MAX_MB * 1048576ll;

	if (pf_pb_split_hold_max)
		return pf_pb_split_hold_max;
	return (size_t)(cap > 0 && cap < most ? cap : most);
}

struct pb_split {
	const struct ea_timeline *t;
	struct tracks *k; /* the encoder's */
	uint64_t t0;
	size_t from;
	pf_pb_encode_fn *encode;
	void *ctx;
	struct pf_ahead th; /* the thread (no blocks) */
	atomic_bool stop; /* not needed any more (pf_pb_split_free()) */
	bool reached; /* change from taken in, encode() called */
};

static void work(void *arg)
{
	struct pb_split *sp = arg;
	struct ea_tl_reader *r = ea_tl_reader_new(sp->t);
	struct ea_tl_change ch;

	if (!r)
		return;
	for (size_t n = 0; n < sp->from; n++)
		if (!tl_reader_next(r, &ch) ||
		    (!(n % 4096) &&
		     atomic_load_explicit(&sp->stop, memory_order_relaxed)) ||
		    !pf_pb_skip(sp->k, &ch, sp->t0)) {
			ea_tl_reader_free(r);
			return;
		}
	sp->reached = true;
	sp->encode(sp->ctx, r, sp->from, &sp->stop);
}

struct pb_split *pf_pb_split_start(const struct ea_timeline *t,
				   struct tracks *k, uint64_t t0, size_t from,
				   pf_pb_encode_fn *encode, void *ctx)
{
	struct pb_split *sp;

	if (!from || !(sp = calloc(1, sizeof(*sp))))
		return NULL;
	*sp = (struct pb_split){.t = t,
				.k = k,
				.t0 = t0,
				.from = from,
				.encode = encode,
				.ctx = ctx};
	atomic_init(&sp->stop, false);
	if (pf_ahead_start(&sp->th, work, sp)) {
		free(sp);
		return NULL;
	}
	return sp;
}

bool pf_pb_split_join(struct pb_split *sp)
{
	pf_ahead_join(&sp->th);
	return sp->reached;
}

void pf_pb_split_free(struct pb_split *sp)
{
	if (!sp)
		return;
	/* the caller stopped before the thread's changes: so may it */
	atomic_store_explicit(&sp->stop, true, memory_order_relaxed);
	pf_ahead_join(&sp->th);
	free(sp);
}
