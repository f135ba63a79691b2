#!/bin/sh
# expect_exit.sh WANT PATTERN -- COMMAND...: runs COMMAND, passes when its exit
# status is WANT and its output contains PATTERN (what the test names).
want=$1 pattern=$2
shift 3
out=$("$@" 2>&1)
got=$?
if [ "$got" -ne "$want" ]; then
    printf '%s\n' "$out" | tail -20
    echo "expected exit status $want, got $got"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -q -- "$pattern"; then
    printf '%s\n' "$out" | tail -20
    echo "output does not contain: $pattern"
    exit 1
fi
echo "exit $got and \"$pattern\" as expected"
