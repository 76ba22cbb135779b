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

/* 0 for a single page; a large folio (PG_head) keeps its order in the low byte of _flags_1. */
static __always_inline __u8 folio_order(struct folio *folio)
{
	unsigned long head = 1ul << bpf_core_enum_value(enum pageflags, PG_head);

	if (!(folio->flags.f & head))
		return 0;
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
