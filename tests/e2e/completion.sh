#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# run.sh: not under sanitize: bash completion, from the help text
# The bash completion (contrib/eatrace.bash, installed by make install):
# commands, subcommands, each command's options (read from its --help, so
# every option --help lists is offered), option values, bundled models.
. "$(dirname "$0")/lib.sh"
command -v bash >/dev/null 2>&1 || skip "no bash"
mkdir -p "$TMP/bin"
ln -s "$EATRACE" "$TMP/bin/eatrace"

# comp WORDS...: what completing the last word offers (sorted, one line).
comp() {
	PATH="$TMP/bin:$PATH" bash -c '
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_eatrace
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		sh "$ROOT/contrib/eatrace.bash" "$@" 2>&1
}

expect_eq "commands" "$(comp eatrace re)" "record replay report "
expect_eq "batch among the commands" "$(comp eatrace ba)" "batch "
expect_eq "help batch" "$(comp eatrace help b)" "batch "
expect_eq "batch -f" "$(comp eatrace batch -f '')" "csv jsonl "
expect_eq "batch --rows" "$(comp eatrace batch --rows '')" "cluster cpu task trace "
expect_eq "--unit" "$(comp eatrace report --unit '')" "J mJ uJ "
expect_eq "model subcommands" "$(comp eatrace model c)" "check convert "
expect_eq "help COMMAND" "$(comp eatrace help d)" "diff dump "
expect_eq "report --pe" "$(comp eatrace report --pe)" "--per-task --perfetto --perfetto-max-mb "
expect_eq "-m: bundled models" "$(comp eatrace report -m tc)" "tc2 tc2-idlestat "
expect_eq "diff --inconclusive" "$(comp eatrace diff --inconclusive '')" "fail pass "
expect_eq "diff -f" "$(comp eatrace diff -f '')" "json junit markdown text "
expect_eq "replay -f (no csv)" "$(comp eatrace replay -f '')" "json text "
expect_eq "model fit --weights" "$(comp eatrace model fit --weights '')" "equal relative "
expect_eq "model subcommand fit" "$(comp eatrace model f)" "fit "
# every long option of each command's help is offered
for cmd in stats report replay batch diff record top dump "model check" "model import" "model fit"; do
	want=$("$EATRACE" $cmd --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u | tr '\n' ' ')
	# shellcheck disable=SC2086
	expect_eq "$cmd: every --help option offered" "$(comp eatrace $cmd --)" "$want"
done
# files after options
touch "$TMP/trace-a.dat"
expect_eq "file names" "$(cd "$TMP" && comp eatrace stats trace-)" "trace-a.dat "
finish
