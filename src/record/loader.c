/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BPF side of record: checks what the kernel needs (privileges, BTF, tracefs), sets the
 * filters in the programs' read-only data, loads, attaches, and reads the lost counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/magic.h>
#include <pthread.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "record/record.h"
#include "util/entropy.h"
#include "../../bpf/record.h"
#include "bpf/record.skel.h"
#include "bpf/record-probe-reads.skel.h"

#define TRACEFS		"/sys/kernel/tracing"
#define KERNEL_BTF_DIR	"/sys/kernel/btf"
#define VMLINUX_BTF	KERNEL_BTF_DIR "/vmlinux"

/*
 * The recorded calls, by the names of their exit tracepoints (syscalls:sys_exit_NAME), and the
 * program of bpf/record.bpf.c each is attached to; it tells them apart by number
 * (bpf/arch.bpf.h).
 */
static const struct {
	const char *call, *prog;
} recorded_syscalls[] = {
	{ "read", "sys_exit_rw" }, { "write", "sys_exit_rw" }, { "pread64", "sys_exit_rw" },
	{ "pwrite64", "sys_exit_rw" }, { "readv", "sys_exit_rw" }, { "writev", "sys_exit_rw" },
	{ "preadv", "sys_exit_rw" }, { "pwritev", "sys_exit_rw" }, { "preadv2", "sys_exit_rw" },
	{ "pwritev2", "sys_exit_rw" },
	{ "fsync", "sys_exit_fd" }, { "fdatasync", "sys_exit_fd" },
	{ "sync_file_range", "sys_exit_fd" }, { "ftruncate", "sys_exit_fd" },
	{ "fallocate", "sys_exit_fd" }, { "fadvise64", "sys_exit_fd" },
	{ "readahead", "sys_exit_fd" }, { "sync", "sys_exit_fd" }, { "syncfs", "sys_exit_fd" },
	{ "copy_file_range", "sys_exit_copy" }, { "sendfile64", "sys_exit_copy" },
	{ "splice", "sys_exit_copy" },
	{ "io_submit", "sys_exit_aio" }, { "madvise", "sys_exit_mapping" },
	{ "msync", "sys_exit_mapping" },
	{ "truncate", "sys_exit_truncate" },
	{ "open", "sys_exit_open" }, { "openat", "sys_exit_open" }, { "openat2", "sys_exit_open" },
	{ "creat", "sys_exit_open" }, { "open_by_handle_at", "sys_exit_open" },
};
#define NSYSCALLS (sizeof(recorded_syscalls) / sizeof(recorded_syscalls[0]))

/*
 * Programs on kernel events, by name in bpf/record.bpf.c, and the kind of events each gives
 * (FT_UNREC_*: what the trace lacks on a kernel without its tracepoint).
 */
static const struct {
	const char *prog;
	__u16 kind;
} kernel_programs[] = {
	{ "filemap_fault", FT_UNREC_MMAP_READS }, { "filemap_map_pages", FT_UNREC_MMAP_READS },
	{ "pagecache_add", FT_UNREC_PAGECACHE }, { "pagecache_delete", FT_UNREC_PAGECACHE },
	{ "folio_dirty", FT_UNREC_DIRTY },
	{ "writeback_pages_written", FT_UNREC_WRITEBACK },
	{ "writeback_single_inode", FT_UNREC_WRITEBACK },
	{ "iomap_writeback_folio", FT_UNREC_IOMAP_WB },
	{ "ext4_writepages_result", FT_UNREC_EXT4_WB },
	{ "btrfs_writeback_done", FT_UNREC_BTRFS_WB },
	{ "block_complete", FT_UNREC_BLOCK },
	{ "vmscan_lru_isolate", FT_UNREC_RECLAIM }, { "vmscan_shrink_inactive", FT_UNREC_RECLAIM },
	{ "vmscan_shrink_active", FT_UNREC_RECLAIM }, { "vmscan_write_folio", FT_UNREC_RECLAIM },
	{ "vmscan_kswapd_wake", FT_UNREC_RECLAIM }, { "vmscan_direct_reclaim", FT_UNREC_RECLAIM },
	{ "ra_unbounded", FT_UNREC_READAHEAD }, { "ra_order", FT_UNREC_READAHEAD },
	{ "ra_sync", FT_UNREC_READAHEAD }, { "ra_async", FT_UNREC_READAHEAD },
	{ "process_fork", FT_UNREC_PROCESSES }, { "process_exec", FT_UNREC_PROCESSES },
	{ "cgroup_attach", FT_UNREC_PROCESSES }, { "memcg_flush", FT_UNREC_MEMCG_FLUSH },
	{ "memcg_lruvec_stat", FT_UNREC_REFAULTS },
	{ "vmscan_lru_isolate_mode", FT_UNREC_RECLAIM },
	{ "uring_complete_rw", FT_UNREC_IO_URING }, { "uring_complete_rw_res", FT_UNREC_IO_URING },
};
#define NKERNEL_PROGRAMS (sizeof(kernel_programs) / sizeof(kernel_programs[0]))

/* Tracepoints a release renamed keeping their arguments: the name in older kernels. */
static const struct {
	const char *tracepoint, *older;
} renamed_tracepoints[] = {
	/* 6.17's iomap writeback rework; both trace folio_pos and folio_size of each folio */
	{ "iomap_writeback_folio", "iomap_writepage" },
};
#define NRENAMED (sizeof(renamed_tracepoints) / sizeof(renamed_tracepoints[0]))

/*
 * Tracepoints whose arguments changed between releases have a program for each list: the one
 * whose argument count this kernel's BTF shows is loaded.
 */
static const struct {
	const char *prog, *tracepoint;
	int nargs;
} argument_lists[] = {
	{ "vmscan_lru_isolate", "mm_vmscan_lru_isolate", 7 },
	{ "vmscan_lru_isolate_mode", "mm_vmscan_lru_isolate", 8 },	/* isolate_mode: 6.1 */
	{ "uring_complete_rw", "io_uring_complete", 3 },		/* (ctx, req, cqe): 6.3 on */
	/* tmpfs faults: at rss_stat (mm, member) from 6.2, at the fault on 6.1 (record.bpf.c) */
	{ "shmem_mapped", "rss_stat", 2 }, { "shmem_fault_6_1", "rss_stat", 3 },
	{ "uring_complete_rw_res", "io_uring_complete", 7 },
};
#define NARGUMENT_LISTS (sizeof(argument_lists) / sizeof(argument_lists[0]))

struct ft_bpf {
	struct record_bpf *skel;
	__u16 unrecorded;	/* FT_UNREC_* */
	struct bpf_link *syscall_links[NSYSCALLS];
	int ncpus;
	__u64 *seen_lost;	/* [cpu * FT_TYPE_MAX + type]: counts already written */
	__u64 *values;		/* one lookup: a value per CPU */
	int cgroup_fd;
};

/* libbpf talks only when asked to: its verifier logs are for BPF developers. */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	const char *debug = getenv("FOLIO_TRACE_DEBUG");

	if (!debug || !*debug)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static bool have_cap(const struct __user_cap_data_struct *d, int cap)
{
	return d[cap / 32].effective & (1u << (cap % 32));
}

/* Root, or CAP_BPF + CAP_PERFMON (tracing programs) with CAP_DAC_READ_SEARCH for tracefs. */
static int check_privileges(struct ft_error *err)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = { 0 };

	if (geteuid() == 0)
		return 0;
	if (syscall(SYS_capget, &hdr, data) == 0 &&
	    (have_cap(data, CAP_SYS_ADMIN) ||
	     (have_cap(data, CAP_BPF) && have_cap(data, CAP_PERFMON))))
		return 0;
	return ft_error_set(err, NULL, "record: needs root (or CAP_BPF and CAP_PERFMON) to load BPF programs");
}

/* FOLIO_TRACE_BTF: the kernel's BTF from a file, for kernels that do not publish it. */
static const char *custom_btf(void)
{
	const char *path = getenv("FOLIO_TRACE_BTF");

	return path && *path ? path : NULL;
}

static int check_btf(struct ft_error *err)
{
	const char *path = custom_btf();

	if (path) {
		if (access(path, R_OK) == 0)
			return 0;
		return ft_error_set(err, NULL, "record: FOLIO_TRACE_BTF=%s: %s", path,
				    strerror(errno));
	}
	if (access(VMLINUX_BTF, R_OK) == 0)
		return 0;
	return ft_error_set(err, NULL, "record: no kernel BTF at %s (kernel built without "
		       "CONFIG_DEBUG_INFO_BTF): cannot load CO-RE programs; FOLIO_TRACE_BTF can "
		       "name a BTF file for this kernel", VMLINUX_BTF);
}

static struct btf *load_kernel_btf(void)
{
	const char *path = custom_btf();

	return path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();
}

/* libbpf finds tracepoint ids in tracefs: mount it when it is not there yet. */
static int ensure_tracefs(struct ft_error *err)
{
	if (access(TRACEFS "/events", F_OK) == 0 ||
	    access("/sys/kernel/debug/tracing/events", F_OK) == 0)
		return 0;
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL) == 0 &&
	    access(TRACEFS "/events", F_OK) == 0)
		return 0;
	return ft_error_set(err, NULL, "record: tracefs is not mounted at %s and mounting it failed: %s",
		       TRACEFS, strerror(errno));
}

static bool tracefs_event_exists(const char *name)
{
	char path[320];

	snprintf(path, sizeof(path), TRACEFS "/events/%s", name);
	if (access(path, F_OK) == 0)
		return true;
	snprintf(path, sizeof(path), "/sys/kernel/debug/tracing/events/%s", name);
	return access(path, F_OK) == 0;
}

/* raw_tp/NAME: whether the kernel has the tracepoint (raw_tp programs name no system). */
static bool raw_tracepoint_exists(const char *name)
{
	static const char *const systems[] = { "io_uring" };
	char ev[256];

	for (size_t i = 0; i < sizeof(systems) / sizeof(systems[0]); i++) {
		snprintf(ev, sizeof(ev), "%s/%s", systems[i], name);
		if (tracefs_event_exists(ev))
			return true;
	}
	return false;
}

/*
 * The kernel's BTF, and its loaded modules' (read once, on the first tracepoint vmlinux lacks:
 * a distribution kernel has a hundred modules, a kernel of its own often none).
 */
struct kernel_btf {
	struct btf *vmlinux;
	struct btf **mods;
	size_t nmods;
	bool mods_read;
};

static void read_module_btf(struct kernel_btf *k)
{
	struct dirent *e;
	DIR *d;

	k->mods_read = true;
	if (custom_btf() || !(d = opendir(KERNEL_BTF_DIR)))
		return;
	while ((e = readdir(d))) {
		char path[300];
		struct btf *mod, **v;

		if (e->d_name[0] == '.' || strcmp(e->d_name, "vmlinux") == 0)
			continue;
		snprintf(path, sizeof(path), KERNEL_BTF_DIR "/%s", e->d_name);
		mod = btf__parse_split(path, k->vmlinux);
		if (libbpf_get_error(mod) || !mod)
			continue;
		v = realloc(k->mods, (k->nmods + 1) * sizeof(*v));
		if (!v) {
			btf__free(mod);
			break;	/* what is not read counts as missing: the trace says so */
		}
		k->mods = v;
		k->mods[k->nmods++] = mod;
	}
	closedir(d);
}

static void kernel_btf_free(struct kernel_btf *k)
{
	for (size_t i = 0; i < k->nmods; i++)
		btf__free(k->mods[i]);
	free(k->mods);
	btf__free(k->vmlinux);
	memset(k, 0, sizeof(*k));
}

/* The tp_btf tracepoint NAME: in the kernel's BTF, or in a loaded module's. */
static bool btf_tracepoint_exists(struct kernel_btf *k, const char *name)
{
	char type[256];

	snprintf(type, sizeof(type), "btf_trace_%s", name);
	if (btf__find_by_name_kind(k->vmlinux, type, BTF_KIND_TYPEDEF) >= 0)
		return true;
	if (!k->mods_read)
		read_module_btf(k);
	for (size_t i = 0; i < k->nmods; i++)
		if (btf__find_by_name_kind(k->mods[i], type, BTF_KIND_TYPEDEF) >= 0)
			return true;
	return false;
}

/* Arguments of tracepoint NAME as its BTF prototype lists them, or -1. */
static int btf_tracepoint_args(const struct btf *vmlinux, const char *name)
{
	const struct btf_type *t;
	char type[256];
	int id;

	snprintf(type, sizeof(type), "btf_trace_%s", name);
	id = btf__find_by_name_kind(vmlinux, type, BTF_KIND_TYPEDEF);
	if (id < 0)
		return -1;
	t = btf__type_by_id(vmlinux, btf__resolve_type(vmlinux, id));
	if (!t || !btf_is_ptr(t))
		return -1;
	t = btf__type_by_id(vmlinux, t->type);
	if (!t || !btf_is_func_proto(t))
		return -1;
	return btf_vlen(t) - 1;	/* the first is the tracepoint's data pointer */
}

static __u16 program_kind(const char *prog)
{
	for (size_t i = 0; i < NKERNEL_PROGRAMS; i++)
		if (strcmp(kernel_programs[i].prog, prog) == 0)
			return kernel_programs[i].kind;
	return 0;
}

/* Whether prog is written for the argument list this kernel's tracepoint has. */
static bool arguments_match(const struct kernel_btf *k, const char *prog)
{
	for (size_t i = 0; i < NARGUMENT_LISTS; i++)
		if (strcmp(argument_lists[i].prog, prog) == 0)
			return btf_tracepoint_args(k->vmlinux, argument_lists[i].tracepoint) ==
			       argument_lists[i].nargs;
	return true;
}

static const char *older_tracepoint(const char *tracepoint)
{
	for (size_t i = 0; i < NRENAMED; i++)
		if (strcmp(renamed_tracepoints[i].tracepoint, tracepoint) == 0)
			return renamed_tracepoints[i].older;
	return NULL;
}

/*
 * Programs on tracepoints this kernel lacks (older kernels, no iomap, no io_uring...) are left
 * out, or moved to the tracepoint's older name; what that leaves unrecorded is returned.
 */
static __u16 choose_programs(struct record_bpf *skel, struct kernel_btf *k)
{
	struct bpf_program *prog;
	__u16 unrecorded = 0;

	bpf_object__for_each_program(prog, skel->obj) {
		const char *sec = bpf_program__section_name(prog), *older = NULL;
		bool present = true;

		if (strncmp(sec, "raw_tp/", 7) == 0) {
			present = raw_tracepoint_exists(sec + 7);
		} else if (strncmp(sec, "tp_btf/", 7) == 0) {
			present = btf_tracepoint_exists(k, sec + 7);
			older = older_tracepoint(sec + 7);
		}
		if (!present && older && btf_tracepoint_exists(k, older) &&
		    bpf_program__set_attach_target(prog, 0, older) == 0)
			present = true;
		if (!present) {
			bpf_program__set_autoload(prog, false);
			unrecorded |= program_kind(bpf_program__name(prog));
		} else if (!arguments_match(k, bpf_program__name(prog))) {
			bpf_program__set_autoload(prog, false);	/* the other list's program */
		}
	}
	return unrecorded;
}

/*
 * Kernels before 6.2 cannot type a pointer read as a number (no bpf_rdonly_cast kfunc): they
 * get the build of the programs that follows such pointers with probe reads. Both builds have
 * the same maps and variables, so one skeleton serves either.
 */
static struct record_bpf *open_programs(const struct btf *vmlinux)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = custom_btf());
	struct record_bpf *skel;

	if (btf__find_by_name_kind(vmlinux, "bpf_rdonly_cast", BTF_KIND_FUNC) >= 0)
		return record_bpf__open_opts(&opts);
	skel = calloc(1, sizeof(*skel));
	if (!skel)
		return NULL;
	if (record_bpf__create_skeleton(skel) == 0) {
		skel->skeleton->data =
			(void *)record_probe_reads_bpf__elf_bytes(&skel->skeleton->data_sz);
		if (bpf_object__open_skeleton(skel->skeleton, &opts) == 0)
			return skel;
	}
	record_bpf__destroy(skel);
	return NULL;
}

/*
 * Programs on the exit tracepoints of the recorded calls, rather than one on every syscall of
 * the system. A call this kernel does not have is left out.
 */
static int attach_syscalls(struct ft_bpf *b, struct ft_error *err)
{
	size_t n = 0;

	for (size_t i = 0; i < NSYSCALLS; i++) {
		char ev[64];

		struct bpf_program *prog =
			bpf_object__find_program_by_name(b->skel->obj, recorded_syscalls[i].prog);

		snprintf(ev, sizeof(ev), "syscalls/sys_exit_%s", recorded_syscalls[i].call);
		if (!prog || !tracefs_event_exists(ev))
			continue;
		snprintf(ev, sizeof(ev), "sys_exit_%s", recorded_syscalls[i].call);
		b->syscall_links[i] = bpf_program__attach_tracepoint(prog, "syscalls", ev);
		if (!b->syscall_links[i])
			return ft_error_set(err, NULL, "record: attaching to syscalls:%s failed: %s", ev,
					    strerror(errno));
		n++;
	}
	if (!n)
		return ft_error_set(err, NULL, "record: this kernel has no syscall tracepoints "
				    "(built without CONFIG_FTRACE_SYSCALLS)");
	return 0;
}

static void set_filters(struct record_bpf *skel, const struct ft_filters *f)
{
	skel->rodata->self_tgid = (__u32)getpid();
	skel->rodata->filter_pids = f->npids > 0;
	skel->rodata->follow_forks = f->follow_forks;
	if (f->comm) {
		skel->rodata->filter_comm = true;
		strncpy((char *)skel->rodata->comm_filter, f->comm, FT_COMM_LEN - 1);
	}
	skel->rodata->filter_cgroup = f->cgroup != NULL;
	skel->rodata->filter_dev = f->dev_set;
	skel->rodata->dev_filter = f->dev;
	skel->rodata->no_paths = f->no_paths;
}

/* The key the open files' numbers mix their addresses with: one of this recording's own. */
/*
 * --cgroup: the directory must be on the cgroup2 filesystem. Anything else (/tmp, a v1
 * hierarchy) is said to be so before the kernel gets it, which only answers EBADF.
 */
static int set_cgroup(struct ft_bpf *b, const char *path, struct ft_error *err)
{
	__u32 key = 0;
	struct statfs fs;

	b->cgroup_fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (b->cgroup_fd < 0)
		return ft_error_set(err, NULL, "--cgroup=%s: cannot open the directory: %s", path,
				    strerror(errno));
	if (fstatfs(b->cgroup_fd, &fs) < 0 || fs.f_type != CGROUP2_SUPER_MAGIC)
		return ft_error_set(err, NULL, "--cgroup=%s: not a cgroup v2 directory (one under "
				    "the cgroup2 mount, usually /sys/fs/cgroup)", path);
	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.cgroups), &key, &b->cgroup_fd,
				BPF_ANY))
		return ft_error_set(err, NULL, "--cgroup=%s: the kernel refused the cgroup: %s",
				    path, strerror(errno));
	return 0;
}

int ft_bpf_add_pid(struct ft_bpf *b, __u32 pid, struct ft_error *err)
{
	__u8 one = 1;

	if (bpf_map_update_elem(bpf_map__fd(b->skel->maps.pids), &pid, &one, BPF_ANY))
		return ft_error_set(err, NULL, "record: cannot trace pid %u: %s", pid, strerror(errno));
	return 0;
}

/*
 * Privileges were checked before: a refusal now is the kernel's verifier or a relocation this
 * kernel cannot satisfy. The release is named, for a report.
 */
static int load_error(int rc, struct ft_error *err)
{
	struct utsname u;

	if (uname(&u) < 0)
		snprintf(u.release, sizeof(u.release), "?");
	if (rc == -EPERM || rc == -EACCES)
		return ft_error_set(err, NULL, "record: Linux %s refused the BPF programs: %s (set "
				    "FOLIO_TRACE_DEBUG=1 for the verifier's log)", u.release,
				    strerror(-rc));
	return ft_error_set(err, NULL, "record: loading the BPF programs failed on Linux %s: %s "
			    "(set FOLIO_TRACE_DEBUG=1 for libbpf's log)", u.release, strerror(-rc));
}

int ft_bpf_check(struct ft_error *err)
{
	return check_privileges(err) || check_btf(err) || ensure_tracefs(err) ? -1 : 0;
}

struct ft_bpf *ft_bpf_open(const struct ft_filters *f, __u64 ring_bytes, struct ft_error *err)
{
	struct kernel_btf kb = { 0 };
	struct ft_bpf *b;
	int rc;

	libbpf_set_print(libbpf_print);
	b = calloc(1, sizeof(*b));
	if (!b) {
		ft_error_set(err, NULL, "out of memory");
		return NULL;
	}
	b->cgroup_fd = -1;
	b->ncpus = libbpf_num_possible_cpus();
	if (b->ncpus <= 0) {
		ft_error_set(err, NULL, "record: cannot count possible CPUs");
		goto fail;
	}
	b->seen_lost = calloc((size_t)b->ncpus * FT_TYPE_MAX, sizeof(__u64));
	b->values = calloc((size_t)b->ncpus, sizeof(__u64));
	kb.vmlinux = load_kernel_btf();
	rc = (int)libbpf_get_error(kb.vmlinux);
	if (rc || !kb.vmlinux) {
		char why[128];

		kb.vmlinux = NULL;
		libbpf_strerror(rc ? rc : -ENOENT, why, sizeof(why));
		ft_error_set(err, NULL, "record: cannot read the kernel's BTF from %s: %s",
			     custom_btf() ? custom_btf() : VMLINUX_BTF, why);
		goto fail;
	}
	b->skel = open_programs(kb.vmlinux);
	if (!b->seen_lost || !b->values || !b->skel) {
		ft_error_set(err, NULL, "record: cannot open the BPF object: %s", strerror(errno));
		goto fail;
	}
	set_filters(b->skel, f);
	/* Open files are named by their address mixed with this: no kernel address in a trace. */
	b->skel->rodata->ofile_key = ft_random_u64(0);
	b->unrecorded = choose_programs(b->skel, &kb);
	b->skel->rodata->track_refaults = !(b->unrecorded & FT_UNREC_REFAULTS);
	kernel_btf_free(&kb);
	b->skel->rodata->wakeup_bytes = ring_bytes / 8;
	rc = bpf_map__set_max_entries(b->skel->maps.events, (__u32)ring_bytes);
	if (rc) {
		ft_error_set(err, NULL, "record: bad ring buffer size: %s", strerror(-rc));
		goto fail;
	}
	rc = record_bpf__load(b->skel);
	if (rc) {
		load_error(rc, err);
		goto fail;
	}
	if (f->cgroup && set_cgroup(b, f->cgroup, err))
		goto fail;
	for (size_t i = 0; i < f->npids; i++)
		if (ft_bpf_add_pid(b, f->pids[i], err))
			goto fail;
	rc = record_bpf__attach(b->skel);
	if (rc) {
		ft_error_set(err, NULL, "record: attaching BPF programs failed: %s", strerror(-rc));
		goto fail;
	}
	if (attach_syscalls(b, err))
		goto fail;
	return b;
fail:
	kernel_btf_free(&kb);
	ft_bpf_close(b);
	return NULL;
}

__u16 ft_bpf_unrecorded(const struct ft_bpf *b)
{
	return b->unrecorded;
}

int ft_bpf_ring_fd(const struct ft_bpf *b)
{
	return bpf_map__fd(b->skel->maps.events);
}

static void *destroy_link(void *link)
{
	bpf_link__destroy(link);
	return NULL;
}

/*
 * Removing a tracepoint's perf event waits for tracepoint users to be done (an RCU grace
 * period, tens of milliseconds): one after the other, the recorded calls' links would take a
 * second to go. Removed all at once, the waits overlap.
 */
static void detach_syscalls(struct ft_bpf *b)
{
	pthread_t t[NSYSCALLS];
	bool started[NSYSCALLS] = { false };

	for (size_t i = 0; i < NSYSCALLS; i++)
		if (b->syscall_links[i])
			started[i] = pthread_create(&t[i], NULL, destroy_link,
						    b->syscall_links[i]) == 0;
	for (size_t i = 0; i < NSYSCALLS; i++) {
		if (started[i])
			pthread_join(t[i], NULL);
		else
			bpf_link__destroy(b->syscall_links[i]);
		b->syscall_links[i] = NULL;
	}
}

void ft_bpf_detach(struct ft_bpf *b)
{
	detach_syscalls(b);
	record_bpf__detach(b->skel);
}

int ft_bpf_write_lost(struct ft_bpf *b, struct ft_writer *w, __u64 *total, struct ft_error *err)
{
	int fd = bpf_map__fd(b->skel->maps.lost);

	*total = 0;
	for (__u32 type = 0; type < FT_TYPE_MAX; type++) {
		if (bpf_map_lookup_elem(fd, &type, b->values))
			continue;
		for (int cpu = 0; cpu < b->ncpus; cpu++) {
			__u64 *seen = &b->seen_lost[(size_t)cpu * FT_TYPE_MAX + type];
			struct ft_lost l;

			*total += b->values[cpu];
			if (b->values[cpu] <= *seen)
				continue;
			memset(&l, 0, sizeof(l));
			l.hdr.type = FT_LOST;
			l.hdr.size = sizeof(l);
			l.hdr.ts = ft_now_mono_ns();
			l.cpu = (__u32)cpu;
			l.type = (__u16)type;
			l.count = b->values[cpu] - *seen;
			if (ft_writer_append(w, &l, err))
				return -1;
			*seen = b->values[cpu];
		}
	}
	return 0;
}

void ft_bpf_close(struct ft_bpf *b)
{
	if (!b)
		return;
	detach_syscalls(b);
	record_bpf__destroy(b->skel);
	if (b->cgroup_fd >= 0)
		close(b->cgroup_fd);
	free(b->seen_lost);
	free(b->values);
	free(b);
}
