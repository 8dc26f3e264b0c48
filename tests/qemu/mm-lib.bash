# Helpers for the mm scenarios (sourced after lib.bash).

# mm_selftests NAME MACHINE MEM [CMDLINE...]: boot with the mm self-tests,
# relay their results as NAME/..., and check the verdict and zone report.
mm_selftests() {
	local name=$1 machine=$2 mem=$3
	shift 3
	boot "mm-$name" --machine "$machine" --mem "$mem" --timeout 300 \
		--cmdline "selftest=mm/* $*"
	expect_rc "mm/$name/verdict" 0
	grep -E '^(ok|not ok) [0-9]+ - ' "$out" | sed -E "s#^(ok|not ok) [0-9]+ - #\1 - $name/#"
	for z in DMA Normal HighMem; do
		expect_out "mm/$name/zone-$z-reported" "mm: zone $z +[0-9]+ pages \([0-9]+ MiB\)"
	done
	expect_no_out "mm/$name/no-memory-map-warning" 'mm: memory map:'
}

# zone_mib ZONE: the MiB the last boot reported for ZONE.
zone_mib() {
	sed -nE "s/.*mm: zone $1 +[0-9]+ pages \(([0-9]+) MiB\).*/\1/p" "$out" | head -1
}

# expect_zone_mib NAME ZONE LO HI: the zone's size in MiB is in [LO, HI].
expect_zone_mib() {
	local v
	v=$(zone_mib "$2")
	if [ -n "$v" ] && [ "$v" -ge "$3" ] && [ "$v" -le "$4" ]; then
		ok "$1"
	else
		notok "$1" "zone $2 is '${v}' MiB, wanted $3..$4 (see $out)"
	fi
}
