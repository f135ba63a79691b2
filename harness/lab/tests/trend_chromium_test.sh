#!/usr/bin/env bash
# peer-harness trend over five simulated nights of mixed-4: nights 1-3 and 5
# faithful, night 4 on a newer simulated kernel (6.12) under the K01 fault
# (copies of >= 4 MiB from gpu0 to gpu1 lose their tail). trend.html, as
# headless Chromium builds it, must mark the change point at night 4 and only
# there (family memcpy-peer/copy and pair 0>1 started failing), with the
# fingerprint fields that differ from night 3 (the kernel release, the fault
# scenario); the 0>1 chart must show night 4 failing, five GB/s points and the
# link peak. The CSV files must say the same. Screenshot and DOM stay in OUT.
# usage: trend_chromium_test.sh PEER_HARNESS MACHINES_DIR TEST_DATA OUT
set -euo pipefail
harness=$1 machines=$2 data=$3 out=$4
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (ci/install-deps)"; exit 1; }
rm -rf "$out" && mkdir -p "$out/nights"
fail() { echo "FAIL: $*"; exit 1; }
# The kernel under test moves to 6.12 on night 4: the same box, a newer kernel.
sed -e 's/^name: mixed-4$/name: mixed-4-k6.12/' -e 's/^  version: "6.10"$/  version: "6.12"/' \
  "$machines/mixed-4.yaml" >"$out/mixed-4-k6.12.yaml"
grep -q '^  version: "6.12"$' "$out/mixed-4-k6.12.yaml" || fail "could not derive the 6.12 machine"
spec='memcpy-peer/copy/pair=0>1/size=4Mi*,memcpy-peer/copy/pair=2>0/size=4Mi*,can-access-peer/answer-matches-topology/*'
for n in 1 2 3 4 5; do
  args=(--machine mixed-4)
  [[ $n -eq 4 ]] && args=(--machine "$out/mixed-4-k6.12.yaml" --faults "$data/k01-narrow.yaml")
  rc=0
  "$harness" run "${args[@]}" --results "$out/nights/nightly-2026-12-0$n" "$spec" \
    >"$out/night-$n.txt" 2>&1 || rc=$?
  want=0; [[ $n -eq 4 ]] && want=1
  [[ $rc -eq $want ]] || fail "night $n exited $rc, expected $want"
done
"$harness" trend "$out/nights" -o "$out/trend" >"$out/trend.txt" 2>&1 || fail "trend exited $?"
html=$out/trend/trend.html
[[ -s $html ]] || fail "$html not written"
if grep -Eq '<script|(src|href)="?(https?:)?//' "$html"; then fail "trend.html has scripts or refers to the network"; fi
flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions
       --user-data-dir="$out/chromium-profile" --window-size=1400,1000)
chromium "${flags[@]}" --dump-dom "file://$html" >"$out/dom.html" 2>"$out/chromium-dom.log"
chromium "${flags[@]}" --screenshot="$out/trend.png" "file://$html" >"$out/chromium-shot.log" 2>&1
dom=$out/dom.html

# 1. One night with change points, night 4; night 5 only recovers.
[[ $(grep -o '<li class="change" data-night="[0-9]*"' "$dom" | sort -u) == '<li class="change" data-night="4"' ]] ||
  fail "change points not exactly at night 4: $(grep -o '<li class="change" data-night="[0-9]*"' "$dom" | tr '\n' ' ')"
grep -q '<li class="change" data-kind="family-failing" data-subject="memcpy-peer/copy">family memcpy-peer/copy started failing' "$dom" ||
  fail "family memcpy-peer/copy not marked as starting to fail"
grep -q '<li class="change" data-kind="pair-failing" data-subject="0&gt;1">pair 0&gt;1 started failing' "$dom" ||
  fail "pair 0>1 not marked as starting to fail"
grep -q '<li class="recovered" data-night="5">' "$dom" || fail "night 5's recovery not shown"
# 2. The fingerprint fields that differ between nights 3 and 4.
night4=$(sed -n '/<li class="change" data-night="4">/,/<\/li>$/p' "$dom")
grep -q 'Fingerprint fields that differ from night 3 (nightly-2026-12-03)' <<<"$night4" || fail "no comparison with night 3"
grep -q '<li data-field="kernel_release"><code>kernel_release</code>: 6.10.0-amdgpu-sim → 6.12.0-amdgpu-sim</li>' <<<"$night4" ||
  fail "kernel release change not shown"
grep -q '<li data-field="simulator.faults"><code>simulator.faults</code>: (none) → k01-narrow.yaml</li>' <<<"$night4" ||
  fail "fault scenario not shown"
# 3. The nights table highlights night 4 only.
[[ $(grep -o '<tr class="change" data-night="[0-9]*">' "$dom") == '<tr class="change" data-night="4">' ]] ||
  fail "nights table does not highlight night 4 alone"
# 4. The 0>1 chart: outcome per night, the change line, GB/s per night and the peak.
svg=$(sed -n 's/.*\(<svg class="pair" data-pair="0&gt;1".*\)/\1/p' "$dom" | sed 's|</svg>.*||')
[[ -n $svg ]] || fail "no chart for pair 0>1"
[[ $(grep -o 'class="night [a-z-]*" data-night="[0-9]"' <<<"$svg" | tr '\n' ' ') == \
   'class="night pass" data-night="1" class="night pass" data-night="2" class="night pass" data-night="3" class="night fail" data-night="4" class="night pass" data-night="5" ' ]] ||
  fail "0>1 outcomes per night wrong: $(grep -o 'class="night [a-z-]*" data-night="[0-9]"' <<<"$svg" | tr '\n' ' ')"
[[ $(grep -o '<line class="change" data-night="[0-9]"' <<<"$svg") == '<line class="change" data-night="4"' ]] ||
  fail "0>1 chart lacks the change line at night 4"
[[ $(grep -o '<circle class="gbps" data-night="[0-9]" data-gbps="[0-9.]*"' <<<"$svg" | wc -l) -eq 5 ]] ||
  fail "0>1 chart does not have five GB/s points"
grep -q '<path class="peak"' <<<"$svg" || fail "0>1 chart lacks the link peak"
grep -q '<text x="4" y="11">0 → 1 (xgmi)</text>' <<<"$svg" || fail "0>1 chart lacks its title"
grep -q 'GB/s SIMULATED' "$dom" || fail "simulated GB/s not labelled"
# 5. CSV for dashboards.
grep -q '^4,nightly-2026-12-04,0>1,0,1,fail,fail,2,3,0,0,[0-9.]*,xgmi,50.0,[0-9.]*,simulated$' "$out/trend/trend.csv" ||
  fail "trend.csv lacks night 4's failing 0>1 row"
[[ $(grep -c '^[0-9],nightly' "$out/trend/trend.csv") -eq 5*$(grep -c '^1,nightly' "$out/trend/trend.csv") ]] ||
  fail "trend.csv does not have the same pairs every night"
grep -q '^4,nightly-2026-12-04,nightly-2026-12-03,family-failing,memcpy-peer/copy,0 -> 3 of 6 failing,.*kernel_release: 6.10.0-amdgpu-sim -> 6.12.0-amdgpu-sim' \
  "$out/trend/trend-changes.csv" || fail "trend-changes.csv lacks night 4's change"
grep -q '^4,nightly-2026-12-04,memcpy-peer/copy,fail,3,3,0,0$' "$out/trend/trend-families.csv" ||
  fail "trend-families.csv lacks night 4's family row"
python3 - "$out/trend.png" <<'PY' || fail "screenshot is not a PNG of the window size"
import struct, sys
d = open(sys.argv[1], 'rb').read(24)
assert d[:8] == b'\x89PNG\r\n\x1a\n'
w, h = struct.unpack('>II', d[16:24])
assert (w, h) == (1400, 1000), (w, h)
PY
echo "OK: five nights, the change point at night 4 with the kernel and fault that changed; screenshot $out/trend.png"
