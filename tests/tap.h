/* Minimal TAP producer for the C unit tests (automake's tap-driver reads it). */
#ifndef FT_TESTS_TAP_H
#define FT_TESTS_TAP_H

#include <stdint.h>

/* ok(): one test point. Returns cond so callers can chain diagnostics. */
int tap_ok(int cond, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int tap_is_u64(uint64_t got, uint64_t want, const char *file, int line, const char *what);
int tap_is_i64(int64_t got, int64_t want, const char *file, int line, const char *what);
int tap_is_dbl(double got, double want, double tol, const char *file, int line, const char *what);
int tap_is_str(const char *got, const char *want, const char *file, int line, const char *what);
void tap_skip_all(const char *why);
/* One test point skipped, with the reason. */
void tap_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* done_testing(): prints the plan, returns the exit status for main(). */
int tap_done(void);

#define ok(cond, ...)		tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_u64(g, w, what)	tap_is_u64((g), (w), __FILE__, __LINE__, (what))
#define is_i64(g, w, what)	tap_is_i64((g), (w), __FILE__, __LINE__, (what))
#define is_dbl(g, w, t, what)	tap_is_dbl((g), (w), (t), __FILE__, __LINE__, (what))
#define is_str(g, w, what)	tap_is_str((g), (w), __FILE__, __LINE__, (what))
#define diag			tap_diag
#define done_testing		tap_done

#endif
