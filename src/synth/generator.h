/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to src/synth/: the generator state shared by the driver and the patterns. */
#ifndef FT_SYNTH_GENERATOR_H
#define FT_SYNTH_GENERATOR_H

#include "import/synthetic-host.h"
#include "synth/synth.h"
#include "synth/zipf.h"
#include "util/rng.h"
#include "util/u64map.h"

#define SYNTH_TID	1

/* Per file slot: which file lives there and how far it got; made when first used. */
struct synth_slot {
	uint64_t seq;		/* file number: ino = SYNTH_INO_BASE + seq */
	uint64_t size;
	uint64_t writes;	/* writes since the last sync */
	bool created;		/* FT_FILE emitted */
};

enum synth_pending {
	PENDING_NONE,
	PENDING_SYNC,
	PENDING_SYNC_ROTATE,	/* sync, then unlink and start a new file in the slot */
	PENDING_UNLINK,
	PENDING_READ,		/* many-small-files: reading the oldest file back */
};

struct synth {
	const struct synth_config *cfg;
	struct ft_sink *sink;
	struct ft_error *err;
	struct ft_rng rng;
	struct zipf zipf;
	uint64_t ts;
	uint64_t blocks_per_file;
	uint64_t total_blocks;
	uint64_t perm_mul, perm_add;	/* popularity rank -> block, a bijection */
	/*
	 * The slots touched so far (slot number -> index in slot_v): memory follows what is
	 * generated, not --files (1e8 files for 100 events took 3 GB).
	 */
	struct u64map slot_index;
	struct synth_slot *slot_v;
	size_t nslots, slot_cap;
	uint64_t cur;			/* current slot (or file number) */
	uint64_t pos;
	uint64_t next_seq;
	uint64_t victim;		/* many-small-files: file being read back */
	enum synth_pending pending;
	uint64_t scan_block, scan_left;	/* zipf-scan: the scan's next block, blocks to go */
	struct synth_stats st;
};

/* One access record, at the next timestamp. */
int synth_emit_access(struct synth *s, uint16_t op, uint16_t flags, uint64_t seq, uint64_t pos,
		      uint64_t len, uint64_t isize);
/* FT_FILE for file number seq, at the timestamp of the next access. */
int synth_emit_file(struct synth *s, uint64_t seq, uint64_t size);
/*
 * Slot n (< cfg->files), made on first use as file n with nothing written; valid until the
 * next call. NULL with s->err set when out of memory.
 */
struct synth_slot *synth_slot(struct synth *s, uint64_t n);

/* Setup and one access per call, for each pattern (patterns.c). */
int synth_patterns_setup(struct synth *s);
int synth_pattern_step(struct synth *s);

#endif
