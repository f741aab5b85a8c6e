/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The power rails a trace carries (docs/perfetto.md, "Power rails"): rail
 * descriptors (index, rail_name, subsys_name) and samples of each rail's
 * energy counter, the energy accumulated since boot in microwatt-seconds
 * (uWs), at a time in ns. The Perfetto reader fills the store
 * (src/input/rail-samples.c; struct ea_rails, in ea_input_info); the
 * comparison with the estimate is eatrace/rails.h's.
 */
#ifndef EATRACE_RAIL_SAMPLES_H
#define EATRACE_RAIL_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EA_RAIL_NAME_LEN 64

struct ea_rail_sample {
	uint64_t ts; /* ns, the trace's clock (boot time) */
	uint64_t uws; /* energy since boot, uWs */
};

struct ea_rail {
	uint32_t index; /* RailDescriptor.index */
	bool described; /* a descriptor named it */
	char name[EA_RAIL_NAME_LEN];
	char subsys[EA_RAIL_NAME_LEN];
	struct ea_rail_sample *s; /* in time order (ea_rails_finish) */
	size_t n, cap;
};

struct ea_rails {
	struct ea_rail *r;
	size_t n, cap;
};

/* The rail with this index, added (unnamed) when new; NULL: out of memory. */
struct ea_rail *ea_rails_get(struct ea_rails *rs, uint32_t index);
/* 0, or -1 out of memory. */
int ea_rail_add_sample(struct ea_rail *r, uint64_t ts, uint64_t uws);
/* Sorts each rail's samples by time; unnamed rails get "rail<index>". */
void ea_rails_finish(struct ea_rails *rs);
/* Frees rs and what it holds; NULL is fine. */
void ea_rails_free(struct ea_rails *rs);

#endif
