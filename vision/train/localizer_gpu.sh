#!/usr/bin/env bash
# The localiser run of session 15 on a lent GPU machine (16 cores, one H100), as one command from the repo root:
#
#     MAHJONG_SHARED=/path/to/shared NAME=gpu15 HOURS=0.1 bash vision/train/localizer_gpu.sh
#
# It renders the synthetic scenes there (seeds rendered in parallel, nothing large has to travel), builds the same
# data as train12/13 (hk-photos train and its squeezed copies, synthetic seeds 1, 11, 21 at 832 x 624 and 640 x 480
# seeds SEEDS_640; held out: every 10th hk-photos train photo, seeds 3 and 64) and continues models/localizer.onnx
# (train13) on it for HOURS with a large batch and the pictures cached in memory, so the GPU is not starved by the
# loaders. Checkpoints stay in runs/localizer/$NAME/weights; export with
#     python -m vision.train.localizer --export-only runs/localizer/$NAME/weights/best.pt --out OUT.onnx
set -euo pipefail
PY=${PY:-python3}
NAME=${NAME:-gpu15}
HOURS=${HOURS:-0.1}
REPEAT=${REPEAT:-5}          # each real photo (and its squeezed copy) this many times per epoch
SEEDS_640=${SEEDS_640:-"31 32 33 34 35 36 37 38 39 40"}
JOBS=${JOBS:-8}
P_HEAP=${P_HEAP:-0}            # share of the SEEDS_640 scenes with a heap of piled, tilted tiles (vision.synth --p-heap)
P_STANDING=${P_STANDING:-}     # share of the SEEDS_640 hands whose row stands (vision.synth --p-standing; empty: preset)
# DEGREES (default 15): the largest random turn of a training picture (bench/eval_turned_photos.py measures real photos
# turned; docs/rules-session65.md)
N_640=${N_640:-400}            # scenes per SEEDS_640 seed
SYNTH_DIR=${SYNTH_DIR:-out/synth}
# start weights: a checkpoint (INIT=...pt) or, by default, the committed file with its batch norms calibrated
START="--init-onnx models/localizer.onnx"; [ -n "${INIT:-}" ] && START="--init $INIT"
DIV=${DIV:-1}                 # divide every scene count (a smoke test on a CPU machine)

scenes() {  # n seed width height [p_heap [p_standing]] -> out/synth/scenes_s<seed>[_640]
    local suffix=""; [ "$3" = 640 ] && suffix="_640"
    # no trailing blank: xargs -L joins a line that ends in one with the next
    echo "$(( $1 / DIV )) $2 $3 $4 $SYNTH_DIR/scenes_s$2$suffix ${5:-0}${6:+ $6}"
}
{
    scenes 240 1 832 624; scenes 240 11 832 624; scenes 480 21 832 624; scenes 60 3 832 624; scenes 60 64 640 480
    for s in $SEEDS_640; do scenes "$N_640" "$s" 640 480 "$P_HEAP" "$P_STANDING"; done
} | xargs -P "$JOBS" -L 1 sh -c "$PY -m vision.synth generate --n \$0 --seed \$1 --width \$2 --height \$3 --out \$4 --p-heap \$5 \${6:+--p-standing \$6} --workers 2 2>&1 | tail -1"

SYNTH="--synth $SYNTH_DIR/scenes_s1 --synth $SYNTH_DIR/scenes_s11 --synth $SYNTH_DIR/scenes_s21"
for s in $SEEDS_640; do SYNTH="$SYNTH --synth $SYNTH_DIR/scenes_s${s}_640"; done
$PY -m vision.train.localizer $SYNTH --val-synth $SYNTH_DIR/scenes_s3 --val-synth $SYNTH_DIR/scenes_s64_640 \
    --stretch-copies 1 --real-repeat "$REPEAT" $START --optimizer AdamW \
    --lr0 "${LR0:-0.0003}" --warmup 0 --hours "$HOURS" --epochs 60 --batch "${BATCH:-64}" --workers "${WORKERS:-14}" \
    --synth-box "${SYNTH_BOX:-body}" --scale "${SCALE:-0.5}" --degrees "${DEGREES:-15}" --cache ram --dataset out/datasets/loc_gpu --name "$NAME" --no-export
