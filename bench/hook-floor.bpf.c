// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the hooks the recorder could use cost by themselves (make bench, bench/record.sh):
 * programs that record nothing, on the hooks that see a read's result.
 */
#include "arch.bpf.h"
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

/* The recorder's kind of hook: the exit tracepoint of one call, here pread64 alone. */
SEC("tracepoint/syscalls/sys_exit_pread64")
int pread_exit_empty(void *ctx)
{
	return 0;
}

/* The other kind: the raw exit of every syscall, leaving at once for the calls not wanted. */
SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit_filter, struct pt_regs *regs, long ret)
{
	if (syscall_nr(regs) != NR_pread64)
		return 0;
	return ret == -1;
}
