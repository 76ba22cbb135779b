// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File folios mapped through an executable mapping (VM_EXEC), for 6.18 mm/vmscan.c
 * folio_check_references(): a folio whose PTEs were referenced is activated when it was
 * referenced before (PG_referenced) or by more than one PTE, and, being a file folio mapped
 * VM_EXEC, at its first reference ("Activate file-backed executable folios after first
 * usage"). The kernel learns VM_EXEC from the VMAs that referenced it (folio_referenced()'s
 * vm_flags); the model keeps the mark from the fault through a VM_EXEC mapping (FT_AF_EXEC)
 * until the folio leaves the cache, munmap not being in a trace. MGLRU does not look at it:
 * its folio_check_references() returns before the test (lru_gen_set_refs()).
 */
#include <stdlib.h>

#include "model/bitmap.h"
#include "model/instance.h"

bool exec_init(struct model *m)
{
	m->mem.exec_pfn = memory_pfn_bitmap_new(m, 0);
	return m->mem.exec_pfn != NULL;
}

void exec_release(struct model *m)
{
	free(m->mem.exec_pfn);
}

bool folio_test_exec(const struct model *m, const struct folio *f)
{
	return bitmap_test(m->mem.exec_pfn, folio_pfn(f));
}

void folio_set_exec(struct model *m, const struct folio *f)
{
	bitmap_set_range(m->mem.exec_pfn, folio_pfn(f), folio_pfn(f) + 1);
}

void folio_clear_exec(struct model *m, const struct folio *f)
{
	bitmap_zero_range(m->mem.exec_pfn, folio_pfn(f), folio_pfn(f) + 1);
}
