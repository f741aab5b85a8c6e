// SPDX-License-Identifier: GPL-2.0-only
/*
 * 'model import' dispatch: the table of importers, an importer by name,
 * and a source's format guessed from its content (or a bundled model's
 * name). Only the command and the tests call it; the importers never do.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "eatrace/input.h"
#include "model/import-priv.h"
#include "model/import.h"

const struct ea_importer ea_importers[] = {
	{"idlestat",
	 "idlestat energy-model file (clusters N, P-states, C-states, wakeup)",
	 ea_import_idlestat},
	{"debugfs",
	 "kernel /sys/kernel/debug/energy_model tree (ps:FREQ or cs:FREQ)",
	 ea_import_debugfs},
	{"dt",
	 "Android sched-energy-costs device-tree binding (dts text or dtb)",
	 ea_import_dt},
	{"power-profile", "Android power_profile.xml (mA)",
	 ea_import_power_profile},
	{"lisa", "LISA plat_info.yml nrg-model (libyaml)", ea_import_lisa},
	{"wattson", "Perfetto Wattson CPU curves (cpu_1d.csv, cpu_2d.csv; mW)",
	 ea_import_wattson},
	{"json", "eatrace native model JSON", ea_import_json},
	{NULL, NULL, NULL},
};

const struct ea_importer *ea_importer_find(const char *name)
{
	if (!strcmp(name, "power_profile") || !strcmp(name, "xml"))
		name = "power-profile";
	else if (!strcmp(name, "dtb") || !strcmp(name, "dts"))
		name = "dt";
	else if (!strcmp(name, "plat_info") || !strcmp(name, "yaml"))
		name = "lisa";
	else if (!strcmp(name, "native"))
		name = "json";
	for (const struct ea_importer *im = ea_importers; im->name; im++)
		if (!strcmp(im->name, name))
			return im;
	return NULL;
}

static bool has_line_prefix(const char *buf, const char *prefix)
{
	size_t n = strlen(prefix);

	for (const char *p = buf; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, prefix, n))
			return true;
	}
	return false;
}

/* First character after white space and C/C++ comments. */
static char first_significant(const char *s)
{
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
		       *s == '\f')
			s++;
		if (s[0] == '/' && s[1] == '*') {
			s = strstr(s + 2, "*/");
			if (!s)
				return '\0';
			s += 2;
		} else if (s[0] == '/' && s[1] == '/') {
			s = strchr(s, '\n');
			if (!s)
				return '\0';
		} else {
			return *s;
		}
	}
}

static const struct ea_importer *detect(const char *src, struct ea_err *err);

const struct ea_importer *ea_importer_detect(const char *src,
					     struct ea_err *err)
{
	const struct ea_importer *im = detect(src, err);

	if (!im)
		ea_import_scrub(err);
	return im;
}

static const struct ea_importer *detect(const char *src, struct ea_err *err)
{
	unsigned char head[65536];
	char *text = (char *)head;
	struct stat st;
	size_t n;
	FILE *f;

	if (stat(src, &st)) {
		char found[4096];
		int e = errno;

		if (e == ENOENT && ea_model_is_name(src) &&
		    !ea_model_find(src, found, sizeof(found), NULL))
			return ea_importer_find("json"); /* a bundled model */
		ea_err_set(err, "%s: %s", src, strerror(e));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		char p[4096];

		for (int i = 0; i < 2; i++) {
			snprintf(p, sizeof(p), "%s/cpu_%dd.csv", src, i + 1);
			if (!access(p, F_OK))
				return ea_importer_find("wattson");
		}
		return ea_importer_find("debugfs");
	}
	if (ea_input_check(src, err))
		return NULL;
	f = fopen(src, "rb");
	if (!f) {
		ea_err_set(err, "%s: %s", src, strerror(errno));
		return NULL;
	}
	n = fread(head, 1, sizeof(head) - 1, f);
	fclose(f);
	head[n] = '\0';
	if (n >= 4 && head[0] == 0xd0 && head[1] == 0x0d && head[2] == 0xfe &&
	    head[3] == 0xed)
		return ea_importer_find("dt");
	if (memchr(head, '\0', n)) {
		ea_err_set(err,
			   "%s: a binary file that is not a dtb: cannot tell "
			   "its format (pass --from)",
			   src);
		return NULL;
	}
	switch (first_significant(text)) {
	case '{':
		return ea_importer_find("json");
	case '<':
		return ea_importer_find("power-profile");
	}
	if (strstr(text, "/dts-v1/") || strstr(text, "sched-energy-costs") ||
	    strstr(text, "busy-cost-data"))
		return ea_importer_find("dt");
	if (has_line_prefix(text, "platform-info:") ||
	    has_line_prefix(text, "nrg-model:"))
		return ea_importer_find("lisa");
	if (!strncmp(
		    text + (n >= 3 && !memcmp(text, "\xef\xbb\xbf", 3) ? 3 : 0),
		    "device,policy,freq_khz", 22))
		return ea_importer_find("wattson");
	if (has_line_prefix(text, "clusters ") ||
	    has_line_prefix(text, "clusterA:") ||
	    has_line_prefix(text, "P-states:"))
		return ea_importer_find("idlestat");
	ea_err_set(err,
		   "%s: cannot tell its format (not a native model, idlestat "
		   "model, dts/dtb, power_profile.xml, LISA plat_info.yml, "
		   "Wattson curve or energy_model directory): pass --from",
		   src);
	return NULL;
}
