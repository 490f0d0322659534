# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the chopblock harness scripts. Sourced, never run.

CHOPBLOCK_ROOT=${CHOPBLOCK_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD_DIR=${CHOPBLOCK_BUILD:-$CHOPBLOCK_ROOT/build}
TREE_DIR=${CHOPBLOCK_TREE:-$BUILD_DIR/tree}
TARBALL=${CHOPBLOCK_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
SOURCE_PKG=${CHOPBLOCK_SOURCE_PKG:-linux-source-6.12}
PATCH_DIR=${CHOPBLOCK_PATCHES:-$CHOPBLOCK_ROOT/patches}
KBUILD_DIR=${CHOPBLOCK_KBUILD:-$BUILD_DIR/kbuild}
LOG_DIR=${CHOPBLOCK_LOGS:-$BUILD_DIR/logs}
BASELINE_TAG=pristine
SERIES_BRANCH=series

die() {
	echo "chopblock: error: $*" >&2
	exit 1
}

info() {
	echo "chopblock: $*" >&2
}

# Print the last lines of a log after a failure, so that the reason is on
# screen while the full log stays in a file.
tail_log() {
	local log=$1 n=${2:-30}

	[ -f "$log" ] || return 0
	echo "---- last $n lines of $log ----" >&2
	tail -n "$n" "$log" >&2
	echo "----" >&2
}

# Run a long command with its output in a log file, printing a progress
# line (elapsed seconds and the last log line) every 15 seconds.
run_logged() {
	local log=$1 what=$2
	shift 2
	local start=$SECONDS pid rc

	mkdir -p "$(dirname "$log")"
	"$@" >"$log" 2>&1 &
	pid=$!
	local interval=${CHOPBLOCK_PROGRESS_INTERVAL:-15}
	local next=$interval
	while kill -0 "$pid" 2>/dev/null; do
		sleep 0.5
		if [ $((SECONDS - start)) -ge "$next" ] && kill -0 "$pid" 2>/dev/null; then
			printf 'chopblock: %s: %ds: %s\n' "$what" $((SECONDS - start)) \
				"$(tail -n 1 "$log" | cut -c1-100)" >&2
			next=$((next + interval))
		fi
	done
	wait "$pid"
	rc=$?
	return $rc
}

# The Debian cross-compiler prefix for a kernel ARCH (empty for the host's).
cross_prefix() {
	case $1 in
	x86_64) echo "" ;;
	arm64) echo aarch64-linux-gnu- ;;
	arm) echo arm-linux-gnueabihf- ;;
	sh) echo sh4-linux-gnu- ;;
	*) die "unsupported ARCH=$1 (x86_64, arm64, arm or sh)" ;;
	esac
}

tree_git() {
	git -C "$TREE_DIR" -c user.name="${GIT_AUTHOR_NAME:-chopblock}" \
		-c user.email="${GIT_AUTHOR_EMAIL:-chopblock@localhost}" "$@"
}
