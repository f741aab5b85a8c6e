// SPDX-License-Identifier: GPL-2.0-only
/* Content hash of a file (include/eatrace/batch.h): FNV-1a 64. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "eatrace/batch.h"

int ea_hash_file(const char *path, char hash[EA_HASH_LEN], struct ea_err *err)
{
	unsigned char buf[65536];
	uint64_t h = 0xcbf29ce484222325ull;
	FILE *f = fopen(path, "rb");
	size_t n;

	hash[0] = 0;
	if (!f)
		return ea_err_set(err, "%s: cannot open: %s", path, strerror(errno));
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		for (size_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	if (ferror(f)) {
		int e = errno;

		fclose(f);
		return ea_err_set(err, "%s: read error: %s", path, strerror(e));
	}
	fclose(f);
	snprintf(hash, EA_HASH_LEN, "%016llx", (unsigned long long)h);
	return 0;
}
