// SPDX-License-Identifier: GPL-2.0-only
/*
 * Live events: a session's per-CPU buffers read through libtracefs
 * (tracefs_iterate_raw_events) and decoded into struct ea_event with the
 * formats this kernel reports, as the trace.dat reader does for files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "eatrace/record.h"

enum { F_A, F_B, F_C, F_D, F_E, F_F, F_G, NF };

struct live_desc {
	const char *system, *name;
	uint8_t type;
	const char *fields[NF];	/* '$' string, '?' optional */
	int id;
	struct tep_format_field *f[NF];
};

#define WAKE { "$comm", "pid", "?prio", "?target_cpu" }

static const struct live_desc descs[] = {
	{ "sched", "sched_switch", EA_EV_SWITCH,
	  { "$prev_comm", "prev_pid", "prev_prio", "prev_state", "$next_comm",
	    "next_pid", "next_prio" }, 0, { 0 } },
	{ "sched", "sched_wakeup", EA_EV_WAKEUP, WAKE, 0, { 0 } },
	{ "sched", "sched_waking", EA_EV_WAKING, WAKE, 0, { 0 } },
	{ "sched", "sched_wakeup_new", EA_EV_WAKEUP_NEW, WAKE, 0, { 0 } },
	{ "sched", "sched_migrate_task", EA_EV_MIGRATE,
	  { "$comm", "pid", "orig_cpu", "dest_cpu" }, 0, { 0 } },
	{ "power", "cpu_frequency", EA_EV_FREQ, { "state", "cpu_id" }, 0, { 0 } },
	{ "power", "cpu_idle", EA_EV_IDLE, { "state", "cpu_id" }, 0, { 0 } },
	{ "ftrace", "print", EA_EV_MARKER, { "$buf" }, 0, { 0 } },
};

#define NDESC (sizeof(descs) / sizeof(descs[0]))

/*
 * How this kernel encodes sched_switch prev_state, learnt from the event's
 * own print format: each bit is rendered through libtraceevent on a
 * synthetic record, and its letter tells what it means ("+": preempted,
 * still runnable; X, Z, x: the task is dead; other letters: blocked; "R"
 * alone: a bit the format ignores). Never the rendered letter of real data.
 */
struct prev_state_bits {
	uint64_t blocked, dead;
	bool probed;
};

struct ea_live {
	struct ea_session *s;
	struct tep_handle *tep;
	struct live_desc d[NDESC];
	int nd;
	struct tep_format_field *common_pid;
	struct prev_state_bits ps;
	void (*cb)(void *ctx, const struct ea_event *ev);
	void *ctx;
	long n;
};

/* A number in host order (the local tracefs's order), size 1, 2, 4 or 8. */
static void put(unsigned char *p, int size, uint64_t v)
{
	uint8_t u8 = (uint8_t)v;
	uint16_t u16 = (uint16_t)v;
	uint32_t u32 = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy(p, &u8, 1);
		break;
	case 2:
		memcpy(p, &u16, 2);
		break;
	case 4:
		memcpy(p, &u32, 4);
		break;
	case 8:
		memcpy(p, &v, 8);
		break;
	}
}

static void probe_prev_state(struct tep_handle *tep, struct tep_event *ev,
			     struct tep_format_field *f, struct prev_state_bits *ps)
{
	struct tep_format_field *type = tep_find_common_field(ev, "common_type");
	struct tep_format_field **fields = tep_event_fields(ev);
	struct tep_record rec;
	struct trace_seq seq;
	unsigned char *data;
	int size = 0;

	memset(ps, 0, sizeof(*ps));
	for (int i = 0; fields && fields[i]; i++)
		if (fields[i]->offset + fields[i]->size > size)
			size = fields[i]->offset + fields[i]->size;
	free(fields);
	if (!f || !type || f->size > 8 || size <= 0 || size > 4096)
		goto fallback;
	data = calloc(1, (size_t)size);
	if (!data)
		goto fallback;
	trace_seq_init(&seq);
	for (int b = 0; b < 8 * f->size && b < 32; b++) {
		uint64_t v = 1ull << b;
		const char *p;

		memset(data, 0, (size_t)size);
		put(data + type->offset, type->size, (uint64_t)ev->id);
		put(data + f->offset, f->size, v);
		memset(&rec, 0, sizeof(rec));
		rec.data = data;
		rec.size = size;
		trace_seq_reset(&seq);
		tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		p = seq.buffer ? strstr(seq.buffer, "prev_state=") : NULL;
		if (!p)
			break;
		ps->probed = true;
		p += 11;
		if (*p == 'R')
			continue;	/* runnable: ignored or the "+" bit */
		if (*p == 'X' || *p == 'Z' || *p == 'x')
			ps->dead |= v;
		else if (*p && *p != ' ')
			ps->blocked |= v;
	}
	trace_seq_destroy(&seq);
	free(data);
	if (ps->probed && (ps->blocked | ps->dead))
		return;
fallback:
	/* the low byte is the state on every kernel; 0 is running */
	ps->probed = false;
	ps->blocked = 0xff;
	ps->dead = 0;
}

static uint8_t decode_prev_state(const struct prev_state_bits *ps, uint64_t v)
{
	if (v & ps->dead)
		return EA_PREV_DEAD;
	if (v & ps->blocked)
		return EA_PREV_BLOCKED;
	return EA_PREV_RUNNABLE;
}

/* A whole tracefs file (they report size 0), NUL-terminated; NULL: none. */
static char *read_all(const char *dir, const char *name, int *len)
{
	size_t cap = 8192, n = 0;
	char path[512], *buf = NULL, *nb;
	ssize_t r;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/events/%s", dir, name) >= sizeof(path))
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (!buf || n + 1 >= cap) {
			cap = buf ? cap * 2 : cap;
			if (cap > (64u << 20) || !(nb = realloc(buf, cap)))
				break;
			buf = nb;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			if (r < 0 || !n)
				break;
			buf[n] = '\0';
			*len = (int)n;
			return buf;
		}
		n += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	return NULL;
}

/*
 * A tep with the ring buffer's page header and the formats of descs[]'s
 * events, nothing else: tracefs_local_events_system() also parses every
 * other event of their systems, and loads /proc/kallsyms (120 000 lines
 * here, read 4 KB at a time into a buffer grown by realloc: 0.2 s, and
 * 2.5 minutes under ASan) and printk_formats, which live decoding never
 * reads. An event without a format file is left out (an older kernel);
 * ea_live_open() says which ones it needs.
 */
static struct tep_handle *load_formats(const char *dir)
{
	struct tep_handle *tep = tep_alloc();
	char name[256], *buf;
	int len;

	if (!tep)
		return NULL;
	buf = read_all(dir, "header_page", &len);
	if (!buf) {
		tep_free(tep);
		return NULL;
	}
	tep_parse_header_page(tep, buf, len, sizeof(long));
	free(buf);
	for (size_t i = 0; i < NDESC; i++) {
		snprintf(name, sizeof(name), "%s/%s/format", descs[i].system, descs[i].name);
		buf = read_all(dir, name, &len);
		if (buf)
			tep_parse_event(tep, buf, (unsigned long)len, descs[i].system);
		free(buf);
	}
	return tep;
}

int ea_live_open(struct ea_live **lp, struct ea_session *s, struct ea_err *err)
{
	struct ea_live *l = calloc(1, sizeof(*l));

	*lp = NULL;
	if (!l)
		return ea_err_set(err, "out of memory");
	l->s = s;
	errno = 0;
	l->tep = load_formats(s->tracing_dir);
	if (!l->tep) {
		free(l);
		return ea_err_set(err, "%s/events: cannot read the event formats: %s",
				  s->tracing_dir, strerror(errno ? errno : EIO));
	}
	for (size_t i = 0; i < NDESC; i++) {
		struct live_desc *d = &l->d[l->nd];
		struct tep_event *ev;
		bool ok = true;

		*d = descs[i];
		ev = tep_find_event_by_name(l->tep, d->system, d->name);
		if (!ev)
			continue;
		d->id = ev->id;
		for (int k = 0; k < NF && d->fields[k]; k++) {
			const char *name = d->fields[k];
			bool optional = false;

			while (*name == '$' || *name == '?')
				optional |= *name++ == '?';
			d->f[k] = tep_find_field(ev, name);
			if (!d->f[k] && !optional)
				ok = false;
		}
		if (!ok)
			continue;
		if (!l->common_pid)
			l->common_pid = tep_find_common_field(ev, "common_pid");
		if (d->type == EA_EV_SWITCH)
			probe_prev_state(l->tep, ev, d->f[F_D], &l->ps);
		l->nd++;
	}
	if (!l->common_pid) {
		ea_live_close(l);
		return ea_err_set(err, "%s/events: no usable sched or power event format",
				  s->tracing_dir);
	}
	*lp = l;
	return 0;
}

void ea_live_close(struct ea_live *l)
{
	if (!l)
		return;
	tep_free(l->tep);
	free(l);
}

static int64_t num(const struct tep_record *rec, const struct tep_format_field *f)
{
	unsigned long long v;
	unsigned sh;

	if (!f || f->offset + f->size > rec->size ||
	    tep_read_number_field((struct tep_format_field *)f, rec->data, &v))
		return -1;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		sh = 64 - 8 * f->size;
		return (int64_t)(v << sh) >> sh;
	}
	return (int64_t)v;
}

static void str(const struct ea_live *l, const struct tep_record *rec,
		const struct tep_format_field *f, char *dst, size_t n)
{
	const char *data = rec->data;
	size_t start, len, i;

	dst[0] = '\0';
	if (!f || f->offset < 0 || f->offset > rec->size)
		return;
	start = f->offset;
	len = f->size ? (size_t)f->size : (size_t)rec->size - start;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned loc;

		if (f->size != 4 || f->offset + 4 > rec->size)
			return;
		loc = (unsigned)tep_read_number(l->tep, data + f->offset, 4);
		start = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			start += f->offset + 4;
	}
	if (start + len > (size_t)rec->size)
		return;
	for (i = 0; i < len && i + 1 < n && data[start + i]; i++)
		dst[i] = data[start + i];
	dst[i] = '\0';
}

static int on_record(struct tep_event *event, struct tep_record *rec, int cpu,
		     void *ctx)
{
	struct ea_live *l = ctx;
	const struct live_desc *d = NULL;
	struct tep_format_field *const *f;
	struct ea_event ev;

	if (rec->missed_events) {
		memset(&ev, 0, sizeof(ev));
		ev.ts = rec->ts;
		ev.cpu = cpu;
		ev.cur_pid = -1;
		ev.type = EA_EV_LOST;
		ev.lost.count = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 0;
		l->cb(l->ctx, &ev);
		l->n++;
	}
	for (int i = 0; i < l->nd; i++)
		if (l->d[i].id == event->id)
			d = &l->d[i];
	if (!d)
		return 0;
	f = d->f;
	memset(&ev, 0, sizeof(ev));
	ev.ts = rec->ts;
	ev.cpu = cpu;
	ev.cur_pid = (int32_t)num(rec, l->common_pid);
	ev.type = d->type;
	switch (d->type) {
	case EA_EV_SWITCH:
		str(l, rec, f[F_A], ev.sw.prev_comm, EA_COMM_LEN);
		ev.sw.prev_pid = (int32_t)num(rec, f[F_B]);
		ev.sw.prev_prio = (int32_t)num(rec, f[F_C]);
		ev.sw.prev_state = decode_prev_state(&l->ps,
					(uint64_t)num(rec, f[F_D]));
		str(l, rec, f[F_E], ev.sw.next_comm, EA_COMM_LEN);
		ev.sw.next_pid = (int32_t)num(rec, f[F_F]);
		ev.sw.next_prio = (int32_t)num(rec, f[F_G]);
		break;
	case EA_EV_WAKEUP:
	case EA_EV_WAKING:
	case EA_EV_WAKEUP_NEW:
		str(l, rec, f[F_A], ev.wake.comm, EA_COMM_LEN);
		ev.wake.pid = (int32_t)num(rec, f[F_B]);
		ev.wake.prio = (int32_t)num(rec, f[F_C]);
		ev.wake.target_cpu = (int32_t)num(rec, f[F_D]);
		break;
	case EA_EV_MIGRATE:
		str(l, rec, f[F_A], ev.migrate.comm, EA_COMM_LEN);
		ev.migrate.pid = (int32_t)num(rec, f[F_B]);
		ev.migrate.orig_cpu = (int32_t)num(rec, f[F_C]);
		ev.migrate.dest_cpu = (int32_t)num(rec, f[F_D]);
		break;
	case EA_EV_FREQ:
		ev.freq.freq_khz = (uint32_t)num(rec, f[F_A]);
		ev.freq.cpu = (int32_t)num(rec, f[F_B]);
		if (ev.freq.cpu < 0 || ev.freq.cpu >= EA_MAX_CPUS)
			return 0;
		break;
	case EA_EV_IDLE:
		/* u32 4294967295 (PWR_EVENT_EXIT) becomes EA_IDLE_EXIT */
		ev.idle.state = (int32_t)(uint32_t)num(rec, f[F_A]);
		ev.idle.cpu = (int32_t)num(rec, f[F_B]);
		if (ev.idle.cpu < 0 || ev.idle.cpu >= EA_MAX_CPUS)
			return 0;
		break;
	case EA_EV_MARKER: {
		size_t n;

		str(l, rec, f[F_A], ev.marker.text, sizeof(ev.marker.text));
		if (strncmp(ev.marker.text, "eatrace:", 8))
			return 0;
		n = strlen(ev.marker.text);
		while (n && (ev.marker.text[n - 1] == '\n' ||
			     ev.marker.text[n - 1] == ' '))
			ev.marker.text[--n] = '\0';
		break;
	}
	default:
		return 0;
	}
	l->cb(l->ctx, &ev);
	l->n++;
	return 0;
}

long ea_live_read(struct ea_live *l,
		  void (*cb)(void *ctx, const struct ea_event *ev), void *ctx,
		  struct ea_err *err)
{
	l->cb = cb;
	l->ctx = ctx;
	l->n = 0;
	if (tracefs_iterate_raw_events(l->tep, l->s->inst, NULL, 0, on_record, l) < 0)
		return ea_err_set(err, "%s/instances/%s: cannot read the trace buffers: %s",
				  l->s->tracing_dir, l->s->name,
				  strerror(errno ? errno : EIO));
	return l->n;
}
