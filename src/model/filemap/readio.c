// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device side of reads: a readahead call submits its folios as one batch (read_pages())
 * that the modelled device completes after its latency and the batch's bytes at its
 * bandwidth, queued behind the reads before it. Until then the folios are locked and not
 * uptodate: a read that finds one waits for the I/O (filemap_update_page()), which is not a
 * cache hit even though no page was missing. Each file keeps its last two batches.
 */
#include "model/instance.h"

void read_batch_begin(struct model *m, uint32_t file)
{
	m->batch.file = file;
	m->batch.lo = UINT64_MAX;
	m->batch.hi = 0;
	m->batch.bytes = m->mx.read_io_bytes;
}

void read_batch_add(struct model *m, const struct folio *f)
{
	if (f->index < m->batch.lo)
		m->batch.lo = f->index;
	if (folio_end(f) > m->batch.hi)
		m->batch.hi = folio_end(f);
}

/* Nanoseconds the device takes for one read I/O of bytes. */
static uint64_t read_io_ns(const struct model *m, uint64_t bytes)
{
	double ns = m->cfg.device_latency_us * 1e3;

	if (m->cfg.device_bandwidth_mbps > 0)
		ns += (double)bytes * 1e3 / m->cfg.device_bandwidth_mbps;
	return ns < 1e18 ? (uint64_t)ns : (uint64_t)1e18;
}

void read_batch_end(struct model *m)
{
	struct mfile *mf = model_file(m, m->batch.file);
	uint64_t bytes = m->mx.read_io_bytes - m->batch.bytes, start, done;
	struct read_batch *b;

	if (!bytes || m->batch.lo >= m->batch.hi)
		return;
	start = m->read_busy_until > m->now ? m->read_busy_until : m->now;
	done = start + read_io_ns(m, bytes);
	m->read_busy_until = done < start ? UINT64_MAX : done;
	b = &mf->inflight[mf->inflight_next];
	mf->inflight_next ^= 1;
	*b = (struct read_batch){ .lo = m->batch.lo, .hi = m->batch.hi, .done = done };
}

bool read_waits(const struct model *m, const struct mfile *mf, uint64_t idx)
{
	for (unsigned i = 0; i < 2; i++) {
		const struct read_batch *b = &mf->inflight[i];

		if (b->done > m->now && idx >= b->lo && idx < b->hi)
			return true;
	}
	return false;
}
