#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Under "set -o pipefail", "producer | grep -q PATTERN" has a race: grep
# leaves at the first match, the producer dies of SIGPIPE when its
# output is longer than the pipe buffer, and the pipeline fails although
# the pattern matched. Negated, it reads as "no match": that is how
# post.sh once tagged the 900-file arch/sh removal [PATCH net-next] on
# CI and not here. No script that runs under pipefail (everything in
# harness/, which all source harness/lib.sh, and any other script that
# sets it) may pipe into grep -q; it greps a file or a here-string.
# chopblock-parallel: yes
. "$(dirname "$0")/../lib.sh"

# offenders FILE...: file:line of each pipe into a quiet grep.
offenders() {
	grep -nHE '(^|[^|])\|[[:space:]]*grep[[:space:]]+(-[a-zA-Z]*q|--quiet)' "$@" |
		grep -vE '^[^:]*:[0-9]+:[[:space:]]*#' || true
}

# The race is real: a long producer piped into grep -q fails the pipeline.
set -o pipefail
seq 1 200000 | grep -q '^1$'
rc=$?
set +o pipefail
[ "$rc" -ne 0 ] || fail "seq | grep -q succeeded under pipefail: the race this test guards against was not reproduced"
grep -q '^1$' <<<"$(seq 1 200000)" || fail "a here-string lost the match"
ok "under pipefail, seq 1 200000 | grep -q fails (rc $rc); a here-string does not"

# The check finds an offender in a synthetic script.
printf '#!/bin/bash\nset -euo pipefail\nif ! git log | grep -qv x; then :; fi\n' >"$scratch/bad.sh"
[ -n "$(offenders "$scratch/bad.sh")" ] || fail "the check misses git log | grep -qv in a synthetic script"
ok "the check finds a pipe into grep -q in a synthetic script"

mapfile -t files < <({
	ls "$root"/harness/*.sh
	grep -rlE 'set -[a-z]*o pipefail|set -o pipefail' "$root/harness" "$root/tests" "$root/guest" "$root/.ci" 2>/dev/null
} | sort -u | grep -vxF "$root/tests/host/39-pipefail-grep-q.sh")
[ "${#files[@]}" -gt 20 ] || fail "only ${#files[@]} scripts found: the check looked at nothing"
bad=$(offenders "${files[@]}")
[ -z "$bad" ] || fail "pipes into grep -q under pipefail: $(echo "$bad" | sed "s|$root/||" | tr '\n' ' ')"
ok "${#files[@]} pipefail scripts, none pipes into grep -q"
