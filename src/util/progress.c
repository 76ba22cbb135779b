/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/progress.h"

/*
 * The first line waits this long, so short runs stay silent (FOLIO_TRACE_PROGRESS_DELAY, in
 * seconds, changes it); then it is redrawn this often.
 */
#define PROGRESS_FIRST_NS	500000000LL
#define PROGRESS_EVERY_NS	250000000LL

static long long first_line_delay_ns(void)
{
	const char *env = getenv("FOLIO_TRACE_PROGRESS_DELAY");
	char *end;
	double s;

	if (!env || !*env)
		return PROGRESS_FIRST_NS;
	s = strtod(env, &end);
	if (*end || !(s >= 0) || s > 86400)
		return PROGRESS_FIRST_NS;
	return (long long)(s * 1e9);
}

static void add_ns(struct timespec *t, long long ns)
{
	long long v = (long long)t->tv_nsec + ns;

	t->tv_sec += (time_t)(v / 1000000000LL);
	t->tv_nsec = (long)(v % 1000000000LL);
}

static bool before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static double seconds_since(const struct timespec *from, const struct timespec *now)
{
	return (double)(now->tv_sec - from->tv_sec) + (now->tv_nsec - from->tv_nsec) / 1e9;
}

void ft_progress_start(struct ft_progress *p, const char *what, const char *unit,
		       uint64_t total, bool quiet)
{
	*p = (struct ft_progress){
		.on = !quiet && isatty(STDERR_FILENO),
		.what = what,
		.unit = unit,
		.total = total,
	};
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->next = p->start;
	if (p->on)
		add_ns(&p->next, first_line_delay_ns());
}

/* 1234567 -> "1.23M": counts and rates read at a glance. */
static void format_count(char *buf, size_t len, double v)
{
	if (v >= 1e9)
		snprintf(buf, len, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else
		snprintf(buf, len, "%.0f", v);
}

static void format_duration(char *buf, size_t len, double s)
{
	unsigned long long t = s < 0 ? 0 : s > 359999 ? 359999 : (unsigned long long)(s + 0.5);

	if (t >= 3600)
		snprintf(buf, len, "%llu:%02llu:%02llu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%llu:%02llu", t / 60, t % 60);
}

void ft_progress_update(struct ft_progress *p, uint64_t done, uint64_t count)
{
	struct timespec now;
	char counted[32], rate[32], eta[32];
	double elapsed;

	if (!p->on)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	if (before(&now, &p->next))
		return;
	p->next = now;
	add_ns(&p->next, PROGRESS_EVERY_NS);
	elapsed = seconds_since(&p->start, &now);
	format_count(counted, sizeof(counted), (double)count);
	format_count(rate, sizeof(rate), elapsed > 0 ? count / elapsed : 0);
	if (p->total && done && done <= p->total) {
		format_duration(eta, sizeof(eta), elapsed * (double)(p->total - done) / done);
		fprintf(stderr, "\r%s: %5.1f%%, %s %s, %s %s/s, ETA %s\033[K", p->what,
			100.0 * done / p->total, counted, p->unit, rate, p->unit, eta);
	} else {
		fprintf(stderr, "\r%s: %s %s, %s %s/s\033[K", p->what, counted, p->unit, rate,
			p->unit);
	}
	fflush(stderr);
	p->shown = true;
}

void ft_progress_end(struct ft_progress *p)
{
	if (p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->shown = false;
}

uint64_t ft_progress_file_size(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 0)
		return 0;
	return (uint64_t)st.st_size;
}
