/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>

#include "synth/zipf.h"

/* log1p(x)/x and expm1(x)/x, continuous at 0 where they equal 1. */
static double log1p_over(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1.0 - x / 2.0;
}

static double expm1_over(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1.0 + x / 2.0;
}

/* h(x) = x^-theta, H its antiderivative ((x^(1-theta) - 1) / (1 - theta), or log x). */
static double h(const struct zipf *z, double x)
{
	return exp(-z->theta * log(x));
}

static double big_h(const struct zipf *z, double x)
{
	double lx = log(x);

	return expm1_over((1.0 - z->theta) * lx) * lx;
}

static double big_h_inv(const struct zipf *z, double y)
{
	double t = y * (1.0 - z->theta);

	if (t < -1.0)	/* rounding at the edge of the domain */
		t = -1.0;
	return exp(log1p_over(t) * y);
}

void zipf_init(struct zipf *z, uint64_t n, double theta)
{
	z->n = n;
	z->theta = theta;
	z->h_x1 = big_h(z, 1.5) - 1.0;
	z->h_n = big_h(z, (double)n + 0.5);
	z->s = 2.0 - big_h_inv(z, big_h(z, 2.5) - h(z, 2.0));
}

uint64_t zipf_sample(const struct zipf *z, struct ft_rng *r)
{
	if (z->theta == 0.0)
		return 1 + ft_rng_below(r, z->n);
	for (;;) {
		double u = z->h_n + ft_rng_uniform(r) * (z->h_x1 - z->h_n);
		double x = big_h_inv(z, u);
		double kd = floor(x + 0.5);
		uint64_t k;

		if (kd < 1.0)
			kd = 1.0;
		else if (kd > (double)z->n)
			kd = (double)z->n;
		k = (uint64_t)kd;
		if (kd - x <= z->s || u >= big_h(z, kd + 0.5) - h(z, kd))
			return k;
	}
}
