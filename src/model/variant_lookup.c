// SPDX-License-Identifier: GPL-2.0-or-later
/* A row of a variation point's list by name, and the list's length (variants.h). */
#include <string.h>

#include "model/variants.h"

unsigned model_variant_count(const struct model_variant *const *list)
{
	unsigned n = 0;

	while (list[n])
		n++;
	return n;
}


bool model_variant_lookup(const struct model_variant *const *list, const char *name,
			  unsigned *index)
{
	for (unsigned i = 0; list[i]; i++) {
		if (strcmp(list[i]->name, name) == 0) {
			*index = i;
			return true;
		}
	}
	return false;
}

