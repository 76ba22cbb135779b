// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One model instance: creation from a checked configuration, time (flusher ticks and
 * time-series samples on fixed grids from the first timestamp), per-access LRU sampling and
 * the metrics summary. What an access does is in access.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/filemap/cache.h"
#include "model/lru/kind.h"
#include "model/params.h"

/* Each field against its row's bounds, then what ties fields together. */
static const char *config_problem(const struct model_config *c)
{
	for (unsigned i = 0; i < model_nr_params; i++) {
		const char *why = model_param_check(&model_params[i], c);

		if (why)
			return why;
	}
	if (c->min_order > c->order)
		return "minimum folio order above the folio order";
	if (c->order > c->max_pagecache_order)
		return "folio order above the page cache's largest (--max-pagecache-order)";
	if (c->memory_bytes < c->page_size)
		return "memory smaller than one page";
	/* a folio keeps its pfn in 32 bits */
	if (c->memory_bytes / c->page_size > (1ull << 32))
		return "memory too large for the model (above 2^32 pages)";
	return NULL;
}

/* The rows of the variation points the configuration names. */
static void model_pick_variants(struct model *m)
{
	m->lru_kind = lru_policy_of(m->cfg.lru);
	m->dirty_kind = dirty_tracking_of(m->cfg.dirty);
	m->ra_rule = ra_order_rule_of(m->cfg.ra_rule);
	m->dirty_reclaim = dirty_reclaim_of(m->cfg.reclaim_wb);
}

static bool model_alloc_state(struct model *m)
{
	const struct model_config *c = &m->cfg;
	uint64_t bs = model_min_block_size(c), unit = bs < c->page_size ? bs : c->page_size;

	m->page_shift = place_ilog2(c->page_size);
	m->unit_shift = place_ilog2(unit);
	m->upp_shift = m->page_shift - m->unit_shift;
	m->mem.nr_pages = c->memory_bytes >> m->page_shift;
	folio_pool_init(&m->pool);
	if (!memcg_init(m))
		return false;
	/* the zone: m->mem.nr_pages becomes its size (the host's, in a cgroup with a recorded state) */
	if (!memory_init(m))
		return false;
	folio_pool_bound(&m->pool, m->mem.nr_pages);
	m->start_read.file = FOLIO_NIL;
	if (!pagecache_init(&m->pc, cache_index_expected(c, m->mem.nr_pages)) ||
	    !pagecache_init(&m->occ, 64) ||
	    !shadow_init(&m->workingset.shadow, m->mem.nr_pages * SHADOWS_PER_PAGE + SHADOW_SLACK) ||
	    !touched_init(&m->touched))
		return false;
	m->mem.touched_pfn = memory_pfn_bitmap_new(m, 0);
	if (!m->mem.touched_pfn || !wb_init(m) || !dontcache_init(m) || !exec_init(m))
		return false;
	return !m->dirty_kind->init || m->dirty_kind->init(m);
}

static void run_timers_until(struct model *m, uint64_t t);

struct model *model_new(const struct model_config *cfg, const char **why)
{
	struct model *m;

	*why = config_problem(cfg);
	if (*why)
		return NULL;
	m = calloc(1, sizeof(*m));
	if (!m) {
		*why = "out of memory";
		return NULL;
	}
	m->cfg = *cfg;
	m->keep = MODEL_KEEP_ALL;
	m->wait_until = run_timers_until;
	m->samples_max = MODEL_SAMPLES_MAX;
	model_pick_variants(m);
	m->wb.inode_head = m->wb.inode_tail = INODE_NIL;
	dist_init(&m->d_entries);
	dist_init(&m->d_inactive);
	dist_init(&m->d_active);
	dist_init(&m->d_pages);
	dist_init(&m->d_cached);
	dist_init(&m->d_unusable);
	dist_init(&m->d_untouched);
	dist_init(&m->d_inactive_pages);
	for (unsigned g = 0; g < MODEL_LRU_GENS; g++)
		dist_init(&m->d_gen_pages[g]);
	dist_init(&m->d_active_pages);
	if (!model_alloc_state(m)) {
		model_free(m);
		*why = "out of memory for the modelled cache";
		return NULL;
	}
	wb_init_thresholds(m);
	return m;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	if (m->mem.buddy)
		buddy_destroy(m->mem.buddy);
	folio_pool_release(&m->pool);
	pagecache_release(&m->pc);
	cache_occupancy_release(m);
	openfile_release(m);
	shadow_release(&m->workingset.shadow);
	touched_release(&m->touched);
	free(m->mem.touched_pfn);
	free(m->memcgs);
	free(m->mem.dirty_units);
	free(m->mem.uptodate_units);
	free(m->files);
	free(m->mem.others);
	free(m->wb.scratch);
	wb_release(m);
	dontcache_release(m);
	exec_release(m);
	units_release(m);
	free(m);
}

void model_set_keep(struct model *m, unsigned keep)
{
	if (keep & MODEL_KEEP_TOUCHED_SET)
		keep |= MODEL_KEEP_ACCESSED_PAGES;
	if (m->lru_kind->refault)	/* its refaults decide: activation */
		keep |= MODEL_KEEP_SHADOWS;
	if (!memory_count_pages(m, !(keep & MODEL_KEEP_ADDRESSES)))
		keep |= MODEL_KEEP_ADDRESSES;	/* placement decides */
	m->keep = keep;
}

const struct model_config *model_config(const struct model *m)
{
	return &m->cfg;
}

void model_set_sample_fn(struct model *m, model_sample_fn fn, void *arg)
{
	m->sample_fn = fn;
	m->sample_arg = arg;
	if (fn)		/* a sample carries the free blocks */
		model_set_keep(m, m->keep | MODEL_KEEP_ADDRESSES);
}

void model_limit_samples(struct model *m, uint64_t max)
{
	m->samples_max = max < MODEL_SAMPLES_MAX ? max : MODEL_SAMPLES_MAX;
}

/* ---- LRU distributions, one sample per access ------------------------------------------- */

static void lru_flush_untouched(struct model *m)
{
	if (!m->pend_untouched.n)
		return;
	dist_add_n(&m->d_untouched, m->pend_untouched.pages << m->page_shift, m->pend_untouched.n);
	m->pend_untouched.n = 0;
}

static void lru_flush_lists(struct model *m)
{
	uint64_t n = m->pend.n, ps = m->page_shift;

	if (!n)
		return;
	dist_add_n(&m->d_entries, m->pend.entries, n);
	dist_add_n(&m->d_inactive, m->pend.inactive, n);
	dist_add_n(&m->d_active, m->pend.entries - m->pend.inactive, n);
	dist_add_n(&m->d_pages, m->pend.pages, n);
	dist_add_n(&m->d_cached, m->pend.pages << ps, n);
	dist_add_n(&m->d_inactive_pages, m->pend.inactive_pages, n);
	dist_add_n(&m->d_active_pages, m->pend.pages - m->pend.inactive_pages, n);
	m->pend.n = 0;
}

static void lru_flush_gens(struct model *m)
{
	for (unsigned g = 0; g < MODEL_LRU_GENS && m->pend_gens.n; g++)
		dist_add_n(&m->d_gen_pages[g], m->pend_gens.pages[g], m->pend_gens.n);
	m->pend_gens.n = 0;
}

static void lru_flush_pending(struct model *m)
{
	lru_flush_untouched(m);
	lru_flush_lists(m);
	lru_flush_gens(m);
}

/* The generations' pages by age, every cgroup's together; zeros without generations. */
static void lru_gen_pages(const struct model *m, uint64_t pages[MODEL_LRU_GENS])
{
	for (unsigned g = 0; g < MODEL_LRU_GENS; g++)
		pages[g] = 0;
	for (uint32_t i = 0; m->lru_kind->generations && i < m->nr_memcgs; i++)
		m->lru_kind->generations(&m->memcgs[i].lruvec, pages);
}

/* MGLRU's generations, sampled apart: they change as aging moves folios, the totals not. */
static void lru_sample_gens(struct model *m)
{
	uint64_t pages[MODEL_LRU_GENS];

	lru_gen_pages(m, pages);
	if (m->pend_gens.n && !memcmp(pages, m->pend_gens.pages, sizeof(pages))) {
		m->pend_gens.n++;
		return;
	}
	lru_flush_gens(m);
	m->pend_gens.n = 1;
	memcpy(m->pend_gens.pages, pages, sizeof(pages));
}

static void lru_sample(struct model *m)
{
	uint64_t e, pg, ia, iap, u;

	if (m->nr_memcgs == 1) {
		e = lru_entries(&m->memcgs[0].lruvec.lru);
		pg = lru_pages(&m->memcgs[0].lruvec.lru);
		lruvec_inactive(m, &m->memcgs[0].lruvec, &ia, &iap);
	} else {
		memcg_lru_totals(m, &e, &pg, &ia, &iap);
	}
	u = pg - m->touched_cached_pages;
	if (m->lru_kind->generations)
		lru_sample_gens(m);
	if (m->pend_untouched.n && u == m->pend_untouched.pages) {
		m->pend_untouched.n++;
	} else {
		lru_flush_untouched(m);
		m->pend_untouched.n = 1;
		m->pend_untouched.pages = u;
	}
	if (m->pend.n && e == m->pend.entries && ia == m->pend.inactive && pg == m->pend.pages &&
	    iap == m->pend.inactive_pages) {
		m->pend.n++;
		return;
	}
	lru_flush_lists(m);
	m->pend.n = 1;
	m->pend.entries = e;
	m->pend.inactive = ia;
	m->pend.pages = pg;
	m->pend.inactive_pages = iap;
}

/* ---- time ---------------------------------------------------------------------------------- */

/*
 * The free blocks now and their indexes; returns the unusable free space index as the kernel's
 * integer (x 1000).
 */
static int frag_now(const struct model *m, uint64_t nr_free[BUDDY_MAX_ORDER + 1],
		    double *unusable, double *fragindex)
{
	int idx;

	buddy_free_counts(m->mem.buddy, nr_free);
	idx = buddy_unusable_free_index(nr_free, m->cfg.order);
	*unusable = idx / 1000.0;
	*fragindex = buddy_fragmentation_index(nr_free, m->cfg.order) / 1000.0;
	return idx;
}

/* The first memory cgroup's lists, as its memory.stat counts them (mem_cgroup_lruvec()'s). */
static void first_memcg_lru(const struct model *m, struct model_sample *s)
{
	const struct lruvec *lruvec = &m->memcgs[0].lruvec;
	uint64_t ia, iap, pages = lru_pages(&lruvec->lru);

	lruvec_inactive(m, lruvec, &ia, &iap);
	s->memcg_inactive_pages = iap;
	s->memcg_active_pages = pages - iap;
}

/*
 * The state now as a time-series row; its interval counters start again from here. Returns
 * frag_now()'s integer index.
 */
static int take_sample(struct model *m, uint64_t t, struct model_sample *s)
{
	uint64_t entries, pages, inactive, inactive_pages;
	int idx;

	memcg_lru_totals(m, &entries, &pages, &inactive, &inactive_pages);
	*s = (struct model_sample){
		.ts = t,
		.lru_entries = entries,
		.lru_inactive = inactive,
		.lru_active = entries - inactive,
		.lru_pages = pages,
		.cached_bytes = pages << m->page_shift,
		.dirty_bytes = m->wb.dirty_pages << m->page_shift,
		.writeback_bytes_interval = m->mx.writeback_bytes - m->sample_wb_bytes,
		.read_io_bytes_interval = m->mx.read_io_bytes - m->sample_read_io_bytes,
		.read_bytes_interval = m->mx.read_bytes - m->sample_read_bytes,
		.read_hit_bytes_interval = m->mx.read_hit_bytes - m->sample_read_hit_bytes,
		.write_bytes_interval = m->mx.write_bytes - m->sample_write_bytes,
		.lru_inactive_pages = inactive_pages,
		.lru_active_pages = pages - inactive_pages,
	};
	first_memcg_lru(m, s);
	lru_gen_pages(m, s->lru_gen_pages);
	idx = 0;
	if (m->keep & MODEL_KEEP_ADDRESSES) {
		idx = frag_now(m, s->free_blocks, &s->unusable_index, &s->fragmentation_index);
		dist_add(&m->d_unusable, idx < 0 ? 0 : (uint64_t)idx);	/* the sample's */
	}
	s->compact_stall = m->mx.compact_stall;
	s->compact_success = m->mx.compact_success;
	s->compact_migrate_scanned = m->mx.compact_migrate_scanned;
	m->sample_wb_bytes = m->mx.writeback_bytes;
	m->sample_read_io_bytes = m->mx.read_io_bytes;
	m->sample_read_bytes = m->mx.read_bytes;
	m->sample_read_hit_bytes = m->mx.read_hit_bytes;
	m->sample_write_bytes = m->mx.write_bytes;
	m->last_sample_ts = t;
	m->samples++;
	return idx;
}

/* To the caller's function, up to samples_max of them: memory stays bounded. */
static void send_sample(struct model *m, const struct model_sample *s)
{
	if (m->sample_fn && m->samples_sent < m->samples_max) {
		m->samples_sent++;
		m->sample_fn(m->sample_arg, s);
	}
}

/*
 * n samples on the interval grid from next_sample on, with no flusher tick among them. Nothing
 * changes the cache between accesses but ticks, so all but the first repeat its state with
 * empty intervals: they cost one step each only while they are handed out, whatever n is.
 */
static void emit_samples(struct model *m, uint64_t n)
{
	uint64_t iv = m->cfg.interval_ns, t = m->next_sample;
	uint64_t last = t + (n - 1) * iv;	/* the caller's run ends at or before ts */
	struct model_sample s;
	int idx;

	m->now = t;
	idx = take_sample(m, t, &s);
	send_sample(m, &s);
	if (n > 1) {
		/* memory_sample_fragmentation()'s figure, once per repeated sample */
		if (m->keep & MODEL_KEEP_ADDRESSES)
			dist_add_n(&m->d_unusable, idx < 0 ? 0 : (uint64_t)idx, n - 1);
		s.writeback_bytes_interval = 0;
		s.read_io_bytes_interval = 0;
		s.read_bytes_interval = s.read_hit_bytes_interval = s.write_bytes_interval = 0;
		for (uint64_t i = 1; i < n && m->sample_fn && m->samples_sent < m->samples_max;
		     i++) {
			s.ts = t + i * iv;
			send_sample(m, &s);
		}
		m->samples += n - 1;
		m->last_sample_ts = last;
		m->now = last;
	}
	m->next_sample = add_sat(last, iv);
}

static void model_start(struct model *m, uint64_t ts)
{
	const struct model_config *c = &m->cfg;

	m->started = true;
	m->now = ts;
	m->mx.first_ts = m->mx.last_ts = ts;
	m->next_flush = c->writeback_period_ns ? add_sat(ts, c->writeback_period_ns) : UINT64_MAX;
	m->next_sample = c->interval_ns ? add_sat(ts, c->interval_ns) : UINT64_MAX;
	/* the recorder read the cgroup's memory.stat as it started: empty then */
	memcg_of(m, 0)->lruvec.next_stats_flush = add_sat(ts, STATS_FLUSH_NS);
	m->last_sample_ts = ts;
}

/*
 * The first flusher tick on the grid that can do anything. A tick writes the inodes dirtied
 * dirty_expire ago, then background data above its threshold, which the last tick or write
 * already brought below: until the oldest dirty inode expires, ticks find nothing to do. Going
 * straight to the useful one keeps the timer loop short however far time jumps. Writeback
 * completions change none of what a tick looks at (they neither dirty nor clean a folio).
 */
static uint64_t first_useful_tick(struct model *m, uint64_t ts)
{
	uint64_t period = m->cfg.writeback_period_ns, due, k;

	if (m->wb.inode_head == INODE_NIL)
		due = add_sat(ts, 1);	/* nothing dirty: no tick up to ts has work */
	else if (m->wb.dirty_pages > m->wb.bg_thresh_pages)
		return m->next_flush;
	else
		due = add_sat(model_file(m, m->wb.inode_head)->dirtied_when, m->cfg.dirty_expire_ns);
	if (due <= m->next_flush)
		return m->next_flush;
	k = (due - m->next_flush - 1) / period + 1;
	return k > (UINT64_MAX - m->next_flush) / period ? UINT64_MAX : m->next_flush + k * period;
}

/*
 * Flusher ticks and samples due up to ts, in time order (a tick before a sample at a tie),
 * and before each the writeback I/O the device completed by then. Each turn runs a tick that
 * does work, or skips to one, or emits every sample before the next tick or writeback
 * completion: the turns are bounded by the dirty inodes and the I/O, not by how much time
 * passes.
 */
static void run_timers_due(struct model *m, uint64_t ts)
{
	uint64_t period = m->cfg.writeback_period_ns;

	for (;;) {
		if (m->next_flush <= m->next_sample) {
			uint64_t tick;

			if (m->next_flush > ts || m->next_flush == UINT64_MAX)
				break;
			tick = first_useful_tick(m, ts);
			if (tick != m->next_flush) {
				m->next_flush = tick;
				continue;
			}
			wb_complete_until(m, tick);
			m->now = tick;
			wb_flusher_tick(m, tick);
			m->next_flush = add_sat(tick, period);
		} else {
			uint64_t end = ts < m->next_flush - 1 ? ts : m->next_flush - 1, done;

			if (m->next_sample > end)
				break;
			wb_complete_until(m, m->next_sample);
			/* the samples after the first repeat its state: none past a completion */
			done = wb_next_completion(m);
			if (done > m->next_sample && done <= end)
				end = done - 1;
			emit_samples(m, (end - m->next_sample) / m->cfg.interval_ns + 1);
		}
	}
	wb_complete_until(m, ts);
	m->now = ts;
}

/* Most accesses find no tick, sample or writeback completion due. */
static inline void run_timers(struct model *m, uint64_t ts)
{
	if (ts < m->next_flush && ts < m->next_sample && !wb_completion_due(&m->wb, ts))
		m->now = ts;
	else
		run_timers_due(m, ts);
}

static void run_timers_until(struct model *m, uint64_t t)
{
	if (t > m->now)
		run_timers(m, t);
	else
		wb_complete_until(m, m->now);
}

static uint64_t model_clock(struct model *m, uint64_t ts)
{
	if (!m->started)
		model_start(m, ts);
	return ts > m->now ? ts : m->now;	/* never backwards */
}

/* ---- hints for the accesses ahead ---------------------------------------------------------- */

/*
 * A random read waits for its page cache slot, then for the folio the slot names, then for
 * that folio's LRU neighbours (a hit relinks it) or its shadow entry (a miss checks for a
 * refault): misses one after the other, each a full memory latency. Looking a few accesses
 * ahead, each step below runs PREFETCH_GAP accesses after the one before it, on the same
 * access, and finds the lines it reads already brought in by that one.
 * Reads of the model state only, at the file's last found order: the state may change before
 * the access runs, which only makes a hint useless. The helpers are always inlined: GCC takes
 * a function that only prefetches for one without effect and drops the calls to it.
 */
#define PREFETCH_GAP	4
/*
 * Below this many cached folios their slots and descriptors stay in the CPU caches and the
 * hints only cost (order 9 at 800 MiB: 400 folios, 1.16 times the CPU with them).
 */
#define PREFETCH_MIN_FOLIOS	16384

/* The file of a buffered read, or NULL for any other access. */
static const struct mfile *read_file(const struct model *m, const struct model_access *a)
{
	if (a->op != MODEL_READ || a->direct || a->file_id >= m->nr_files)
		return NULL;
	return &m->files[a->file_id];
}

/*
 * The first page of the folio of the file's hint order a read would look up first; false for
 * an access that is no buffered read of a file with folios.
 */
static bool hint_start(const struct model *m, const struct model_access *a, uint64_t *start)
{
	const struct mfile *mf = read_file(m, a);

	if (!mf || !mf->order_mask)
		return false;
	*start = page_of(m, a->pos) & ~((1ull << mf->hint_order) - 1);
	return true;
}

/* Step 3: the home slot of the read's first folio (NULL: see hint_start()). */
static const struct pc_slot *prefetch_slot(const struct model *m, const struct model_access *a,
					   uint64_t *start)
{
	if (!hint_start(m, a, start))
		return NULL;
	return &m->pc.slots[pc_home(&m->pc, a->file_id, *start)];
}

/*
 * A miss looks up the shadow entry of every order the file left shadows of (workingset_refault)
 * that the shadow hint allows there, each in its own line of a table the size of the
 * evictions: hint the orders always looked up (0 and 6 and above) and the hint's region,
 * which says whether the orders between are, without waiting for it here. For a file of
 * shadows of several orders; prefetch_folio() calls it for a read its slot says misses (a hit
 * looks up no shadow: hashing its keys would be work for nothing).
 */
static inline __attribute__((always_inline)) void
prefetch_shadows(const struct model *m, const struct model_access *a, const struct mfile *mf)
{
	const struct shadow_table *t = &m->workingset.shadow;
	unsigned mask = mf->shadow_mask;
	uint64_t page = page_of(m, a->pos);

	if (mask & SHADOW_HINT_ORDERS)
		shadow_hint_prefetch(t, a->file_id, mf->gen, page);
	for (mask &= ~SHADOW_HINT_ORDERS; mask; mask &= mask - 1) {
		unsigned o = (unsigned)__builtin_ctz(mask);

		shadow_prefetch(t, a->file_id, mf->gen, page & ~((1ull << o) - 1), o);
	}
}

/*
 * Step 2: the folio in the slot. When the slot holds another key the folio is further on or
 * not cached: the next slot to probe, and what a miss will look up and count (its shadow
 * entry, touched region, and the folio before it).
 */
static inline __attribute__((always_inline)) void
prefetch_folio(const struct model *m, const struct model_access *a)
{
	const struct pc_slot *s;
	const struct mfile *mf;
	uint64_t start;

	s = prefetch_slot(m, a, &start);
	if (!s)
		return;
	if (s->folio != FOLIO_NIL && s->index == start && s->file == a->file_id) {
		const struct folio *f = folio_at(&m->pool, s->folio);

		__builtin_prefetch(f);
		__builtin_prefetch(&f->lru_next);	/* may be the next line */
		return;
	}
	if (s->folio != FOLIO_NIL)
		__builtin_prefetch(&m->pc.slots[(s - m->pc.slots + PC_STEP) & m->pc.mask]);
	mf = &m->files[a->file_id];
	if (mf->shadow_mask & (mf->shadow_mask - 1)) {
		prefetch_shadows(m, a, mf);
		/* the hint order's entry among them unless the shadow hint stands for it */
		if ((mf->shadow_mask & (1u << mf->hint_order)) &&
		    ((1u << mf->hint_order) & SHADOW_HINT_ORDERS))
			shadow_prefetch(&m->workingset.shadow, a->file_id, mf->gen, start,
					mf->hint_order);
	} else if (mf->shadow_mask & (1u << mf->hint_order)) {
		shadow_prefetch(&m->workingset.shadow, a->file_id, mf->gen, start, mf->hint_order);
	}
	if (m->keep & MODEL_KEEP_TOUCHED_SET)
		touched_prefetch(&m->touched, a->file_id, mf->gen, page_of(m, a->pos));
	/* readahead's page_cache_prev_miss() looks up the folio before it */
	if (m->cfg.readahead && start)
		pagecache_prefetch(&m->pc, a->file_id,
				   (start - 1) & ~((1ull << mf->hint_order) - 1));
}

/* Step 1: the LRU neighbours of the folio, which a hit unlinks it from. */
static inline __attribute__((always_inline)) void
prefetch_neighbours(const struct model *m, const struct model_access *a)
{
	const struct folio *f;
	uint64_t start;
	uint32_t id;

	if (!hint_start(m, a, &start))
		return;
	id = pagecache_get(&m->pc, a->file_id, start);
	if (id == FOLIO_NIL)
		return;
	f = folio_at(&m->pool, id);
	if (f->lru_prev != FOLIO_NIL)
		__builtin_prefetch(&folio_at(&m->pool, f->lru_prev)->lru_next, 1);
	if (f->lru_next != FOLIO_NIL)
		__builtin_prefetch(&folio_at(&m->pool, f->lru_next)->lru_prev, 1);
}

void model_prefetch_ahead(const struct model *m, const struct model_access *a, unsigned n)
{
	uint64_t start;

	if (m->pc.count < PREFETCH_MIN_FOLIOS) {
		/*
		 * Large folios: the pages a read touches first in its folio are marked in the
		 * touched set, a table of the data set's size, once per page.
		 */
		const struct model_access *b = &a[2 * PREFETCH_GAP];

		if (n > 2 * PREFETCH_GAP && b->op == MODEL_READ && b->file_id < m->nr_files &&
		    (m->keep & MODEL_KEEP_TOUCHED_SET))
			touched_prefetch(&m->touched, b->file_id, m->files[b->file_id].gen,
					 page_of(m, b->pos));
		return;
	}
	if (n > 3 * PREFETCH_GAP) {
		const struct pc_slot *s = prefetch_slot(m, &a[3 * PREFETCH_GAP], &start);

		if (s) {
			__builtin_prefetch(s);
			/* a file of several orders: the word cache_lookup() reads first */
			cache_occupancy_prefetch(&m->files[a[3 * PREFETCH_GAP].file_id],
						 page_of(m, a[3 * PREFETCH_GAP].pos));
		}
	}
	if (n > 2 * PREFETCH_GAP)
		prefetch_folio(m, &a[2 * PREFETCH_GAP]);
	if (n > PREFETCH_GAP)
		prefetch_neighbours(m, &a[PREFETCH_GAP]);
}

/* The access's cgroup above memory.high reclaims on its way out (memcg.h). */
static inline void memcg_over_high(struct model *m)
{
	struct mem_cgroup *memcg = memcg_of(m, m->charging);

	if (memcg->high_pages)
		memcg_handle_over_high(m, memcg);
}

/* The writer's reclaim counts for the unit it gives (--by=cgroup: the cgroup's). */
static void memcg_limits_written(struct model *m, const struct model_access *a)
{
	struct units_snap snap;
	bool counted = m->units.by == MODEL_UNITS_GIVEN;

	/*
	 * the first cgroup follows its limit only where it is a budget in the recorded zone; where
	 * the memory is the limit itself, the zone's size would change under the folios
	 */
	if (a->memcg >= m->nr_memcgs || !memcg_of(m, a->memcg)->follows_limits)
		return;
	if (counted)
		units_begin(m, a, &snap);
	memcg_set_limits(m, memcg_of(m, a->memcg), a->pos, a->len, a->advice & MODEL_MEMCG_V1);
	if (counted)
		units_end(m, a, &snap);
}

void model_access(struct model *m, const struct model_access *a)
{
	uint64_t ts = model_clock(m, a->ts);

	/* the start state's reader is done once something else comes: before any timer runs */
	if (m->start_read.file != FOLIO_NIL && a->op != MODEL_START_CACHE)
		filemap_start_state_done(m);
	run_timers(m, ts);
	if (a->op == MODEL_STATS_FLUSH) {	/* no access: the statistics were flushed */
		if (a->pos && a->memcg < m->nr_memcgs)
			memcg_stats_flush_one(memcg_of(m, a->memcg));
		else if (!a->pos)
			memcg_stats_flush(m);
		return;
	}
	if (a->op == MODEL_ANON) {		/* no access: the anon pages, swap free or not */
		memcg_set_anon(m, a->pos, m->cfg.swap_sampled ? a->len != 0 :
					  m->cfg.swap == SWAP_ON);
		return;
	}
	if (a->op == MODEL_OTHERS) {		/* no access: what others hold now */
		if (a->memcg && a->memcg < m->nr_memcgs)
			memcg_set_others(m, memcg_of(m, a->memcg), a->pos);
		else if (!a->memcg)
			memory_set_others(m, a->pos);
		return;
	}
	if (a->op == MODEL_START_CACHE) {	/* no access: the cache before the trace */
		access_start_cache(m, a);
		return;
	}
	if (a->op == MODEL_START_FOLIO) {	/* no access: a folio of the cache before it */
		access_start_folio(m, a);
		return;
	}
	if (a->op == MODEL_START_MARK) {	/* no access: a readahead mark of before it */
		access_start_mark(m, a);
		return;
	}
	if (a->op == MODEL_START_SHADOW) {	/* no access: shadows of before it */
		access_start_shadow(m, a);
		return;
	}
	if (a->op == MODEL_PROACTIVE_EVICT) {	/* no access: the kernel's DAMON evicted */
		access_proactive_evict(m, a);
		return;
	}
	if (a->op == MODEL_SYNC) {		/* no file's access: every dirty one's writeback */
		wb_sync_all(m, a->device);
		return;
	}
	if (a->op == MODEL_MEMCG_LIMITS) {	/* no access: a cgroup's limits were written */
		memcg_limits_written(m, a);
		return;
	}
	m->charging = a->memcg < m->nr_memcgs ? a->memcg : 0;
	if (m->units.by) {
		struct units_snap snap;

		units_begin(m, a, &snap);
		access_apply(m, a);
		memcg_over_high(m);
		units_end(m, a, &snap);
	} else {
		access_apply(m, a);
		memcg_over_high(m);
	}
	m->mx.accesses++;
	/* a throttled or stalled access ends later than it started */
	m->mx.last_ts = m->now;
	lru_sample(m);
}

void model_advance(struct model *m, uint64_t ts)
{
	ts = model_clock(m, ts);
	filemap_start_state_done(m);
	run_timers(m, ts);
	m->mx.last_ts = ts;
}

void model_finish(struct model *m, uint64_t ts)
{
	struct model_sample s;

	model_advance(m, ts);
	if (m->cfg.interval_ns && m->now > m->last_sample_ts) {
		take_sample(m, m->now, &s);
		/* the state at the end, past MODEL_SAMPLES_MAX too: callers compare it */
		if (m->sample_fn)
			m->sample_fn(m->sample_arg, &s);
	}
	lru_flush_pending(m);
}

uint64_t model_samples(const struct model *m)
{
	return m->samples;
}

/* The zone at the end: the allocator's fallbacks and its pageblocks. */
static void model_zone_metrics(const struct model *m, struct model_metrics *out)
{
	struct buddy_stats st;

	buddy_stats(m->mem.buddy, &st);
	out->extfrag_claims = st.claimed;
	out->pageblocks_claimed = st.claimed_blocks;
	out->extfrag_steals = st.stolen;
	buddy_pageblock_counts(m->mem.buddy, out->pageblocks);
	out->zone_pages = buddy_nr_pages(m->mem.buddy);
	out->zone_free_pages = buddy_free_pages(m->mem.buddy);
	out->wmark_min = m->mem.zone.wmark_min;
	out->wmark_low = m->mem.zone.wmark_low;
	out->wmark_high = m->mem.zone.wmark_high;
}

void model_read_requests(const struct model *m, uint64_t *requests, uint64_t *hits)
{
	*requests = m->mx.read_requests;
	*hits = m->mx.read_hit_requests;
}

void model_metrics(struct model *m, struct model_metrics *out)
{
	lru_flush_pending(m);
	if (!m->d_unusable.d.samples)
		memory_sample_fragmentation(m);
	*out = m->mx;
	out->activations = out->deactivations = 0;
	for (uint32_t i = 0; i < m->nr_memcgs; i++) {
		out->activations += m->memcgs[i].lruvec.lru.activations;
		out->deactivations += m->memcgs[i].lruvec.lru.deactivations;
	}
	out->lru_entries = dist_summary(&m->d_entries);
	out->lru_inactive = dist_summary(&m->d_inactive);
	out->lru_active = dist_summary(&m->d_active);
	out->lru_pages = dist_summary(&m->d_pages);
	out->lru_inactive_pages = dist_summary(&m->d_inactive_pages);
	out->lru_gen0_pages = dist_summary(&m->d_gen_pages[0]);
	out->lru_gen1_pages = dist_summary(&m->d_gen_pages[1]);
	out->lru_gen2_pages = dist_summary(&m->d_gen_pages[2]);
	out->lru_gen3_pages = dist_summary(&m->d_gen_pages[3]);
	out->lru_active_pages = dist_summary(&m->d_active_pages);
	out->cached_bytes = dist_summary(&m->d_cached);
	out->untouched_cached_bytes = dist_summary(&m->d_untouched);
	out->unusable_milli = dist_summary(&m->d_unusable);
	out->touched_bytes = m->touched.pages << m->page_shift;
	out->dirty_bytes = m->wb.dirty_pages << m->page_shift;
	/* counted, not placed: the figures of placement stay 0 (not kept) */
	if (m->keep & MODEL_KEEP_ADDRESSES)
		frag_now(m, out->free_blocks, &out->unusable_index, &out->fragmentation_index);
	model_zone_metrics(m, out);
	out->metadata_bytes_page = metadata_struct_page_bytes(m->cfg.memory_bytes,
							      m->cfg.page_size);
	out->metadata_bytes_folio = metadata_memdesc_bytes(m->cfg.memory_bytes, m->cfg.page_size,
							   m->cfg.order, 96);
}
