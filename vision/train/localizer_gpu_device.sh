#!/usr/bin/env bash
# localizer_gpu.sh as one command on a lent GPU machine whose run returns only what is written under $OUT, and may
# stop the command at its time limit. It installs the carried ultralytics wheels, runs localizer_gpu.sh (all its
# knobs pass through the environment) and copies best.pt / last.pt (optimizer stripped, ~5.5 MB) and results.csv to
# $OUT every 25 s while it trains, so a run stopped at its limit still returns weights. Session 23's run:
#
#     OUT=... NAME=gpu23 HOURS=0.09 LR0=0.0004 SEEDS_640="231 ... 242" N_640=500 P_STANDING=0.6 P_HEAP=0.15 \
#         SCALE=0.7 bash vision/train/localizer_gpu_device.sh
#
# Session 30's runs (gpu30, then gpu30c from its last.pt; gpu30c is the committed models/localizer.onnx, item 16 of
# models/localizer.md), 7.5 and 4 minutes on an H200:
#
#     OUT=... NAME=gpu30 HOURS=0.1 LR0=0.0004 REPEAT=5 SEEDS_640="501 ... 512" N_640=500 P_STANDING=0.6 P_HEAP=0.15 \
#         SCALE=0.7 JOBS=8 BATCH=64 WORKERS=14 bash vision/train/localizer_gpu_device.sh
#     OUT=... NAME=gpu30c INIT=runs/localizer/gpu30/weights/last.pt HOURS=0.045 LR0=0.0002 (the rest the same) ...
#
# carrying .whl (ultralytics 8.4.190, ultralytics-thop, ultralytics-platform wheels: pip download --no-deps) and
# .carry/shared (a copy of ../shared with data/hk-photos/train and art/ only, ~38 MB: ../shared does not travel).
# LOCAL=1 skips the install (a smoke test on a CPU machine with DIV=100 and a small HOURS).
set -u
PY=${PY:-python3}
if [ -z "${LOCAL:-}" ]; then
    $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/site
    nvidia-smi -L
fi
export MAHJONG_SHARED=${MAHJONG_SHARED:-$PWD/.carry/shared} PYTHONUNBUFFERED=1
export NAME=${NAME:-gpu23}
OUT=${OUT:?set OUT to the folder whose files come back}
W=runs/localizer/$NAME/weights
snap() {
    for f in best last; do
        [ -f "$W/$f.pt" ] || continue
        # a copy first: ultralytics may be writing the file; a half-written copy fails to load and waits for the next turn
        cp "$W/$f.pt" "/tmp/snap_$f.pt" && \
        $PY -c "import sys; from ultralytics.utils.torch_utils import strip_optimizer as s; s(sys.argv[1])" \
            "/tmp/snap_$f.pt" >/dev/null 2>&1 && \
        mv "/tmp/snap_$f.pt" "$OUT/$f.pt"
    done
    cp "runs/localizer/$NAME/results.csv" "$OUT/" 2>/dev/null
    return 0
}
( while true; do sleep 25; snap; done ) &
LOOP=$!
start=$(date +%s)
bash "$(dirname "$0")/localizer_gpu.sh" > "$OUT/train.log" 2>&1
echo "train rc=$? after $(( $(date +%s) - start )) s"
kill $LOOP 2>/dev/null
snap
grep -a "wrote\|epochs completed\|Error" "$OUT/train.log" | tail -40
ls -la "$OUT"
