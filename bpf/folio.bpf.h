// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Folios of the page cache: order, page frame number and the file they belong to. The folio
 * is a tp_btf argument: read with direct loads, and the inode found keeps its type.
 */
#ifndef FT_BPF_FOLIO_H
#define FT_BPF_FOLIO_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "arch.bpf.h"

/* Layouts of struct folio before 6.18, for CO-RE to tell apart (flavours of the same type). */
struct folio___flags_word {		/* flags a plain word: up to 6.17 */
	unsigned long flags;
} __attribute__((preserve_access_index));
struct folio___order_byte {		/* the order a byte of its own: up to 6.3 */
	unsigned char _folio_order;
} __attribute__((preserve_access_index));

/* The folio's flags word: memdesc_flags_t from 6.18 on, a plain unsigned long before. */
static __always_inline unsigned long folio_flags(struct folio *folio)
{
	if (bpf_core_field_exists(struct folio___flags_word, flags))
		return ((struct folio___flags_word *)folio)->flags;
	return folio->flags.f;
}

/*
 * 0 for a single page; a large folio (PG_head) keeps its order in the low byte of _flags_1
 * (6.4 on), in _folio_order before.
 */
static __always_inline __u8 folio_order(struct folio *folio)
{
	unsigned long head = 1ul << bpf_core_enum_value(enum pageflags, PG_head);

	if (!(folio_flags(folio) & head))
		return 0;
	if (bpf_core_field_exists(struct folio___order_byte, _folio_order))
		return ((struct folio___order_byte *)folio)->_folio_order;
	return folio->_flags_1 & 0xff;
}

/*
 * pfn of the folio given as tp_btf argument 0. The verifier forbids arithmetic on the typed
 * pointer, so its value is read back from the program context as a plain number.
 */
static __always_inline __u64 folio_pfn(__u64 *ctx)
{
	unsigned long base, addr = 0;

	read_vmemmap_start(&base);
	bpf_probe_read_kernel(&addr, sizeof(addr), ctx);
	return (addr - base) / bpf_core_type_size(struct page);
}

/* The file a page-cache folio belongs to, or NULL. */
static __always_inline struct inode *folio_inode(struct folio *folio)
{
	struct address_space *mapping;

	if (!folio)
		return NULL;
	mapping = folio->mapping;
	if (!mapping)
		return NULL;
	return mapping->host;
}

#endif /* FT_BPF_FOLIO_H */
