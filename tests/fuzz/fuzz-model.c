// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fuzz target: the native model loader (ea_model_load_buffer), and for a
 * model it accepts, the consistency checks and the JSON writer, whose
 * output must load back. Corpus: tests/fuzz/corpus/model/.
 */
#include "eatrace/model.h"
#include "fuzz.h"

static void finding(void *ctx, enum ea_severity sev, const char *msg)
{
	if (strchr(msg, '\n'))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ea_model *m = NULL, *m2 = NULL;
	struct ea_err err;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (ea_model_load_buffer(&m, (const char *)data, size, "fuzz.json",
				 &err)) {
		if (strchr(err.msg, '\n'))
			abort();
		return 0;
	}
	ea_model_check_cb(m, finding, NULL);
	f = open_memstream(&buf, &len);
	if (!f || ea_model_write_json(m, f) || fclose(f))
		abort();
	/* What the writer wrote must read back. */
	if (ea_model_load_buffer(&m2, buf, len, "rewritten.json", &err)) {
		fprintf(stderr, "written model does not load back: %s\n%s\n",
			err.msg, buf);
		abort();
	}
	ea_model_free(m2);
	free(buf);
	ea_model_free(m);
	return 0;
}
