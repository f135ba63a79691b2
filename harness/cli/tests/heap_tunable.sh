#!/bin/sh
# heap_tunable.sh HARNESS SELFTEST_CASES MANIFEST WORKDIR: peer-harness runs with glibc's
# malloc in huge pages. Started without glibc.malloc.hugetlb in GLIBC_TUNABLES,
# the running runner's environment has it added, first; started with the
# user's own value, that value stands. Read from /proc/PID/environ while the
# runner waits on a hanging instance, so the exec is long done. glibc 2.36
# cuts that string in place at the first ':' as it parses it (observed), so
# only the first tunable shows there: the other ones cannot be checked here.
set -u
harness=$1 cases=$2 manifest=$3 work=$4

# check START WANT N: START is the GLIBC_TUNABLES to begin with ("" = unset),
# WANT what /proc shows of it in the running process, N names the run.
check() {
    start=$1 want=$2 n=$3
    results=$work/results-$n out=$work/out-$n.txt
    rm -rf "$results"
    set -- run --cases "$cases" --expect "$manifest" --results "$results" --overwrite \
        --timeout 60 'selftest/hang'
    if [ -n "$start" ]; then
        GLIBC_TUNABLES=$start "$harness" "$@" >"$out" 2>&1 &
    else
        env -u GLIBC_TUNABLES "$harness" "$@" >"$out" 2>&1 &
    fi
    pid=$!
    i=0
    until grep -q '"selftest/hang"' "$results/results.jsonl" 2>/dev/null; do
        i=$((i + 1))
        if [ "$i" -gt 600 ] || ! kill -0 "$pid" 2>/dev/null; then
            cat "$out"
            echo "the hanging instance never started (start: '$start')"
            kill "$pid" 2>/dev/null
            exit 1
        fi
        sleep 0.1
    done
    got=$(tr '\0' '\n' <"/proc/$pid/environ" | sed -n 's/^GLIBC_TUNABLES=//p')
    kill "$pid"
    wait "$pid" 2>/dev/null
    if [ "$got" != "$want" ]; then
        cat "$out"
        echo "start '$start': GLIBC_TUNABLES is '$got', expected '$want'"
        exit 1
    fi
    echo "start '$start': GLIBC_TUNABLES='$got' as expected"
}

mkdir -p "$work"
check "" "glibc.malloc.hugetlb=1" 1
check "glibc.malloc.arena_max=2" "glibc.malloc.hugetlb=1" 2
check "glibc.malloc.hugetlb=0" "glibc.malloc.hugetlb=0" 3
