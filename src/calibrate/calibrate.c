// SPDX-License-Identifier: GPL-2.0-or-later
/* Replaying a trace as the kernel that recorded it was configured: see calibrate.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "replay/firstpass.h"
#include "replay/replay.h"
#include "replay/units.h"

/*
 * The model as that kernel ran: its readahead window and rule, folios grown by readahead up
 * to the largest order each file got; memory and vm.dirty_* come from the host record in the
 * replay driver (replay_host_defaults).
 */
static void kernel_config(struct model_config *cfg, const struct kernel_facts *k)
{
	model_config_defaults(cfg);
	cfg->policy = FOLIO_POLICY_READAHEAD;
	cfg->write_policy = WRITE_POLICY_SIZED;
	cfg->order = k->max_order;
	cfg->min_order = 0;
	cfg->readahead = true;
	if (k->ra_pages)
		cfg->ra_pages = k->ra_pages;
	if (k->have_host)
		model_ra_rule_for_release(k->host.release, &cfg->ra_rule);
	/*
	 * Under a cgroup limit the folios still come from the host's memory, where large free
	 * blocks are plenty: without the recorded state of that memory, the model's small buddy
	 * must not fall back to smaller orders.
	 */
	if (k->have_host && k->host.memory_limit && k->host.memory_limit < k->host.mem_bytes &&
	    !k->have_pagetypeinfo)
		cfg->fallback = ALLOC_FALLBACK_COMPACT;
	/* one sample at the end gives the LRU sizes to compare with the last counters */
	cfg->interval_ns = 1000000000;
}

static unsigned count_ordered(const uint8_t *orders, uint32_t n)
{
	unsigned c = 0;

	for (uint32_t i = 0; i < n; i++)
		c += orders[i] != MODEL_ORDER_DEFAULT;
	return c;
}

static void note_run(struct calibration *c, const struct replay *rp,
		     const struct kernel_facts *k)
{
	const struct series_col *col = &rp->series.col[0];

	c->cfg = rp->cols[0].cfg;
	/* the per-file tables and the start state die with the run */
	c->cfg.file_orders = NULL;
	c->cfg.file_ra_off = NULL;
	c->cfg.start = NULL;
	c->cgroup_limit = k->have_host && k->host.memory_limit &&
			  c->cfg.memory_bytes == k->host.memory_limit;
	snprintf(c->release, sizeof(c->release), "%s", rp->release);
	c->accesses = rp->run.accesses;
	c->lost = rp->run.lost;
	/* damaged records skipped leave the figures as partial as a cut trace does */
	c->truncated = rp->run.truncated || rp->run.bad;
	calib_build_rows(c, &rp->cols[0].m, col->n ? &col->v[col->n - 1] : NULL, k);
	calib_frag_rows(c, &rp->cols[0].m, col, rp->series.t0, k);
}

/*
 * An unlinked copy of the trace without the left-out files' accesses; its path through
 * /proc/self/fd into path_buf. The fd to close after the replay, or -1 with err set.
 */
static int modelled_copy(struct kernel_facts *k, const char *path, char *path_buf, size_t len,
			 bool *cut, struct ft_error *err)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	int fd, wfd;

	snprintf(tmpl, sizeof(tmpl), "%s/folio-trace-calibrate.XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(tmpl);
	if (fd < 0)
		return ft_error_set(err, tmpl, "cannot create: %s", strerror(errno));
	unlink(tmpl);
	wfd = dup(fd);
	if (wfd < 0 || kernel_write_modelled(k, path, wfd, tmpl, cut, err) < 0) {
		if (wfd < 0)
			ft_error_set(err, tmpl, "dup: %s", strerror(errno));
		close(fd);
		return -1;
	}
	snprintf(path_buf, len, "/proc/self/fd/%d", fd);
	return fd;
}

/*
 * The replay's first pass: made along the read of the facts when that read was of path
 * itself (not of a copy without the mapped files); taken from them, as it serves one replay.
 */
static int first_pass_of_facts(struct replay *rp, struct kernel_facts *k, const char *path,
			       struct replay_cgroups *cgroups, struct ft_error *err)
{
	struct replay_start_folios *start_folios = replay_start_folios_wanted(rp);

	if (!k->first_done || k->skip_mmapped)
		return replay_first_pass(path, cgroups, start_folios, err);
	*cgroups = k->cgroups;
	memset(&k->cgroups, 0, sizeof(k->cgroups));
	if (start_folios) {
		*start_folios = k->start_folios;
		start_folios_init(&k->start_folios);
	}
	k->first_done = false;
	return 0;
}

static int run_replay(struct calibration *c, const struct model_config *cfg,
		      const struct calibrate_request *req, struct kernel_facts *k,
		      const char *path, struct ft_error *err)
{
	struct replay *rp = malloc(sizeof(*rp));
	struct replay_cgroups cgroups = { 0 };
	struct replay_units units;
	bool by_file = req->by_file > 0;
	int ret = -1;

	if (!rp)
		return ft_error_set(err, path, "out of memory");
	if (replay_init(rp, cfg, 1, req->memory_bytes ? MODEL_REC_MEMORY : 0, true) < 0) {
		replay_release(rp);
		free(rp);
		return ft_error_set(err, path, "out of memory");
	}
	rp->leave_out_mapped = k->skip_mmapped;
	rp->quiet = req->quiet;
	rp->work = "calibrate";
	/* the trace's memory cgroups, each charged apart as the kernel did */
	rp->cgroups = &cgroups;
	if (by_file && replay_units_init(&units, TOP_BY_FILE) < 0) {
		replay_release(rp);
		free(rp);
		return ft_error_set(err, path, "out of memory");
	}
	rp->units = by_file ? &units : NULL;
	if (first_pass_of_facts(rp, k, path, &cgroups, err) == 0 &&
	    replay_file(rp, path, err) == 0) {
		note_run(c, rp, k);
		ret = 0;
		if (by_file && calib_files(c, &units, rp, k, req->by_file))
			ret = ft_error_set(err, path, "out of memory for the files' rows");
	}
	if (by_file)
		replay_units_release(&units);
	replay_cgroups_release(&cgroups);
	replay_release(rp);
	free(rp);
	return ret;
}

int calibrate_file(struct calibration *c, const char *path, const struct calibrate_request *req,
		   struct ft_error *err)
{
	struct kernel_facts k = { .skip_mmapped = req->skip_mmapped };
	int ret = -1;

	kernel_facts_init(&k);
	k.want_first_pass = !req->skip_mmapped;	/* else a copy is replayed */
	if (kernel_facts_read(&k, path, err) == 0) {
		ret = calibrate_with_facts(c, path, req, &k, err);
	} else {
		memset(c, 0, sizeof(*c));
		c->path = path;
		c->skip_mmapped = req->skip_mmapped;
	}
	kernel_facts_release(&k);
	return ret;
}

int calibrate_with_facts(struct calibration *c, const char *path,
			 const struct calibrate_request *req, struct kernel_facts *k,
			 struct ft_error *err)
{
	struct model_config cfg;
	char copy[64];
	const char *replayed = path;
	uint8_t *orders = NULL, *ra_off = NULL;
	uint32_t norders = 0;
	int fd = -1, ret = -1;
	bool cut = false;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->skip_mmapped = req->skip_mmapped;
	if (req->skip_mmapped) {
		fd = modelled_copy(k, path, copy, sizeof(copy), &cut, err);
		if (fd < 0)
			goto out;
		replayed = copy;
	}
	c->skipped_files = k->skipped_files;
	c->shmem_unseen = k->shmem_unseen;
	c->kernel_lru_gen = k->have_lru_gen ? (int)(k->lru_gen_enabled & 0xffff) : -1;
	kernel_config(&cfg, k);
	if (req->memory_bytes)
		cfg.memory_bytes = req->memory_bytes;
	cfg.start_folios = req->start_folios;
	orders = kernel_file_orders(k, &norders);
	cfg.file_orders = orders;
	cfg.nfile_orders = norders;
	ra_off = kernel_file_ra_off(k, norders, &c->nfiles_ra_off);
	cfg.file_ra_off = ra_off;
	c->nfiles_ordered = count_ordered(orders, norders);
	ret = run_replay(c, &cfg, req, k, replayed, err);
	/* the copy ends cleanly: the input's verdict, said above, is what counts */
	if (!ret && cut)
		c->truncated = true;
out:
	if (fd >= 0)
		close(fd);
	free(orders);
	free(ra_off);
	return ret;
}
