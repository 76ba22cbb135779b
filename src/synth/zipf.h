/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Zipf-distributed ranks 1..n with P(k) proportional to 1/k^theta, in O(1) per sample by
 * rejection-inversion (Hoermann and Derflinger, 1996): any theta >= 0, no table of size n.
 * theta = 0 is uniform.
 */
#ifndef FT_SYNTH_ZIPF_H
#define FT_SYNTH_ZIPF_H

#include <stdint.h>

#include "util/rng.h"

struct zipf {
	uint64_t n;
	double theta;
	double h_x1;		/* H(1.5) - 1 */
	double h_n;		/* H(n + 0.5) */
	double s;		/* acceptance shortcut: 2 - H^-1(H(2.5) - h(2)) */
};

void zipf_init(struct zipf *z, uint64_t n, double theta);
/* A rank in [1, n]: 1 is the most popular. */
uint64_t zipf_sample(const struct zipf *z, struct ft_rng *r);

#endif
