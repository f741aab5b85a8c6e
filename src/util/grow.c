// SPDX-License-Identifier: GPL-2.0-only
/* A malloc'd array made room in (grow.h). */
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"

int ea_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t n = *cap ? *cap : (first ? first : 1);
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -1;
		n *= 2;
	}
	if (elem && n > SIZE_MAX / elem)
		return -1;
	q = realloc(*p, n * elem);
	if (!q)
		return -1;
	*p = q;
	*cap = n;
	return 0;
}
