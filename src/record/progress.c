/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live progress line: only on a terminal, redrawn at most once a second. */
#include <stdio.h>
#include <unistd.h>

#include "record/record.h"
#include "util/parse.h"

void record_progress_init(struct record_progress *p, int fd)
{
	p->tty = isatty(fd);
	p->last_ns = 0;
	p->last_events = 0;
	p->shown = false;
}

/* The rate of the first line counts from the start of recording, a second before it. */
void record_progress_begin(struct record_progress *p, __u64 now_ns)
{
	p->last_ns = now_ns;
	p->last_events = 0;
}

void record_progress_update(struct record_progress *p, __u64 now_ns, __u64 events, __u64 bytes,
			__u64 lost)
{
	char buf[32];
	double rate;

	if (!p->tty)
		return;
	if (now_ns - p->last_ns < 1000000000ull)
		return;
	rate = (double)(events - p->last_events) * 1e9 / (double)(now_ns - p->last_ns);
	fprintf(stderr, "\rfolio-trace: %llu events, %.0f events/s, %s written, %llu lost   ",
		(unsigned long long)events, rate, format_bytes(bytes, buf, sizeof(buf)),
		(unsigned long long)lost);
	p->last_ns = now_ns;
	p->last_events = events;
	p->shown = true;
}

void record_progress_done(struct record_progress *p)
{
	if (p->shown)
		fputc('\n', stderr);
	p->shown = false;
}
