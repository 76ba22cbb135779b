// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VM_EXEC file folios under reclaim (src/model/vmscan/exec.c, after 6.18 mm/vmscan.c
 * folio_check_references()), base pages and no readahead, 16 MiB of memory: one page of a
 * file faulted through an executable mapping and one of another file faulted through a plain
 * one, then a 64 MiB file read once, four times the memory. Reclaim meets both pages young at
 * the inactive tail: the plain one is kept once (PG_referenced set, back to the head) and,
 * with no new fault to make it young again, evicted at its next turn; the executable one is
 * activated at once and stays, the streaming reads never making the inactive list low enough
 * to deactivate one page. A fault on each again: a hit for the executable page, a miss for the
 * other. With the mark off both miss. MGLRU ignores the mark: the same with it as without.
 */
#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define PAGE	4096ull
#define MiB	(1024ull * 1024)

static struct model *make(enum lru_kind lru)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = 0;
	c.memory_bytes = 16 * MiB;
	c.readahead = false;
	c.lru = lru;
	return checked_model(&c);
}

static void fault(struct model *m, uint64_t ts, uint32_t file, bool exec)
{
	struct model_access a = { .ts = ts, .file_id = file, .op = MODEL_MMAP_READ, .pos = 0,
				  .len = PAGE, .isize = PAGE, .exec = exec,
				  .device = MODEL_DEVICE_NONE };

	model_access(m, &a);
}

/* "exec plain": 1 for a hit on the refault of each page after the stream, 0 for a miss */
static void run(enum lru_kind lru, bool exec, uint64_t *exec_hit, uint64_t *plain_hit)
{
	struct model *m = make(lru);
	uint64_t ts = 1, before;

	fault(m, ts++, 0, exec);
	fault(m, ts++, 1, false);
	for (uint64_t off = 0; off < 64 * MiB; off += MiB)
		op(m, ts++, MODEL_READ, 2, off, MiB, 64 * MiB);
	before = metrics(m).read_hit_requests;
	fault(m, ts++, 0, exec);
	*exec_hit = metrics(m).read_hit_requests - before;
	before = metrics(m).read_hit_requests;
	fault(m, ts++, 1, false);
	*plain_hit = metrics(m).read_hit_requests - before;
	model_free(m);
}

int main(void)
{
	uint64_t e, p, e0, p0;

	run(LRU_TWO_LIST, true, &e, &p);
	is_u64(e, 1, "two-list: the page mapped VM_EXEC survives the stream");
	is_u64(p, 0, "two-list: the plain mapped page is evicted at its second turn");
	run(LRU_TWO_LIST, false, &e, &p);
	is_u64(e, 0, "without the mark the same page is evicted");
	is_u64(p, 0, "... as the plain one");
	run(LRU_MGLRU, true, &e, &p);
	run(LRU_MGLRU, false, &e0, &p0);
	is_u64(e, e0, "mglru: the mark changes nothing for the executable page");
	is_u64(p, p0, "mglru: nor for the plain one");
	return done_testing();
}
