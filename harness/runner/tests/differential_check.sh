#!/bin/sh
# The differential run end to end (runner.differential-*): peer-harness
# differential on a simulated machine, judged by its exit code and output.
#   differential_check.sh MODE PEER_HARNESS MACHINE DIR [CASES_DIR]
# MODE:
#   clean        the HIP-level cases: exit 0, "0 unexplained" in the last line
#   fault FILE   a scenario breaking both runtimes' copies: exit 0, the
#                table says the failures were seen by both
#   wrong        a deliberately wrong harness answer (one answer of the
#                harness's journal changed after a clean run): exit 1, the
#                step listed as UNEXPLAINED with both answers
#   no-rocm      ROCm's HIP cannot be loaded: exit 2, saying so
#   no-gpu       ROCm's HIP lists no GPU of the machine: exit 2, saying so
set -u
mode=$1 bin=$2 machine=$3 dir=$4
shift 4
fail() { echo "FAIL: $*"; exit 1; }
out=$dir/out.txt
rm -rf "$dir" && mkdir -p "$dir"
case $mode in
clean)
    "$bin" differential --machine "$machine" --results "$dir/run" >"$out" 2>&1
    rc=$?
    cat "$out"
    [ $rc -eq 0 ] || fail "exit $rc, expected 0"
    tail -2 "$out" | grep -q ' 0 unexplained, ' || fail "no '0 unexplained' summary"
    ;;
fault)
    "$bin" differential --machine "$machine" --faults "$1" --cases "$2" --results "$dir/run" \
        '*size=4097*' >"$out" 2>&1
    rc=$?
    cat "$out"
    [ $rc -eq 0 ] || fail "exit $rc, expected 0: the fault must look the same to both runtimes"
    grep -q '^seen by both runtimes: [1-9][0-9]* step(s) failed alike' "$out" ||
        fail "no step failed in both runtimes"
    ;;
wrong)
    "$bin" differential --machine "$machine" --cases "$1" --results "$dir/run" >"$out" 2>&1 ||
        { cat "$out"; fail "the clean run exited $?"; }
    journal=$dir/run/harness/results.jsonl
    # The first step's answer hipSuccess of one instance (a can_access_peer
    # step) becomes hipErrorInvalidValue in the harness's journal.
    line=$(grep -n '"answers":\[\[1,"hipSuccess"\]' "$journal" | head -1 | cut -d: -f1)
    [ -n "$line" ] || fail "no instance to change in $journal"
    sed -i "${line}s/\"answers\":\[\[1,\"hipSuccess\"\]/\"answers\":[[1,\"hipErrorInvalidValue\"]/" "$journal"
    "$bin" differential --compare-only --results "$dir/run" >"$out" 2>&1
    rc=$?
    cat "$out"
    [ $rc -eq 1 ] || fail "exit $rc, expected 1 for an unexplained difference"
    grep -q '^UNEXPLAINED ' "$out" || fail "no UNEXPLAINED row"
    grep -q 'harness: hipErrorInvalidValue' "$out" || fail "the harness's answer is not shown"
    tail -1 "$out" | grep -q ' 1 unexplained, ' || fail "the summary does not count it"
    ;;
no-rocm)
    PEER_HARNESS_ROCM_HIP=/nonexistent/libamdhip64.so.5 \
        "$bin" differential --machine "$machine" --results "$dir/run" >"$out" 2>&1
    rc=$?
    cat "$out"
    [ $rc -eq 2 ] || fail "exit $rc, expected 2"
    grep -q "cannot load ROCm's HIP (/nonexistent/libamdhip64.so.5)" "$out" || fail "no clear error"
    ;;
no-gpu)
    "$bin" differential --machine "$machine" --results "$dir/run" >"$out" 2>&1
    rc=$?
    cat "$out"
    [ $rc -eq 2 ] || fail "exit $rc, expected 2"
    grep -q "ROCm's HIP lists no GPU on this machine" "$out" || fail "no clear error"
    ;;
*) fail "unknown mode $mode" ;;
esac
echo "ok: $mode on $machine"
