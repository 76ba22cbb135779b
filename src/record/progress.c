/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live progress line: only on a terminal, redrawn at most once a second. */
#include <stdio.h>
#include <unistd.h>

#include "record/record.h"
#include "util/parse.h"

void ft_progress_init(struct ft_progress *p, int fd)
{
	p->tty = isatty(fd);
	p->last_ns = 0;
	p->last_events = 0;
	p->shown = false;
}

void ft_progress_update(struct ft_progress *p, __u64 now_ns, __u64 events, __u64 bytes,
			__u64 lost)
{
	char buf[32];
	double rate;

	if (!p->tty)
		return;
	if (p->last_ns && now_ns - p->last_ns < 1000000000ull)
		return;
	rate = p->last_ns ? (double)(events - p->last_events) * 1e9 / (double)(now_ns - p->last_ns)
			  : 0.0;
	fprintf(stderr, "\rfolio-trace: %llu events, %.0f events/s, %s written, %llu lost   ",
		(unsigned long long)events, rate, format_bytes(bytes, buf, sizeof(buf)),
		(unsigned long long)lost);
	p->last_ns = now_ns;
	p->last_events = events;
	p->shown = true;
}

void ft_progress_done(struct ft_progress *p)
{
	if (p->shown)
		fputc('\n', stderr);
	p->shown = false;
}
