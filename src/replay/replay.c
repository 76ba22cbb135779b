/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <inttypes.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/variants.h"
#include "replay/firstpass.h"
#include "replay/replay.h"
#include "replay/units.h"
#include "util/msg.h"
#include "util/progress.h"
#include "util/parse.h"

#define HOST_DEVS_MAX (sizeof(((struct replay *)0)->host_devs) / sizeof(struct ft_host_dev))

int replay_init(struct replay *rp, const struct model_config *cfg, unsigned ncfg, unsigned set,
		bool keep_series)
{
	memset(rp, 0, sizeof(*rp));
	file_table_init(&rp->files);
	budget_init(&rp->budget);
	anon_init(&rp->anon);
	start_state_init(&rp->start);
	start_cache_init(&rp->start_cache);
	start_folios_init(&rp->start_folios);
	/* time series are kept for a few configurations only (series.h) */
	series_init(&rp->series, ncfg < SERIES_MAX_COLS ? ncfg : SERIES_MAX_COLS,
		    cfg[0].interval_ns);
	rp->cfg = calloc(ncfg, sizeof(*rp->cfg));
	rp->cols = calloc(ncfg, sizeof(*rp->cols));
	rp->models = calloc(ncfg, sizeof(*rp->models));
	rp->sinks = calloc(ncfg, sizeof(*rp->sinks));
	rp->clients = calloc(ncfg + REPLAY_MAX_EXTRA, sizeof(*rp->clients));
	if (!rp->cfg || !rp->cols || !rp->models || !rp->sinks || !rp->clients)
		return -1;
	rp->ncfg = ncfg;
	memcpy(rp->cfg, cfg, ncfg * sizeof(*cfg));
	rp->set = set;
	rp->keep_series = keep_series && ncfg <= SERIES_MAX_COLS;
	rp->keep = MODEL_KEEP_ALL;
	return 0;
}

void replay_release(struct replay *rp)
{
	/* workers may still hold the models when replay_file failed half-way */
	pipeline_finish(&rp->pipe);
	for (unsigned i = 0; i < rp->ncfg; i++) {
		model_free(rp->models[i]);
		rp->models[i] = NULL;
	}
	free(rp->cfg);
	free(rp->cols);
	free(rp->models);
	free(rp->sinks);
	free(rp->clients);
	rp->cfg = NULL;
	rp->cols = NULL;
	rp->models = NULL;
	rp->sinks = NULL;
	rp->clients = NULL;
	rp->ncfg = 0;
	file_table_release(&rp->files);
	if (rp->charges_ready)
		replay_charges_free(&rp->charges);
	rp->charges_ready = false;
	series_release(&rp->series);
	start_state_release(&rp->start);
	start_cache_release(&rp->start_cache);
	start_folios_release(&rp->start_folios);
}

/* "order 9", or "order 9, 1G" in a sweep of memory sizes. */
static void label_column(struct replay *rp, unsigned i)
{
	char mem[20];

	if (!rp->sweep_labels) {
		snprintf(rp->cols[i].label, sizeof(rp->cols[i].label), "order %u",
			 rp->cfg[i].order);
		return;
	}
	format_bytes(rp->cfg[i].memory_bytes, mem, sizeof(mem));
	snprintf(rp->cols[i].label, sizeof(rp->cols[i].label), "order %u, %s",
		 rp->cfg[i].order, mem);
}

static void keep_sample(void *arg, const struct model_sample *s)
{
	struct replay_sink *sink = arg;

	if (series_append(sink->col, s) < 0)
		sink->oom = true;
}

static bool heat_data_op(enum model_op op)
{
	return op == MODEL_READ || op == MODEL_WRITE || op == MODEL_MMAP_READ ||
	       op == MODEL_MMAP_WRITE;
}

/* The model's access, and for the heatmap's file where it fell and whether a read missed. */
static void heat_access(void *obj, const struct model_access *a)
{
	struct replay_heat_client *c = obj;
	uint64_t req0, hit0, req1, hit1;
	size_t cell;

	if (a->file_id != atomic_load_explicit(&c->h->file_id, memory_order_relaxed) ||
	    !heat_data_op(a->op)) {
		model_access(c->m, a);
		return;
	}
	model_read_requests(c->m, &req0, &hit0);
	model_access(c->m, a);
	model_read_requests(c->m, &req1, &hit1);
	cell = heatmap_cell(c->h, a->ts, a->pos);
	if (c->accesses)
		c->accesses[cell]++;
	c->misses[cell] += (req1 - req0) - (hit1 - hit0);
}

static void heat_advance(void *obj, uint64_t ts)
{
	model_advance(((struct replay_heat_client *)obj)->m, ts);
}

static void remember_host(struct replay *rp, const struct ft_host *h)
{
	__u32 n = h->ndevs < HOST_DEVS_MAX ? h->ndevs : (__u32)HOST_DEVS_MAX;

	if (rp->have_host)
		return;
	rp->host = *h;
	rp->host.ndevs = n;
	memcpy(rp->host_devs, ft_host_devs(h), n * sizeof(rp->host_devs[0]));
	memcpy(rp->release, h->release, sizeof(rp->release));
	rp->release[sizeof(rp->release) - 1] = '\0';
	rp->have_host = true;
}

/*
 * Where the memory starts: as recorded when the trace has a state and the memory is the
 * recorded one (a cgroup's limit is a budget in the recorded zone whatever its size), the
 * zone then being the recorded pageblocks; --start-state chooses otherwise.
 */
static void settle_start_state(struct replay *rp, struct model_config *c)
{
	if (!(rp->set & MODEL_REC_START_STATE))
		c->start_state = rp->start.have && (c->memcg || !(rp->set & MODEL_REC_MEMORY)) ?
				 START_RECORDED : START_EMPTY;
	if (c->start_state != START_RECORDED || !rp->start.have)
		return;
	c->start = &rp->start.state;
	if (!c->memcg && !(rp->set & MODEL_REC_MEMORY))
		c->memory_bytes = start_state_pages(c->start) * c->page_size;
}

/* The root cgroup, beside a recorded limited one: no limit of its own. */
static const struct model_memcg root_memcg = { .max_bytes = UINT64_MAX,
					       .high_bytes = UINT64_MAX };

/*
 * Who the pages cached before the trace are charged to: the root, which is the models' first
 * cgroup when the trace ran in no limited one. Under a recorded limit with the host's zone
 * (the limit a budget in it) the root is a cgroup of its own beside it; where the zone is the
 * limit itself there is no room apart for the root's pages, and they are left out.
 */
static void settle_start_cache_memcg(struct model_config *c)
{
	if (c->start_cache != START_CACHE_RECORDED || !c->memcg) {
		c->start_cache_memcg = 0;
		return;
	}
	if (c->start_state != START_RECORDED || c->nr_memcgs) {
		c->start_cache_memcg = MODEL_MEMCG_NONE;
		return;
	}
	c->memcgs = &root_memcg;
	c->nr_memcgs = 1;
	c->start_cache_memcg = 1;
}

/* An FT_DEVICE record: the facts of one of the host's devices, kept for settle_configs(). */
static void remember_device(struct replay *rp, const struct ft_device *d)
{
	for (__u32 i = 0; rp->have_host && i < rp->host.ndevs && i < 32; i++) {
		if (rp->host_devs[i].dev == d->dev) {
			rp->dev_info[i] = *d;
			rp->dev_info_have |= 1u << i;
			return;
		}
	}
}

/*
 * Several cgroups: each its own memory cgroup with its limits, in the host's memory (the
 * memory is no one cgroup's limit then, and what others held in one is not sampled).
 */
static void settle_cgroups(struct replay *rp, struct model_config *c)
{
	if (!rp->cgroups || !rp->cgroups->active)
		return;
	c->memcgs = rp->cgroups->limits;
	c->nr_memcgs = rp->cgroups->n;
	if (c->memcg && rp->have_host && rp->host.mem_bytes && !(rp->set & MODEL_REC_MEMORY))
		c->memory_bytes = rp->host.mem_bytes;
	c->memcg = false;
}

/* The configurations as they will run: host defaults under the user's options. */
static void settle_configs(struct replay *rp, __u32 first_dev)
{
	unsigned bs = 0;

	if (rp->have_host) {
		bs = replay_host_block_size(&rp->host, rp->host_devs, first_dev);
		replay_host_devices(rp->devices, &rp->host, rp->host_devs, rp->dev_info,
				    rp->dev_info_have, rp->set);
		/* --block-size is every device's: the what-if of another block size */
		for (__u32 d = 0; (rp->set & MODEL_REC_BLOCK_SIZE) && d < rp->host.ndevs; d++)
			rp->devices[d].block_size = rp->cfg[0].block_size;
	}
	for (unsigned i = 0; i < rp->ncfg; i++) {
		if (rp->have_host)
			replay_host_defaults(&rp->cfg[i], rp->set, &rp->host);
		if (bs && !(rp->set & MODEL_REC_BLOCK_SIZE))
			rp->cfg[i].block_size = bs;
		if (rp->dirtyable && !(rp->set & MODEL_REC_MEMORY))
			rp->cfg[i].dirtyable_bytes = rp->dirtyable;
		rp->cfg[i].devices = rp->devices;
		rp->cfg[i].ndevices = rp->have_host ? rp->host.ndevs : 0;
		settle_cgroups(rp, &rp->cfg[i]);
		rp->cfg[i].dirty_domains = rp->cgroups ?
					   replay_cgroups_dirty_domains(rp->cgroups) : 0;
		rp->cfg[i].memcg_flushes = rp->have_host &&
					   (rp->host.flags & FT_HOST_MEMCG_FLUSHES);
		settle_start_state(rp, &rp->cfg[i]);
		/* the page cache as recorded, where the trace says what it held */
		if (!(rp->set & MODEL_REC_START_CACHE))
			rp->cfg[i].start_cache = rp->start_cache.seen ? START_CACHE_RECORDED
								     : START_CACHE_EMPTY;
		settle_start_cache_memcg(&rp->cfg[i]);
		rp->cfg[i].workingset_anon_pages = anon_pages(&rp->anon, rp->cfg[i].memcg);
		if (!(rp->set & MODEL_REC_SWAP)) {
			rp->cfg[i].swap = rp->anon.swap ? SWAP_ON : SWAP_OFF;
			rp->cfg[i].swap_sampled = rp->anon.swap_known;
		}
		/* lru_gen_enabled(): bit 0 of lru_gen/enabled (LRU_GEN_CORE) */
		if (rp->have_lru_gen && !(rp->set & MODEL_REC_LRU))
			rp->cfg[i].lru = rp->lru_gen_enabled & 1 ? LRU_MGLRU : LRU_TWO_LIST;
	}
}

/* The index of device dev in the host's list, as the models know it. */
static uint16_t device_index(const struct replay *rp, __u32 dev)
{
	for (__u32 i = 0; rp->have_host && i < rp->host.ndevs; i++)
		if (rp->host_devs[i].dev == dev)
			return (uint16_t)i;
	return MODEL_DEVICE_NONE;
}

/*
 * Models start at the first access so the block size can come from that file's device (the
 * model has one block size per instance).
 */
static int start_models(struct replay *rp, __u32 first_dev, const char *path,
			struct ft_error *err)
{
	unsigned nmodels;

	/* the model's default memory would be a guess: say so rather than use it */
	if (!(rp->set & MODEL_REC_MEMORY) && (!rp->have_host || !rp->host.mem_bytes)) {
		ft_error_set(err, path, "the trace has no host memory size: give --memory");
		return -1;
	}
	settle_configs(rp, first_dev);
	if (rp->cfg[0].start_state == START_RECORDED && !rp->start.have) {
		ft_error_set(err, path, "--start-state=recorded: the trace has no /proc/pagetypeinfo "
			     "sample before its first access");
		return -1;
	}
	if (rp->cfg[0].start_cache == START_CACHE_RECORDED && !rp->start_cache.seen) {
		ft_error_set(err, path, "--start-cache=recorded: the trace does not say which pages "
			     "were cached before it (format 1.3 on, recorded without "
			     "--no-start-cache)");
		return -1;
	}
	rp->started = true;
	for (unsigned i = 0; i < rp->ncfg && !rp->no_models; i++) {
		const char *why = "refused";

		rp->models[i] = model_new(&rp->cfg[i], &why);
		if (!rp->models[i]) {
			ft_error_set(err, path, "order %u: %s", rp->cfg[i].order, why);
			return -1;
		}
		label_column(rp, i);
		model_set_keep(rp->models[i], rp->keep);
		if (rp->units)
			model_set_units(rp->models[i], rp->units->kind != UNIT_FILE ?
					MODEL_UNITS_GIVEN : MODEL_UNITS_FILE);
		rp->clients[i] = pipe_client_model(rp->models[i]);
		if (i >= SERIES_MAX_COLS)
			continue;
		if (rp->heat && i < rp->heat->ncols) {
			struct replay_heat_client *hc = &rp->heat_clients[i];

			*hc = (struct replay_heat_client){
				.m = rp->models[i], .h = rp->heat,
				.accesses = i == 0 ? rp->heat->accesses : NULL,
				.misses = rp->heat->col[i].misses,
			};
			memcpy(rp->heat->col[i].label, rp->cols[i].label,
			       sizeof(rp->heat->col[i].label));
			rp->heat->col[i].order = rp->cfg[i].order;
			rp->clients[i] = (struct pipe_client){
				.access = heat_access, .advance = heat_advance, .obj = hc
			};
		}
		memcpy(rp->series.col[i].label, rp->cols[i].label, sizeof(rp->series.col[i].label));
		rp->series.col[i].order = rp->cfg[i].order;
		if (rp->keep_series && rp->cfg[i].interval_ns) {
			rp->sinks[i] = (struct replay_sink){ .col = &rp->series.col[i] };
			model_set_sample_fn(rp->models[i], keep_sample, &rp->sinks[i]);
			/* the sample at the end comes on top of the interval ones */
			model_limit_samples(rp->models[i], rp->series.col[i].max - 1);
		}
	}
	if (rp->extra_start && rp->extra_start(rp->extra_arg, rp->cfg, rp->ncfg, err) < 0)
		return -1;
	nmodels = rp->no_models ? 0 : rp->ncfg;
	memcpy(&rp->clients[nmodels], rp->extra, rp->nextra * sizeof(*rp->extra));
	if (pipeline_start(&rp->pipe, rp->clients, nmodels + rp->nextra, rp->threads) < 0) {
		ft_error_set(err, path, "out of memory for the model threads");
		return -1;
	}
	return 0;
}

static enum model_op model_op_of(__u16 op)
{
	switch (op) {
	case FT_OP_READ: return MODEL_READ;
	case FT_OP_WRITE: return MODEL_WRITE;
	case FT_OP_MMAP_READ: return MODEL_MMAP_READ;
	case FT_OP_MMAP_WRITE: return MODEL_MMAP_WRITE;
	case FT_OP_FSYNC:
	case FT_OP_FDATASYNC: return MODEL_FSYNC;
	case FT_OP_SYNC_RANGE: return MODEL_SYNC_RANGE;
	case FT_OP_TRUNCATE: return MODEL_TRUNCATE;
	case FT_OP_FALLOCATE: return MODEL_FALLOCATE;
	case FT_OP_UNLINK: return MODEL_UNLINK;
	case FT_OP_FADVISE: return MODEL_FADVISE;
	case FT_OP_MADVISE: return MODEL_MADVISE;
	default: return 0;
	}
}

static bool is_data_op(enum model_op op)
{
	return op == MODEL_READ || op == MODEL_WRITE || op == MODEL_MMAP_READ ||
	       op == MODEL_MMAP_WRITE;
}

/*
 * The file's size after a, from the record when it has one; data moved at [pos, pos+len)
 * proves the file reaches that far even when the recorder could not read i_size.
 */
static uint64_t size_after(const struct ft_access *a, enum model_op op, uint64_t size)
{
	if (op == MODEL_TRUNCATE)
		return a->pos;
	if (a->isize)
		size = a->isize;
	if (is_data_op(op) && a->pos + a->len > size)
		size = a->pos + a->len;
	return size;
}

/* false when the record has nothing for a model (zero-length transfer, unknown op, bad range). */
static bool make_access(const struct ft_access *a, uint32_t id, struct file_info *fi,
			struct model_access *out)
{
	enum model_op op = model_op_of(a->op);

	if (!op || (is_data_op(op) && a->len == 0))
		return false;
	fi->size = size_after(a, op, fi->size);
	*out = (struct model_access){
		.file_id = id, .op = op, .pos = a->pos, .len = a->len, .isize = fi->size,
		.direct = (a->flags & FT_AF_DIRECT) != 0,
		.sync = op == MODEL_WRITE && (a->flags & FT_AF_SYNC),
		.dontcache = (op == MODEL_READ || op == MODEL_WRITE) &&
			     (a->flags & FT_AF_DONTCACHE),
		.exec = (op == MODEL_MMAP_READ || op == MODEL_MMAP_WRITE) &&
			(a->flags & FT_AF_EXEC),
		.advice = op == MODEL_FADVISE || op == MODEL_MADVISE || op == MODEL_FALLOCATE ?
			  a->arg : 0,
		.ofile = a->ofile,
	};
	if ((op == MODEL_SYNC_RANGE || (op == MODEL_FSYNC && a->pos)) && a->len == 0) {
		/*
		 * len 0 means "to the end of the file"; an fsync from 0 (fsync(2)'s, always) is
		 * the whole file's, len 0 to the model
		 */
		out->len = fi->size > a->pos ? fi->size - a->pos : 0;
	}
	if (op == MODEL_UNLINK)
		fi->size = 0;
	return true;
}

/*
 * Fault-around records map cached pages only. Older recordings do not say which path made
 * the record: a fault is one page, so a longer range recorded from the kernel is fault-around.
 */
static bool mmap_fault_around(const struct replay *rp, const struct ft_access *a)
{
	if (a->op != FT_OP_MMAP_READ)
		return false;
	if (a->arg != FT_MMAP_UNKNOWN)
		return a->arg == FT_MMAP_AROUND;
	return rp->have_host && !(rp->host.flags & FT_HOST_SYNTHETIC) && rp->host.page_size &&
	       a->len > rp->host.page_size;
}

/*
 * A record no kernel makes (an access longer than one system call, past the largest file):
 * skipped, counted, and the first few named with where they are, since the trace is damaged.
 */
static bool damaged_access(struct replay *rp, const struct ft_access *a, const char *path)
{
	char why[160], where[128];

	if (!ft_access_problem(a, why, sizeof(why)))
		return false;
	if (rp->run.bad++ < REPLAY_SHOW_BAD)
		ft_warn("%s: %s: %s: skipped", path, ft_reader_where(rp->reader, where,
			sizeof(where)), why);
	return true;
}

/*
 * The models never go back in time: an access earlier than the latest seen runs at that
 * latest time. CPUs hand their events to the recorder a few milliseconds out of order, which
 * is no damage; a step back of REPLAY_REORDER_NS or more is (a damaged trace can go back by
 * years), and is counted for the warning at the end.
 */
static uint64_t access_time(struct replay *rp, uint64_t ts)
{
	if (!rp->run.accesses) {
		rp->series.t0 = ts;
		rp->now = ts;
	}
	if (ts > rp->now) {
		rp->now = ts;
	} else if (rp->now - ts >= REPLAY_REORDER_NS) {
		rp->run.late++;
		if (rp->now - ts > rp->run.late_max_ns)
			rp->run.late_max_ns = rp->now - ts;
	}
	return rp->now;
}

/* One range of the page cache before the trace, to the models (which take it or not). */
static void send_start_range(struct replay *rp, const struct start_range *r, uint64_t ts)
{
	struct model_access ma = { .op = MODEL_START_CACHE, .file_id = r->file, .pos = r->first,
				   .len = r->n, .isize = r->isize, .device = r->device, .ts = ts,
				   .dirty = r->dirty };

	if (r->shadow != START_SHADOW_NONE) {
		ma.op = MODEL_START_SHADOW;
		ma.advice = r->shadow == START_SHADOW_RECENT;
	}
	if (r->folio)
		ma.op = MODEL_START_FOLIO;

	pipeline_access(&rp->pipe, &ma);
}

/* The ranges met before the models started, at the time of the first access (ts). */
static int send_kept_start_cache(struct replay *rp, uint64_t ts)
{
	for (size_t i = 0; i < rp->start_cache.n; i++)
		send_start_range(rp, &rp->start_cache.v[i], ts);
	start_cache_sent(&rp->start_cache);
	return 0;
}

/*
 * The size a start range's file has to the models: its FT_FILE's, or where that said none (a
 * file first met in a writeback event, which has no size) at least the end of its cached pages.
 */
static uint64_t start_range_isize(const struct replay *rp, uint64_t size, const struct ft_page_range *v)
{
	uint64_t end = (v->start + v->len) * (rp->have_host ? rp->host.page_size : 4096);

	return size ? size : end;
}

/* A start range to the models now if they started, else kept until they do. 0, or -1. */
static int send_or_keep_start_range(struct replay *rp, const struct start_range *r,
				    const char *path, struct ft_error *err)
{
	if (rp->started) {
		send_start_range(rp, r, rp->now);
		return 0;
	}
	if (start_cache_keep(&rp->start_cache, r) < 0) {
		ft_error_set(err, path, "out of memory for the start cache");
		return -1;
	}
	return 0;
}

/*
 * The folios of the file's start pages the kernel's deletes show (startfolios.h), before the
 * first of its ranges, with the pages of each among its dirty ones (the rule of
 * start_cache_dirty(): the last nr_dirty of its cached pages).
 */
static int send_start_folios(struct replay *rp, const struct ft_start_cache *sc, uint32_t id,
			     const char *path, struct ft_error *err)
{
	uint64_t clean = sc->nr_dirty < sc->nr_cache ? sc->nr_cache - sc->nr_dirty : 0;
	struct ft_page_range named = { 0 };
	const struct start_folio *f;
	uint64_t end, isize;
	size_t n;

	f = start_folios_of(&rp->start_folios, rp->start_cache.files - 1, &n, &end);
	/* the size the file's ranges give it, all of them */
	named.len = end;
	isize = start_range_isize(rp, file_table_get(&rp->files, id)->size, &named);
	for (size_t i = 0; i < n; i++) {
		struct start_range r = { .file = id, .device = device_index(rp, sc->dev),
					 .first = f[i].index, .n = 1ull << f[i].order,
					 .isize = isize, .folio = true };

		/* its last pages among the file's last nr_dirty */
		if (f[i].cached_to_end > clean)
			r.dirty = f[i].cached_to_end - clean < r.n ? f[i].cached_to_end - clean
								   : r.n;
		if (send_or_keep_start_range(rp, &r, path, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * An FT_START_CACHE record: its ranges go to the models as they start, or at once when they
 * have (a file first met later: its pages were cached before the trace all the same).
 */
static int note_start_cache(struct replay *rp, const struct ft_start_cache *sc, const char *path,
			    struct ft_error *err)
{
	const struct ft_page_range *v = ft_start_cache_ranges(sc);
	uint32_t id = file_table_id(&rp->files, sc->dev, sc->ino);

	if (id == FILE_ID_NONE) {
		ft_error_set(err, path, "out of memory for the file table");
		return -1;
	}
	if (start_cache_count(&rp->start_cache, sc->dev, sc->ino, sc->nr_cache) &&
	    send_start_folios(rp, sc, id, path, err) < 0)
		return -1;
	if (sc->nranges)
		file_table_get(&rp->files, id)->start_cached = true;
	if (!rp->started)
		rp->start_cache.seen = true;
	for (unsigned i = 0; i < sc->nranges; i++) {
		struct start_range r = { .file = id, .device = device_index(rp, sc->dev),
					 .first = v[i].start, .n = v[i].len,
					 .isize = start_range_isize(rp,
						file_table_get(&rp->files, id)->size, &v[i]) };

		r.dirty = start_cache_dirty(&rp->start_cache, r.n, sc->nr_cache, sc->nr_dirty);
		if (send_or_keep_start_range(rp, &r, path, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * An FT_START_SHADOWS record: shadows of pages evicted before the trace, to the models with
 * the start cache (after the file's cached ranges, as the recorder writes them)
 */
static int note_start_shadows(struct replay *rp, const struct ft_start_shadows *ss,
			      const char *path, struct ft_error *err)
{
	const struct ft_page_range *v = ft_start_shadows_ranges(ss);
	uint32_t id = file_table_id(&rp->files, ss->dev, ss->ino);

	if (id == FILE_ID_NONE) {
		ft_error_set(err, path, "out of memory for the file table");
		return -1;
	}
	for (unsigned i = 0; i < ss->nranges; i++) {
		struct start_range r = {
			.file = id, .device = device_index(rp, ss->dev), .first = v[i].start,
			.n = v[i].len,
			.isize = start_range_isize(rp, file_table_get(&rp->files, id)->size, &v[i]),
			.shadow = ss->flags & FT_SS_RECENT ? START_SHADOW_RECENT : START_SHADOW_OLD };

		if (send_or_keep_start_range(rp, &r, path, err) < 0)
			return -1;
	}
	return 0;
}

/*
 * sync(2) and syncfs(2): no file's access, every dirty file's (of the device) writeback. Before
 * the first access there is nothing dirty in the models; a device the host record does not
 * name has no file of theirs.
 */
static void feed_sync(struct replay *rp, const struct ft_access *a)
{
	struct model_access ma = { .op = MODEL_SYNC, .device = MODEL_DEVICE_NONE };

	if (!rp->started || !rp->run.accesses)
		return;
	if (a->op == FT_OP_SYNCFS && (ma.device = device_index(rp, a->dev)) == MODEL_DEVICE_NONE)
		return;
	ma.ts = access_time(rp, a->hdr.ts);
	pipeline_access(&rp->pipe, &ma);
}

static int feed_access(struct replay *rp, const struct ft_access *a, const char *path,
		       struct ft_error *err)
{
	struct file_info *fi;
	struct model_access ma;
	uint32_t id;

	if (damaged_access(rp, a, path))
		return 0;
	if (a->op == FT_OP_SYNC || a->op == FT_OP_SYNCFS) {
		feed_sync(rp, a);
		return 0;
	}
	id = file_table_id(&rp->files, a->dev, a->ino);
	if (id == FILE_ID_NONE) {
		ft_error_set(err, path, "out of memory for the file table");
		return -1;
	}
	fi = file_table_get(&rp->files, id);
	if (fi->no_page_cache) {
		rp->run.uncached++;
		return 0;
	}
	/* set before the file's first access goes to the models: the pipeline's lock orders it */
	if (rp->heat && a->dev == rp->heat->dev && a->ino == rp->heat->ino)
		atomic_store_explicit(&rp->heat->file_id, id, memory_order_relaxed);
	if (!rp->started) {
		if (start_models(rp, a->dev, path, err) < 0 ||
		    send_kept_start_cache(rp, a->hdr.ts))
			return -1;
		fi = file_table_get(&rp->files, id);	/* in case the table grew meanwhile */
	}
	if (!make_access(a, id, fi, &ma)) {
		rp->run.ignored++;
		return 0;
	}
	if (rp->units && rp->units->kind != UNIT_FILE &&
	    (ma.unit = replay_units_of_tid(rp->units, a->hdr.tid)) == UINT32_MAX) {
		ft_error_set(err, path, "out of memory for the units of --by");
		return -1;
	}
	if (rp->cgroups)
		ma.memcg = replay_cgroups_of_tid(rp->cgroups, a->hdr.tid);
	ma.fault_around = mmap_fault_around(rp, a);
	ma.device = device_index(rp, a->dev);
	if (ma.device < 32)
		rp->devices_used |= 1u << ma.device;
	ma.ts = access_time(rp, a->hdr.ts);
	/* model_access first lets the time up to ma.ts pass (flusher, samples) */
	pipeline_access(&rp->pipe, &ma);
	rp->run.accesses++;
	return 0;
}

/* A message for the models at ts, in time with the accesses (ma's ts is set here). */
static void send_message(struct replay *rp, uint64_t ts, struct model_access *ma)
{
	if (!rp->started || !rp->run.accesses)
		return;
	if (ts > rp->now)
		rp->now = ts;
	ma->ts = rp->now;
	pipeline_access(&rp->pipe, ma);
}

static void send_to_models(struct replay *rp, uint64_t ts, enum model_op op, uint64_t pos)
{
	struct model_access ma = { .op = op, .pos = pos };

	send_message(rp, ts, &ma);
}

/*
 * A sample of the recorded cgroup: reading its memory.stat flushed its statistics, and it
 * says how much of the limit others held (unless the user gave the memory).
 */
static void cgroup_sampled(struct replay *rp, const struct ft_counters *c)
{
	uint64_t others;

	/* the kernel's own flushes, when the trace has them, say whether that read flushed */
	if (!(rp->host.flags & FT_HOST_MEMCG_FLUSHES))
		send_to_models(rp, c->hdr.ts, MODEL_STATS_FLUSH, 0);
	if (rp->started && rp->cfg[0].memcg &&
	    budget_others(&rp->budget, c, rp->cfg[0].page_size, rp->leave_out_mapped, &others))
		send_to_models(rp, c->hdr.ts, MODEL_OTHERS, others);
}

/* Swap or the anon lists sampled: the anon pages the first cgroup's refaults count now. */
static void anon_sampled(struct replay *rp, const struct ft_counters *c)
{
	unsigned page_size = rp->have_host ? rp->host.page_size : 0;
	struct model_access ma = { .op = MODEL_ANON };

	if (!anon_sample(&rp->anon, c, page_size) || !rp->started)
		return;
	ma.pos = anon_pages(&rp->anon, rp->cfg[0].memcg);
	ma.len = rp->anon.swap;
	send_message(rp, c->hdr.ts, &ma);
}

/* The root of every cgroup hierarchy is its kernfs node 1: its flush is everyone's. */
#define CGROUP_ROOT_ID	1

/*
 * The kernel flushed a memory cgroup's statistics, and its subtree's (FT_VM_MEMCG_FLUSH): the
 * root's reaches every model cgroup, another's the model cgroup that is it (the model's
 * cgroups are siblings: a flush of a parent the trace did not see reaches none).
 */
static void memcg_flushed(struct replay *rp, const struct ft_vmscan *v)
{
	struct model_access ma = { .op = MODEL_STATS_FLUSH };

	if (!(rp->host.flags & FT_HOST_MEMCG_FLUSHES))
		return;
	if (v->a != CGROUP_ROOT_ID) {
		if (!rp->cgroups || !replay_cgroups_index(rp->cgroups, v->a, &ma.memcg))
			return;
		ma.pos = 1;
	}
	send_message(rp, v->hdr.ts, &ma);
}

/*
 * A cgroup's limits were written during the trace (the recorder reads them at each sample):
 * the models' cgroup takes them, and reclaims down to them, as the writer did.
 */
static void cgroup_limits_changed(struct replay *rp, const struct ft_cgroup_limits *l)
{
	struct model_access ma = { .op = MODEL_MEMCG_LIMITS };
	struct model_memcg now;
	uint8_t index;
	bool v1;

	/* the recorded limit, what the kernel's reclaims were at (not --cgroup-limit's) */
	if (rp->charges_ready && rp->cfg[0].page_size &&
	    replay_cgroups_index(rp->cgroups, l->id, &index) &&
	    replay_charges_limit(&rp->charges, index, l->max == FT_LIMIT_NONE ? UINT64_MAX :
				 l->max / rp->cfg[0].page_size)) {
		struct model_access others = { .op = MODEL_OTHERS, .memcg = index };

		send_message(rp, l->hdr.ts, &others);
	}
	if (!rp->cgroups || !replay_cgroups_limits_changed(rp->cgroups, l, &ma.memcg, &now, &v1))
		return;
	ma.pos = now.max_bytes;
	ma.len = now.high_bytes;
	ma.advice = v1 ? MODEL_MEMCG_V1 : 0;
	/* what the writer reclaims counts for the cgroup under --by=cgroup */
	ma.unit = rp->units ? replay_units_of_cgroup(rp->units, l->id) : UINT32_MAX;
	send_message(rp, l->hdr.ts, &ma);
}

/*
 * Kernel events carry time too: between accesses the flusher still runs and samples are still
 * due, and the trace's last event, not its last access, ends the replay.
 */
static void pass_time(struct replay *rp, uint64_t ts)
{
	if (!rp->started || !rp->run.accesses || ts <= rp->now)
		return;
	rp->now = ts;
	pipeline_advance(&rp->pipe, ts);
}

static int note_file(struct replay *rp, const struct ft_file *f, const char *path,
		     struct ft_error *err)
{
	struct file_info *fi;
	uint32_t id = f->flags & FT_FILE_REUSED ? file_table_renew(&rp->files, f->dev, f->ino)
						: file_table_id(&rp->files, f->dev, f->ino);

	if (id == FILE_ID_NONE) {
		ft_error_set(err, path, "out of memory for the file table");
		return -1;
	}
	fi = file_table_get(&rp->files, id);
	/* a size no Linux file can have is a damaged record: take the size as unknown */
	fi->size = f->size <= FT_FILE_SIZE_MAX ? f->size : 0;
	if (!fi->no_page_cache && ft_file_without_page_cache(rp->host.flags, f)) {
		fi->no_page_cache = true;
		rp->run.uncached_files++;
	}
	return 0;
}

/* The names of the meminfo counters that make the host's dirtyable memory. */
static void note_counter_names(struct replay *rp, const struct ft_counter_names *n)
{
	if (n->source == FT_SRC_LRU_GEN)
		rp->lru_gen_idx = (uint16_t)(ft_counter_index(n, "enabled") + 1);
	if (n->source != FT_SRC_MEMINFO)
		return;
	rp->meminfo.free = (uint16_t)(ft_counter_index(n, "MemFree") + 1);
	rp->meminfo.active_file = (uint16_t)(ft_counter_index(n, "Active(file)") + 1);
	rp->meminfo.inactive_file = (uint16_t)(ft_counter_index(n, "Inactive(file)") + 1);
}

/*
 * global_dirtyable_memory() of the recorded host when the models start: free memory and the
 * file LRU of its first /proc/meminfo sample, less the kernel's reserve for its size.
 */
static void note_counters(struct replay *rp, const struct ft_counters *c)
{
	const __u64 *v = ft_counters_values(c);
	const struct meminfo_names *mi = &rp->meminfo;
	uint64_t bytes, reserve;

	if (c->source == FT_SRC_LRU_GEN && !rp->have_lru_gen && rp->lru_gen_idx &&
	    rp->lru_gen_idx <= c->count) {
		rp->lru_gen_enabled = v[rp->lru_gen_idx - 1];
		rp->have_lru_gen = true;
	}
	if (c->source != FT_SRC_MEMINFO || rp->dirtyable || rp->models[0] || !mi->free ||
	    !mi->active_file || !mi->inactive_file || mi->free > c->count ||
	    mi->active_file > c->count || mi->inactive_file > c->count)
		return;
	bytes = v[mi->free - 1] + v[mi->active_file - 1] + v[mi->inactive_file - 1];
	reserve = rp->have_host ? model_reserve_bytes(rp->host.mem_bytes, rp->host.page_size) : 0;
	rp->dirtyable = bytes > reserve ? bytes - reserve : 0;
}

/*
 * Several cgroups: the kernel's page cache of each (its folios' inserters'), and at each of
 * its limit reclaims what it held besides, for its memory cgroup in the models (charges.h).
 */
static int note_charges(struct replay *rp, const struct ft_hdr *h)
{
	const struct ft_folio_event *f = (const void *)h;
	uint64_t pages;

	if (!rp->charges_ready) {
		if (!rp->cgroups || !rp->cgroups->active)
			return 0;
		if (replay_charges_init(&rp->charges) < 0)
			return -1;
		rp->charges_ready = true;
	}
	if (h->type == FT_PAGECACHE_ADD)
		return replay_charges_added(&rp->charges,
					    replay_cgroups_of_tid(rp->cgroups, h->tid), h->tid,
					    f->dev, f->ino, f->index,
					    f->order == FT_ORDER_UNKNOWN ? 0 : f->order);
	if (h->type == FT_PAGECACHE_DELETE) {
		replay_charges_deleted(&rp->charges, f->dev, f->ino, f->index,
				       f->order == FT_ORDER_UNKNOWN ? 0 : f->order);
	} else if (h->type == FT_VMSCAN &&
		   ((const struct ft_vmscan *)h)->kind == FT_VM_LRU_ISOLATE) {
		struct model_access ma = { .op = MODEL_OTHERS };

		ma.memcg = replay_cgroups_of_tid(rp->cgroups, h->tid);
		if (replay_charges_reclaim(&rp->charges, ma.memcg, h->tid, &pages)) {
			ma.pos = pages;
			send_message(rp, h->ts, &ma);
		}
	}
	return 0;
}

/*
 * A delete by the kernel's proactive reclaimer (FT_FE_PROACTIVE: DAMON's pageout), which no
 * pressure of the trace decides: the models evict the same pages (as --proactive-reclaim
 * says), once they have started.
 */
static void note_proactive(struct replay *rp, const struct ft_hdr *h)
{
	const struct ft_folio_event *e = (const void *)h;
	struct model_access ma = { .op = MODEL_PROACTIVE_EVICT };
	uint32_t id;

	if (h->type != FT_PAGECACHE_DELETE || !(e->flags & FT_FE_PROACTIVE))
		return;
	id = file_table_find(&rp->files, e->dev, e->ino);
	if (id == FILE_ID_NONE || !rp->started)
		return;
	ma.file_id = id;
	ma.pos = e->index;
	ma.len = e->order <= MODEL_MAX_ORDER ? 1ull << e->order : 1;
	rp->proactive_pages += ma.len;
	send_message(rp, h->ts, &ma);
}

/*
 * The kernel's deletes and async readahead, for the start state's readahead marks
 * (startcache.h): a mark hit is sent before the access that hit it, which the trace records
 * when the call returns. The event names the marked folio's index and the pages the read
 * wanted from it (filemap_readahead(): last_index - folio->index, 6.18): the read reaches the
 * last of them, which the model's folio there gets the mark of (its start folios follow a
 * rule, not the kernel's orders). The file is looked up, never added: the file ids are the
 * accesses'. A mark hit before the models start (the trace's first access) is not sent.
 */
static void note_start_marks(struct replay *rp, const struct ft_hdr *h)
{
	const struct ft_folio_event *e = (const void *)h;
	const struct ft_readahead *r = (const void *)h;
	struct model_access ma = { .op = MODEL_START_MARK };
	uint64_t last;
	uint32_t id;

	if (h->type == FT_PAGECACHE_DELETE) {
		id = file_table_find(&rp->files, e->dev, e->ino);
		if (id != FILE_ID_NONE)
			start_cache_deleted(file_table_get(&rp->files, id), e->index,
					    e->order <= MODEL_MAX_ORDER ? 1ull << e->order : 1);
		return;
	}
	if (r->kind != FT_RA_ASYNC || !rp->started || !rp->run.accesses)
		return;
	last = r->index + (r->size ? r->size - 1 : 0);
	id = file_table_find(&rp->files, r->dev, r->ino);
	if (id == FILE_ID_NONE || last < r->index ||
	    !start_cache_mark_of_before(file_table_get(&rp->files, id), r->index, last))
		return;
	pass_time(rp, h->ts);
	ma.file_id = id;
	ma.pos = last;
	ma.device = device_index(rp, r->dev);
	ma.ts = rp->now;
	pipeline_access(&rp->pipe, &ma);
}

static int feed_record(struct replay *rp, const struct ft_hdr *h, const char *path,
		       struct ft_error *err)
{
	if (rp->units && replay_units_note(rp->units, h) < 0) {
		ft_error_set(err, path, "out of memory for the figures of --by");
		return -1;
	}
	if (rp->cgroups && (replay_cgroups_note(rp->cgroups, h) < 0 || note_charges(rp, h) < 0)) {
		ft_error_set(err, path, "out of memory for the trace's cgroups");
		return -1;
	}
	switch (h->type) {
	case FT_ACCESS:
		return feed_access(rp, (const struct ft_access *)h, path, err);
	case FT_FILE:
		return note_file(rp, (const struct ft_file *)h, path, err);
	case FT_START_CACHE:
		return note_start_cache(rp, (const struct ft_start_cache *)h, path, err);
	case FT_START_SHADOWS:
		return note_start_shadows(rp, (const struct ft_start_shadows *)h, path, err);
	case FT_CGROUP_LIMITS:
		cgroup_limits_changed(rp, (const struct ft_cgroup_limits *)h);
		return 0;
	case FT_HOST:
		remember_host(rp, (const struct ft_host *)h);
		return 0;
	case FT_DEVICE:
		remember_device(rp, (const struct ft_device *)h);
		return 0;
	case FT_LOST:
		rp->run.lost += ((const struct ft_lost *)h)->count;
		return 0;
	case FT_COUNTER_NAMES:
		if (((const struct ft_counter_names *)h)->source == FT_SRC_CGROUP)
			budget_names(&rp->budget, (const struct ft_counter_names *)h);
		if (((const struct ft_counter_names *)h)->source == FT_SRC_PAGETYPEINFO)
			start_state_names(&rp->start, (const struct ft_counter_names *)h);
		note_counter_names(rp, (const struct ft_counter_names *)h);
		anon_names(&rp->anon, (const struct ft_counter_names *)h);
		return 0;
	case FT_COUNTERS:
		if (((const struct ft_counters *)h)->source == FT_SRC_CGROUP)
			cgroup_sampled(rp, (const struct ft_counters *)h);
		/* the state before the models start is where they start from */
		if (((const struct ft_counters *)h)->source == FT_SRC_PAGETYPEINFO &&
		    !rp->started)
			start_state_sample(&rp->start, (const struct ft_counters *)h);
		note_counters(rp, (const struct ft_counters *)h);
		anon_sampled(rp, (const struct ft_counters *)h);
		return 0;
	case FT_PAGECACHE_DELETE:
	case FT_READAHEAD:
		note_start_marks(rp, h);
		pass_time(rp, h->ts);
		note_proactive(rp, h);
		return 0;
	case FT_VMSCAN:
		if (((const struct ft_vmscan *)h)->kind == FT_VM_MEMCG_FLUSH)
			memcg_flushed(rp, (const struct ft_vmscan *)h);
		else
			pass_time(rp, h->ts);
		return 0;
	default:
		/* kernel events are for calibration, only their time counts here */
		if (!ft_is_metadata(h->type))
			pass_time(rp, h->ts);
		return 0;
	}
}

/* Appends to rp->sources; a line longer than it is cut. */
static void add_source(struct replay *rp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add_source(struct replay *rp, const char *fmt, ...)
{
	size_t used = strlen(rp->sources);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rp->sources + used, sizeof(rp->sources) - used, fmt, ap);
	va_end(ap);
}

/* What the page cache held at the start: as recorded (how much), or empty, and why. */
static void describe_start_cache(struct replay *rp, const struct model_config *c)
{
	const struct replay_start_cache *s = &rp->start_cache;
	const struct replay_start_folios *f = &rp->start_folios;

	if (c->start_cache == START_CACHE_RECORDED) {
		add_source(rp, "; page cache at start: recorded (%" PRIu64 " pages of %" PRIu64
			   " files%s)", s->pages, s->files,
			   c->start_cache_memcg == MODEL_MEMCG_NONE ?
			   ", left out: the memory is the cgroup's limit, no room for the root's" :
			   c->memcg ? ", charged to the root beside the cgroup" : "");
		if (c->start_folios == START_FOLIOS_RULE)
			add_source(rp, "; start folios: by rule (--start-folios=rule)");
		else if (!f->surveyed)
			add_source(rp, "; start folios: by rule (the trace on standard input "
				   "is read once)");
		else
			add_source(rp, "; start folios: %" PRIu64 " pages in %" PRIu64 " folios "
				   "as the kernel's deletes show them, the rest by rule",
				   f->pages, f->folios);
	} else if (rp->set & MODEL_REC_START_CACHE)
		add_source(rp, "; page cache at start: empty (--start-cache)");
	else
		add_source(rp, "; page cache at start: empty (not recorded)");
}

/* The memory cgroups charged apart, with the limits each has ("none": unlimited). */
static void describe_cgroups(struct replay *rp)
{
	const struct replay_cgroups *cg = rp->cgroups;
	char size[32];

	if (cg && !cg->active && cg->n == 1 && cg->limit_changes)
		add_source(rp, "; its cgroup's limits written %u time%s during the trace%s",
			   cg->limit_changes, cg->limit_changes == 1 ? "" : "s",
			   rp->cfg[0].memcg && rp->cfg[0].start_state == START_RECORDED ? "" :
			   " (not followed: the memory is its limit)");
	if (!cg || !cg->active)
		return;
	add_source(rp, "; %u memory cgroups, each charged its own folios (", cg->n);
	for (uint32_t i = 0; i < cg->n && i < 4; i++)
		add_source(rp, "%s%s %s%s", i ? ", " : "", cg->cg[i].path[0] ? cg->cg[i].path : "?",
			   cg->limits[i].max_bytes == UINT64_MAX ? "no limit" :
			   format_bytes(cg->limits[i].max_bytes, size, sizeof(size)),
			   cg->cg[i].limit_given ? " (--cgroup-limit)" : "");
	add_source(rp, "%s)", cg->n > 4 ? ", ..." : "");
	if (cg->limit_changes)
		add_source(rp, ", limits at the start, then written %u time%s", cg->limit_changes,
			   cg->limit_changes == 1 ? "" : "s");
	if (cg->shared)
		add_source(rp, "; %" PRIu64 " more charged together, unlimited", cg->shared);
}

/* The cgroups with dirty limits of their own (cgroup v2 writeback). */
static void describe_dirty_domains(struct replay *rp)
{
	unsigned n = 0;

	for (uint32_t mask = rp->cfg[0].dirty_domains; mask; mask &= mask - 1)
		n++;
	if (n)
		add_source(rp, "; cgroup v2 writeback: %u cgroup%s with dirty limits of %s own", n,
			   n == 1 ? "" : "s", n == 1 ? "its" : "their");
}

/*
 * One line on where the configuration came from: the recorded kernel's rules (or the user's
 * options), the filesystems the files were on with the largest order each allows and how
 * their dirty data is tracked and reclaimed, the memory.
 */
static void describe_sources(struct replay *rp)
{
	const struct model_config *c = &rp->cfg[0];
	bool first = true;

	add_source(rp, "%s: readahead rule %s%s", rp->have_host &&
		   !(rp->host.flags & FT_HOST_SYNTHETIC) ? "recorded kernel" : "synthetic trace",
		   model_ra_rules[c->ra_rule]->name,
		   rp->set & MODEL_REC_RA_RULE ? " (--ra-rule)" : "");
	if (rp->set & MODEL_REC_LRU)
		add_source(rp, ", LRU %s (--lru)", model_lru_kinds[c->lru]->name);
	else if (rp->have_lru_gen)
		add_source(rp, ", LRU %s (lru_gen/enabled 0x%04" PRIx64 ")",
			   model_lru_kinds[c->lru]->name, rp->lru_gen_enabled & 0xffff);
	for (unsigned i = 0; rp->have_host && i < rp->host.ndevs && i < 32; i++) {
		const struct model_device *d = &rp->devices[i];

		if (!(rp->devices_used & (1u << i)))
			continue;
		add_source(rp, "%s%s (up to order %u", first ? "; files on " : ", ",
			   model_fs_kinds[d->fs]->name,
			   c->large_folios == LARGE_FOLIOS_AUTO ?
			   fs_kind_of(d->fs)->max_order(d, 12, c->max_pagecache_order) :
			   c->max_pagecache_order);
		if (d->ra_pages != MODEL_UNKNOWN)
			add_source(rp, ", readahead %u pages", d->ra_pages);
		if (d->io_pages != MODEL_UNKNOWN)
			add_source(rp, ", I/O %u pages", d->io_pages);
		add_source(rp, ", dirty per %s of %u B, reclaim %s)",
			   model_dirty_row_for(c, d)->v.name,
			   d->block_size != MODEL_UNKNOWN ? d->block_size : c->block_size,
			   model_reclaim_row_for(c, d)->v.name);
		first = false;
	}
	if (rp->set & MODEL_REC_MEMORY)
		add_source(rp, "; memory from --memory");
	else if (c->memcg)
		add_source(rp, "; memory: the cgroup limit, less what others held as sampled");
	else if (c->start_state == START_RECORDED)
		add_source(rp, "; memory: the recorded zones' pageblocks");
	else
		add_source(rp, "; memory: the host's");
	describe_cgroups(rp);
	describe_dirty_domains(rp);
	if (rp->set & MODEL_REC_SWAP)
		add_source(rp, "; refaults count the anon memory: %s (--swap)",
			   model_swap_uses[c->swap]->name);
	else if (rp->anon.swap_seen)
		add_source(rp, "; swap free: refaults count the sampled anon memory");
	if (c->start_state == START_RECORDED) {
		uint64_t rec = start_state_pages(c->start), mem = c->memory_bytes / c->page_size;

		add_source(rp, "; starts as recorded (%" PRIu64 " pageblocks", rec >> 9);
		if (!c->memcg && rp->sweep_labels)
			add_source(rp, ", scaled or extended to each memory");
		else if (!c->memcg && mem >> 9 != rec >> 9)
			add_source(rp, ", %s to %" PRIu64, mem < rec ? "scaled" : "extended", mem >> 9);
		add_source(rp, ")");
	}
	describe_start_cache(rp, c);
	if (rp->proactive_pages)
		add_source(rp, "; proactive reclaim: %s (%" PRIu64 " pages deleted by DAMON%s)",
			   model_proactive_reclaims[c->proactive_reclaim]->name,
			   rp->proactive_pages,
			   c->proactive_reclaim == PROACTIVE_RECLAIM_NONE ? ", --proactive-reclaim" :
			   "");
}

static void collect_results(struct replay *rp, const struct ft_reader_status *st)
{
	pipeline_finish(&rp->pipe);
	for (unsigned i = 0; i < rp->ncfg && rp->no_models; i++)
		rp->cols[i].cfg = rp->cfg[i];
	for (unsigned i = 0; i < rp->ncfg && !rp->no_models; i++) {
		model_finish(rp->models[i], rp->now);
		rp->cols[i].cfg = *model_config(rp->models[i]);
		model_metrics(rp->models[i], &rp->cols[i].m);
		if (model_samples(rp->models[i]) > rp->samples)
			rp->samples = model_samples(rp->models[i]);
	}
	rp->run.records = st->records;
	rp->refault_events = ft_has_refault_events(st, rp->have_host ? &rp->host : NULL);
	rp->run.files = rp->files.nfiles - rp->run.uncached_files;
	rp->run.clean_end = st->clean_end;
	rp->run.truncated = st->truncated;
	rp->run.release = rp->release;
	if (rp->started) {
		describe_sources(rp);
		rp->run.sources = rp->sources;
	}
}

/* The totals of what damaged_access() and access_time() met, after the first few lines. */
static void report_damage(const struct replay *rp, const char *path)
{
	if (rp->run.bad > REPLAY_SHOW_BAD)
		ft_warn("%s: %llu damaged access records skipped (%u shown)", path,
			(unsigned long long)rp->run.bad, REPLAY_SHOW_BAD);
	if (rp->run.late)
		ft_warn("%s: %llu accesses a second or more earlier than one before them (by up to "
			"%.6f s) were replayed at that later time", path,
			(unsigned long long)rp->run.late, (double)rp->run.late_max_ns / 1e9);
}

/* A model may take start folios: the page cache may start as recorded, with them. */
struct replay_start_folios *replay_start_folios_wanted(struct replay *rp)
{
	if (rp->start_folios.surveyed)
		return NULL;
	for (unsigned i = 0; i < rp->ncfg; i++)
		if (rp->cfg[i].start_folios == START_FOLIOS_DELETED &&
		    (!(rp->set & MODEL_REC_START_CACHE) ||
		     rp->cfg[i].start_cache == START_CACHE_RECORDED))
			return &rp->start_folios;
	return NULL;
}

int replay_file(struct replay *rp, const char *path, struct ft_error *err)
{
	struct ft_reader_status st;
	struct ft_progress progress;
	const struct ft_hdr *h;
	struct ft_reader *r;
	int ret;

	/* a first pass: not of standard input, which the replay reads once */
	if (strcmp(path, "-") != 0 && replay_start_folios_wanted(rp) &&
	    replay_first_pass(path, NULL, &rp->start_folios, err) < 0)
		return -1;
	r = ft_reader_open(path, err);
	if (!r)
		return -1;
	rp->reader = r;
	rp->run.trace_path = path;
	ft_reader_progress(r, &progress, rp->work ? rp->work : "replay", rp->quiet);
	while ((ret = ft_reader_next(r, &h, err)) == FT_READ_MORE) {
		if (rp->also_read)
			rp->also_read(rp->also_read_arg, r, h);
		if (feed_record(rp, h, path, err) < 0)
			goto fail;
	}
	if (ret == FT_READ_ERROR)
		goto fail;
	if (!rp->started && start_models(rp, 0, path, err) < 0)
		goto fail;
	ft_reader_status(r, &st);
	rp->reader_status = st;
	collect_results(rp, &st);
	ft_progress_end(&progress);
	for (unsigned i = 0; i < rp->ncfg; i++)
		if (rp->sinks[i].oom) {
			ft_error_set(err, path, "out of memory for the time series");
			goto fail;
		}
	/* a cut trace still gives results for what was read; the warning says how much */
	ft_reader_report_end(r);
	report_damage(rp, path);
	ft_reader_close(r);
	rp->reader = NULL;
	return 0;
fail:
	ft_progress_end(&progress);
	ft_reader_close(r);
	rp->reader = NULL;
	return -1;
}
