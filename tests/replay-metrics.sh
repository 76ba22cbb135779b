#!/bin/sh
# folio-trace replay --metrics=LIST and --format=csv-long: the same metric selection in the
# table, JSON and CSV; unknown names are usage errors naming the groups; the long CSV holds the
# wide CSV's values; no ratio of an index; the default table fits 80 columns at three orders.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
T=$TRACES/rand-overwrite.ftr

# The keys of a JSON report's first configuration's metrics, sorted, on one line.
json_keys() {
	printf '%s\n' "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = d["configurations"][0]
assert sorted(c["metrics"]) == sorted(c["ratio_to_baseline"]) or \
	set(c["ratio_to_baseline"]) <= set(c["metrics"])
print(" ".join(sorted(c["metrics"])))'
}

# --metrics=reads: the reads section and nothing else, in every format.
run "$FT" replay -q --folio-order=0,9 --metrics=reads --format=json "$T"
is "$rc" 0 "--metrics=reads: json exits 0"
reads_keys="advice_calls advice_ignored device_read_bytes direct_read_bytes dontneed_folios \
dontneed_pages dropbehind_pages faultaround_pages hit_ratio hit_ratio_bytes read_amplification \
read_bytes read_hit_bytes read_hit_requests read_ios read_requests read_waited_bytes \
read_waited_requests willneed_pages write_read_bytes"
is "$(json_keys "$out")" "$reads_keys" "json: the reads group's keys only"
run "$FT" replay -q --folio-order=0,9 --metrics=reads --format=csv "$T"
is "$(printf '%s\n' "$out" | head -1 | tr ',' '\n' | sed 1,2d | sort | tr '\n' ' ')" \
	"$reads_keys " "csv: the same keys as columns"
run "$FT" replay -q --folio-order=0,9 --metrics=reads "$T"
sections=$(printf '%s\n' "$out" | sed -n '/^metric/,$p' | grep '^[a-z]' | awk '{print $1}' |
	tr '\n' ' ')
is "$sections" "metric reads " "table: only the reads section"
is "$(printf '%s\n' "$out" | sed -n '/^reads/,$p' | sed 1d | wc -l)" 20 "table: 20 rows of reads"

# Keys and groups mixed; arrays by their key; folios adds the rows by order to the table.
run "$FT" replay -q --folio-order=0,9 --metrics=lru_entries_max,write_amplification,free_blocks \
	--format=json "$T"
is "$(json_keys "$out")" "free_blocks lru_entries_max write_amplification" "keys and an array"
run "$FT" replay -q --folio-order=0,9 --metrics=folios "$T"
like "$out" "^folios inserted by order" "folios: the table's rows by order"
like "$out" "^  folios inserted " "folios: the insertions row"
run "$FT" replay -q --folio-order=0,9 --metrics=folios --format=json "$T"
is "$(json_keys "$out")" "alloc_by_order inserted_pages insertions insertions_by_order" \
	"folios: insertions and the arrays by order"
run "$FT" replay -q --folio-order=0,9 --metrics=fragmentation --format=json "$T"
like "$(json_keys "$out")" "fragmentation_index" "fragmentation group"
run "$FT" replay -q --folio-order=0,9 --metrics=reclaim,lru --format=json "$T"
like "$(json_keys "$out")" "reclaim_stalls.*refaults" "reclaim group"
like "$(json_keys "$out")" "lru_active_max" "lru group with it"
run "$FT" replay -q --folio-order=0,9 --metrics=all --format=csv "$T"
all=$(printf '%s\n' "$out" | head -1)
run "$FT" replay -q --folio-order=0,9 --format=csv "$T"
is "$all" "$(printf '%s\n' "$out" | head -1)" "all is the default"

# Unknown names and empty items: usage errors, one line, naming the groups.
for bad in bogus reads,bogus reads, ,reads ''; do
	run "$FT" replay -q --metrics="$bad" "$T"
	is "$rc:$(printf '%s\n' "$err" | wc -l):$out" "2:1:" "--metrics='$bad': usage error"
done
run "$FT" replay -q --metrics=bogus "$T"
like "$err" "unknown metric or group 'bogus' (groups: trace, reads, writes, cache, lru, memory, folios, reclaim, fragmentation, all" \
	"the message lists the groups"
run "$FT" replay -q --metrics=reads --metrics=writes "$T"
is "$rc" 2 "--metrics given twice: usage error"

# --metrics=help: every key of the JSON with a meaning, no trace needed, 80 columns.
run "$FT" replay --metrics=help
is "$rc:$err" "0:" "--metrics=help: exit 0 without a trace"
help_keys=$(printf '%s\n' "$out" | sed -n '2,/^arrays/p' | awk '/^  / && NF >= 2 { print $1 }' | sort |
	tr '\n' ' ')
run "$FT" replay -q --folio-order=0 --format=json "$T"
is "$help_keys" "$(printf '%s\n' "$out" | python3 -c '
import json, sys
m = json.load(sys.stdin)["configurations"][0]["metrics"]
print(" ".join(sorted(k for k, v in m.items() if not isinstance(v, list))), end=" ")')" \
	"--metrics=help: the JSON's metric keys, each with a meaning"
run "$FT" replay --metrics=help
is "$(printf '%s\n' "$out" | awk 'length > 80' | wc -l)" 0 "--metrics=help fits 80 columns"
like "$out" "^  iosize_hist  *write-back I/Os by size" "--metrics=help: the arrays too"
run "$FT" replay -q --metrics=bogus "$T"
like "$err" "--metrics=help lists the metric keys" "an unknown key points to --metrics=help"

# CSV columns in the order --metrics named them, arrays flattened in place.
run "$FT" replay -q --folio-order=0,9 --metrics=write_amplification,hit_ratio,accesses,free_blocks \
	--format=csv "$T"
want="label,order,write_amplification,hit_ratio,accesses"
for i in 0 1 2 3 4 5 6 7 8 9 10; do want="$want,free_blocks_$i"; done
is "$(printf '%s\n' "$out" | head -1)" "$want" "csv: columns in the order asked"
run "$FT" replay -q --folio-order=0,9 --metrics=accesses,hit_ratio --format=csv-long "$T"
is "$(printf '%s\n' "$out" | sed -n 2,3p | cut -d, -f3 | tr '\n' ' ')" "accesses hit_ratio " \
	"csv-long: rows in the order asked"

# One name per metric: the old keys still select, under the new names.
run "$FT" replay -q --folio-order=0,9 --metrics=read_io_bytes,read_hit_ratio_requests,read_hit_ratio_bytes \
	--format=json "$T"
is "$rc:$(json_keys "$out")" "0:device_read_bytes hit_ratio hit_ratio_bytes" \
	"old names select the renamed keys"
for sort in read_requests reads insertions inserted hit_ratio; do
	run "$FT" replay -q --by=file --sort=$sort --format=json "$T"
	canon=$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["by"]["sort"])')
	case $sort in reads) want=read_requests ;; inserted) want=insertions ;; *) want=$sort ;; esac
	is "$rc:$canon" "0:$want" "--sort=$sort: sorts by $want"
done

# The long CSV: a row per order and metric with the wide CSV's values.
run "$FT" replay -q --folio-order=0,4,9 --format=csv "$T"
printf '%s\n' "$out" >"$TMPD/wide.csv"
run "$FT" replay -q --folio-order=0,4,9 --format=csv-long "$T"
is "$rc:$(printf '%s\n' "$out" | head -1)" "0:label,order,metric,value" "csv-long header"
printf '%s\n' "$out" >"$TMPD/long.csv"
got=$(python3 - "$TMPD/wide.csv" "$TMPD/long.csv" <<'PY'
import csv, sys
wide = list(csv.DictReader(open(sys.argv[1])))
long = list(csv.DictReader(open(sys.argv[2])))
keys = [k for k in wide[0] if k not in ("label", "order")]
same = all(r["value"] == w[r["metric"]] and r["order"] == w["order"]
           for r in long for w in wide if w["label"] == r["label"])
print(len(long) == len(wide) * len(keys), same,
      [r["metric"] for r in long[:len(keys)]] == keys)
PY
)
is "$got" "True True True" "csv-long: every wide value, one per row, in column order"
run "$FT" replay -q --folio-order=0,9 --format=csv-long --metrics=write_amplification "$T"
is "$(printf '%s\n' "$out" | cut -d, -f1-3 | tr '\n' ' ')" \
	'label,order,metric "order 0",0,write_amplification "order 9",9,write_amplification ' \
	"csv-long with --metrics"

# An index is not divided: the fragmentation index is -1 when an allocation would succeed.
run "$FT" replay -q --all --folio-order=0,9 --memory=64M "$T"
for label in "frag. index (end)" "unusable index (end)" "unusable index mean"; do
	row=$(printf '%s\n' "$out" | grep "^  $label ")
	is "$(echo $row | awk '{print $NF}')" "-" "table: no ratio of the $label"
done
run "$FT" replay -q --folio-order=0,9 --format=json "$T"
got=$(printf '%s\n' "$out" | python3 -c '
import json, sys
c = json.load(sys.stdin)["configurations"][1]
print(c["metrics"]["fragmentation_index"], c["ratio_to_baseline"]["fragmentation_index"],
      c["ratio_to_baseline"]["unusable_index"])')
is "$got" "-1 None None" "json: ratio of an index is null"

# The default table at orders 0, 4 and 9 fits 80 columns on every shipped trace.
for t in "$TRACES"/*.ftr; do
	n=$(basename "$t")
	w=$(cd "$TRACES" && "$FT" replay -q --folio-order=0,4,9 "$n" |
		awk '{ if (length > m) m = length } END { print m }')
	ok $([ "$w" -le 80 ] && echo 0 || echo 1) "$n: default table $w columns wide (<= 80)"
done

# A run reports only what --metrics names and keeps only the bookkeeping those need (the pages
# accessed, the set of pages ever touched, the plain LRU's shadow entries): every value it
# reports is the one a run of all metrics gives, on every shipped trace, in the default model
# and the plain one.
csv_pick() {	# csv_pick CSV KEYS: the rows of the named columns, space-separated
	printf '%s\n' "$1" | python3 -c '
import csv, sys
rows = list(csv.DictReader(sys.stdin))
for r in rows:
	print(" ".join(r[k] for k in sys.argv[1].split(",")))' "$2"
}
# the memory group's keys (arrays without their _N), the same in every run
mem=$("$FT" replay -q --folio-order=0 --metrics=memory --format=csv "$T" | head -1 | cut -d, -f3- |
      tr , '\n' | sed 's/_[0-9]*$//' | sort -u)
for tr in "$TRACES"/*.ftr; do
	n=$(basename "$tr")
	for model in "" "--lru=plain --policy=fixed --no-readahead"; do
		# shellcheck disable=SC2086
		full=$("$FT" replay -q --folio-order=0,4,9 $model --metrics=all --format=csv "$tr")
		for keys in hit_ratio,device_read_bytes,evictions touched_bytes \
		    untouched_evicted_bytes,untouched_cached_bytes_mean,untouched_cached_bytes_max \
		    lru_entries_mean,refaults,write_amplification refault_folios; do
			# shellcheck disable=SC2086
			got=$("$FT" replay -q --folio-order=0,4,9 $model --metrics="$keys" \
			      --format=csv "$tr")
			is "$(csv_pick "$got" "$keys")" "$(csv_pick "$full" "$keys")" \
				"$n${model:+ (plain)}: --metrics=$keys as in --metrics=all"
		done
		# Every metric but the memory section's: order 0 then counts pages without
		# placing them (nothing of placement decides there), the others place them.
		rest=$(printf '%s\n' "$full" | head -1 | cut -d, -f3- | tr , '\n' |
		       sed 's/_[0-9]*$//' | sort -u | grep -vxF "$mem" | tr '\n' , | sed 's/,$//')
		# shellcheck disable=SC2086
		got=$("$FT" replay -q --folio-order=0,4,9 $model --metrics="$rest" --format=csv "$tr")
		cols=$(printf '%s\n' "$got" | head -1 | cut -d, -f3-)
		is "$(csv_pick "$got" "$cols")" "$(csv_pick "$full" "$cols")" \
			"$n${model:+ (plain)}: every metric but memory's as in --metrics=all"
	done
done

done_testing
