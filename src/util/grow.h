/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A malloc'd array made room in (src/util/grow.c): the one growth rule the
 * library's private arrays share instead of each keeping its own copy.
 */
#ifndef EATRACE_UTIL_GROW_H
#define EATRACE_UTIL_GROW_H

#include <stddef.h>

/*
 * Make the array at *p (capacity *cap items of elem bytes) hold at least
 * need items: a first capacity of first items (when *cap is 0), doubled
 * until need fits, then realloc(). 0, or -1 when the size overflows or
 * realloc() fails (then *p and *cap are as they were).
 */
int ea_grow(void **p, size_t *cap, size_t need, size_t elem, size_t first);

#endif
