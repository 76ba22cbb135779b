// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Records in the ring buffer: reserved with their header filled, submitted with as few
 * wake-ups as possible, and counted per type when the buffer is full.
 */
#ifndef FT_BPF_RINGBUF_H
#define FT_BPF_RINGBUF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "maps.bpf.h"

static __always_inline void count_lost(__u32 type)
{
	__u64 *n;

	/* a truncate would have become an access; an open lost makes its accesses the last's */
	if (type == FT_PRIV_TRUNCATE || type == FT_PRIV_OPEN)
		type = FT_ACCESS;
	n = bpf_map_lookup_elem(&lost, &type);

	if (n)
		(*n)++;
}

static __always_inline void fill_hdr(struct ft_hdr *h, __u16 type, __u16 size, __u32 tid)
{
	h->type = type;
	h->size = size;
	h->tid = tid;
	h->ts = bpf_ktime_get_ns();
}

/*
 * Waking the reader for every record costs more than making it; it polls on a short timer
 * anyway, so only a filling buffer wakes it early.
 */
static __always_inline void submit(void *rec)
{
	__u64 queued = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);

	bpf_ringbuf_submit(rec, queued >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

/*
 * A record of the given type and size in the ring buffer, its header filled; NULL, with the
 * record counted lost, when the buffer is full. The memory is not zeroed: the caller writes
 * every other byte, padding included (a memset would write most of it twice, and this memory
 * is the coldest the program touches). tid: the thread, the low half of bpf_get_current_pid_tgid().
 */
static __always_inline void *reserve_record(__u16 type, __u16 size, __u32 tid)
{
	struct ft_hdr *h = bpf_ringbuf_reserve(&events, size, 0);

	if (!h) {
		count_lost(type);
		return NULL;
	}
	fill_hdr(h, type, size, tid);
	return h;
}

#endif /* FT_BPF_RINGBUF_H */
