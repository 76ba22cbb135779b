// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The replay's start state: a trace with a /proc/pagetypeinfo sample before its first access
 * starts from it (the memory is then its pageblocks), --memory alone starts empty,
 * --start-state=recorded with --memory scales or extends the recorded state, and a trace
 * without a sample refuses --start-state=recorded.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"
#include "tap.h"

#define MiB (1ull << 20)
#define DEV ((8u << 20) | 1)

static char path[256];

/*
 * Eight pageblocks of one zone (the DMA zone has none): 2 unmovable with ten free pages,
 * 6 movable: two free order-10 blocks, one free order-9 pageblock, four order-3 blocks.
 */
static const char *const names[] = {
	"pageblock_order", "0/DMA/Movable/blocks", "0/Normal/Unmovable/0",
	"0/Normal/Movable/3", "0/Normal/Movable/9", "0/Normal/Movable/10",
	"0/Normal/Unmovable/blocks", "0/Normal/Movable/blocks",
};
static const __u64 values[] = { 9, 0, 10, 4, 1, 2, 2, 6 };

static int write_trace(bool with_state)
{
	struct ft_host host = {
		.hdr = { .ts = 1 }, .mem_bytes = 1ull << 30, .page_size = 4096, .ncpus = 1,
		.ndevs = 1, .release = "6.18.0-test",
	};
	struct ft_host_dev dev = { .dev = DEV, .block_size = 4096, .fstype = "xfs",
				   .name = "/dev/test" };
	struct ft_access a = {
		.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 1, .ts = 2000 },
		.ino = 5, .pos = 0, .len = MiB, .isize = MiB, .dev = DEV, .op = FT_OP_READ,
	};
	struct ft_error err;
	struct ft_writer *w = ft_writer_open(path, 0600, &err);
	int rc = !w || ft_writer_host(w, &host, &dev, &err);

	if (!rc && with_state)
		rc = ft_writer_counter_names(w, 100, FT_SRC_PAGETYPEINFO, 8, names, &err) ||
		     ft_writer_counters(w, 100, FT_SRC_PAGETYPEINFO, 8, values, &err);
	rc = rc || ft_writer_file(w, 1000, DEV, 5, MiB, "", &err) ||
	     ft_writer_append(w, &a, &err) || ft_writer_close(w, &err);
	if (rc)
		diag("writer: %s", err.msg);
	return rc;
}

static struct replay *run(uint64_t memory, int start, struct ft_error *err)
{
	struct model_config c;
	struct replay *rp = malloc(sizeof(*rp));
	unsigned set = 0;

	model_config_defaults(&c);
	c.order = 0;
	c.readahead = false;
	c.policy = FOLIO_POLICY_FIXED;
	if (memory) {
		c.memory_bytes = memory;
		set |= MODEL_REC_MEMORY;
	}
	if (start >= 0) {
		c.start_state = (enum start_state)start;
		set |= MODEL_REC_START_STATE;
	}
	replay_init(rp, &c, 1, set, false);
	if (replay_file(rp, path, err) < 0) {
		replay_release(rp);
		free(rp);
		return NULL;
	}
	return rp;
}

static void done(struct replay *rp)
{
	if (rp) {
		replay_release(rp);
		free(rp);
	}
}

static void test_recorded(void)
{
	struct ft_error err;
	struct replay *rp;
	const struct model_metrics *x;

	ok(write_trace(true) == 0, "trace with a pagetypeinfo sample");
	rp = run(0, -1, &err);
	ok(rp != NULL, "replayed");
	if (!rp)
		return;
	x = &rp->cols[0].m;
	is_u64(rp->cols[0].cfg.start_state, START_RECORDED, "starts as recorded by default");
	is_u64(rp->cols[0].cfg.memory_bytes, 8 * 2 * MiB, "the memory is the 8 pageblocks");
	ok(x->pageblocks[0] == 2 && x->pageblocks[1] == 6,
	   "2 unmovable and 6 movable pageblocks");
	/*
	 * 256 order-0 pages: the four order-3 blocks (32 pages) go first, then the order-9
	 * block is split for 224; the two order-10 blocks stay.
	 */
	ok(x->free_blocks[10] == 2 && x->free_blocks[9] == 0, "two order-10 blocks left");
	is_u64(x->zone_free_pages, 10 + 32 + 512 + 2048 - 256, "2346 pages free at the end");
	ok(strstr(rp->run.sources, "starts as recorded (8 pageblocks)") != NULL,
	   "the sources line says so");
	done(rp);

	rp = run(64 * MiB, -1, &err);
	ok(rp && rp->cols[0].cfg.start_state == START_EMPTY &&
	   rp->cols[0].m.zone_pages == 64 * MiB / 4096, "--memory alone: an empty 64 MiB");
	done(rp);

	rp = run(64 * MiB, START_RECORDED, &err);
	ok(rp && rp->cols[0].m.pageblocks[1] == 30 &&
	   rp->cols[0].m.pageblocks[0] == 2,
	   "--start-state=recorded --memory=64M: extended with 24 free movable pageblocks");
	done(rp);

	rp = run(8 * MiB, START_RECORDED, &err);
	ok(rp && rp->cols[0].m.zone_pages == 4 * 512 && rp->cols[0].m.pageblocks[0] == 1,
	   "--start-state=recorded --memory=8M: scaled to 4 pageblocks");
	done(rp);

	rp = run(0, START_EMPTY, &err);
	ok(rp && rp->cols[0].cfg.start_state == START_EMPTY &&
	   rp->cols[0].m.zone_pages == (1ull << 30) / 4096,
	   "--start-state=empty: the host's memory, empty");
	done(rp);
}

static void test_no_state(void)
{
	struct ft_error err;
	struct replay *rp;

	ok(write_trace(false) == 0, "trace without a pagetypeinfo sample");
	rp = run(0, -1, &err);
	ok(rp && rp->cols[0].cfg.start_state == START_EMPTY, "starts empty by default");
	done(rp);
	rp = run(0, START_RECORDED, &err);
	ok(rp == NULL && strstr(err.msg, "no /proc/pagetypeinfo sample"),
	   "--start-state=recorded is refused");
	done(rp);
}

int main(void)
{
	snprintf(path, sizeof(path), "%s/ft-replay-start-%d.ftr",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	test_recorded();
	test_no_state();
	unlink(path);
	return done_testing();
}
