/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The six workload patterns. Each step emits exactly one access record (plus the FT_FILE of
 * a file about to be touched for the first time), so --events counts are exact.
 */
#include "synth/generator.h"

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * Popularity rank r (0-based) -> block (r * mul + add) mod n: a bijection that scatters the hot
 * blocks over the files instead of piling them at offset 0. mul near n/phi, coprime to n.
 */
static void block_perm_init(struct synth *s)
{
	uint64_t n = s->total_blocks;
	uint64_t mul = (uint64_t)((double)n * 0.6180339887498949) | 1;

	if (n <= 2) {
		s->perm_mul = 1;
		s->perm_add = 0;
		return;
	}
	while (gcd_u64(mul, n) != 1)
		mul += 2;
	s->perm_mul = mul % n;
	s->perm_add = ft_rng_below(&s->rng, n);
}

static uint64_t block_of_rank(const struct synth *s, uint64_t rank)
{
	return (uint64_t)(((unsigned __int128)rank * s->perm_mul + s->perm_add) % s->total_blocks);
}

/* A block by popularity; sets file (slot) and byte offset. */
static void pick_block(struct synth *s, uint64_t *file, uint64_t *pos)
{
	uint64_t blk = block_of_rank(s, zipf_sample(&s->zipf, &s->rng) - 1);

	*file = blk / s->blocks_per_file;
	*pos = (blk % s->blocks_per_file) * s->cfg->io_size;
}

/*
 * The slot of fixed-size file f, its FT_FILE written before its first access: --files=1e8
 * with --events=100 writes at most 100 file records, not 1e8.
 */
static struct synth_slot *fixed_file(struct synth *s, uint64_t f, int *ret)
{
	struct synth_slot *slot = synth_slot(s, f);

	*ret = slot ? 0 : -1;
	if (slot && !slot->created) {
		slot->created = true;
		*ret = synth_emit_file(s, f, s->cfg->file_size);
	}
	return *ret ? NULL : slot;
}

int synth_patterns_setup(struct synth *s)
{
	const struct synth_config *cfg = s->cfg;

	s->blocks_per_file = cfg->file_size / cfg->io_size;
	s->total_blocks = s->blocks_per_file * cfg->files;
	zipf_init(&s->zipf, s->total_blocks, cfg->zipf);
	block_perm_init(s);
	s->next_seq = cfg->pattern == SYNTH_MANY_SMALL_FILES ? 0 : cfg->files;
	return 0;
}

/* seq-read: plain read()s front to back; after the last file, start over at the first. */
static int seq_read_step(struct synth *s)
{
	uint64_t size = s->cfg->file_size, len;
	int ret;

	if (s->pos >= size) {
		s->pos = 0;
		s->cur = (s->cur + 1) % s->cfg->files;
	}
	if (!fixed_file(s, s->cur, &ret))
		return ret;
	len = min_u64(s->cfg->io_size, size - s->pos);
	s->pos += len;
	return synth_emit_access(s, FT_OP_READ, 0, s->cur, s->pos - len, len, size);
}

static int random_read_step(struct synth *s)
{
	uint64_t file, pos;
	int ret;

	pick_block(s, &file, &pos);
	if (!fixed_file(s, file, &ret))
		return ret;
	return synth_emit_access(s, FT_OP_READ, FT_AF_POSITIONAL, file, pos, s->cfg->io_size,
				 s->cfg->file_size);
}

/* random-overwrite: a database-like pwrite pattern; fdatasync a file every N writes to it. */
static int random_overwrite_step(struct synth *s)
{
	struct synth_slot *slot;
	uint64_t file, pos;
	int ret;

	if (s->pending == PENDING_SYNC) {
		s->pending = PENDING_NONE;
		return synth_emit_access(s, FT_OP_FDATASYNC, 0, s->cur, 0, 0, s->cfg->file_size);
	}
	pick_block(s, &file, &pos);
	slot = fixed_file(s, file, &ret);
	if (!slot)
		return ret;
	if (s->cfg->fsync_every && ++slot->writes >= s->cfg->fsync_every) {
		slot->writes = 0;
		s->cur = file;
		s->pending = PENDING_SYNC;
	}
	return synth_emit_access(s, FT_OP_WRITE, FT_AF_POSITIONAL, file, pos, s->cfg->io_size,
				 s->cfg->file_size);
}

static void next_slot(struct synth *s)
{
	s->cur = (s->cur + 1) % s->cfg->files;
}

/* append-fsync, after a write: sync and rotation of the slot's log file. */
static int append_pending_step(struct synth *s)
{
	struct synth_slot *slot = synth_slot(s, s->cur);
	uint64_t seq, size;

	if (!slot)
		return -1;
	seq = slot->seq;
	size = slot->size;

	switch (s->pending) {
	case PENDING_SYNC:
		s->pending = PENDING_NONE;
		next_slot(s);
		return synth_emit_access(s, FT_OP_FSYNC, 0, seq, 0, 0, size);
	case PENDING_SYNC_ROTATE:
		s->pending = PENDING_UNLINK;
		return synth_emit_access(s, FT_OP_FSYNC, 0, seq, 0, 0, size);
	case PENDING_UNLINK:
	default:
		s->pending = PENDING_NONE;
		slot->seq = s->next_seq++;
		slot->size = 0;
		slot->writes = 0;
		slot->created = false;
		next_slot(s);
		return synth_emit_access(s, FT_OP_UNLINK, 0, seq, 0, 0, 0);
	}
}

/* append-fsync: log writers, one append per step round-robin over the files. */
static int append_fsync_step(struct synth *s)
{
	struct synth_slot *slot;
	uint64_t pos, len;
	bool full, sync;
	int ret;

	if (s->pending != PENDING_NONE)
		return append_pending_step(s);
	slot = synth_slot(s, s->cur);
	if (!slot)
		return -1;
	if (!slot->created) {
		slot->created = true;
		ret = synth_emit_file(s, slot->seq, 0);
		if (ret)
			return ret;
	}
	pos = slot->size;
	len = min_u64(s->cfg->io_size, s->cfg->file_size - pos);
	slot->size += len;
	slot->writes++;
	full = slot->size >= s->cfg->file_size;
	/* A full log is synced before it is rotated away. */
	sync = (s->cfg->fsync_every && slot->writes >= s->cfg->fsync_every) || full;
	if (sync) {
		slot->writes = 0;
		s->pending = full ? PENDING_SYNC_ROTATE : PENDING_SYNC;
	}
	ret = synth_emit_access(s, FT_OP_WRITE, FT_AF_APPEND, slot->seq, pos, len, slot->size);
	if (s->pending == PENDING_NONE)
		next_slot(s);
	return ret;
}

/*
 * many-small-files: write file k whole (created at size 0), then, with --files=W alive at
 * once, read file k-W+1 whole and unlink it. File numbers are sequential, so the W live files
 * need no table.
 */
static int many_small_files_step(struct synth *s)
{
	uint64_t size = s->cfg->file_size, len = min_u64(s->cfg->io_size, size - s->pos);
	uint64_t seq = s->next_seq, pos = s->pos;
	int ret;

	if (s->pending == PENDING_UNLINK) {
		s->pending = PENDING_NONE;
		s->next_seq++;
		return synth_emit_access(s, FT_OP_UNLINK, 0, s->victim, 0, 0, 0);
	}
	if (s->pending == PENDING_READ) {
		s->pos += len;
		if (s->pos >= size) {
			s->pos = 0;
			s->pending = PENDING_UNLINK;
		}
		return synth_emit_access(s, FT_OP_READ, 0, s->victim, pos, len, size);
	}
	if (pos == 0) {
		ret = synth_emit_file(s, seq, 0);
		if (ret)
			return ret;
	}
	s->pos += len;
	if (s->pos >= size) {
		s->pos = 0;
		if (seq + 1 >= s->cfg->files) {
			s->victim = seq + 1 - s->cfg->files;
			s->pending = PENDING_READ;
		} else {
			s->next_seq++;
		}
	}
	return synth_emit_access(s, FT_OP_WRITE, 0, seq, pos, len, pos + len);
}

/* zipf-scan: scans of SCAN_BLOCKS blocks from a random block, a read in SCAN_SHARE of them. */
#define SCAN_BLOCKS	1024
#define SCAN_SHARE	20	/* percent of the reads */

static int zipf_scan_step(struct synth *s)
{
	uint64_t file, pos, blk;
	int ret;

	if (ft_rng_below(&s->rng, 100) >= SCAN_SHARE)
		return random_read_step(s);
	if (!s->scan_left) {
		s->scan_block = ft_rng_below(&s->rng, s->total_blocks);
		s->scan_left = SCAN_BLOCKS;
	}
	blk = s->scan_block;
	s->scan_block = (s->scan_block + 1) % s->total_blocks;
	s->scan_left--;
	file = blk / s->blocks_per_file;
	pos = (blk % s->blocks_per_file) * s->cfg->io_size;
	if (!fixed_file(s, file, &ret))
		return ret;
	return synth_emit_access(s, FT_OP_READ, FT_AF_POSITIONAL, file, pos, s->cfg->io_size,
				 s->cfg->file_size);
}

int synth_pattern_step(struct synth *s)
{
	switch (s->cfg->pattern) {
	case SYNTH_SEQ_READ:
		return seq_read_step(s);
	case SYNTH_RANDOM_READ:
		return random_read_step(s);
	case SYNTH_RANDOM_OVERWRITE:
		return random_overwrite_step(s);
	case SYNTH_APPEND_FSYNC:
		return append_fsync_step(s);
	case SYNTH_ZIPF_SCAN:
		return zipf_scan_step(s);
	case SYNTH_MANY_SMALL_FILES:
	default:
		return many_small_files_step(s);
	}
}
