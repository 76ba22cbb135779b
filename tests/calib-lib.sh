# Shared by the calibration tests: rows of "folio-trace calibrate --format=json" in $TMPD/c.json.

# field METRIC SOURCE FIELD: one value of the calibration row
field() {
	jq -r --arg m "$1" --arg s "$2" --arg f "$3" \
		'.metrics[] | select(.metric == $m and .source == $s) | .[$f]' "$TMPD/c.json"
}

# near METRIC SOURCE FLOOR: |model - kernel| within 10% of the kernel's, or within FLOOR where
# that is more (a count of a few, whose 10% no model of reclaim's exact victims can hold)
near() {
	m=$(field "$1" "$2" model)
	k=$(field "$1" "$2" kernel)
	awk -v m="$m" -v k="$k" -v f="$3" 'BEGIN { d = m - k; if (d < 0) d = -d
		exit !(m != "" && k != "" && k != "null" && (d * 10 <= k || d <= f)) }'
	ok $? "$NAME: $1 ($2) within 10% or $3: model $m, kernel $k"
}

# within METRIC SOURCE [PCT]: |relative error| <= PCT % (10 unless given), both figures shown
within() {
	p=${3:-10}
	e=$(field "$1" "$2" error)
	m=$(field "$1" "$2" model)
	k=$(field "$1" "$2" kernel)
	awk -v e="$e" -v p="$p" \
		'BEGIN { exit !(e != "" && e != "null" && e <= p / 100 && e >= -p / 100) }'
	ok $? "$NAME: $1 ($2) within $p%: model $m, kernel $k"
}
