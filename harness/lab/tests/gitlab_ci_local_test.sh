#!/usr/bin/env bash
# ci/gitlab-ci.yml really runs: gitlab-ci-local (shell executor) runs its
# shard jobs (machine types x shards, parallel: matrix), merge jobs and pages
# job against the simulator in a throw-away repository; every merged run must
# equal the unsharded run of the same machine, the pipeline gates on the
# baseline, and the pages job's artifacts hold report.html and trend.html of
# every machine type, the trend growing by one night per pipeline
# (PEER_HISTORY), also after a night that regressed.
# usage: gitlab_ci_local_test.sh SOURCE_DIR PEER_HARNESS TEST_DATA OUT
set -euo pipefail
src=$1 harness=$2 data=$3 out=$4
command -v gitlab-ci-local >/dev/null || { echo "FAIL: gitlab-ci-local not installed (ci/install-deps)"; exit 1; }
rm -rf "$out" && mkdir -p "$out/repo/cases" "$out/repo/expectations"
cd "$out/repo"
git init -q
cp "$src/ci/gitlab-ci.yml" .gitlab-ci.yml
cp "$data/lab-selftest.yaml" "$src/cases/can-access-peer.yaml" cases/
for m in mixed-4 mi300x-8; do
  printf '# the self-test suite fails on purpose\nlab/fail-a,Fail\nlab/fail-b,Fail\nlab/crash,Crash\n' \
    >"expectations/$m-fails.txt"
done
git add -A && git -c user.name=t -c user.email=t@localhost commit -qm "lab pipeline test"

common=(--variable PEER_HARNESS="$harness" --variable PEER_HARNESS_PREBUILT=1
        --variable PEER_CASES=cases --variable PEER_RETRIES=0 --variable PEER_HISTORY="$out/history")
pages=.gitlab-ci-local/artifacts/pages/public
# The pages job's artifacts: both pages per machine type, linked from the index;
# $1 = the verdict word report.html must open with, $2 = nights in trend.html.
check_pages() {
  for m in mixed-4 mi300x-8; do
    for f in report.html trend.html trend.csv; do
      [[ -s $pages/$m/$f ]] || { echo "FAIL: pages artifact $m/$f missing"; exit 1; }
    done
    grep -q "<li>$m: <a href=\"$m/report.html\">report</a>, <a href=\"$m/trend.html\">trend</a></li>" "$pages/index.html" ||
      { echo "FAIL: index.html does not link $m's pages"; exit 1; }
    grep -q "<div id=\"verdict\" class=\"verdict [a-z]*\"><strong>$1</strong>" "$pages/$m/report.html" ||
      { echo "FAIL: $m/report.html does not open with $1"; exit 1; }
    grep -q "<h1>peer-harness trend: $2 nights" "$pages/$m/trend.html" ||
      { echo "FAIL: $m/trend.html does not span $2 night(s)"; exit 1; }
    [[ $(ls "$out/history/$m" | wc -l) -eq $2 ]] || { echo "FAIL: history of $m does not hold $2 night(s)"; exit 1; }
  done
}
# 1. With the baseline: all shard and merge jobs run and pass.
rc=0
gitlab-ci-local "${common[@]}" --variable PEER_BASELINE=expectations >"$out/pipeline.txt" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || { tail -n 40 "$out/pipeline.txt"; echo "FAIL: pipeline with baseline exited $rc"; exit 1; }
for job in "shard: \[mixed-4,1\]" "shard: \[mixed-4,3\]" "shard: \[mi300x-8,2\]" "merge: \[mixed-4\]" "merge: \[mi300x-8\]" "pages"; do
  grep -q "$job.*finished" "$out/pipeline.txt" || { echo "FAIL: job '$job' did not finish"; exit 1; }
done
check_pages PASS 1
# 2. Merged == unsharded, per machine type.
for m in mixed-4 mi300x-8; do
  "$harness" run --machine "$m" --cases cases --baseline expectations --results "$out/whole-$m" \
    >"$out/whole-$m.txt" 2>&1
  python3 - "$out/whole-$m" "results/$m/merged" <<'PY'
import json, sys
def records(d):
    out = {}
    for line in open(d + "/results.jsonl"):
        j = json.loads(line)
        if j.get("event") == "end":
            for k in ("duration_s", "step_ms", "log", "event"):  # step_ms: measured
                j.pop(k, None)
            for c in j.get("copies", []):  # measured times differ run to run
                c.pop("ns", None)
                c.pop("gbps", None)
            out[j["name"]] = j
    return out
def verdicts(d):
    return {v["name"]: (v["status"], v["verdict"]) for v in json.load(open(d + "/lab.json"))["verdicts"]}
a, b = records(sys.argv[1]), records(sys.argv[2])
assert len(a) > 10, len(a)
assert a == b, {k for k in set(a) | set(b) if a.get(k) != b.get(k)}
assert verdicts(sys.argv[1]) == verdicts(sys.argv[2])
print(f"{sys.argv[2]}: {len(b)} instances, equal to the unsharded run")
PY
done
# 3. Without the baseline the same pipeline fails (the merge jobs gate).
rc=0
gitlab-ci-local "${common[@]}" >"$out/pipeline-nobaseline.txt" 2>&1 || rc=$?
[[ $rc -ne 0 ]] || { echo "FAIL: pipeline without baseline passed"; exit 1; }
# ... and still publishes: the failing night's report, a trend of two nights in
# which the self-test's failures (expected the night before) start failing.
check_pages FAIL 2
grep -q '<li class="change" data-kind="family-failing" data-subject="lab/fail-a">' "$pages/mixed-4/trend.html" ||
  { echo "FAIL: trend.html does not mark lab/fail-a as starting to fail"; exit 1; }
echo "OK: shard x machine jobs, merges and pages ran; merged == unsharded; the gate follows the baseline; report.html and trend.html published"
