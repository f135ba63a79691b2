#!/usr/bin/env bash
# ci/lava/lava-publish as the LAVA test shell runs it, with the LAVA helpers
# and curl replaced by recorders: two nights already kept in the history, a
# third run on the simulator; the trend must span three nights, each page be
# POSTed with the token from the job's secrets file (found beside the
# helpers' bin/), and each URL the server answers be recorded with
# lava-test-reference. A server that refuses turns into failed test cases.
# usage: lava_publish_test.sh SOURCE_DIR PEER_HARNESS TEST_DATA OUT
set -euo pipefail
src=$1 harness=$2 data=$3 out=$4
rm -rf "$out" && mkdir -p "$out/lava/bin" "$out/history"
fail() { echo "FAIL: $*"; exit 1; }
for n in 1 2 3; do
  dest=$out/history/2026120${n}T0300Z-$n
  [[ $n -eq 3 ]] && dest=$out/peer-results
  "$harness" run --machine mixed-4 --cases "$data/lab-selftest.yaml" --results "$dest" 'lab/pass-*' \
    >"$out/run-$n.txt" 2>&1 || fail "run $n exited $?"
done
# The overlay: LAVA's helpers in bin/, the job's secrets beside it.
echo 'ARTIFACT_TOKEN=s3cret-from-secrets' >"$out/lava/secrets"
for h in lava-test-case lava-test-reference; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/lava-calls.txt"\n' "$h" "$out" >"$out/lava/bin/$h"
done
# curl: records its arguments; answers with a URL unless told to refuse.
cat >"$out/lava/bin/curl" <<SH
#!/bin/sh
echo "curl \$*" >>"$out/curl-calls.txt"
[ -n "\${CURL_REFUSE:-}" ] && exit 22
for a in "\$@"; do case \$a in path=@*) echo "https://artifacts.example/peer/\$(basename "\${a#path=@}")";; esac; done
SH
chmod +x "$out/lava/bin/"*
export PATH="$out/lava/bin:$PATH" PEER_HARNESS="$harness" UPLOAD_URL=https://artifacts.example/upload/
(cd "$out" && "$src/ci/lava/lava-publish" peer-results "$out/history") >"$out/publish.txt" 2>&1 ||
  fail "lava-publish exited $? ($(tail -n 3 "$out/publish.txt"))"
grep -q '<h1>peer-harness trend: 3 nights' "$out/peer-results/trend/trend.html" || fail "trend does not span three nights"
[[ $(ls "$out/history" | wc -l) -eq 3 ]] || fail "this run was not added to the history"
[[ ! -e $(ls -d "$out"/history/*-local)/logs ]] || fail "the history copy kept the logs"
for page in report.html trend.html; do
  grep -q "curl -sSf -F path=@.*/$page -F token=s3cret-from-secrets https://artifacts.example/upload/" "$out/curl-calls.txt" ||
    fail "$page not POSTed with the secrets' token"
done
grep -q '^lava-test-reference peer-harness-report --result pass --reference https://artifacts.example/peer/report.html$' "$out/lava-calls.txt" ||
  fail "report.html not referenced"
grep -q '^lava-test-reference peer-harness-trend --result pass --reference https://artifacts.example/peer/trend.html$' "$out/lava-calls.txt" ||
  fail "trend.html not referenced"
# A refusing server: both pages become failed test cases, nothing is referenced.
rm -f "$out/lava-calls.txt"
(cd "$out" && CURL_REFUSE=1 "$src/ci/lava/lava-publish" peer-results) >"$out/publish-refused.txt" 2>&1 ||
  fail "lava-publish stopped on a refusing server"
[[ $(cat "$out/lava-calls.txt") == $'lava-test-case peer-harness-report --result fail\nlava-test-case peer-harness-trend --result fail' ]] ||
  fail "a refused upload is not a failed test case: $(cat "$out/lava-calls.txt")"
echo "OK: trend over three nights; report.html and trend.html uploaded and referenced in LAVA"
