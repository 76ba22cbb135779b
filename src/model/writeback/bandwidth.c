// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The write bandwidth estimate of the device (mm/page-writeback.c), updated every 200 ms of
 * writeback from the pages whose writeback ended (wb_update_write_bandwidth()), and the
 * flusher's chunk per inode it sizes (fs/fs-writeback.c writeback_chunk_size()).
 */
#include "model/instance.h"

#define MS			1000000ull	/* ns */
#define BANDWIDTH_INTERVAL	(200 * MS)	/* max(HZ/5, 1) */
#define BW_IDLE			(1000 * MS)	/* WB_BANDWIDTH_IDLE_JIF */
#define BW_PERIOD_MS		4096		/* roundup_pow_of_two(3 * HZ), HZ = 1000 */
#define MIN_WRITEBACK_BYTES	(4ull << 20)	/* MIN_WRITEBACK_PAGES: 4 MiB */
#define DIRTY_SCOPE		8

/* wb_bandwidth_estimate_start(): after an idle second, the next interval starts now. */
void wb_bandwidth_start(struct model *m)
{
	if (m->now - m->wb.bw.stamp > BW_IDLE && m->wb.writeback_pages == 0) {
		m->wb.bw.stamp = m->now;
		m->wb.bw.written_stamp = m->wb.bw.written;
	}
}

/* __wb_update_bandwidth() -> wb_update_write_bandwidth(), at most every 200 ms. */
void wb_bandwidth_update(struct model *m, uint64_t now)
{
	uint64_t elapsed, written, bw, avg = m->wb.bw.avg_write_bw, old = m->wb.bw.write_bw;

	if (now < add_sat(m->wb.bw.stamp, BANDWIDTH_INTERVAL))
		return;
	elapsed = (now - m->wb.bw.stamp) / MS;
	written = m->wb.bw.written - m->wb.bw.written_stamp;
	if (elapsed > BW_PERIOD_MS) {
		bw = written * 1000 / elapsed;
		avg = bw;
	} else {
		bw = (written * 1000 + old * (BW_PERIOD_MS - elapsed)) / BW_PERIOD_MS;
		/* one more level of smoothing, for filtering out sudden spikes */
		if (avg > old && old >= bw)
			avg -= (avg - old) >> 3;
		if (avg < old && old <= bw)
			avg += (old - avg) >> 3;
	}
	m->wb.bw.write_bw = bw;
	m->wb.bw.avg_write_bw = avg ? avg : 1;
	m->wb.bw.written_stamp = m->wb.bw.written;
	m->wb.bw.stamp = now;
}

/*
 * writeback_chunk_size() for WB_SYNC_NONE work: half a second at the estimated bandwidth,
 * at most an eighth of the dirty limit, rounded down to 4 MiB after adding 4 MiB.
 */
uint64_t wb_chunk_pages(const struct model *m, uint64_t work_pages)
{
	uint64_t min_pages = MIN_WRITEBACK_BYTES >> m->page_shift;
	uint64_t pages = m->wb.bw.avg_write_bw / 2;

	if (pages > m->wb.thresh_pages / DIRTY_SCOPE)
		pages = m->wb.thresh_pages / DIRTY_SCOPE;
	if (pages > work_pages)
		pages = work_pages;
	return round_down(pages + min_pages, min_pages);
}
