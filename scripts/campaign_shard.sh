#!/usr/bin/env bash
# One shard of a test campaign on a cluster (docs/scale.md): Slurm job-array tasks, srun or
# mpirun ranks each run this with the same arguments and take their shard from the launcher's
# variables, so that no scheduler of ozref's own is needed.
#   campaign_shard.sh properties BUILD OUT BASE_SEED CASES   RapidCheck properties, seed BASE_SEED + shard
#   campaign_shard.sh fuzz TARGET FUZZ_BUILD OUT SECONDS     libFuzzer -fork on this task's cores; new
#                                                            inputs in OUT/TARGET/shard-<i>, merged later
# The shard: SLURM_ARRAY_TASK_ID, else SLURM_PROCID, else OMPI_COMM_WORLD_RANK, else 0.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
shard=${SLURM_ARRAY_TASK_ID:-${SLURM_PROCID:-${OMPI_COMM_WORLD_RANK:-0}}}
cores=${SLURM_CPUS_PER_TASK:-$(nproc)}
case "${1:-}" in
  properties)
    build=$2 out=$3 seed=$(($4 + shard)) cases=$5
    mkdir -p "$out"
    log="$out/properties-shard-$shard.log"
    # RapidCheck's seed and count; OZREF_SEED for the tests' own generators, printed beside it.
    RC_PARAMS="seed=$seed max_success=$cases" OZREF_SEED=$seed "$build/tests/test_properties" >"$log" 2>&1 &&
      echo "shard $shard: properties passed, seed $seed, $cases cases each ($log)" ||
      { echo "shard $shard: a property FAILED, seed $seed ($log)"; exit 1; }
    ;;
  fuzz)
    target=$2 build=$(cd "$3" && pwd) out=$4 seconds=$5
    mine="$out/$target/shard-$shard"
    mkdir -p "$mine"
    dict=()
    [ -f "fuzz/fuzz_$target.dict" ] && dict=(-dict="$root/fuzz/fuzz_$target.dict")
    # The first folder receives new inputs; the committed corpus and the other shards' folders
    # (as they were when this one started) are read as seeds.
    (cd "$mine" && "$build/fuzz/fuzz_$target" -fork="$cores" -max_total_time="$seconds" -print_final_stats=1 \
      "${dict[@]}" . "$root/fuzz/corpus/$target" 2>fuzz.log) ||
      { echo "shard $shard: fuzz_$target FAILED; the crashing input is in $mine (crash-*)"; exit 1; }
    echo "shard $shard: fuzz_$target ran ${seconds}s on $cores cores, $(ls "$mine" | grep -vc fuzz.log) inputs kept"
    ;;
  *)
    sed -n 2,9p "$0"
    exit 2
    ;;
esac
