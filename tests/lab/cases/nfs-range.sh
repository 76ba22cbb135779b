#!/bin/sh
# lab-modules: nfsd nfsv4
# NFS's dirty byte range per folio, live: a loopback NFSv4.2 mount of an export of the xfs
# disk, served by the kernel's nfsd with its export caches filled by hand (no nfs-utils in
# the VM). A file written 2 MiB at once and fsynced, then 32 one-byte writes 8 KiB apart and
# an fsync (ftload poke, one open file). In a large folio each write after the first lands
# outside the folio's range and flushes it (fs/nfs/write.c nfs_try_to_update_request() ->
# nfs_wb_folio(), counted as vfswritepage in the mount's statistics); in base pages none
# does. The replay of the recorded trace counts its forced flushes the same way.
. /lab/cases/lib.sh

# nfs_event NAME: a counter of the events line of /proc/self/mountstats for /mnt/nfs
nfs_event() {
	awk -v k="$1" '
	BEGIN { split("inoderevalidates dentryrevalidates datainvalidates attrinvalidates " \
		"vfsopen vfslookup vfsaccess vfsupdatepage vfsreadpage vfsreadpages " \
		"vfswritepage vfswritepages", f, " ") }
	$1 == "device" { on = ($5 == "/mnt/nfs") }
	on && $1 == "events:" { for (i in f) if (f[i] == k) print $(i + 1); exit }' \
		/proc/self/mountstats
}
# nfs_ops OP: the number of OP calls the mount made (its per-op statistics)
nfs_ops() {
	awk -v k="$1:" '$1 == "device" { on = ($5 == "/mnt/nfs") }
	on && $1 == k { print $2; exit }' /proc/self/mountstats
}

never=2147483647
ip link set lo up || ifconfig lo 127.0.0.1 up
mkdir -p /mnt/xfs/export /proc/fs/nfsd /mnt/nfs
mount -t nfsd nfsd /proc/fs/nfsd
# NFSv4 only: no rpcbind, no lockd; a short grace period
echo "-2 -3 +4 +4.1 +4.2" > /proc/fs/nfsd/versions
echo 10 > /proc/fs/nfsd/nfsv4leasetime
echo 10 > /proc/fs/nfsd/nfsv4gracetime 2> /dev/null
# what rpc.mountd would answer: 127.0.0.1 is in domain "lab", which may read and write the
# export /mnt/xfs/export as the NFSv4 root (fsid=0: NFSEXP_FSID 0x2000, no_subtree_check
# 0x400, insecure 0x2, no root squash)
echo "nfsd 127.0.0.1 $never lab" > /proc/net/rpc/auth.unix.ip/channel
echo "lab /mnt/xfs/export $never $((0x2000 | 0x400 | 0x2)) 0 0 0" > \
	/proc/net/rpc/nfsd.export/channel
echo "lab 1 \\x00000000 $never /mnt/xfs/export" > /proc/net/rpc/nfsd.fh/channel
# one thread: the WRITEs of the 2 MiB are served and answered in order. With several, a
# reply's change attribute could come before an earlier one's, and the client, seeing a
# change not its own, dropped the file's cache at the next write (nfs_clear_invalid_mapping())
echo 1 > /proc/fs/nfsd/threads
cat /proc/fs/nfsd/threads /proc/fs/nfsd/versions /proc/fs/nfsd/portlist 2>&1 | sed 's/^/# nfsd: /'
head -5 /proc/net/rpc/nfsd.export/content /proc/net/rpc/nfsd.fh/content 2>&1 | sed 's/^/# /'
# The file is written and poked through one open file: a second OPEN of it found its
# attributes changed and dropped its cache (NFSv4 OPEN returns them, even with nocto), which
# the model does not do (folio-trace-model(7)).
if ! mount -t nfs4 -o vers=4.2,addr=127.0.0.1,clientaddr=127.0.0.1 127.0.0.1:/ /mnt/nfs; then
	dmesg | tail -20 | sed 's/^/# /'
	check "the loopback NFS mount" false
	finish
	exit
fi
grep nfs /proc/mounts | sed 's/^/# /'

f=/mnt/nfs/w
# The client may still drop the file's cache after its writes (a change attribute it takes
# for another's, seen under load), which the model does not do: then the file is written
# again, 3 times at most, the last held, each retry said.
for try in 1 2 3; do
	rm -f "$f"
	upd=$(nfs_event vfsupdatepage) wp=$(nfs_event vfswritepage) commits=$(nfs_ops COMMIT)
	# the grace period: the first OPEN that creates the file waits for its end
	recorded=true
	rec p.ftr nfs ftload poke "$f" 8K 32 2M || recorded=false
	upd=$(($(nfs_event vfsupdatepage) - upd))
	wp=$(($(nfs_event vfswritepage) - wp))
	commits=$(($(nfs_ops COMMIT) - commits))
	echo "# kernel: $upd updatepage, $wp writepage (forced flushes), $commits COMMITs"
	# From the kernel's own folios (its insertions into the file): a poke flushes when one
	# before it landed in the same folio, so flushes = 32 - the folios the pokes land in.
	ino=$(folio-trace dump p.ftr |
		awk -v p="path=$f" '$2 == "file" && $NF == p { sub("ino=", "", $5); print $5 }')
	folios=$(folio-trace dump p.ftr | awk -v ino="ino=$ino" '
		$2 == "pagecache_add" && $5 == ino {
			i = $6; o = $7; sub("index=", "", i); sub("order=", "", o)
			n = 1; for (j = 0; j < o; j++) n *= 2
			for (p = i; p < i + n; p++) head[p] = i }
		$2 == "pagecache_delete" && $5 == ino { deleted++ }
		END { for (k = 0; k < 32; k++) { h = head[k * 2]
			if (!(h in used)) { used[h] = 1; c++ } }
			print c + 0, deleted + 0 }')
	set -- $folios
	[ "$2" = 0 ] && break
	echo "# try $try: the client dropped $2 of the file's folios"
done
check "ftload poke, after a 2 MiB write, recorded on NFS" $recorded
kernel_orders p.ftr "$ino" | sed 's/^/# kernel folios: order /'
flushes=$(model_metric p.ftr range_flushes)
echo "# model: $flushes forced flushes; the pokes land in $1 of the kernel's folios"
check "no folio of the file left the cache" equal "$2" 0
# a forced flush's WRITE is unstable (nfs_writepage_locked(): no FLUSH_STABLE), then
# committed; of the fsyncs, the one after 2 MiB (16 WRITEs) commits, the one after the last
# poke sends a lone WRITE stable (FLUSH_COND_STABLE) and needs no COMMIT. With no forced
# flush (6.1's base pages) the last fsync sends 32 WRITEs, and 6.1 sent one COMMIT for the two
# fsyncs in some runs, two in others: printed, no forced flush to hold there.
if [ "$wp" -gt 0 ]; then
	check "each forced flush committed: one COMMIT each, one for the fsyncs" equal "$commits" \
		$((wp + 1))
else
	echo "# no forced flush: $commits COMMITs for the two fsyncs"
fi
check "the kernel's forced flushes: 32 less the folios the pokes land in" equal "$wp" \
	$((32 - $1))
check "the model's forced flushes are the kernel's" equal "$flushes" "$wp"
case $(uname -r) in
6.1.*) check "6.1: base pages, no flush" equal "$wp" 0 ;;
*) check "an order-9 folio: each poke after the first flushes" equal "$wp" 31 ;;
esac
umount /mnt/nfs
finish
