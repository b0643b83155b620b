#!/usr/bin/env bash
# Compiles CUDA sources with nvcc for the Maven build (the kernels module's runtime fat binary, its test
# kernels and native test tools; the sample's kernels). Quiet when it succeeds: at most one line, saying
# what it built. Without nvcc it prints one notice and succeeds, so a build without the CUDA toolkit
# still works: the CUDA backend then reports its kernels missing at startup. When nvcc fails, its
# errors are printed with the target that failed, and the build fails.
#
# Usage: build-kernels.sh <include-dir>[:<include-dir>...] <kind>:<source>:<output> ...
#   kind fatbin  a fat binary: SASS for sm_80 (A100) and sm_90 (H100, H200), PTX for compute_90 that newer
#                GPUs JIT-compile at load (docs/architecture.md, "Kernels build")
#        ptx     the compute_90 PTX alone (tests read the instructions of the channel steps)
#        native  a host program with device code (the sm_80/sm_90 SASS of it)
#        host    a host program (no GPU code run)
#   a fourth field ":json" marks a program that writes JSON with nlohmann/json (header-only): the header is
#   looked for, or installed, by scripts/ensure-nlohmann-json.sh; without it such targets are skipped with
#   one notice and the build goes on (their tests say the tool was not built).
# A target is rebuilt when its output is older than its source or than any .cu/.cuh beside the source or
# in an include directory. NVCC=/path/to/nvcc overrides the lookup (PATH, then /usr/local/cuda/bin).
set -euo pipefail
IFS=: read -r -a includes <<<"${1:?include dir}"
shift
include_args=()
for dir in "${includes[@]}"; do include_args+=(-I"$dir"); done

nvcc=${NVCC:-}
if [ -z "$nvcc" ]; then
  if command -v nvcc >/dev/null 2>&1; then nvcc=$(command -v nvcc)
  elif [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc
  fi
fi
if [ -z "$nvcc" ]; then
  echo "[seqlink] nvcc not found (set NVCC or put it on PATH): CUDA kernels not built; the cuda backend will report them missing."
  exit 0
fi

sass=(-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90)
# one compile per architecture, side by side on every core (nvcc 11.3 on): xproc_baseline.cu 7.3 -> 5.1 s on 2 cores
threads=()
if "$nvcc" --help 2>/dev/null | grep -q -- '--threads'; then
  threads=(--threads 0)
fi
built=()
skipped=()
json_include=
json_checked=
started=$(date +%s)
for target in "$@"; do
  IFS=: read -r kind src out needs <<<"$target"
  [ -f "$src" ] || { echo "[seqlink] no source $src for $kind target $out" >&2; exit 1; }
  extra=()
  if [ "${needs:-}" = json ]; then
    if [ -z "$json_checked" ]; then
      json_checked=1
      json_include=$("$(dirname "$0")/../scripts/ensure-nlohmann-json.sh") || json_include=
    fi
    if [ -z "$json_include" ]; then
      rm -f "$out"
      skipped+=("$(basename "$out")")
      continue
    fi
    # /usr/include is searched anyway (naming it again would break the C++ headers' #include_next)
    [ "$json_include" = /usr/include ] || extra=(-isystem "$json_include")
  elif [ -n "${needs:-}" ]; then
    echo "[seqlink] unknown requirement '$needs' in $target" >&2; exit 1
  fi
  if [ -f "$out" ] && [ -z "$(find "$src" "$(dirname "$src")" "${includes[@]}" -maxdepth 1 \( -name '*.cu' -o -name '*.cuh' \) \
      -newer "$out" 2>/dev/null | head -1)" ]; then
    continue
  fi
  mkdir -p "$(dirname "$out")"
  case "$kind" in
    fatbin) args=(-fatbin "${sass[@]}" -gencode arch=compute_90,code=compute_90) ;;
    ptx)    args=(-ptx -arch=compute_90) ;;
    native) args=("${sass[@]}") ;;
    host)   args=() ;;
    *) echo "[seqlink] unknown target kind '$kind' in $target" >&2; exit 1 ;;
  esac
  log=$(mktemp)
  if ! "$nvcc" -std=c++17 -O3 ${threads[@]+"${threads[@]}"} "${args[@]}" "${include_args[@]}" ${extra[@]+"${extra[@]}"} -I"$(dirname "$src")" -o "$out" "$src" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log" "$out"
    echo "[seqlink] nvcc failed on $src ($kind, $("$nvcc" --version | tail -1 | sed 's/^Build //'))" >&2
    exit 1
  fi
  rm -f "$log"
  built+=("$(basename "$out")")
done
if [ ${#built[@]} -gt 0 ]; then
  echo "[seqlink] nvcc built ${built[*]} in $(( $(date +%s) - started ))s"
fi
if [ ${#skipped[@]} -gt 0 ]; then
  echo "[seqlink] skipped ${skipped[*]}: they write JSON with nlohmann/json, which is not installed (see above)"
fi
