#!/usr/bin/env bash
# The crop classifier continued on a lent GPU machine (16 cores, one GPU), as one command from the repo root whose
# run returns only what is written under $OUT and may be stopped at its time limit. Written in session 24 (no GPU
# then: smoke-tested on the CPU machine with LOCAL=1 DIV=40 HOURS=0.01); run in session 25 on an H200 with these
# defaults and INIT = q24 (`git show 6fa4f18:models/classifier.onnx > out/models/clf_q24.onnx`): 47 s of data, 30
# epochs in 6.6 minutes; run g1, and its mean with q24 was g2 (models/classifier.md). Session 26 ran it on the 2-core
# CPU machine (LOCAL=1 JOBS=2 WORKERS=2 HOURS=1.2 LR=0.0001, seeds 429-442, INIT = g2): 14 epochs, and its mean with g2
# is c1. Session 58 ran its crops with LOCAL=1 JOBS=2 and the run with WORKERS=0 BF16=1 LOW_RES_P=0.3 HOURS=1.5 from c1:
# 34 epochs; the run alone (out/c58/classifier.onnx, shrunk) is C58r. Session 59 ran the same from C58r on seeds
# 749-764 (29 epochs), and its mean with C58r, C59m, is the committed file since session 60 (models/classifier.md).
#
#     OUT=... NAME=gpucls INIT=out/models/clf_q24.onnx bash vision/train/classifier_gpu_device.sh
#
# carrying .carry/shared (a copy of ../shared with data/hk-photos/train, data/tile-crops and art/, ~46 MB: ../shared
# does not travel), made with
#
#     mkdir -p .carry/shared/data/hk-photos && cp -r ../shared/art .carry/shared/ && \
#         cp -r ../shared/data/tile-crops .carry/shared/data/ && cp -r ../shared/data/hk-photos/train \
#         ../shared/data/hk-photos/data.yaml .carry/shared/data/hk-photos/
#
# (the device's Python has torch, onnx, onnxruntime, OpenCV and tqdm, but not ultralytics, whose modules the classifier
# is built from: carry its wheel, pure Python, and install it first, as session 25 did on an H200 (torch 2.11 there):
#
#     echo /.whl/ >> .git/info/exclude; python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 \
#         --implementation cp --platform any -d .whl "ultralytics==8.3.253" ultralytics-thop
#     # the run's command then begins with
#     python3 -m pip install -q --no-index --no-deps --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site
#
# ). Why a GPU: on 2 CPU cores an epoch of q24's 204,000 crops takes 6-8 minutes, so every
# continuation so far saw 5-10 epochs; there the per-crop augmentation, not the net, bounds an epoch, so the
# training's --workers spreads it over the machine's cores.
#
# 1. Renders SEEDS (fresh seeds, 640 x 480, N scenes each, a share P_STANDING of standing rows: standing rows are
#    where the committed classifier loses most hands) in parallel and cuts each tile where the committed localiser
#    boxes it (vision.train.model_crops: the crops the reader will hand the classifier), plus hk-photos train (three
#    times, as q24) and tile-crops.
# 2. Continues INIT (default the committed models/classifier.onnx; --init-onnx) on them with q24's settings for HOURS,
#    copying runs/classifier/$NAME/last.pt to $OUT every 30 s, then exports $OUT/classifier.onnx (float32).
# 3. Averages that run with INIT weight by weight (vision.train.average) into $OUT/classifier_mean.onnx, shrunk to
#    float16 as the committed file: g2 (session 25) and the committed c1 (session 26) are such means
#    (models/classifier.md); the GPU run alone (g1) lost synthetic F1.
# Then, on the CPU machine: the adoption measures of models/classifier.md (hk-photos valid and synthetic F1 with
# bench/bench_recognition.py, development hands with bench/eval_hand_reading.py) under a rule written beforehand.
#
# LOCAL=1 skips the GPU check; DIV divides the scene counts (a smoke test).
set -euo pipefail
PY=${PY:-python3}
NAME=${NAME:-gpucls}
HOURS=${HOURS:-0.11}
SEEDS=${SEEDS:-"401 402 403 404 405 406 407 408 409 410 411 412 413 414"}  # first used in session 25 (g1)
N=${N:-250}
P_STANDING=${P_STANDING:-0.5}
# STYLED_SEEDS (a subset of SEEDS) are rendered with only the art styles of STYLES (comma-separated, see
# `python -m vision.synth generate --styles`): session 27 spent half its seeds on the styles whose characters the
# committed classifier misnames most (models/classifier.md)
STYLED_SEEDS=${STYLED_SEEDS:-}
STYLES=${STYLES:-}
JOBS=${JOBS:-14}
WORKERS=${WORKERS:-14}
BATCH=${BATCH:-256}
LR=${LR:-0.00015}
BF16=$([ "${BF16:-0}" = 1 ] && echo --bf16 || true)  # BF16=1: bfloat16 autocast on a CPU (session 58: 2.7x the crops per second on 2 cores)
LOW_RES_P=${LOW_RES_P:-0}  # share of crops shrunk to a small tile's pixels and enlarged back (session 57, C57)
EPOCHS=${EPOCHS:-60}
SYNTH_MAX=${SYNTH_MAX:-8000}
DIV=${DIV:-1}
INIT=${INIT:-models/classifier.onnx}
OUT=${OUT:?set OUT to the folder whose files come back}
export MAHJONG_SHARED=${MAHJONG_SHARED:-$PWD/.carry/shared} PYTHONUNBUFFERED=1
[ -z "${LOCAL:-}" ] && nvidia-smi -L
SYNTH_DIR=${SYNTH_DIR:-out/synth}
CROPS=${CROPS:-out/crops}
start=$(date +%s)

mkdir -p "$CROPS" "$OUT"  # the training log goes to $OUT before the trainer makes it
$PY -m datasets.hk_photos crops --split train --out "$CROPS/hk_train.npz" --copies 1 | tail -1
$PY -m datasets.tile_crops --out "$CROPS/tile_crops.npz" | tail -1
# held out, logged after each epoch only: seed 12 as the CPU runs log it (models/classifier.md)
$PY -m vision.synth crops --n $(( 100 / DIV )) --seed 12 --width 640 --height 480 --workers 2 \
    --out "$SYNTH_DIR/crops_s12_640" | tail -1
for s in $SEEDS; do
    case " $STYLED_SEEDS " in *" $s "*) echo "$s --styles $STYLES";; *) echo "$s";; esac
done | xargs -P "$JOBS" -L 1 sh -c \
    "$PY -m vision.synth generate --n $(( N / DIV )) --seed \$0 \$1 \$2 --width 640 --height 480 --p-standing $P_STANDING \
     --workers 1 --out $SYNTH_DIR/scenes_g\$0_640 2>&1 | tail -1 && \
     $PY -m vision.train.model_crops $SYNTH_DIR/scenes_g\$0_640 --threads 1 --out $SYNTH_DIR/mcrops_g\$0_640 2>&1 | tail -1"
echo "data ready after $(( $(date +%s) - start )) s"

SYNTH=""
for s in $SEEDS; do SYNTH="$SYNTH --synth-crops $SYNTH_DIR/mcrops_g${s}_640"; done
run=runs/classifier/$NAME
( while true; do sleep 30; [ -f "$run/last.pt" ] && cp "$run/last.pt" "$OUT/tmp_last.pt" && mv "$OUT/tmp_last.pt" \
    "$OUT/last.pt"; done ) &
LOOP=$!
trap 'kill $LOOP 2>/dev/null || true' EXIT
set +e
$PY -m vision.train.classifier --crops "$CROPS/hk_train.npz" "$CROPS/hk_train.npz" "$CROPS/hk_train.npz" \
    "$CROPS/tile_crops.npz" $SYNTH --monitor "$SYNTH_DIR/crops_s12_640" --synth-max "$SYNTH_MAX" --flower-copies 3 --character-copies 2 --backs 800 \
    --val "" --init-onnx "$INIT" --size 80 --freeze 0 --lr "$LR" --low-res-p "$LOW_RES_P" $BF16 --epochs "$EPOCHS" --hours "$HOURS" \
    --batch "$BATCH" --workers "$WORKERS" --seed 41 --name "$NAME" --out "$OUT/classifier.onnx" \
    > "$OUT/train.log" 2>&1
echo "train rc=$? after $(( $(date +%s) - start )) s"
[ -f "$run/last.pt" ] && cp "$run/last.pt" "$OUT/last.pt"
if [ -f "$OUT/classifier.onnx" ]; then
    $PY -m vision.train.average "$INIT" "$OUT/classifier.onnx" --out "$OUT/classifier_mean.onnx" && \
        $PY -m vision.train.shrink "$OUT/classifier_mean.onnx"
fi
grep -a '^{"epoch"\|exported\|Error' "$OUT/train.log" | tail -30
ls -la "$OUT"
