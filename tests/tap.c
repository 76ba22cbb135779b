/* Minimal TAP producer: see tap.h. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

/* Test-harness counters: the only state of a test process. */
static unsigned tap_run;
static unsigned tap_failed;

static void tap_vpoint(int cond, const char *file, int line, const char *fmt, va_list ap)
{
	tap_run++;
	printf("%sok %u - ", cond ? "" : "not ", tap_run);
	vprintf(fmt, ap);
	printf("\n");
	if (!cond) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
}

int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vpoint(cond, file, line, fmt, ap);
	va_end(ap);
	return cond;
}

int tap_is_u64(uint64_t got, uint64_t want, const char *file, int line, const char *what)
{
	int cond = got == want;

	tap_ok(cond, file, line, "%s == %" PRIu64, what, want);
	if (!cond)
		printf("#   got %" PRIu64 ", want %" PRIu64 "\n", got, want);
	return cond;
}

int tap_is_i64(int64_t got, int64_t want, const char *file, int line, const char *what)
{
	int cond = got == want;

	tap_ok(cond, file, line, "%s == %" PRId64, what, want);
	if (!cond)
		printf("#   got %" PRId64 ", want %" PRId64 "\n", got, want);
	return cond;
}

int tap_is_dbl(double got, double want, double tol, const char *file, int line, const char *what)
{
	int cond = fabs(got - want) <= tol;

	tap_ok(cond, file, line, "%s == %g (+-%g)", what, want, tol);
	if (!cond)
		printf("#   got %.9g, want %.9g\n", got, want);
	return cond;
}

int tap_is_str(const char *got, const char *want, const char *file, int line, const char *what)
{
	int cond = got && want && strcmp(got, want) == 0;

	tap_ok(cond, file, line, "%s", what);
	if (!cond)
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)", want ? want : "(null)");
	return cond;
}

void tap_skip_all(const char *why)
{
	printf("1..0 # SKIP %s\n", why);
	exit(0);
}

void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_run++;
	printf("ok %u # SKIP ", tap_run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int tap_done(void)
{
	printf("1..%u\n", tap_run);
	return tap_failed ? 1 : 0;
}
