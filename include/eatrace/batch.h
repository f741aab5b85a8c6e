/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Batches of traces (`eatrace batch`, docs/batch.md): one row per trace x
 * model with the trace's content hash, its duration and its energy totals,
 * rendered as CSV or JSON lines; a row that failed carries its one-line
 * error instead of figures.
 */
#ifndef EATRACE_BATCH_H
#define EATRACE_BATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/energy.h"
#include "eatrace/error.h"
#include "eatrace/model.h"
#include "eatrace/unit.h"

#define EA_HASH_LEN 17		/* 16 hex digits + NUL */

/* What one row covers (`batch --rows`): the trace, or one of its clusters,
 * CPUs or tasks (extra key columns after hash, docs/batch.md). */
enum ea_batch_rows { EA_ROWS_TRACE, EA_ROWS_CLUSTER, EA_ROWS_CPU, EA_ROWS_TASK };

struct ea_batch_row {
	const char *path;
	const char *model;	/* as the user named it (-m) */
	enum ea_batch_rows kind;
	/* the key of a cluster/CPU/task row (empty in an error row) */
	const char *cluster;	/* EA_ROWS_CLUSTER, EA_ROWS_CPU */
	int cpu;		/* EA_ROWS_CPU */
	int32_t pid;		/* EA_ROWS_TASK */
	const char *comm;	/* EA_ROWS_TASK */
	char hash[EA_HASH_LEN];	/* "" when the file could not be read */
	char power_unit[16];
	/* the unit its energies are written in (--unit); NULL: power_unit x s */
	const struct ea_energy_unit *unit;
	int model_errors;	/* errors 'eatrace model check' finds in the model */
	uint64_t duration_ns;
	ea_energy_t total, busy, idle, wakeup;
	bool failed;
	char error[EA_ERR_MAX];	/* when failed */
};

enum ea_batch_fmt { EA_BATCH_CSV, EA_BATCH_JSONL };

/* Content hash of a file: FNV-1a 64 of its bytes, 16 lower-case hex digits
 * into hash (not cryptographic: it keys --resume). 0, or -1 with err. */
int ea_hash_file(const char *path, char hash[EA_HASH_LEN], struct ea_err *err);

/*
 * Price one trace with a loaded model as `eatrace report` does (whole
 * trace, default options) and fill row->duration_ns and the energies; on
 * failure row->failed and row->error. row->path, model, hash are the
 * caller's. Returns 0 or -1.
 */
int ea_batch_price(struct ea_batch_row *row, const struct ea_model *m);

/*
 * The same for rows of kind row->kind: emit(row, ctx) once per cluster, CPU
 * (those the trace has) or task (report's order), each row's figures that
 * part's; once with row->failed on failure. EA_ROWS_TRACE: one row, as
 * ea_batch_price(). Returns 0 or -1.
 */
int ea_batch_price_rows(struct ea_batch_row *row, const struct ea_model *m,
			void (*emit)(const struct ea_batch_row *row, void *ctx), void *ctx);

/* "trace", "cluster", "cpu", "task" -> kind; -1 if none of them. */
int ea_batch_rows_parse(const char *s);

/* The CSV header line (with its newline); nothing for JSON lines.
 * Columns: docs/batch.md. */
void ea_batch_header(FILE *f, enum ea_batch_fmt fmt, enum ea_batch_rows kind);
/* One row, one line, newline-terminated. */
void ea_batch_row_write(FILE *f, enum ea_batch_fmt fmt, const struct ea_batch_row *r);
/*
 * The --resume key of a line this module wrote: its hash and model, the
 * unit of its energies ("" in an error row), and whether it is an error
 * row. Returns 0, -1 if the line is not a row (the CSV header, garbage),
 * -2 if it is a JSON object with other keys than a row of this kind
 * (another --rows). model: at least EA_ERR_MAX bytes.
 */
int ea_batch_row_key(const char *line, enum ea_batch_fmt fmt, enum ea_batch_rows kind,
		     char hash[EA_HASH_LEN], char *model,
		     char unit[EA_EU_NAME_LEN], bool *failed);

/*
 * One trace's rows as `eatrace batch -f FORMAT --rows ROWS -m MODEL PATH`
 * writes them (no CSV header), content hash included, into *text (free()
 * it). format: "csv" or "jsonl"; rows: "trace", "cluster", "cpu" or
 * "task". Returns 0 when priced, 1 when *text is the trace's error row, -1
 * with *err (free() it) when the model or an argument is bad. Writes
 * nothing on stderr.
 */
int ea_batch_rows_text(const char *path, const char *model, const char *format,
		       const char *rows, char **text, char **err);

#endif
