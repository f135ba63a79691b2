#!/usr/bin/env bash
# Bisection end to end under the simulator: a throw-away repository whose
# commits change the fault scenario; commit 4 of 7 introduces a narrow one
# (K01 on gpu1 of mixed-4). `git bisect run peer-harness bisect-run` must
# name commit 4; bisect-report must name it, list failing instances and give
# a shrunk reproducer (smaller instance, fewer steps) that still fails when
# its command is run, and (bisect-run --differential) which runtime each
# failure belongs to.
# usage: bisect_e2e_test.sh PEER_HARNESS TEST_DATA OUT
set -euo pipefail
harness=$1 data=$2 out=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out" && mkdir -p "$out/repo"
cd "$out/repo"
git init -q
g() { git -c user.name=lab -c user.email=lab@localhost "$@"; }
clean='description: faithful model
faults: []
'
for i in 1 2 3 4 5 6 7; do
  if (( i < 4 )); then printf '%s' "$clean" >faults.yaml; else cp "$data/k01-narrow.yaml" faults.yaml; fi
  echo "change $i" >>history.txt
  g add -A && g commit -qm "commit $i$( ((i == 4)) && echo ': copy engine tail handling' )"
done
good=$(git rev-list --max-parents=0 HEAD)  # (no `| head`: SIGPIPE under pipefail)
culprit=$(git rev-list --reverse HEAD | sed -n 4p)
spec='memcpy-peer/copy/pair=0>1/*,memcpy-peer/copy/pair=2>0/*'
g bisect start HEAD "$good" >/dev/null
g bisect run "$harness" bisect-run --steps "$out/steps" --machine mixed-4 --faults faults.yaml --differential \
  --repo . "$spec" >"$out/bisect-run.txt" 2>&1 || fail "git bisect run failed: $(tail -n 5 "$out/bisect-run.txt")"
g bisect log >"$out/bisect.log"
grep -q "^# first bad commit: \[$culprit\]" "$out/bisect.log" || fail "bisect did not find commit 4 ($culprit)"
# Every tested commit kept its results and verdict.
n=$(ls "$out/steps" | wc -l)
(( n >= 2 )) || fail "only $n step directories"
for d in "$out"/steps/*/; do [[ -f $d/bisect-step.json && -f $d/results/results.jsonl ]] || fail "step $d incomplete"; done
g bisect reset >/dev/null 2>&1
git checkout -q "$culprit"
"$harness" bisect-report --log "$out/bisect.log" --steps "$out/steps" --repo . -o "$out/report" \
  >"$out/bisect-report.txt" 2>&1 || fail "bisect-report exited $?"
md="$out/report".md
grep -q "First bad commit:\*\* \`$culprit\` commit 4: copy engine tail handling" "$md" || fail "report does not name commit 4"
grep -q '^- `memcpy-peer/copy/pair=0>1/size=4Mi' "$md" || fail "report lists no failing 0>1 instance"
if grep -q '^- `memcpy-peer/copy/pair=2>0' "$md"; then fail "a passing pair is listed as failing"; fi
shrunk=$(awk '/^## Smallest failing instance/{on=1; next} on && /^`/{gsub("`", ""); print; exit}' "$md")
[[ -n $shrunk ]] || fail "no shrunk instance"
grep -q 'failed 3 of 3 confirmation re-runs' "$md" || fail "shrunk instance did not fail every confirmation"
grep -q 'id="shrunk"' "$out/report.html" || fail "HTML report lacks the shrunk instance"
# --differential: the bad steps also ran the selection through ROCm's HIP; the
# K01 fault breaks its copies too, so the report places the failures with
# both runtimes (the kernel), in Markdown and HTML.
[[ -f "$out/steps/$culprit/differential/differential.json" ]] || fail "no differential run at the culprit"
grep -q '^## Which runtime' "$md" || fail "report has no 'Which runtime' section"
grep -Eq '^\| `memcpy-peer/copy/pair=0>1/[^`]*` \| both runtimes \|' "$md" ||
  fail "a 0>1 failure is not placed with both runtimes: $(grep -A4 '^## Which runtime' "$md")"
grep -q 'id="runtime-verdicts"' "$out/report.html" || fail "HTML report lacks the runtime verdicts"
# Fewer steps: memcpy-peer/copy's `verify: src` cannot matter to a tail lost
# on the destination, so at least it goes, and the reproducer runs the
# generated case file (kept under the steps dir) instead of the suite.
grep -Eq 'and [1-9][0-9]* of 7 steps removed' "$md" || fail "no step removed: $(grep -A3 '^## Smallest' "$md")"
steps_file=$(grep -o "The reproducer runs \`[^\`]*\`" "$md" | sed 's/.*`\(.*\)`/\1/')
[[ -f $steps_file && $steps_file == "$out/steps/"* ]] || fail "no generated case file under the steps dir ($steps_file)"
grep -q 'verify: src' "$steps_file" && fail "the non-essential 'verify: src' step is still in $steps_file"
grep -q 'verify: dst' "$steps_file" || fail "the failing 'verify: dst' step was removed from $steps_file"
grep -q 'id="steps-file"' "$out/report.html" || fail "HTML report does not name the case file"
# The reproducer really reproduces: run the command from the report.
cmd=$(sed -n '/^```sh$/,/^```$/p' "$md" | sed '1d;$d')
[[ -n $cmd ]] || fail "no reproducing command"
[[ $cmd == *"--cases $steps_file"* ]] || fail "the reproducer does not run the generated case file: $cmd"
rc=0; (cd "$out/repo" && eval "$cmd") >"$out/repro.txt" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "reproducer exited $rc, expected 1 (fails)"
# ... and runs exactly that one instance (the bisect run's own test specs are
# not carried into it).
grep -q "^1 instances: 0 passed, 1 failed" "$out/repro.txt" ||
  fail "the reproducer did not run exactly the shrunk instance: $(grep instances: "$out/repro.txt")"
grep -q "fail .*${shrunk%%/src_offset*}" "$out/repro-results/summary.txt" 2>/dev/null ||
  grep -q "${shrunk%%/src_offset*}" "$out/repo/repro-results/summary.txt" || fail "reproducer did not run $shrunk"
# The skip rule: a machine that promises 4 GPUs and came up without amdgpu
# cannot judge (125); with the driver but fewer GPUs, a GPU vanished (1).
sel=(--cases "$data/lab-selftest.yaml" lab/pass-a)
rc=0; "$harness" bisect-run --steps "$out/rule" --machine no-gpu --expect-gpus 4 "${sel[@]}" >"$out/rule.txt" 2>&1 || rc=$?
[[ $rc -eq 125 ]] || fail "no amdgpu at all: exit $rc, expected 125"
rc=0; "$harness" bisect-run --steps "$out/rule" --machine one-gpu --expect-gpus 4 "${sel[@]}" >>"$out/rule.txt" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "GPU vanished: exit $rc, expected 1"
rc=0; "$harness" bisect-run --steps "$out/rule" --machine mixed-4 --expect-gpus 4 "${sel[@]}" >>"$out/rule.txt" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || fail "all GPUs, passing: exit $rc, expected 0"
echo "OK: culprit $culprit found; shrunk reproducer $shrunk fails; $(grep -o '[0-9]* of 7 steps removed' "$md")"
