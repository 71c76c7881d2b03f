#!/usr/bin/env bash
# The soak (`make soak OPS=N [SEED=S]`): the differential suites of every
# face, run again and again with fresh seeds until each face has done its
# share of N operations, then one line per face: operations, seeds,
# mismatches. Exits non-zero on any mismatch (or any run that fails, or a
# face whose suites ran nothing).
#
# It reuses the Criterion suites rather than new models: each suite takes
# SEED= and TEST_SCALE= from the environment (tests/test_common.h) and
# prints one "... N ops, 0 mismatches ..." line per stream it ran, and any
# mismatch fails its test. A face's first run is at TEST_SCALE=1, which
# measures how many operations one run does and how long it takes; later
# runs use the largest scale that keeps a run near SOAK_RUN_S seconds (the
# suites carry Criterion timeouts of 120 s and more) and that does not
# overshoot the share by more than a run.
#
# Seeds: run i of a face uses SEED = base + 1000 * i (the suites derive
# their streams' seeds as SEED + a small offset, below 1000), where base is
# the SEED given or a fresh random one; each run's seed is in the log, so
# a failing run replays with SEED=<its seed> and its filter.
#
# Usage: tests/soak/soak.sh OPS   (see mk/soak.mk for the variables)
#   SOAK_BIN      the Criterion binary of skiplist.h's suites
#   SOAK_RCU_BIN  the Criterion binary of skiplist_rcu.h's suites (memb)
#   SOAK_LOG      directory for the full logs
#   SOAK_JOBS     Criterion workers per run (default 2)
#   SOAK_RUN_S    target seconds per run (default 20: more seeds per face)
#   SOAK_FACES    the faces to run, by key (default: all)
#   SEED          base seed (default: random)
set -u

ops_total=${1:?usage: soak.sh OPS}
bin=${SOAK_BIN:?SOAK_BIN not set}
rcu_bin=${SOAK_RCU_BIN:?SOAK_RCU_BIN not set}
log_dir=${SOAK_LOG:-build/soak}
jobs=${SOAK_JOBS:-2}
run_s=${SOAK_RUN_S:-20}

# Face key | label | binary | Criterion filters (space separated). Only
# suites whose seeds come from SEED: pq_diff's fixed-seed tests replay the
# same streams every time, so only its env-seed tests are here.
faces_all="map extent pq sched rcu_map rcu_extent"
declare -A label binary filters
label[map]="ordered index (SKIPLIST_DEFINE)"
binary[map]=$bin
filters[map]="map_random/*"
label[extent]="extent index (SKIPLIST_EXTENT_DEFINE)"
binary[extent]=$bin
filters[extent]="extent_diff/*"
label[pq]="priority queue (SKIPLIST_PQ_DEFINE)"
binary[pq]=$bin
filters[pq]="pq_random/* pq_diff/*_env_seed"
label[sched]="runqueue (skiplist_sched.h vs bfs_replica)"
binary[sched]=$bin
filters[sched]="sched_random/* sched_small/vs_replica"
label[rcu_map]="skiplist_rcu.h map, one thread"
binary[rcu_map]=$rcu_bin
filters[rcu_map]="rcu_diff/map_*"
label[rcu_extent]="skiplist_rcu.h extent, one thread"
binary[rcu_extent]=$rcu_bin
filters[rcu_extent]="rcu_diff/extent_*"

faces=${SOAK_FACES:-$faces_all}
for f in $faces; do
    if [ -z "${label[$f]:-}" ]; then
        echo "soak: unknown face '$f' (faces: $faces_all)" >&2
        exit 2
    fi
    if [ ! -x "${binary[$f]}" ]; then
        echo "soak: ${binary[$f]} not built" >&2
        exit 2
    fi
done

if [ -n "${SEED:-}" ]; then
    base=$SEED
else
    # 48 random bits: room for base + 1000 * runs in a uint64_t.
    base=$(od -An -N6 -tu8 /dev/urandom 2>/dev/null | tr -d ' ')
    base=${base:-$(date +%s)}
fi

mkdir -p "$log_dir"
nfaces=$(echo $faces | wc -w)
share=$(((ops_total + nfaces - 1) / nfaces))
echo "soak: $ops_total operations, $share per face over $nfaces faces," \
    "base SEED=$base, logs in $log_dir/"

# One run of face $1 at scale $2 with seed $3: every filter once. Sets
# run_ops (operations the suites reported), run_tests, run_bad (failing or
# crashing tests, and runs that exited non-zero).
one_run() {
    local f=$1 scale=$2 seed=$3 out="$log_dir/$1.log" flt part rc
    run_ops=0 run_tests=0 run_bad=0
    for flt in ${filters[$f]}; do
        part="$log_dir/$f.part"
        echo "==== $f: SEED=$seed TEST_SCALE=$scale --filter '$flt'" >>"$out"
        SEED=$seed TEST_SCALE=$scale "${binary[$f]}" --jobs="$jobs" \
            --filter "$flt" >"$part" 2>&1
        rc=$?
        cat "$part" >>"$out"
        # Every stream's closing line: "... <n> ops ... 0 mismatches ...".
        run_ops=$((run_ops + $(grep -E '0 mismatches' "$part" |
            grep -oE '[0-9]+ ops' | awk '{ s += $1 } END { print s + 0 }')))
        # "[====] Synthesis: Tested: T | Passing: P | Failing: F | Crashing: C"
        local syn
        syn=$(grep -E 'Synthesis: Tested' "$part" | tail -n 1 |
            sed -E 's/\x1b\[[0-9;]*m//g')
        local t fl cr
        t=$(echo "$syn" | sed -nE 's/.*Tested: *([0-9]+).*/\1/p')
        fl=$(echo "$syn" | sed -nE 's/.*Failing: *([0-9]+).*/\1/p')
        cr=$(echo "$syn" | sed -nE 's/.*Crashing: *([0-9]+).*/\1/p')
        run_tests=$((run_tests + ${t:-0}))
        run_bad=$((run_bad + ${fl:-0} + ${cr:-0}))
        if [ "$rc" -ne 0 ] && [ "${fl:-0}" -eq 0 ] && [ "${cr:-0}" -eq 0 ]; then
            run_bad=$((run_bad + 1)) # failed without a test failing
        fi
        if [ "${t:-0}" -eq 0 ]; then
            echo "soak: $f: --filter '$flt' ran no test" | tee -a "$out" >&2
            run_bad=$((run_bad + 1))
        fi
    done
    rm -f "$log_dir/$f.part"
}

status=0
summary=""
all_ops=0 all_bad=0
for f in $faces; do
    : >"$log_dir/$f.log"
    ops=0 runs=0 bad=0 tests=0 scale=1 t_start=$(date +%s)
    first_seed="" last_seed=""
    while [ "$ops" -lt "$share" ]; do
        seed=$((base + 1000 * runs))
        first_seed=${first_seed:-$seed}
        last_seed=$seed
        t0=$(date +%s)
        one_run "$f" "$scale" "$seed"
        t1=$(($(date +%s) - t0))
        runs=$((runs + 1))
        ops=$((ops + run_ops))
        tests=$((tests + run_tests))
        bad=$((bad + run_bad))
        echo "soak: $f run $runs: SEED=$seed TEST_SCALE=$scale, $run_ops ops" \
            "in ${t1}s, $run_bad mismatching or failing tests" |
            tee -a "$log_dir/$f.log"
        if [ "$run_bad" -ne 0 ] || [ "$run_ops" -eq 0 ]; then
            [ "$run_ops" -eq 0 ] && bad=$((bad + 1)) &&
                echo "soak: $f: a run reported no operations" >&2
            break
        fi
        # Next scale: about run_s seconds a run, never far past the share.
        per_unit=$((run_ops / scale))
        [ "$per_unit" -lt 1 ] && per_unit=1
        [ "$t1" -lt 1 ] && t1=1
        scale=$((scale * run_s / t1))
        left=$(((share - ops + per_unit - 1) / per_unit))
        [ "$scale" -gt "$left" ] && scale=$left
        [ "$scale" -lt 1 ] && scale=1
    done
    secs=$(($(date +%s) - t_start))
    line=$(printf '%-44s ops=%-11d seeds=%-3d (SEED=%s..%s step 1000, %d tests run)  mismatches=%d  %ds' \
        "${label[$f]}:" "$ops" "$runs" "$first_seed" "$last_seed" "$tests" \
        "$bad" "$secs")
    echo "$line"
    summary="$summary$line"$'\n'
    all_ops=$((all_ops + ops))
    all_bad=$((all_bad + bad))
    [ "$bad" -ne 0 ] && status=1
done

echo "==== soak summary ($ops_total operations asked, base SEED=$base)"
printf '%s' "$summary"
echo "total: $all_ops operations over $nfaces faces, $all_bad mismatches"
if [ "$status" -ne 0 ]; then
    echo "soak: MISMATCHES: see $log_dir/<face>.log; replay a run with its SEED" >&2
fi
exit $status
