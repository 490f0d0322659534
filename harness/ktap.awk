# SPDX-License-Identifier: GPL-2.0
#
# Read a guest console log and check the KTAP test suite in it
# (Documentation/dev-tools/ktap.rst). Prints each failed or skipped test,
# a one-line verdict on a missing, misplaced or short plan or a crashed
# guest, and, always as the last line, "N passed, N failed[, N skipped]".
# Exit status: 0 when every planned test ran and none failed, 1 otherwise.
#
# It accepts exactly what the KTAP libraries emit, harness/ktap.sh and
# guest/ktap.h: "KTAP version 1", the plan "1..N" on the very next line,
# then results ("ok N name", "ok N name # SKIP why", "not ok N name",
# "not ok N name # why", "not ok N name # TIMEOUT after Ns") among
# diagnostics and other lines. A timeout is a failure like any other.
BEGIN { state = "before"; plan = -1; pass = 0; failed = 0; skipped = 0; seen = 0; err = "" }
/Kernel panic - not syncing/ { panic = $0 }
state == "before" && /^KTAP version 1$/ { state = "header"; next }
state == "header" && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; state = "body"; next }
# Anything else right after the version line: no plan, and no result counts.
state == "header" { state = "noplan" }
state == "noplan" && /^1\.\.[0-9]+$/ && late == "" { late = $0; next }
state == "body" && /^1\.\.[0-9]+$/ {
	if (err == "")
		err = sprintf("a second plan line \"%s\"", $0)
	next
}
state != "before" && /^KTAP version / {
	if (err == "")
		err = "a second KTAP version line"
	next
}
state == "body" && /^(not )?ok [0-9]+ / {
	notok = ($1 == "not")
	num = notok ? $3 : $2
	seen++
	if (num != seen && err == "")
		err = sprintf("test numbered %d where %d was expected", num, seen)
	if (notok) {
		failed++
		print "FAIL: " $0
	} else if ($0 ~ / # SKIP/) {
		skipped++
		print "SKIP: " $0
	} else {
		pass++
	}
	next
}
/^chopblock: tests done$/ { done = 1 }
END {
	if (state == "before")
		err = "no KTAP output: the guest never started its tests"
	else if (plan < 0 && late != "")
		err = sprintf("the plan line \"%s\" is not right after the version line", late)
	else if (plan < 0)
		err = "KTAP output has no plan line"
	else if (seen < plan)
		err = sprintf("short plan: %d of %d tests reported", seen, plan)
	else if (seen > plan)
		err = sprintf("%d tests reported for a plan of %d", seen, plan)
	else if (!done)
		err = "the guest did not finish its test run"
	if (panic != "")
		err = "the guest kernel crashed: " panic
	if (err != "") {
		print "ERROR: " err
		failed += (plan > seen ? plan - seen : 0) + (seen == 0 && plan <= 0)
	}
	if (skipped)
		printf "%d passed, %d failed, %d skipped\n", pass, failed, skipped
	else
		printf "%d passed, %d failed\n", pass, failed
	exit (err != "" || failed > 0)
}
