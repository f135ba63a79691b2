#!/usr/bin/env bash
# report.html rendered by Debian's headless Chromium: a run under the K01
# fault (gpu1 drops copy tails) must show a heat map per case family and the
# failing instance with its first mismatching byte, and the passing pair's
# GB/s with its % of the link peak. The screenshot and the
# dumped DOM stay in OUT for inspection.
# usage: html_chromium_test.sh PEER_HARNESS AMDGPU_SIM TEST_DATA OUT
set -euo pipefail
harness=$1 sim=$2 data=$3 out=$4
command -v chromium >/dev/null || { echo "FAIL: chromium is not installed (ci/install-deps)"; exit 1; }
rm -rf "$out" && mkdir -p "$out"
"$sim" --machine mixed-4 --faults "$data/k01-narrow.yaml" -- "$harness" run --results "$out/R" \
  'memcpy-peer/copy/pair=0>1/size=4Mi*,memcpy-peer/copy/pair=2>0/size=4Mi*' >"$out/run.txt" 2>&1 || true
html=$out/R/report.html
[[ -s $html ]] || { echo "FAIL: $html not written"; exit 1; }
if grep -Eq '(src|href)="?(https?:)?//' "$html"; then echo "FAIL: report refers to the network"; exit 1; fi
flags=(--headless --no-sandbox --disable-gpu --no-first-run --disable-extensions
       --user-data-dir="$out/chromium-profile")
chromium "${flags[@]}" --dump-dom "file://$html" >"$out/dom.html" 2>"$out/chromium-dom.log"
chromium "${flags[@]}" --window-size=1400,1000 --screenshot="$out/report.png" "file://$html" \
  >"$out/chromium-shot.log" 2>&1
fail() { echo "FAIL: $*"; exit 1; }
grep -q 'class="heat" data-family="memcpy-peer/copy"' "$out/dom.html" || fail "no heat map for memcpy-peer/copy"
# pair 0>1 fails (red cell), pair 2>0 passes (green cell)
grep -q 'class="bad" title="0 pass, 3 fail, 0 skip"' "$out/dom.html" || fail "no failing heat-map cell"
grep -q 'class="good" title="3 pass, 0 fail, 0 skip"' "$out/dom.html" || fail "no passing heat-map cell"
grep -q 'memcpy-peer/copy/pair=0&gt;1/size=4Mi' "$out/dom.html" || fail "failing instance missing"
grep -Eq '[0-9]+ \(0x[0-9a-f]+\), expected 0x[0-9a-f]+, got 0x[0-9a-f]+' "$out/dom.html" || fail "first mismatching byte missing"
grep -q 'AMD Instinct MI210' "$out/dom.html" || fail "fingerprint missing"
# The passing PCIe pair's cell carries its fastest copy's GB/s and share of
# the link's peak (KFD on mixed-4: 32 GB/s from gpu0, 64 GB/s from gpu2,
# which engine ran the fastest copy varies); the figures are the
# simulator's and the caption must say so.
grep -Eq 'class="good" title="3 pass, 0 fail, 0 skip" data-gbps="[0-9]+\.[0-9]{3}"' "$out/dom.html" ||
  fail "no GB/s on the passing cell"
grep -Eq '<span class="bw">[0-9]+\.[0-9]{2} GB/s</span><br><span class="pct">[0-9]+% of (32|64)</span>' \
  "$out/dom.html" || fail "GB/s and % of link peak not rendered"
grep -q 'GB/s SIMULATED' "$out/dom.html" || fail "simulated figures not labelled"
# bandwidth.csv: the direct copies on the SDMA timestamp clock, labelled simulated.
grep -Eq '^memcpy-peer/copy/pair=2>0/[^,]*peer_mode=enabled/path=drm,[0-9]+,2,0,[0-9]+,[0-9]+,[0-9.]+,sdma-timestamp,pcie,[0-9.]+,[0-9.]+,simulated$' \
  "$out/R/bandwidth.csv" || fail "bandwidth.csv lacks the timestamped PCIe copy"
[[ -s $out/report.png ]] || fail "no screenshot"
python3 - "$out/report.png" <<'PY' || fail "screenshot is not a PNG of the window size"
import struct, sys
d = open(sys.argv[1], 'rb').read(24)
assert d[:8] == b'\x89PNG\r\n\x1a\n'
w, h = struct.unpack('>II', d[16:24])
assert (w, h) == (1400, 1000), (w, h)
PY
echo "OK: heat map with GB/s, failing instance and fingerprint rendered; screenshot $out/report.png"
