#!/usr/bin/env bash
# report.html rendered by Debian's headless Chromium, on a run under the K01
# fault (copies of >= 4 MiB from gpu0 to gpu1 lose their tail): the first
# screen must show the verdict naming the failing pair, the status matrix
# with that pair's cell failing and linked to its instances, and the
# bandwidth matrix; then the failing instances with their reproducer (which
# must reproduce), the manifest's product names, the fingerprint and the
# per-family maps folded. Checks the DOM Chromium built (and, for "first
# screen", the layout it computed), not the file. The screenshot, the dumped
# DOM and the layout probe stay in OUT.
# usage: html_chromium_test.sh PEER_HARNESS TEST_DATA OUT
set -euo pipefail
harness=$1 data=$2 out=$3
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (ci/install-deps)"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
rc=0
"$harness" run --machine mixed-4 --faults "$data/k01-narrow.yaml" --results "$out/R" \
  'memcpy-peer/copy/pair=0>1/size=4Mi*,memcpy-peer/copy/pair=2>0/size=4Mi*,can-access-peer/answer-matches-topology/*' \
  >"$out/run.txt" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "the run under K01 exited $rc, expected 1 (failures)"
html=$out/R/report.html
[[ -s $html ]] || fail "$html not written"
if grep -Eq '<script|(src|href)="?(https?:)?//' "$html"; then fail "report has scripts or refers to the network"; fi

flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions
       --user-data-dir="$out/chromium-profile" --window-size=1400,1000)
chromium "${flags[@]}" --dump-dom "file://$html" >"$out/dom.html" 2>"$out/chromium-dom.log"
chromium "${flags[@]}" --screenshot="$out/report.png" "file://$html" >"$out/chromium-shot.log" 2>&1
# The layout: a copy of the page with a probe that writes where each part
# ended up (the report itself has no scripts).
{ cat "$html"; cat <<'JS'
<script>
const rows = [];
for (const id of ["verdict", "status-matrix", "bandwidth-matrix"]) {
  const r = document.getElementById(id).getBoundingClientRect();
  rows.push(id + (r.bottom <= window.innerHeight && r.height > 0 ? " first-screen" : " below"));
}
const p = document.createElement("pre"); p.id = "probe"; p.textContent = rows.join("\n");
document.body.appendChild(p);
</script>
JS
} >"$out/probe.html"
chromium "${flags[@]}" --dump-dom "file://$out/probe.html" >"$out/probe-dom.html" 2>>"$out/chromium-dom.log"
sed -n '/<pre id="probe">/,/<\/pre>/p' "$out/probe-dom.html" | sed 's/.*<pre id="probe">//; s/<\/pre>.*//' >"$out/probe.txt"
for id in verdict status-matrix bandwidth-matrix; do
  grep -qx "$id first-screen" "$out/probe.txt" || fail "#$id is not on the first screen"
done

dom=$out/dom.html
# 1. The verdict names the failing pair and family.
grep -Eq '<div id="verdict" class="verdict bad"><strong>FAIL</strong>: 3 of [0-9]+ instances failed\. Failing pairs: <a href="#pair-0-1">0→1</a> \(3\)\. Families: memcpy-peer/copy \(3\)' "$dom" ||
  fail "verdict does not name pair 0→1 and memcpy-peer/copy"
# 2. Status matrix: 0>1 failing, linked to its instances; every other pair passing.
grep -q '<td class="bad" data-pair="0&gt;1" title="[^"]*"><a href="#pair-0-1">fail<br><span class="n">3/[0-9]*</span></a></td>' "$dom" ||
  fail "pair 0>1 not highlighted in the status matrix"
status=$(sed -n 's/.*\(<table id="status-matrix".*\)/\1/p' "$dom" | sed 's|</table>.*||')
[[ $(grep -o 'class="bad"' <<<"$status" | wc -l) -eq 1 ]] || fail "more than one failing cell"
[[ $(grep -o 'class="good"' <<<"$status" | wc -l) -eq 15 ]] || fail "expected 15 passing cells (16 pairs on mixed-4)"
# 3. Bandwidth matrix: GB/s, % of the link peak and link type per pair, simulated.
grep -Eq '<td class="link-pcie" data-gbps="[0-9.]+" data-link="pcie" [^>]*><span class="bw">[0-9]+\.[0-9]{2} GB/s</span><br><span class="pct">[0-9]+% of (32|64)</span>' "$dom" ||
  fail "PCIe pair 2>0 has no GB/s with % of peak"
grep -Eq '<td class="link-xgmi" data-gbps="[0-9.]+" data-link="xgmi"' "$dom" || fail "XGMI pair 0>1 has no GB/s"
grep -q 'SIMULATED: amdgpu-sim' "$dom" || fail "simulated figures not labelled"
grep -Eq '<li class="link-pcie" data-link="pcie">pcie: 1 pair\(s\), [0-9.]+ GB/s' "$dom" || fail "no per-link-type line"
# 4. Product names from the manifest (libdrm calls both Navi31 boards "AMD Radeon Graphics").
grep -q '<th title="AMD Radeon PRO W7900">2<br><span class="dev">Radeon PRO W7900</span></th>' "$dom" ||
  fail "matrix header lacks the manifest's product name"
# 5. Failing instances first under their pair, each with a reproducer that reproduces.
grep -q '<tbody id="pair-0-1"><tr class="group"><th colspan="6">pair 0 → 1: 3 instance(s)</th></tr>' "$dom" ||
  fail "no failing-instance group for pair 0 → 1"
grep -Eq '[0-9]+ \(0x[0-9a-f]+\), expected 0x[0-9a-f]+, got 0x[0-9a-f]+' "$dom" || fail "first mismatching byte missing"
repro=$(sed -n 's/.*<code class="repro">\([^<]*\)<\/code>.*/\1/p' "$dom" | head -n 1 |
        sed 's/&gt;/>/g; s/&lt;/</g; s/&quot;/"/g; s/&amp;/\&/g')
[[ $repro == "peer-harness run --machine mixed-4 --faults $data/k01-narrow.yaml "* ]] || fail "reproducer: $repro"
rc=0
(cd "$out" && eval "\"$harness\" ${repro#peer-harness } --results repro") >"$out/repro.txt" 2>&1 || rc=$?
[[ $rc -eq 1 ]] && grep -q '^1 instances: 0 passed, 1 failed' "$out/repro.txt" ||
  fail "the reproducer did not fail exactly one instance (exit $rc)"
# 6. The failing section comes before the fingerprint and the folded families.
order=$(grep -o 'id="verdict"\|id="status-matrix"\|id="bandwidth-matrix"\|id="failing"\|id="fingerprint"\|id="families"' "$dom" | tr '\n' ' ')
[[ $order == 'id="verdict" id="status-matrix" id="bandwidth-matrix" id="failing" id="fingerprint" id="families" ' ]] ||
  fail "sections out of order: $order"
grep -q '<details class="family" data-family="memcpy-peer/copy"><summary class="fail">' "$dom" || fail "family memcpy-peer/copy not folded"
grep -q '<details[^>]* open' "$dom" && fail "a family table is unfolded"
grep -q 'class="heat" data-family="memcpy-peer/copy"' "$dom" || fail "no heat map for memcpy-peer/copy"
grep -q '<th>kernel_release</th><td>6.10.0-amdgpu-sim</td>' "$dom" || fail "fingerprint lacks the simulated kernel"
# 7. The screenshot: a PNG of the window.
python3 - "$out/report.png" <<'PY' || fail "screenshot is not a PNG of the window size"
import struct, sys
d = open(sys.argv[1], 'rb').read(24)
assert d[:8] == b'\x89PNG\r\n\x1a\n'
w, h = struct.unpack('>II', d[16:24])
assert (w, h) == (1400, 1000), (w, h)
PY
echo "OK: verdict and both matrices on the first screen, pair 0>1 highlighted and reproduced; screenshot $out/report.png"
