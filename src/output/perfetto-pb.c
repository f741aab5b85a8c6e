// SPDX-License-Identifier: GPL-2.0-only
/*
 * Perfetto's own protobuf (include/eatrace/perfetto.h, docs/html.md): the
 * --perfetto file when its name ends in .pftrace or .perfetto-trace. The
 * same tracks and values as the JSON (src/output/perfetto-json.c), about
 * five times smaller, read by ui.perfetto.dev natively.
 *
 * The file is a perfetto.protos.Trace: a run of `packet` fields (1), each a
 * TracePacket (../shared/perfetto/protos; field numbers below). It opens
 * with a ClockSnapshot naming BOOTTIME the trace's clock: every absolute
 * timestamp is the trace's own ns (less the caller's origin) on it. Per
 * priced timeline (a "process"):
 *  - on the process's sequence (trusted_packet_sequence_id): the
 *    TrackDescriptors, the process (ProcessDescriptor pid = its number, 1
 *    for the actual run) and under it, ordered explicitly, per cluster
 *    "power <cluster> (<unit>)" and "wakeup energy <cluster> (<unit> x s)",
 *    per CPU the slice track "CPU n", then counter tracks "power CPU n
 *    (<unit>)", "OPP CPU n (kHz)", "idle state CPU n" and "wakeup energy CPU
 *    n (<unit> x s)"; then the power and wakeup energy counters
 *    (TYPE_COUNTER, double_counter_value, absolute timestamps), written
 *    when the value changes, as in the JSON;
 *  - on a sequence of its own per CPU, as Perfetto's SDK writes track
 *    events: a first packet that clears the sequence's state and sets its
 *    defaults (the CPU's slice track; extra counter tracks OPP, idle state;
 *    timestamps on clock 64) and a ClockSnapshot making clock 64 an
 *    incremental clock at that time on BOOTTIME, so that each later packet's
 *    timestamp is the delta from the one before; then the task slices,
 *    TYPE_SLICE_BEGIN / TYPE_SLICE_END named "comm pid" (an EventName
 *    interned in the sequence the first time), carrying the OPP and idle
 *    state values in extra_counter_values where they change at a slice's
 *    start or end, and TYPE_COUNTER events on those tracks where they
 *    change elsewhere (idle to idle).
 * The cap works as in the JSON: power counters downsampled to half of it,
 * slices and OPP and idle-state counters stopped, all at one time, when
 * the file reaches it.
 */
#include <stdlib.h>
#include <string.h>

#include "output/pb-write.h"
#include "output/perfetto-ahead.h"
#include "output/perfetto-pb-fields.h"
#include "output/perfetto-pb-split.h"
#include "output/perfetto-pb-tracks.h"
#include "output/timeline-handoff.h"
#include "output/perfetto-priv.h"
#include "output/timeline-changes.h"
#include "output/timeline-priv.h"

/* Packets are held in the writer's buffer (w) and given to the file
 * once it holds this many bytes (ea_pf_tell() counts them). */
#define FLUSH_BYTES 65536
/* Encoding ahead: held in blocks of AHEAD_BLOCK bytes (w's buffer),
 * given over with this much room left. Small pages, not huge ones: a
 * huge page needs a free 2 MiB block, which on a VM whose balloon reports
 * free memory is nearly always one handed back to the host, so its first
 * touch faults in the host too (~3 ms a MiB here: 100-130 ms of the
 * thread for a 37.7 MB file, competing with the run for the CPUs); small
 * pages come from memory still backed (~0.7 ms a MiB). Each block is
 * freed once written (glibc maps an allocation this large on its own and
 * unmaps it at free(), bench/README.md's strace), so that the file's page
 * cache reuses it. */
#define AHEAD_BLOCK (2u << 20)
#define AHEAD_FLUSH_BYTES (AHEAD_BLOCK - 4096)

/* About one power counter packet (the power step, ea_pf_power_step()). */
#define COUNTER_BYTES 30

struct pb_state {
	struct pbw w;
	size_t flush_bytes; /* FLUSH_BYTES, AHEAD_FLUSH_BYTES */
	uint64_t next_uuid; /* track uuids, unique in the file */
	uint32_t next_seq; /* sequence ids, unique in the file */
	bool clock_written;
	/* encoding ahead: w's bytes go to its blocks, not to a file, and a
	 * task's name packet is left to the end (a hole) */
	struct pf_ahead *ahead;
};

static uint64_t rel(uint64_t ns, uint64_t t0)
{
	return ns > t0 ? ns - t0 : 0;
}

/* Encoding ahead: w's buffer to the blocks held, a new one in its place. */
static void ahead_flush(struct ea_perfetto *p, struct pb_state *ps)
{
	uint8_t *q;

	if (!pbw_ok(&ps->w) || !ps->w.n)
		return;
	q = aligned_alloc(AHEAD_BLOCK, AHEAD_BLOCK);
	if (!q) {
		ps->w.failed = true;
		return;
	}
	if (!pf_ahead_add_block(ps->ahead, ps->w.p, ps->w.n)) {
		free(q);
		ps->w.p = NULL; /* freed by pf_ahead_add_block() */
		ps->w.cap = 0;
		ps->w.failed = true;
		return;
	}
	ps->w.p = q;
	ps->w.cap = AHEAD_BLOCK;
	pbw_reset(&ps->w);
	p->held = 0;
}

/* Gives the whole packets held to the file. */
static void flush(struct ea_perfetto *p, struct pb_state *ps)
{
	if (ps->ahead)
		return ahead_flush(p, ps);
	if (pbw_ok(&ps->w) && ps->w.n &&
	    fwrite(ps->w.p, 1, ps->w.n, p->f) != ps->w.n)
		ps->w.failed = true;
	ea_pf_gave(p, ps->w.n);
	pbw_reset(&ps->w);
	p->held = 0;
}

/* Starts a packet: on sequence seq; at ts on the default (BOOTTIME) clock
 * or, with cs, on cs's incremental clock (ts absolute, written as the
 * delta). */
static void packet_begin(struct ea_perfetto *p, struct pb_state *ps,
			 uint32_t seq, struct cpu_seq *cs, uint64_t ts,
			 unsigned flags)
{
	if (ps->w.n >= ps->flush_bytes)
		flush(p, ps);
	pbw_begin(&ps->w, TRACE_PACKET);
	if (cs) {
		/* a CPU's stretches follow each other: never back in time
		 * (if they did, the packet is put at the last time) */
		pbw_uint(&ps->w, TP_TIMESTAMP,
			 ts > cs->last_ts ? ts - cs->last_ts : 0);
		if (ts > cs->last_ts)
			cs->last_ts = ts;
	} else {
		pbw_uint(&ps->w, TP_TIMESTAMP, ts);
	}
	pbw_uint(&ps->w, TP_SEQUENCE_ID, seq);
	if (flags)
		pbw_uint(&ps->w, TP_SEQUENCE_FLAGS, flags);
}

static void packet_end(struct ea_perfetto *p, struct pb_state *ps)
{
	pbw_end(&ps->w);
	p->held = ps->w.n;
}

/* A ClockSnapshot's clock. */
static void clock(struct pbw *w, unsigned id, uint64_t ts, bool incremental)
{
	pbw_begin(w, CS_CLOCKS);
	pbw_uint(w, CLK_ID, id);
	pbw_uint(w, CLK_TIMESTAMP, ts);
	if (incremental)
		pbw_uint(w, CLK_IS_INCREMENTAL, 1);
	pbw_end(w);
}

/* The file's first packet: BOOTTIME, on which every timestamp is, is the
 * trace's clock (Perfetto's default for a trace without clock snapshots,
 * said explicitly as the per-CPU sequences bring snapshots of their own). */
static void trace_clock(struct ea_perfetto *p, struct pb_state *ps,
			uint32_t seq, uint64_t ts)
{
	packet_begin(p, ps, seq, NULL, ts, 0);
	pbw_begin(&ps->w, TP_CLOCK_SNAPSHOT);
	clock(&ps->w, CLOCK_BOOTTIME, ts, false);
	pbw_uint(&ps->w, CS_PRIMARY_TRACE_CLOCK, CLOCK_BOOTTIME);
	pbw_end(&ps->w);
	packet_end(p, ps);
}

/* A TrackDescriptor: a process track (pid > 0), else a track under parent,
 * a counter track when unit is not NULL ("" for none). */
static void track(struct ea_perfetto *p, struct pb_state *ps, uint32_t seq,
		  uint64_t ts, uint64_t uuid, uint64_t parent, int rank,
		  const char *name, const char *unit, int pid)
{
	packet_begin(p, ps, seq, NULL, ts, 0);
	pbw_begin(&ps->w, TP_TRACK_DESCRIPTOR);
	pbw_uint(&ps->w, TD_UUID, uuid);
	if (pid > 0) {
		pbw_begin(&ps->w, TD_PROCESS);
		pbw_int(&ps->w, PD_PID, pid);
		pbw_string(&ps->w, PD_PROCESS_NAME, name);
		pbw_end(&ps->w);
		pbw_uint(&ps->w, TD_CHILD_ORDERING, TD_ORDER_EXPLICIT);
	} else {
		pbw_uint(&ps->w, TD_PARENT_UUID, parent);
		pbw_string(&ps->w, TD_NAME, name);
		pbw_int(&ps->w, TD_SIBLING_ORDER_RANK, rank);
	}
	if (unit) {
		pbw_begin(&ps->w, TD_COUNTER);
		if (*unit)
			pbw_string(&ps->w, CD_UNIT_NAME, unit);
		pbw_end(&ps->w);
	}
	pbw_end(&ps->w);
	packet_end(p, ps);
}

static void counter_double(struct ea_perfetto *p, struct pb_state *ps,
			   uint32_t seq, uint64_t ts, uint64_t uuid, double v)
{
	packet_begin(p, ps, seq, NULL, ts, 0);
	pbw_begin(&ps->w, TP_TRACK_EVENT);
	pbw_uint(&ps->w, TE_TYPE, TYPE_COUNTER);
	pbw_uint(&ps->w, TE_TRACK_UUID, uuid);
	pbw_double(&ps->w, TE_DOUBLE_COUNTER_VALUE, v);
	pbw_end(&ps->w);
	packet_end(p, ps);
}

/* The power (wake false) or wakeup energy counter of column col. */
static void power_counters(struct ea_perfetto *p, struct pb_state *ps,
			   uint32_t seq, const struct ea_timeline *t, int col,
			   uint64_t uuid, uint64_t t0, bool wake, size_t step)
{
	struct ea_pf_power_iter it;
	uint64_t a;
	double w;

	ea_pf_power_iter_init(&it, t, col, wake, step);
	while (ea_pf_power_next(&it, &a, &w))
		counter_double(p, ps, seq, rel(a, t0), uuid, w);
	/* Close the last step at the end so its length is visible. */
	if (t->nbuckets)
		counter_double(p, ps, seq, rel(t->end, t0), uuid, 0);
}

/* A CPU sequence's first packet: state cleared, defaults, the incremental
 * clock (as Perfetto's SDK starts a track event sequence). */
static void cpu_seq_start(struct ea_perfetto *p, struct pb_state *ps,
			  struct cpu_seq *cs, uint64_t ts)
{
	packet_begin(p, ps, cs->seq, NULL, ts, SEQ_INCREMENTAL_STATE_CLEARED);
	pbw_uint(&ps->w, TP_TIMESTAMP_CLOCK_ID, CLOCK_BOOTTIME);
	pbw_begin(&ps->w, TP_DEFAULTS);
	pbw_uint(&ps->w, DEF_TIMESTAMP_CLOCK_ID, CLOCK_INCREMENTAL);
	pbw_begin(&ps->w, DEF_TRACK_EVENT);
	pbw_uint(&ps->w, TED_TRACK_UUID, cs->slices);
	pbw_uint(&ps->w, TED_EXTRA_COUNTER_UUIDS, cs->opp);
	pbw_uint(&ps->w, TED_EXTRA_COUNTER_UUIDS, cs->idle);
	pbw_end(&ps->w);
	pbw_end(&ps->w);
	pbw_begin(&ps->w, TP_CLOCK_SNAPSHOT);
	clock(&ps->w, CLOCK_BOOTTIME, ts, false);
	clock(&ps->w, CLOCK_INCREMENTAL, ts, true);
	pbw_uint(&ps->w, CS_PRIMARY_TRACE_CLOCK, CLOCK_BOOTTIME);
	pbw_end(&ps->w);
	packet_end(p, ps);
	cs->last_ts = ts;
	cs->started = true;
}

/* Room for the longest event_packet(): the packet's tag and length, the
 * timestamp's and sequence's fields, the event's tag and length, its type,
 * name and two extra counter values. */
#define EVENT_PACKET_MAX (2 + 11 + 11 + 2 + 2 + 11 + 2 * 11)

/*
 * A whole packet on cs's sequence at ts holding a track event of type
 * (a slice's BEGIN or END): its name iid when not 0, the extra counter
 * values (f, i) when they changed. The bytes packet_begin(), the fields and
 * extra_counters() give (each message under 128 bytes: one length byte),
 * put at q (room for EVENT_PACKET_MAX checked by the caller): most packets
 * are these. The end of what it put.
 */
static inline __attribute__((always_inline)) uint8_t *
event_at(uint8_t *q, struct cpu_seq *cs, uint64_t ts, unsigned type,
	 uint64_t iid, long long f, long long i)
{
	uint8_t *packet, *event;

	*q++ = TRACE_PACKET << 3 | 2;
	packet = q++;
	*q++ = TP_TIMESTAMP << 3;
	q = pbw_varint_at(q, ts > cs->last_ts ? ts - cs->last_ts : 0);
	if (ts > cs->last_ts)
		cs->last_ts = ts;
	*q++ = TP_SEQUENCE_ID << 3;
	q = pbw_varint_at(q, cs->seq);
	*q++ = TP_TRACK_EVENT << 3 | 2;
	event = q++;
	*q++ = TE_TYPE << 3;
	*q++ = (uint8_t)type;
	if (iid) {
		*q++ = TE_NAME_IID << 3;
		q = pbw_varint_at(q, iid);
	}
	if (f != cs->f || i != cs->i) {
		*q++ = TE_EXTRA_COUNTER_VALUES << 3;
		q = pbw_varint_at(q, (uint64_t)f);
		*q++ = TE_EXTRA_COUNTER_VALUES << 3;
		q = pbw_varint_at(q, (uint64_t)i);
		cs->f = f;
		cs->i = i;
	}
	*event = (uint8_t)(q - event - 1);
	*packet = (uint8_t)(q - packet - 1);
	return q;
}

/* event_at() in the writer's buffer, flushed first when full. */
static void event_packet(struct ea_perfetto *p, struct pb_state *ps,
			 struct cpu_seq *cs, uint64_t ts, unsigned type,
			 uint64_t iid, long long f, long long i)
{
	uint8_t *q;

	if (ps->w.n >= ps->flush_bytes)
		flush(p, ps);
	if (!pbw_room(&ps->w, EVENT_PACKET_MAX))
		return;
	q = event_at(ps->w.p + ps->w.n, cs, ts, type, iid, f, i);
	ps->w.n = (size_t)(q - ps->w.p);
	p->held = ps->w.n;
}

/* The pending slice's END, with the values (f, i) that hold from then. */
static void slice_end(struct ea_perfetto *p, struct pb_state *ps,
		      struct cpu_seq *cs, long long f, long long i)
{
	event_packet(p, ps, cs, cs->pending_end, TYPE_SLICE_END, 0, f, i);
	cs->pending = false;
}

/* A change of OPP or idle state at ts that no slice event carries. */
static void counters_alone(struct ea_perfetto *p, struct pb_state *ps,
			   struct cpu_seq *cs, uint64_t ts, long long f,
			   long long i)
{
	for (int k = 0; k < 2; k++) {
		long long v = k ? i : f, *last = k ? &cs->i : &cs->f;

		if (v == *last)
			continue;
		packet_begin(p, ps, cs->seq, cs, ts, 0);
		pbw_begin(&ps->w, TP_TRACK_EVENT);
		pbw_uint(&ps->w, TE_TYPE, TYPE_COUNTER);
		pbw_uint(&ps->w, TE_TRACK_UUID, k ? cs->idle : cs->opp);
		pbw_int(&ps->w, TE_COUNTER_VALUE, v);
		pbw_end(&ps->w);
		packet_end(p, ps);
		*last = v;
	}
}

/*
 * The packet of a task's first slice on a sequence (h: its fields, as
 * slice_begin() had them): the slice's BEGIN, its name pid's label from s
 * interned (with iid).
 */
static void name_packet(struct ea_perfetto *p, struct pb_state *ps,
			const struct pf_hole *h, const struct ea_state *s)
{
	char cb[32], label[EA_COMM_LEN + 16];
	const char *comm = ea_pf_comm_of(s, h->pid, cb);

	if (h->pid > 0 && comm != cb)
		snprintf(label, sizeof(label), "%s %d", comm, h->pid);
	else
		snprintf(label, sizeof(label), "%s", comm);
	if (ps->w.n >= ps->flush_bytes)
		flush(p, ps);
	pbw_begin(&ps->w, TRACE_PACKET);
	pbw_uint(&ps->w, TP_TIMESTAMP, h->dts);
	pbw_uint(&ps->w, TP_SEQUENCE_ID, h->seq);
	pbw_uint(&ps->w, TP_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
	pbw_begin(&ps->w, TP_INTERNED_DATA);
	pbw_begin(&ps->w, ID_EVENT_NAMES);
	pbw_uint(&ps->w, EN_IID, h->iid);
	pbw_string(&ps->w, EN_NAME, label);
	pbw_end(&ps->w);
	pbw_end(&ps->w);
	pbw_begin(&ps->w, TP_TRACK_EVENT);
	pbw_uint(&ps->w, TE_TYPE, TYPE_SLICE_BEGIN);
	pbw_uint(&ps->w, TE_NAME_IID, h->iid);
	if (h->extra) {
		pbw_int(&ps->w, TE_EXTRA_COUNTER_VALUES, h->f);
		pbw_int(&ps->w, TE_EXTRA_COUNTER_VALUES, h->i);
	}
	pbw_end(&ps->w);
	packet_end(p, ps);
}

/* A slice's BEGIN at ts, named after pid, with the values (f, i). */
static void slice_begin(struct ea_perfetto *p, struct pb_state *ps,
			struct cpu_seq *cs, uint64_t ts, int32_t pid,
			const struct ea_state *s, long long f, long long i)
{
	struct pf_hole h;
	size_t slot;
	uint64_t iid;

	if (!ea_pf_pid_map_room(&cs->names)) {
		ps->w.failed = true; /* out of memory: nothing more */
		return;
	}
	slot = ea_pf_pid_slot(&cs->names, pid);
	iid = cs->names.val[slot];
	if (iid) { /* its name interned before */
		event_packet(p, ps, cs, ts, TYPE_SLICE_BEGIN, iid, f, i);
		return;
	}
	/* pid's first slice on this sequence: its name interned here (as
	 * packet_begin() and extra_counters() would) */
	iid = cs->names.n + 1;
	cs->names.pid[slot] = pid;
	cs->names.val[slot] = iid;
	cs->names.n++;
	h = (struct pf_hole){
		.dts = ts > cs->last_ts ? ts - cs->last_ts : 0,
		.iid = iid,
		.f = f,
		.i = i,
		.pid = pid,
		.seq = cs->seq,
		.extra = f != cs->f || i != cs->i,
	};
	if (ts > cs->last_ts)
		cs->last_ts = ts;
	cs->f = f;
	cs->i = i;
	if (!ps->ahead || s)
		return name_packet(p, ps, &h, s);
	/* ahead, the run not over: the name is the state's at its end */
	h.off = ps->ahead->bytes + ps->w.n;
	if (!pf_ahead_add_hole(ps->ahead, &h))
		ps->w.failed = true;
}

/*
 * A busy stretch after a slice (most changes): the pending slice's END
 * (with the values that held, so without counters) and, when pid's name is
 * interned, the new slice's BEGIN at ts with the values (f, i), the two
 * packets put at once; else the END and slice_begin(). The bytes of
 * slice_end() then slice_begin().
 */
static inline __attribute__((always_inline)) void
slice_switch(struct ea_perfetto *p, struct pb_state *ps,
	     struct cpu_seq *cs, uint64_t ts, int32_t pid,
	     const struct ea_state *s, long long f, long long i)
{
	uint64_t iid;
	uint8_t *q;

	if (!ea_pf_pid_map_room(&cs->names)) {
		ps->w.failed = true; /* out of memory: nothing more */
		return;
	}
	iid = cs->names.val[ea_pf_pid_slot(&cs->names, pid)];
	if (!iid) {
		slice_end(p, ps, cs, cs->f, cs->i);
		slice_begin(p, ps, cs, ts, pid, s, f, i);
		return;
	}
	if (ps->w.n >= ps->flush_bytes)
		flush(p, ps);
	if (!pbw_room(&ps->w, 2 * EVENT_PACKET_MAX))
		return;
	q = event_at(ps->w.p + ps->w.n, cs, cs->pending_end, TYPE_SLICE_END, 0,
		     cs->f, cs->i);
	q = event_at(q, cs, ts, TYPE_SLICE_BEGIN, iid, f, i);
	ps->w.n = (size_t)(q - ps->w.p);
	p->held = ps->w.n;
}

static void describe(struct ea_perfetto *p, struct pb_state *ps,
		     struct tracks *k, const char *name,
		     const struct ea_timeline *t, uint64_t ts)
{
	const struct ea_model *m = t->acct->model;
	char n[EA_NAME_LEN + 64], wu[EA_NAME_LEN + 8];
	int rank = 0;

	snprintf(wu, sizeof(wu), "%s x s", m->power_unit);
	k->proc = ps->next_uuid++;
	track(p, ps, k->seq, ts, k->proc, 0, 0, name, NULL, p->pid);
	for (int i = 0; i < m->nclusters; i++) {
		k->cl_power[i] = ps->next_uuid++;
		snprintf(n, sizeof(n), "power %s (%s)", m->clusters[i].name,
			 m->power_unit);
		track(p, ps, k->seq, ts, k->cl_power[i], k->proc, rank++, n,
		      m->power_unit, 0);
		k->cl_wake[i] = ps->next_uuid++;
		snprintf(n, sizeof(n), "wakeup energy %s (%s x s)",
			 m->clusters[i].name, m->power_unit);
		track(p, ps, k->seq, ts, k->cl_wake[i], k->proc, rank++, n, wu,
		      0);
	}
	for (int c = 0; c < k->ncpus; c++) {
		struct cpu_seq *cs = &k->cpu[c];

		cs->seq = ps->next_seq++;
		cs->f = -2; /* neither an OPP nor an idle state: */
		cs->i = -3; /* the first values are written */
		cs->assumed_khz = ea_pf_assumed_khz(t->acct, c);
		cs->slices = ps->next_uuid++;
		snprintf(n, sizeof(n), "CPU %d", c);
		track(p, ps, k->seq, ts, cs->slices, k->proc, rank++, n, NULL,
		      0);
		k->power[c] = ps->next_uuid++;
		snprintf(n, sizeof(n), "power CPU %d (%s)", c, m->power_unit);
		track(p, ps, k->seq, ts, k->power[c], k->proc, rank++, n,
		      m->power_unit, 0);
		cs->opp = ps->next_uuid++;
		snprintf(n, sizeof(n), "OPP CPU %d (kHz)", c);
		track(p, ps, k->seq, ts, cs->opp, k->proc, rank++, n, "kHz", 0);
		cs->idle = ps->next_uuid++;
		snprintf(n, sizeof(n), "idle state CPU %d", c);
		track(p, ps, k->seq, ts, cs->idle, k->proc, rank++, n, "", 0);
		k->wake[c] = ps->next_uuid++;
		snprintf(n, sizeof(n), "wakeup energy CPU %d (%s x s)", c,
			 m->power_unit);
		track(p, ps, k->seq, ts, k->wake[c], k->proc, rank++, n, wu, 0);
	}
}

/*
 * The pass over the changes, resumable: the reader, the changes read.
 * Encoding ahead, also what the end needs to know: where the cap's last
 * check came (the bytes and holes before it), the highest CPU seen, and
 * the bytes it may hold.
 */
struct pb_pass {
	struct ea_tl_reader *r;
	size_t n;
	size_t ck_off, ck_holes;
	bool ck_any;
	int max_cpu;
	size_t max_bytes;
};

/* Whether the pass goes on to the next change (the cap not reached, no
 * failure; ahead, the bytes it may hold not reached). */
static inline bool pass_on(const struct ea_perfetto *p,
			   const struct pb_state *ps, const struct pb_pass *pass)
{
	return !p->full && pbw_ok(&ps->w) &&
	       (!ps->ahead || ps->ahead->bytes + ps->w.n < pass->max_bytes);
}

/*
 * The pass's change ch, its n-th: OPP and idle-state changes and task
 * slices, in time order (as perfetto-json.c's changes()), so that a cap
 * cuts them all at one time. A slice's END waits for the CPU's next
 * stretch, whose values it carries when that stretch is not a slice.
 * False when the cap cuts before ch (nothing written).
 */
static inline __attribute__((always_inline)) bool
change(struct ea_perfetto *p, struct pb_state *ps, struct tracks *k,
       struct pb_pass *pass, const struct ea_tl_change *ch, size_t n,
       const struct ea_state *s, uint64_t t0)
{
	struct cpu_seq *cs;
	long long f, i;
	uint64_t ts;

	if (ch->cpu > pass->max_cpu)
		pass->max_cpu = ch->cpu;
	if (ch->cpu >= k->ncpus || ch->t1 <= ch->t0)
		return true;
	if (ea_pf_check_cap(p, n, ch->t0))
		return false;
	if (ps->ahead && !(n % 256)) { /* where the cap would check */
		pass->ck_off = ps->ahead->bytes + ps->w.n;
		pass->ck_holes = ps->ahead->nholes;
		pass->ck_any = true;
	}
	cs = &k->cpu[ch->cpu];
	f = 0; /* ea_pf_priced_khz(), the assumed OPP's looked up once */
	if (ch->mode == EA_CPU_BUSY)
		f = ch->freq_khz ? ch->freq_khz : cs->assumed_khz;
	i = ch->mode == EA_CPU_IDLE ? ch->idle_state : -1;
	ts = rel(ch->t0, t0);
	if (!cs->started)
		cpu_seq_start(p, ps, cs, ts);
	if (cs->pending && ch->mode == EA_CPU_BUSY) {
		slice_switch(p, ps, cs, ts, ch->pid, s, f, i);
		cs->pending = true;
		cs->pending_end = rel(ch->t1, t0);
		return true;
	}
	if (cs->pending) {
		/* the END carries the values of a stretch that starts there
		 * and is no slice */
		bool carry = ch->mode != EA_CPU_BUSY && cs->pending_end == ts;

		slice_end(p, ps, cs, carry ? f : cs->f, carry ? i : cs->i);
	}
	if (ch->mode == EA_CPU_BUSY) {
		slice_begin(p, ps, cs, ts, ch->pid, s, f, i);
		cs->pending = true;
		cs->pending_end = rel(ch->t1, t0);
	} else {
		counters_alone(p, ps, cs, ts, f, i);
	}
	return true;
}

/* The pass's changes from its reader, until it has no more (true), the
 * until-th is next, pass_on() says no, or the cap cuts. */
static bool changes(struct ea_perfetto *p, struct pb_state *ps,
		    struct tracks *k, struct pb_pass *pass,
		    const struct ea_state *s, uint64_t t0, size_t until)
{
	struct ea_tl_change ch;
	size_t n = pass->n;
	bool end = false;

	for (; n < until && pass_on(p, ps, pass); n++) {
		if (!tl_reader_next(pass->r, &ch)) {
			end = true;
			break;
		}
		if (!change(p, ps, k, pass, &ch, n, s, t0))
			break;
	}
	pass->n = n;
	return end;
}

/* The slices still open, ended. */
static void changes_end(struct ea_perfetto *p, struct pb_state *ps,
			struct tracks *k)
{
	for (int c = 0; c < k->ncpus; c++)
		if (k->cpu[c].pending)
			slice_end(p, ps, &k->cpu[c], k->cpu[c].f, k->cpu[c].i);
}

/*
 * Encoding ahead (pf_pb_ahead_start(), by ea_perfetto_ahead_start_as()):
 * the changes() pass of the file's first process done by the record's
 * hand-over thread (timeline-handoff.h's tap: each block of changes as it
 * is recorded, one thread for both) while the run records the changes,
 * its tracks numbered as pb_process() numbers them and with every CPU of
 * the model (a CPU past the trace's was not seen, or the pass is not
 * used), into blocks (perfetto-ahead.h); a task's name packet left to the
 * end. At the end (the record sealed: the thread ended) pb_process()
 * checks that it stands for what it would have encoded itself, writes it
 * out and goes on from there.
 */
struct pf_pb_ahead {
	const struct ea_timeline *t;
	struct tl_changes *rec; /* NULL: the split's (held_new()) */
	const struct ea_state *s; /* the split's: the names, the origin */
	uint64_t t0;
	struct ea_perfetto p; /* no file, no cap: a stand-in */
	struct pb_state ps;
	struct tracks k;
	struct pb_pass pass;
	struct pf_ahead held;
};

/* The hand-over's tap: a block of changes, recorded (as the record has
 * them: read back, the same changes). */
static void ahead_tap(void *arg, const struct ea_tl_change *v, size_t nv)
{
	struct pf_pb_ahead *a = arg;

	if (a->rec->failed) /* not all recorded: the record's reader */
		a->held.failed = true;
	for (size_t i = 0; i < nv && !a->held.failed &&
			   pass_on(&a->p, &a->ps, &a->pass);
	     i++, a->pass.n++)
		(void)change(&a->p, &a->ps, &a->k, &a->pass, &v[i], a->pass.n,
			     NULL, 0);
}

struct pf_pb_ahead *pf_pb_ahead_start(struct ea_timeline *t, long long cap)
{
	const long long most = EA_PERFETTO_AHEAD_MAX_MB * 1048576ll;
	struct pf_pb_ahead *a;

	if (!t->record_changes || !t->priv || t->started ||
	    !(a = calloc(1, sizeof(*a))))
		return NULL;
	a->t = t;
	a->rec = &t->priv->changes;
	a->ps.next_uuid = 1;
	a->ps.next_seq = 1;
	a->ps.flush_bytes = SIZE_MAX; /* AHEAD_FLUSH_BYTES once numbered */
	a->pass.max_cpu = -1;
	a->pass.max_bytes = (size_t)(cap > 0 && cap < most ? cap : most);
	pbw_init(&a->ps.w);
	if (pf_tracks_alloc(&a->k, t->acct->model->nclusters, t->ncpus))
		goto fail;
	/* numbered as pb_process() does a file's first process (its
	 * descriptors, written here, are dropped) */
	a->k.seq = a->ps.next_seq++;
	describe(&a->p, &a->ps, &a->k, "", t, 0);
	pbw_free(&a->ps.w);
	a->ps.w.p = aligned_alloc(AHEAD_BLOCK, AHEAD_BLOCK);
	a->ps.w.cap = AHEAD_BLOCK;
	a->ps.flush_bytes = AHEAD_FLUSH_BYTES;
	a->ps.ahead = &a->held;
	if (!a->ps.w.p || tl_changes_handoff(a->rec))
		goto fail;
	tl_handoff_tap(a->rec->ho, ahead_tap, a);
	return a;
fail:
	pf_pb_ahead_free(a);
	return NULL;
}

/* The split's encoder (held_read()): bytes in blocks (at most
 * pf_pb_split_hold(cap)), names from s (no holes), tracks (in *ek) as
 * k's with empty pid maps; NULL when out of memory. */
static struct pf_pb_ahead *held_new(const struct ea_timeline *t,
				    const struct tracks *k,
				    const struct ea_state *s, uint64_t t0,
				    long long cap, struct tracks **ek)
{
	struct pf_pb_ahead *a = calloc(1, sizeof(*a));

	if (!a || pf_tracks_alloc(&a->k, 0, k->ncpus))
		goto fail;
	a->t = t;
	a->s = s;
	a->t0 = t0;
	a->k.seq = k->seq;
	for (int c = 0; c < k->ncpus; c++) {
		a->k.cpu[c] = k->cpu[c];
		a->k.cpu[c].names = (struct ea_pf_pid_map){0};
	}
	a->pass.max_cpu = -1;
	a->pass.max_bytes = pf_pb_split_hold(cap);
	a->ps.w.p = aligned_alloc(AHEAD_BLOCK, AHEAD_BLOCK);
	a->ps.w.cap = AHEAD_BLOCK;
	a->ps.flush_bytes = AHEAD_FLUSH_BYTES;
	a->ps.ahead = &a->held;
	if (!a->ps.w.p)
		goto fail;
	*ek = &a->k;
	return a;
fail:
	pf_pb_ahead_free(a);
	return NULL;
}

/* The split's encode (perfetto-pb-split.h): into held_new()'s blocks. */
static void held_read(void *ctx, struct ea_tl_reader *r, size_t n,
		      const atomic_bool *stop)
{
	struct pf_pb_ahead *a = ctx;
	size_t until;

	a->pass.r = r;
	a->pass.n = n;
	do /* the stop looked at every 64 Ki changes */
		until = a->pass.n + 65536;
	while (!changes(&a->p, &a->ps, &a->k, &a->pass, a->s, a->t0, until) &&
	       a->pass.n == until &&
	       !atomic_load_explicit(stop, memory_order_relaxed));
	ahead_flush(&a->p, &a->ps);
}

void pf_pb_ahead_free(struct pf_pb_ahead *a)
{
	if (!a)
		return;
	if (a->rec && a->rec->ho) /* the run failed: the record unsealed */
		tl_handoff_tap(a->rec->ho, NULL, NULL);
	ea_tl_reader_free(a->pass.r);
	pbw_free(&a->ps.w);
	pf_tracks_free(&a->k);
	pf_ahead_free(&a->held);
	free(a);
}

/* Gives q's n bytes to the file. */
static void give(struct ea_perfetto *p, struct pb_state *ps, const uint8_t *q,
		 size_t n)
{
	if (n && pbw_ok(&ps->w) && fwrite(q, 1, n, p->f) != n)
		ps->w.failed = true;
	ea_pf_gave(p, n);
}

/*
 * The file's changes from what a encoded (t's, time origin t0; the
 * encoder ahead's from the first, the split's from where the file is):
 * false (nothing written) when a cannot stand for them, or when the cap
 * would have cut them (ea_pf_check_cap()'s checks, at the bytes the file
 * would have had there); else the blocks and the name packets (from s)
 * written in order, and k and pass taken over from a to go on from where
 * it stopped.
 */
static bool ahead_take(struct ea_perfetto *p, struct pf_pb_ahead *a,
		       struct pb_state *ps, struct tracks *k,
		       struct pb_pass *pass, const struct ea_timeline *t,
		       const struct ea_state *s, uint64_t t0)
{
	struct pf_ahead *h = &a->held;
	struct pb_state names = {.flush_bytes = SIZE_MAX};
	struct ea_perfetto scratch = {0}; /* p's held stays p's */
	size_t *ends, at = 0, hi = 0;
	bool ok;

	/* the record sealed: its thread (the tap's) ended */
	ahead_flush(&a->p, &a->ps);
	/* the encoder ahead's: a CPU past k's seen, or numbered otherwise */
	if (a->t != t || a->t0 != t0 || h->failed || !pbw_ok(&a->ps.w) ||
	    (a->rec && (a->pass.max_cpu >= k->ncpus ||
			!pf_tracks_fit(&a->k, k))))
		return false;
	/* a tap that stopped short (it held all it may): a reader of the
	 * record from where it stopped, for the rest (the split's reader is
	 * there) */
	if (!a->pass.r && a->pass.n < a->rec->count) {
		if (!(a->pass.r = ea_tl_reader_new(t)))
			return false;
		for (size_t i = 0; i < a->pass.n; i++)
			if (!tl_reader_next(a->pass.r,
					    &(struct ea_tl_change){0}))
				return false;
	}
	if (!(ends = calloc(h->nholes + 1, sizeof(*ends))))
		return false;
	/* the name packets, each ending at ends[] in names.w */
	pbw_init(&names.w);
	for (size_t i = 0; i < h->nholes; i++) {
		name_packet(&scratch, &names, &h->holes[i], s);
		ends[i] = names.w.n;
	}
	ok = pbw_ok(&names.w) &&
	     (!p->cap || !a->pass.ck_any ||
	      ea_pf_tell(p) + (long long)(a->pass.ck_off +
					  (a->pass.ck_holes ? ends[a->pass.ck_holes - 1] : 0)) <
		      p->cap);
	if (ok) {
		flush(p, ps);
		for (size_t b = 0; b < h->nblk; b++) {
			const uint8_t *q = h->blk[b].p;
			size_t n = h->blk[b].n, end = at + n;

			for (; hi < h->nholes && h->holes[hi].off <= end; hi++) {
				size_t cut = h->holes[hi].off - at;

				give(p, ps, q, cut);
				q += cut;
				n -= cut;
				at += cut;
				give(p, ps, names.w.p + (hi ? ends[hi - 1] : 0),
				     ends[hi] - (hi ? ends[hi - 1] : 0));
			}
			give(p, ps, q, n);
			at += n;
			/* written (fwrite() keeps what it holds back): its
			 * memory now serves the file's pages */
			free(h->blk[b].p);
			h->blk[b].p = NULL;
		}
		for (; hi < h->nholes; hi++) /* none past the last block */
			give(p, ps, names.w.p + (hi ? ends[hi - 1] : 0),
			     ends[hi] - (hi ? ends[hi - 1] : 0));
		p->held = 0;
		for (int c = 0; c < k->ncpus; c++) {
			ea_pf_pid_map_free(&k->cpu[c].names);
			k->cpu[c] = a->k.cpu[c];
			a->k.cpu[c].names = (struct ea_pf_pid_map){0};
		}
		*pass = a->pass;
		pass->max_bytes = SIZE_MAX;
		a->pass.r = NULL;
	}
	pbw_free(&names.w);
	free(ends);
	return ok;
}

/*
 * With p->split_min: the changes before from encoded here while a thread
 * encodes those from there (perfetto-pb-split.c), its blocks taken when
 * they stand for what this pass would write; pass goes on from where
 * either stopped.
 */
static void split(struct ea_perfetto *p, struct pb_state *ps,
		  struct tracks *k, struct pb_pass *pass,
		  const struct ea_timeline *t, const struct ea_state *s,
		  uint64_t t0)
{
	size_t from = s ? pf_pb_split_from(p->split_min,
					   ea_timeline_nchanges(t))
			: 0;
	struct pf_pb_ahead *a;
	struct pb_split *sp;
	struct tracks *ek;
	struct ea_tl_reader *mine = pass->r; /* at from when a's goes on */

	if (!from || !(a = held_new(t, k, s, t0, p->cap, &ek)))
		return;
	if (!(sp = pf_pb_split_start(t, ek, t0, from, held_read, a))) {
		pf_pb_ahead_free(a);
		return;
	}
	changes(p, ps, k, pass, s, t0, from);
	if (pass->n == from && !p->full && pbw_ok(&ps->w) &&
	    pf_pb_split_join(sp) && ahead_take(p, a, ps, k, pass, t, s, t0)) {
		ea_tl_reader_free(mine);
		p->split_taken++;
	}
	pf_pb_split_free(sp); /* the thread ended or stopped: a is ours */
	pf_pb_ahead_free(a);
}

static void pb_process(struct ea_perfetto *p, const char *name,
		       const struct ea_timeline *t, const struct ea_state *s,
		       uint64_t t0)
{
	struct pb_state *ps = p->impl;
	const struct ea_model *m = t->acct->model;
	int ncpus = t->acct->trace_ncpus < t->ncpus ? t->acct->trace_ncpus
						    : t->ncpus;
	struct tracks k = {0};
	struct pf_pb_ahead *a = p->ahead;
	struct pb_pass pass;
	bool taken = false;
	size_t step;

	p->pid++;
	if (!pbw_ok(&ps->w) ||
	    pf_tracks_alloc(&k, m->nclusters, ncpus > 0 ? ncpus : 0)) {
		ps->w.failed = true;
		return;
	}
	k.seq = ps->next_seq++;
	if (!ps->clock_written) {
		trace_clock(p, ps, k.seq, rel(t->start, t0));
		ps->clock_written = true;
	}
	describe(p, ps, &k, name, t, rel(t->start, t0));
	step = ea_pf_power_step(p, t, k.ncpus, COUNTER_BYTES);
	for (int i = 0; i < m->nclusters; i++) {
		power_counters(p, ps, k.seq, t, t->ncpus + i, k.cl_power[i], t0,
			       false, step);
		power_counters(p, ps, k.seq, t, t->ncpus + i, k.cl_wake[i], t0,
			       true, step);
	}
	for (int c = 0; c < k.ncpus; c++) {
		power_counters(p, ps, k.seq, t, c, k.power[c], t0, false, step);
		power_counters(p, ps, k.seq, t, c, k.wake[c], t0, true, step);
	}
	p->ahead = NULL; /* its owner frees it */
	if (a && (taken = ahead_take(p, a, ps, &k, &pass, t, s, t0)) &&
	    p->ahead_taken)
		*p->ahead_taken = true;
	if (!taken) {
		pass = (struct pb_pass){.r = ea_tl_reader_new(t), .max_cpu = -1};
		if (!pass.r)
			ps->w.failed = true;
		else
			split(p, ps, &k, &pass, t, s, t0);
	}
	if (pass.r)
		changes(p, ps, &k, &pass, s, t0, SIZE_MAX);
	ea_tl_reader_free(pass.r);
	changes_end(p, ps, &k);
	pf_tracks_free(&k);
	flush(p, ps);
}

static void pb_end(struct ea_perfetto *p)
{
	struct pb_state *ps = p->impl;

	if (!ps)
		return;
	p->failed = !pbw_ok(&ps->w);
	pbw_free(&ps->w);
	free(ps);
	p->impl = NULL;
}

static const struct ea_pf_ops pb_ops = {pb_process, pb_end};

int ea_pf_pb_begin(struct ea_perfetto *p)
{
	struct pb_state *ps = calloc(1, sizeof(*ps));

	if (!ps)
		return -1;
	pbw_init(&ps->w);
	ps->flush_bytes = FLUSH_BYTES;
	ps->next_uuid = 1;
	ps->next_seq = 1;
	p->impl = ps;
	p->ops = &pb_ops;
	return 0;
}
