// SPDX-License-Identifier: GPL-2.0-only
/*
 * The files this run reads, by device and inode: file-check.c notes each
 * file that passes its check, and src/output/outfile.c refuses to write
 * over one of them (include/eatrace/input.h).
 */
#include <stdlib.h>

#include "eatrace/input.h"

struct input_id {
	dev_t dev;
	ino_t ino;
};

static struct input_id *inputs;
static size_t ninputs;

void ea_input_note(dev_t dev, ino_t ino)
{
	struct input_id *n;

	for (size_t i = 0; i < ninputs; i++)
		if (inputs[i].dev == dev && inputs[i].ino == ino)
			return;
	n = realloc(inputs, (ninputs + 1) * sizeof(*inputs));
	if (!n)
		return;
	inputs = n;
	inputs[ninputs++] = (struct input_id){dev, ino};
}

bool ea_input_noted(dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < ninputs; i++)
		if (inputs[i].dev == dev && inputs[i].ino == ino)
			return true;
	return false;
}
