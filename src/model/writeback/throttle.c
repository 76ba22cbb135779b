// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How much may be dirty and how fast the writer may go (mm/page-writeback.c):
 * - the thresholds are ratios (or the *_bytes sysctls) of the dirtyable memory, free pages
 *   less the kernel's reserve plus the file LRU, as global_dirtyable_memory() counts it, on
 *   every balance_dirty_pages() call;
 * - the write bandwidth estimate (bandwidth.c) sets the writer's pace;
 * - balance_dirty_pages(): above the midpoint of the two thresholds the writer pauses in
 *   proportion to the pages it dirtied, at the bandwidth scaled by how far dirty + writeback
 *   is from the setpoint; at the hard threshold it waits max_pause at a time.
 * Time is model time: a pause lets writeback complete and the flusher run meanwhile.
 */
#include "model/instance.h"

#define MS			1000000ull	/* ns */
#define MAX_PAUSE_MS		200		/* max(HZ/5, 1) */
#define INIT_BW_BYTES		(100ull << 20)	/* INIT_BW: 100 MiB/s */
#define RATIO_SHIFT		10		/* RATELIMIT_CALC_SHIFT */

/*
 * totalreserve_pages of one zone of this many pages: its high watermark (mm/page_alloc.c
 * calculate_min_free_kbytes(), __setup_per_zone_wmarks(), watermark_scale_factor 10);
 * lowmem_reserve is left out.
 */
static uint64_t reserve_pages(uint64_t pages, unsigned page_shift)
{
	uint64_t kb = (pages << page_shift) >> 10, x = 0, bit = 1ull << 62, v = kb * 16;
	uint64_t min_kb, min, step;

	/* int_sqrt(lowmem_kbytes * 16), clamped to [128, 262144] */
	while (bit > v)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (v >= x + bit) {
			v -= x + bit;
			x = (x >> 1) + bit;
		} else {
			x >>= 1;
		}
	}
	min_kb = x < 128 ? 128 : x > 262144 ? 262144 : x;
	min = (min_kb << 10) >> page_shift;
	step = pages * 10 / 10000 > min / 4 ? pages * 10 / 10000 : min / 4;
	return min + 2 * step;
}

uint64_t model_reserve_bytes(uint64_t mem_bytes, unsigned page_size)
{
	unsigned shift = page_size ? place_ilog2(page_size) : 12;

	return reserve_pages(mem_bytes >> shift, shift) << shift;
}

/*
 * global_dirtyable_memory() (mm/page-writeback.c, 6.18): the free pages less the reserve
 * (never below 0), plus the file LRU, plus 1 so it is never 0. The recorded host's when the
 * trace gave it. Others' pages (pinned, anonymous) are neither.
 */
static uint64_t dirtyable_pages(const struct model *m)
{
	uint64_t free, reserve;

	if (m->cfg.dirtyable_bytes)
		return m->cfg.dirtyable_bytes >> m->page_shift;
	free = buddy_free_pages(m->mem.buddy);
	reserve = m->wb.reserve_pages;
	free -= free < reserve ? free : reserve;
	return free + memcg_lru_pages(m) + 1;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/*
 * domain_dirty_limits() (mm/page-writeback.c, 6.12 and 6.18): ratios in 1/PAGE_SIZE units as
 * the kernel keeps them, of the domain's avail. A memcg domain (global_avail non-zero) takes
 * the *_bytes sysctls as ratios of the global domain's avail, DIV_ROUND_UP(bytes, its pages)
 * at most PAGE_SIZE, so its thresholds are that share of its own avail.
 */
static void domain_dirty_limits(const struct model *m, uint64_t avail, uint64_t global_avail,
				uint64_t *bg_thresh, uint64_t *thresh)
{
	const struct model_config *c = &m->cfg;
	uint64_t ps = model_page_size(m), bytes = c->dirty_bytes;
	uint64_t bg_bytes = c->dirty_background_bytes;
	uint64_t ratio = c->dirty_ratio * ps / 100, bg_ratio = c->dirty_background_ratio * ps / 100;
	uint64_t bg, th;

	if (global_avail) {
		if (bytes)
			ratio = min_u64((bytes + global_avail - 1) / global_avail, ps);
		if (bg_bytes)
			bg_ratio = min_u64((bg_bytes + global_avail - 1) / global_avail, ps);
		bytes = bg_bytes = 0;
	}
	th = bytes ? (bytes + ps - 1) / ps : ratio * avail / ps;
	bg = bg_bytes ? (bg_bytes + ps - 1) / ps : bg_ratio * avail / ps;
	if (bg >= th)
		bg = th / 2;
	*bg_thresh = bg;
	*thresh = th;
}

/*
 * The global domain's limits, of the dirtyable memory now. balance_dirty_pages()
 * (balance_domain_limits(), 6.12 and 6.18) computes them anew on every call, so the limits
 * follow free memory and the file LRU as others take and give back pages.
 */
static void wb_dirty_limits(struct model *m)
{
	domain_dirty_limits(m, dirtyable_pages(m), 0, &m->wb.bg_thresh_pages, &m->wb.thresh_pages);
}

/* The limits now: a recorded host's dirtyable memory is one sample, its limits never change. */
static void wb_update_limits(struct model *m)
{
	if (!m->cfg.dirtyable_bytes)
		wb_dirty_limits(m);
}

void wb_init_thresholds(struct model *m)
{
	m->wb.reserve_pages = reserve_pages(m->mem.nr_pages, m->page_shift);
	wb_dirty_limits(m);
	m->wb.bw.write_bw = m->wb.bw.avg_write_bw = INIT_BW_BYTES >> m->page_shift;
}

/* ---- a memory cgroup's dirty domain (cgroup v2 writeback) --------------------------------- */

/* A memcg domain as balance_dirty_pages() and wb_over_bg_thresh() see it, pages. */
struct dirty_domain {
	uint64_t avail, dirty, bg_thresh, thresh;
};

/*
 * mem_cgroup_wb_stats() (mm/memcontrol.c, 6.12 and 6.18): the headroom is min(memory.max,
 * memory.high) less what is charged, the room the cgroup has to grow (the model's cgroups are
 * the root's children, so the walk up has one step). The first cgroup whose limit the memory
 * is: the memory.
 */
static uint64_t memcg_headroom(const struct model *m, const struct mem_cgroup *memcg)
{
	uint64_t ceiling = memcg->max_pages, used = memcg_charged(m, memcg);

	if (!ceiling && memcg == m->memcgs && m->cfg.memcg)
		ceiling = m->mem.nr_pages;
	if (memcg->high_pages && (!ceiling || memcg->high_pages < ceiling))
		ceiling = memcg->high_pages;
	if (!ceiling)
		return UINT64_MAX;	/* PAGE_COUNTER_MAX */
	return ceiling - min_u64(used, ceiling);
}

/*
 * domain_dirty_avail() of a memcg domain (6.12 and 6.18): its dirty pages, with those under
 * writeback where balance_dirty_pages() counts them (not for the background threshold), and
 * mdtc_calc_avail(): its file pages plus the headroom, but no more of that than the clean
 * pages of the global domain outside the cgroup; then its limits from that avail.
 */
static void memcg_domain(const struct model *m, const struct mem_cgroup *memcg, bool with_wb,
			 struct dirty_domain *md)
{
	uint64_t filepages = lru_pages(&memcg->lruvec.lru), gavail = dirtyable_pages(m);
	uint64_t gdirty = m->wb.dirty_pages + (with_wb ? m->wb.writeback_pages : 0);
	uint64_t clean, global_clean, other_clean;

	md->dirty = memcg->nr_dirty + (with_wb ? memcg->nr_writeback : 0);
	clean = filepages - min_u64(filepages, md->dirty);
	global_clean = gavail - min_u64(gavail, gdirty);
	other_clean = global_clean - min_u64(global_clean, clean);
	md->avail = filepages + min_u64(memcg_headroom(m, memcg), other_clean);
	domain_dirty_limits(m, md->avail, gavail, &md->bg_thresh, &md->thresh);
}

bool wb_memcg_over_bg_thresh(const struct model *m, uint32_t memcg)
{
	struct dirty_domain md;

	if (memcg >= m->nr_memcgs || !m->memcgs[memcg].dirty_domain)
		return false;
	memcg_domain(m, &m->memcgs[memcg], false, &md);
	return md.dirty > md.bg_thresh;
}

void wb_memcg_limits(const struct model *m, uint32_t memcg, uint64_t *avail, uint64_t *bg_thresh,
		     uint64_t *thresh)
{
	struct dirty_domain md;

	memcg_domain(m, &m->memcgs[memcg], true, &md);
	*avail = md.avail;
	*bg_thresh = md.bg_thresh;
	*thresh = md.thresh;
}

/*
 * The memcg domain of the wb that owns the file dirtied last (balance_dirty_pages() gets the
 * inode's wb, mdtc when it is a cgroup's): NULL where that cgroup has none.
 */
static const struct dirty_domain *bdp_memcg_domain(const struct model *m, struct dirty_domain *md)
{
	uint32_t owner = m->wb.bdp.owner;

	if (owner >= m->nr_memcgs || !m->memcgs[owner].dirty_domain)
		return NULL;
	memcg_domain(m, &m->memcgs[owner], true, md);
	return md;
}

/* ---- balance_dirty_pages() ------------------------------------------------------------------- */

/*
 * pos_ratio_polynom() of the global domain, in 1/1024: 2 far below the setpoint, 1 at it,
 * 0 at the hard limit. With one device the per-wb control line is the same curve.
 */
static int64_t pos_ratio(uint64_t dirty, uint64_t freerun, uint64_t limit)
{
	int64_t setpoint = (int64_t)(freerun + limit) / 2, x, r;

	if (dirty >= limit)
		return 0;
	/* the kernel's shifts on s64; a right shift of a negative value is arithmetic in GNU C */
	x = ((int64_t)setpoint - (int64_t)dirty) * (1 << RATIO_SHIFT) /
	    (int64_t)((limit - (uint64_t)setpoint) | 1);
	r = x * x >> RATIO_SHIFT;
	r = r * x >> RATIO_SHIFT;
	r += 1 << RATIO_SHIFT;
	return r < 0 ? 0 : r > 2 << RATIO_SHIFT ? 2 << RATIO_SHIFT : r;
}

/* wb_max_pause(): short enough that the device does not run dry meanwhile, ms. */
static uint64_t max_pause_ms(const struct model *m, uint64_t wb_dirty)
{
	uint64_t t = wb_dirty / (1 + m->wb.bw.avg_write_bw / 128) + 1;

	return t < MAX_PAUSE_MS ? t : MAX_PAUSE_MS;
}

/* wb_min_pause() of a lone writer: half of min(10 ms, max_pause / 2 + 1), plus 1 ms. */
static uint64_t min_pause_ms(uint64_t max_pause)
{
	uint64_t t = 10 < 1 + max_pause / 2 ? 10 : 1 + max_pause / 2;

	return 1 + t / 2;
}

static void bdp_pause(struct model *m, uint64_t ns)
{
	m->mx.throttled++;
	m->mx.throttle_time_s += (double)ns * 1e-9;
	model_wait_until(m, add_sat(m->now, ns));
	m->wb.bdp.paused_when = m->now;
	m->wb.bdp.dirtied = 0;
}

static uint64_t freerun_ceiling(uint64_t thresh, uint64_t bg_thresh)
{
	return (thresh + bg_thresh) / 2;	/* dirty_freerun_ceiling() */
}

/*
 * One call of balance_dirty_pages() for the pages dirtied since the writer last paused: the
 * pause it takes, or 0 when it may go on (freerun, or a pause too short to take yet). With a
 * memcg domain (md) the writer runs free only under both freerun ceilings, and the domain of
 * the lower pos_ratio sets its rate and its max pause (sdtc, 6.12 and 6.18).
 */
static uint64_t bdp_pause_ns(struct model *m, const struct dirty_domain *md)
{
	uint64_t dirty = m->wb.dirty_pages + m->wb.writeback_pages, sdirty = dirty;
	uint64_t freerun = freerun_ceiling(m->wb.thresh_pages, m->wb.bg_thresh_pages);
	uint64_t limit = m->wb.thresh_pages, rate, maxp, period_ms;
	int64_t pause_ms, since_ms, pos;

	if (dirty <= freerun &&
	    (!md || md->dirty <= freerun_ceiling(md->thresh, md->bg_thresh))) {
		m->wb.bdp.paused_when = m->now;
		m->wb.bdp.dirtied = 0;
		return 0;
	}
	pos = pos_ratio(dirty, freerun, limit);
	if (md) {
		int64_t mpos = pos_ratio(md->dirty, freerun_ceiling(md->thresh, md->bg_thresh),
					 md->thresh);

		if (mpos < pos) {
			pos = mpos;
			sdirty = md->dirty;
		}
	}
	maxp = max_pause_ms(m, sdirty);
	/* task_ratelimit: dirty_ratelimit, which settles at the write bandwidth, times pos_ratio */
	rate = (uint64_t)((m->wb.bw.avg_write_bw * (uint64_t)pos) >> RATIO_SHIFT);
	if (!rate)
		return maxp * MS;
	period_ms = m->wb.bdp.dirtied * 1000 / rate;
	/* the time the writer spent since its last pause counts towards this one */
	since_ms = m->now >= m->wb.bdp.paused_when ? (int64_t)((m->now - m->wb.bdp.paused_when) / MS) :
						  -(int64_t)((m->wb.bdp.paused_when - m->now) / MS);
	pause_ms = (int64_t)period_ms - since_ms;
	if (pause_ms < (int64_t)min_pause_ms(maxp)) {
		if (pause_ms < -1000) {
			m->wb.bdp.paused_when = m->now;
			m->wb.bdp.dirtied = 0;
		} else if (period_ms) {
			m->wb.bdp.paused_when = add_sat(m->wb.bdp.paused_when, period_ms * MS);
			m->wb.bdp.dirtied = 0;
		}
		return 0;
	}
	return ((uint64_t)pause_ms < maxp ? (uint64_t)pause_ms : maxp) * MS;
}

/* Still over a hard limit (the kernel's loop goes on while task_ratelimit is 0)? */
static bool bdp_over_limit(const struct model *m, const struct dirty_domain *md)
{
	return m->wb.dirty_pages + m->wb.writeback_pages >= m->wb.thresh_pages ||
	       (md && md->dirty >= md->thresh);
}

/*
 * The writer's wake-up of background writeback. Without a memcg domain: the flusher's, when
 * the dirty pages pass the background threshold. With one the writer's wb is the cgroup's:
 * balance_dirty_pages() wakes it past the global background threshold, and (writeback not in
 * progress) whenever it does not run free; that wb writes the cgroup's inodes while
 * wb_over_bg_thresh() finds either domain over its background threshold.
 */
static void bdp_start_background(struct model *m, const struct dirty_domain *md)
{
	if (!md) {
		if (m->wb.dirty_pages > m->wb.bg_thresh_pages)
			wb_background(m);
		return;
	}
	if (m->wb.dirty_pages > m->wb.bg_thresh_pages ||
	    m->wb.dirty_pages + m->wb.writeback_pages >
		    freerun_ceiling(m->wb.thresh_pages, m->wb.bg_thresh_pages) ||
	    md->dirty > freerun_ceiling(md->thresh, md->bg_thresh))
		wb_background_memcg(m, m->wb.bdp.owner);
}

void wb_balance_dirty(struct model *m)
{
	struct dirty_domain mds;
	const struct dirty_domain *md;
	uint64_t ns;

	wb_update_limits(m);
	md = bdp_memcg_domain(m, &mds);
	bdp_start_background(m, md);
	if (md)
		md = bdp_memcg_domain(m, &mds);
	while ((ns = bdp_pause_ns(m, md)) != 0) {
		bdp_pause(m, ns);
		wb_update_limits(m);	/* the kernel's loop computes them anew each round */
		md = bdp_memcg_domain(m, &mds);
		/* over the hard limit the writer waits again, while writeback can get it below */
		if (!bdp_over_limit(m, md) || !m->wb.writeback_pages)
			break;
		if (md)
			wb_background_memcg(m, m->wb.bdp.owner);
		else
			wb_background(m);
		md = bdp_memcg_domain(m, &mds);
	}
}
