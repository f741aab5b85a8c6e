/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a trace.dat's event formats say about the events eatrace reads,
 * resolved once at open (dat-format.c): their ids, the offset, size, kind
 * and signedness of each field, and how this kernel encodes sched_switch
 * prev_state. The decoder (dat-read.c) reads every record with it.
 */
#ifndef EATRACE_INPUT_DAT_FORMAT_H
#define EATRACE_INPUT_DAT_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "eatrace/error.h"
#include "eatrace/input.h"
#include "input/reader-dat.h"

struct tep_handle;

#define MAX_FIELDS 7
#define NSPECS 14 /* events of dat-format.c's table */

/* The fields of each event, in the order of dat-format.c's table. */
enum {
	SW_PREV_COMM,
	SW_PREV_PID,
	SW_PREV_PRIO,
	SW_PREV_STATE,
	SW_NEXT_COMM,
	SW_NEXT_PID,
	SW_NEXT_PRIO
};
enum { WK_COMM, WK_PID, WK_PRIO, WK_TARGET };
enum { MG_COMM, MG_PID, MG_ORIG, MG_DEST };
enum { PW_STATE, PW_CPU };
enum { UT_CPU, UT_UTIL, UT_PATH_OR_PID };
enum { MK_BUF };
enum { SR_ACTION, SR_VAL, SR_START };
enum { HP_CPU, HP_TARGET_OR_STATE, HP_IDX };

enum fld_kind {
	FLD_NONE, /* optional field absent */
	FLD_NUM, /* integer of 1, 2, 4 or 8 bytes */
	FLD_ARRAY, /* char[N] */
	FLD_DYN, /* __data_loc: u32 (len << 16 | offset) */
	FLD_REL, /* __rel_loc: offset from the end of the field */
	FLD_REST, /* char buf[] of size 0: to the end of the record */
};

struct fld {
	int off, size;
	uint8_t kind;
	bool sign;
};

#define DESC_IDS 4096 /* event ids with a direct lookup; others scan */

struct desc {
	int id;
	uint8_t type;
	bool fixed; /* the usual layout (fixed_layout()): plain loads */
	const char *name;
	int min_size; /* bytes the fixed part of the record needs */
	struct fld f[MAX_FIELDS];
};

/* An open file's formats. */
struct dat_fmt {
	struct tep_handle *tep;
	struct fld f_type, f_pid; /* common_type, common_pid */
	int common_min;
	int ndesc;
	struct desc desc[NSPECS];
	bool native; /* file byte order is the host's */
	bool fixed_common; /* u16 common_type, 4-byte common_pid */
	uint8_t desc_of[DESC_IDS]; /* event id -> desc index + 1 (0 none) */
	struct ea_prev_state_fmt ps;
};

/*
 * Resolve the formats of the events eatrace uses in f->tep's file (path,
 * for messages) into f, and note in info->may_have the events it may
 * hold. 0, or -1 with err: a core event (sched, power) whose format lacks
 * a usable field. Other events with unusable formats are skipped.
 */
int ea_dat_resolve_formats(struct dat_fmt *f, const char *path,
			   struct ea_input_info *info, struct ea_err *err);

#endif
