// SPDX-License-Identifier: GPL-2.0-only
/*
 * Batch rows as CSV (RFC 4180 quoting) or JSON lines, and reading back the
 * --resume key of a row (include/eatrace/batch.h, docs/batch.md).
 */
#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "eatrace/batch.h"
#include "eatrace/output.h"

/* The key columns of each kind of row, after hash; how many */
static const char *const key_cols[] = { "", "cluster,", "cpu,cluster,", "pid,comm," };
static const int nkeys[] = { 0, 1, 2, 2 };

void ea_batch_header(FILE *f, enum ea_batch_fmt fmt, enum ea_batch_rows kind)
{
	if (fmt == EA_BATCH_CSV)
		fprintf(f, "path,model,hash,%sduration_s,total_energy,busy_energy,"
			"idle_energy,wakeup_energy,mean_power,power_unit,energy_unit,"
			"model_check_errors,error\n",
			key_cols[kind]);
}

static void csv_field(FILE *f, const char *s, bool last)
{
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

static void json_str(FILE *f, const char *key, const char *s)
{
	fprintf(f, "\"%s\":\"", key);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* The key columns of r (names, values; numeric or not): how many */
static int row_keys(const struct ea_batch_row *r, const char *name[2], char val[2][64],
		    bool num[2])
{
	static const char *const names[][2] = { { NULL, NULL }, { "cluster", NULL },
		{ "cpu", "cluster" }, { "pid", "comm" } };
	int n = nkeys[r->kind];

	for (int i = 0; i < n; i++) {
		name[i] = names[r->kind][i];
		num[i] = !strcmp(name[i], "cpu") || !strcmp(name[i], "pid");
		val[i][0] = 0;
	}
	if (r->failed)
		return n;
	switch (r->kind) {
	case EA_ROWS_TRACE:
		break;
	case EA_ROWS_CLUSTER:
		snprintf(val[0], 64, "%s", r->cluster ? r->cluster : "");
		break;
	case EA_ROWS_CPU:
		snprintf(val[0], 64, "%d", r->cpu);
		snprintf(val[1], 64, "%s", r->cluster ? r->cluster : "");
		break;
	case EA_ROWS_TASK:
		snprintf(val[0], 64, "%d", (int)r->pid);
		snprintf(val[1], 64, "%s", r->comm ? r->comm : "");
		break;
	}
	return n;
}

void ea_batch_row_write(FILE *f, enum ea_batch_fmt fmt, const struct ea_batch_row *r)
{
	char num[7][EA_EU_BUF] = { "", "", "", "", "", "", "" };
	static const char *const keys[] = { "duration_s", "total_energy",
		"busy_energy", "idle_energy", "wakeup_energy", "mean_power",
		"model_check_errors" };
	const char *kname[2];
	char kval[2][64];
	bool knum[2];
	int nk = row_keys(r, kname, kval, knum);
	struct ea_energy_unit ut;
	const struct ea_energy_unit *u = ea_energy_unit_or(r->unit, r->power_unit, &ut);

	if (!r->failed) {
		ea_fmt_s(num[0], r->duration_ns);
		ea_eu_fmt(num[1], u, r->total);
		ea_eu_fmt(num[2], u, r->busy);
		ea_eu_fmt(num[3], u, r->idle);
		ea_eu_fmt(num[4], u, r->wakeup);
		/* energy / s, in u->power; no mean over an empty window */
		if (r->duration_ns)
			ea_fmt_num(num[5], ea_eu_energy(u, r->total) /
					   ((double)r->duration_ns / 1e9));
		snprintf(num[6], sizeof(num[6]), "%d", r->model_errors);
	}
	if (fmt == EA_BATCH_CSV) {
		csv_field(f, r->path, false);
		csv_field(f, r->model, false);
		csv_field(f, r->hash, false);
		for (int i = 0; i < nk; i++)
			csv_field(f, kval[i], false);
		for (int i = 0; i < 6; i++)
			csv_field(f, num[i], false);
		csv_field(f, r->failed ? "" : u->power, false);
		csv_field(f, r->failed ? "" : u->energy, false);
		csv_field(f, num[6], false);
		csv_field(f, r->failed ? r->error : "", true);
		return;
	}
	fputc('{', f);
	json_str(f, "path", r->path);
	fputc(',', f);
	json_str(f, "model", r->model);
	fputc(',', f);
	json_str(f, "hash", r->hash);
	for (int i = 0; i < nk; i++) {
		fputc(',', f);
		if (r->failed)
			fprintf(f, "\"%s\":null", kname[i]);
		else if (knum[i])
			fprintf(f, "\"%s\":%s", kname[i], kval[i]);
		else
			json_str(f, kname[i], kval[i]);
	}
	for (int i = 0; i < 6; i++)
		fprintf(f, ",\"%s\":%s", keys[i], num[i][0] ? num[i] : "null");
	if (r->failed) {
		fputs(",\"power_unit\":null,\"energy_unit\":null,\"model_check_errors\":null,", f);
		json_str(f, "error", r->error);
	} else {
		fputc(',', f);
		json_str(f, "power_unit", u->power);
		fputc(',', f);
		json_str(f, "energy_unit", u->energy);
		fprintf(f, ",\"%s\":%s,\"error\":null", keys[6], num[6]);
	}
	fputs("}\n", f);
}

/* The n-th (0-based) CSV field of line into out (size outsz). */
static int csv_nth(const char *line, int n, char *out, size_t outsz)
{
	size_t k = 0;
	int field = 0;
	bool q = false;

	for (const char *p = line; *p && *p != '\n'; p++) {
		if (q) {
			if (*p == '"' && p[1] == '"')
				p++;
			else if (*p == '"') {
				q = false;
				continue;
			}
		} else if (*p == '"') {
			q = true;
			continue;
		} else if (*p == ',') {
			if (field++ == n)
				break;
			continue;
		}
		if (field == n && k + 1 < outsz)
			out[k++] = *p;
	}
	out[k] = 0;
	return field >= n ? 0 : -1;
}

/* Whether object o has exactly the keys of a row of this kind */
static bool same_keys(struct json_object *o, enum ea_batch_rows kind)
{
	static const char *const names[][2] = { { NULL, NULL }, { "cluster", NULL },
		{ "cpu", "cluster" }, { "pid", "comm" } };

	/* path, model, hash, the key columns, 6 figures, power_unit,
	 * energy_unit, model_check_errors, error */
	if (json_object_object_length(o) != 13 + nkeys[kind])
		return false;
	for (int i = 0; i < nkeys[kind]; i++)
		if (!json_object_object_get_ex(o, names[kind][i], NULL))
			return false;
	return true;
}

int ea_batch_row_key(const char *line, enum ea_batch_fmt fmt, enum ea_batch_rows kind,
		     char hash[EA_HASH_LEN], char *model, char unit[EA_EU_NAME_LEN],
		     bool *failed)
{
	char err[8];

	unit[0] = 0;
	if (fmt == EA_BATCH_CSV) {
		if (!strncmp(line, "path,model,", 11) ||
		    csv_nth(line, 12 + nkeys[kind], err, sizeof(err)) ||
		    csv_nth(line, 1, model, EA_ERR_MAX) || csv_nth(line, 2, hash, EA_HASH_LEN) ||
		    csv_nth(line, 10 + nkeys[kind], unit, EA_EU_NAME_LEN))
			return -1;
		*failed = err[0] != 0;
		return 0;
	}
	struct json_object *o = json_tokener_parse(line), *v;
	int rc = -1;

	if (o && json_object_is_type(o, json_type_object) && !same_keys(o, kind))
		rc = -2;
	else if (o && json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, "hash", &v) && json_object_is_type(v, json_type_string)) {
		snprintf(hash, EA_HASH_LEN, "%s", json_object_get_string(v));
		if (json_object_object_get_ex(o, "model", &v) &&
		    json_object_is_type(v, json_type_string)) {
			snprintf(model, EA_ERR_MAX, "%s", json_object_get_string(v));
			*failed = json_object_object_get_ex(o, "error", &v) &&
				  !json_object_is_type(v, json_type_null);
			if (json_object_object_get_ex(o, "energy_unit", &v) &&
			    json_object_is_type(v, json_type_string))
				snprintf(unit, EA_EU_NAME_LEN, "%s", json_object_get_string(v));
			rc = 0;
		}
	}
	json_object_put(o);
	return rc;
}
