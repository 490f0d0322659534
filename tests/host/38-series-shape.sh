#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The series' shape as its maintainers expect it: a patch that removes an
# architecture (deletes arch/NAME/Kconfig) opens its topic, as the ia64
# removal and Hellwig's arch/sh series did, so that the driver patches
# after it can say nothing can build them; and a subject for a tree of
# the tip maintainers (x86, sched, irqchip, clocksource, timers, perf,
# locking, cpu/hotplug, genirq, objtool, smp) starts its text with a
# capital letter, as Documentation/process/maintainer-tip.rst asks.
# Each check first fails on a synthetic series made to break it.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"
tip='^(x86|sched|irqchip|clocksource|timers|perf|locking|cpu/hotplug|genirq|objtool|smp)([/: ]|$)'

# subject PATCH: the patch's subject, without [PATCH ...], unfolded.
subject() {
	awk '/^Subject: / { s = $0; getline n; while (n ~ /^[ \t]/) { s = s n; getline n } print s; exit }' "$1" |
		sed 's/^Subject: *//; s/^\[PATCH[^]]*\] *//; s/[[:space:]]\+/ /g'
}
# shape_problems SERIES_DIR: one line for each patch out of shape.
shape_problems() {
	local dir=$1 p first topic prev= s prefix text
	while read -r p; do
		topic=${p%%/*}
		first=0
		[ "$topic" = "$prev" ] || first=1
		prev=$topic
		if [ "$first" -eq 0 ] && grep -Eq '^diff --git a/arch/[^/]+/Kconfig b/' "$dir/$p" &&
		   grep -A1 -E '^diff --git a/arch/[^/]+/Kconfig b/' "$dir/$p" | grep -q '^deleted file mode'; then
			echo "$p removes an architecture but does not open topic $topic"
		fi
		s=$(subject "$dir/$p")
		prefix=${s%: *} text=${s##*: }
		if [[ $prefix =~ $tip ]] && [[ ! $text =~ ^[A-Z] ]]; then
			echo "$p: '$s': the tip tree wants a capital letter after '$prefix: '"
		fi
	done < <(grep -v '^[[:space:]]*\(#\|$\)' "$dir/series")
	return 0
}

# A synthetic series: topic t, whose second patch removes arch/foo, and a
# lower-case irqchip subject.
fake() { # FILE SUBJECT [deleted PATH]
	{
		echo "Subject: [PATCH 1/2] $2"
		echo
		echo "Why."
		echo "---"
		if [ "${3:-}" = deleted ]; then
			echo "diff --git a/$4 b/$4"
			echo "deleted file mode 100644"
		fi
	} >"$1"
}
s=$scratch/s
mkdir -p "$s/t"
fake "$s/t/0001.patch" "watchdog: remove a driver"
fake "$s/t/0002.patch" "foo: remove the architecture" deleted arch/foo/Kconfig
fake "$s/t/0003.patch" "irqchip: remove the foo interrupt controller"
printf 't/0001.patch\nt/0002.patch\nt/0003.patch\n' >"$s/series"
shape_problems "$s" >"$s/out"
grep -q '^t/0002.patch removes an architecture but does not open topic t$' "$s/out" ||
	fail "an architecture removed in the middle of its topic passed: $(cat "$s/out")"
grep -q "^t/0003.patch: 'irqchip: remove the foo interrupt controller'" "$s/out" ||
	fail "a lower-case irqchip subject passed: $(cat "$s/out")"
printf 't/0002.patch\nt/0001.patch\n' >"$s/series"
sed -i 's/irqchip: remove/irqchip: Remove/' "$s/t/0003.patch"
echo t/0003.patch >>"$s/series"
shape_problems "$s" >"$s/out"
[ ! -s "$s/out" ] || fail "a series in shape was refused: $(cat "$s/out")"
ok "the check refuses an architecture removed mid-topic and a lower-case tip subject"

shape_problems "$root/patches" >"$scratch/real"
[ ! -s "$scratch/real" ] || fail "$(wc -l <"$scratch/real") patch(es) out of shape: $(head -n 3 "$scratch/real" | paste -sd ';')"
n=$(awk '/^diff --git a\/arch\/[^\/]+\/Kconfig b\// { getline l; if (l ~ /^deleted file mode/) print FILENAME }' \
	"$root"/patches/*/*.patch | wc -l)
[ "$n" -ge 1 ] || fail "no patch of the series removes an architecture: the check would look at nothing"
ok "each of the $n architecture removal(s) opens its topic, and every tip subject is capitalised"
