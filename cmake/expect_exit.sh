#!/bin/sh
# expect_exit.sh WANT PATTERN -- COMMAND...: runs COMMAND, passes when its exit
# status is WANT (a number, or `nonzero`) and its output contains PATTERN (a
# grep basic regular expression: what the test names). The expected-failure
# form of add_sim_test (EXPECT_EXIT) and the CLI's tests use it.
want=$1 pattern=$2
shift 3
out=$("$@" 2>&1)
got=$?
if [ "$want" = nonzero ]; then
    if [ "$got" -eq 0 ]; then
        printf '%s\n' "$out" | tail -20
        echo "expected a failing exit status, got 0"
        exit 1
    fi
elif [ "$got" -ne "$want" ]; then
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
