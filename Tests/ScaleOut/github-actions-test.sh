#!/usr/bin/env bash
# The GitHub Actions example (docs/scale-out/github-actions.yml) run on one machine without containers:
# every `run:` step of every job, in order, each matrix part as its own job, with `actions/checkout` as the
# repository itself, `upload-artifact` and `download-artifact` as copies through a folder, and each step's
# `env:`; then the merged catalogue is checked byte for byte against one `render --all`. Steps run in a
# scratch folder that links to the repository's files (so nothing is written into the checkout), except
# `script/quickstart` and `swift test`, which run in the repository (its build is shared, not redone).
#
#   Tests/ScaleOut/github-actions-test.sh
#
# Needs python3 (to read the workflow) and a built tool: $SMOKESCREEN_BIN or .build/release/smokescreen
# (what `.build/release/smokescreen` in the steps runs).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
say() { echo "github-actions-test: $*"; }
fail() { echo "github-actions-test: FAILED: $*" >&2; exit 1; }
tool=$(readlink -f "${SMOKESCREEN_BIN:-$root/.build/release/smokescreen}")
[ -x "$tool" ] || fail "no built tool at $tool: run script/quickstart first, or set SMOKESCREEN_BIN"

work=$(mktemp -d /tmp/smokescreen-gha.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/artifacts"

# Each step as one line: JOB, PART, KIND, ENV and TEXT, separated by the unit separator (0x1f: an empty
# field stays a field, where tabs would run together), where KIND is run, upload or download,
# ENV is space-separated NAME=VALUE pairs, and ${{ matrix.part }} is already replaced.
python3 - "$root/docs/scale-out/github-actions.yml" > "$work/steps" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
jobs, job, step, key = [], None, None, None
for raw in lines:
    if not raw.strip() or raw.lstrip().startswith("#"):
        continue
    indent = len(raw) - len(raw.lstrip())
    text = raw.strip()
    if indent == 2 and text.endswith(":"):
        job = {"name": text[:-1], "parts": [None], "steps": []}
        jobs.append(job)
        step = None
    elif job and text.startswith("part: ["):
        job["parts"] = [p.strip() for p in text[len("part: ["):-1].split(",")]
    elif job and indent == 6 and text.startswith("- "):
        step = {"env": {}, "with": {}}
        job["steps"].append(step)
        text = text[2:]
        k, _, v = text.partition(":")
        step[k.strip()] = v.strip()
        key = None
    elif step is not None and indent == 8:
        k, _, v = text.partition(":")
        if v.strip():
            step[k.strip()] = v.strip()
            key = None
        else:
            key = k.strip()
    elif step is not None and indent == 10 and key in ("env", "with"):
        k, _, v = text.partition(":")
        step[key][k.strip()] = v.strip()
for job in jobs:
    for part in job["parts"]:
        for step in job["steps"]:
            sub = lambda s: s.replace("${{ matrix.part }}", part or "")
            env = " ".join(f"{k}={sub(v)}" for k, v in step["env"].items())
            uses = step.get("uses", "")
            if "run" in step:
                print("\x1f".join([job["name"], part or "-", "run", env, sub(step["run"])]))
            elif uses.startswith("actions/upload-artifact"):
                print("\x1f".join([job["name"], part or "-", "upload", env, sub(step["with"]["name"]) + " " + sub(step["with"]["path"])]))
            elif uses.startswith("actions/download-artifact"):
                print("\x1f".join([job["name"], part or "-", "download", env, sub(step["with"]["path"])]))
            elif not uses.startswith("actions/checkout"):
                sys.exit(f"a step this test does not know how to run: {step}")
PY
[ -s "$work/steps" ] || fail "no steps read from the workflow"

# A job's folder: the repository's files linked in (read only), its own outputs beside them, and
# .build/release/smokescreen as the built tool.
job_folder() {
    local folder="$work/jobs/$1"
    if [ ! -d "$folder" ]; then
        mkdir -p "$folder/.build/release"
        for entry in assets script Package.swift Sources Tests docs; do ln -s "$root/$entry" "$folder/$entry"; done
        ln -s "$tool" "$folder/.build/release/smokescreen"
    fi
    echo "$folder"
}

# A step that runs in the repository (the build, the tests) with the same text and env as one already run
# is not run again: on other runners each job builds and tests its own checkout, but here the checkout and
# the build are the same, so the step cannot come out differently (four of the five builds' checks, about
# 5 s each, most of it SwiftPM's start; each part's tests differ by their shard, so all four run).
declare -A ran_in_repository=()
count=0
while IFS=$'\x1f' read -r job part kind env text; do
    folder=$(job_folder "$job-$part")
    count=$((count + 1))
    case "$kind:$text" in
        run:swift\ test*|run:script/quickstart*)
            if [ -n "${ran_in_repository[$env|$text]:-}" ]; then
                say "$job${part:+ [$part]}: $kind: $text (as ${ran_in_repository[$env|$text]} ran it, in the same checkout and build: not run again)"
                continue
            fi
            ran_in_repository[$env|$text]="$job${part:+ [$part]}" ;;
    esac
    say "$job${part:+ [$part]}: $kind: $text"
    case "$kind" in
        run)
            # The build and the tests share the repository's build folder; everything else runs in the job's folder.
            # Tests already built there (CI runs this after the suite, whose build is script/test's release
            # one) are run from that build without checking it again for each part (--skip-build: seconds a part).
            case "$text" in
                swift\ test*) if [ -e "$root/.build/release/SmokescreenPackageTests.xctest" ]; then
                        text="swift test -c release --disable-testable-imports --skip-build${text#swift test}"
                    fi
                    (cd "$root" && env $env bash -c "$text") ;;
                script/quickstart*) (cd "$root" && env $env bash -c "$text") ;;
                *) (cd "$folder" && env $env bash -c "$text") ;;
            esac || fail "$job [$part]: '$text' failed"
            ;;
        upload)
            name=${text%% *} path=${text#* }
            mkdir -p "$work/artifacts/$name"
            cp -R "$folder/$path" "$work/artifacts/$name/" || fail "upload of $path"
            ;;
        download)
            mkdir -p "$folder/$text"
            cp -R "$work/artifacts/." "$folder/$text/"
            ;;
    esac
done < "$work/steps"

# The merged catalogue against one render --all, byte for byte (the manifests and catalogue.json too).
merged="$work/jobs/merge--/catalogue"
[ -d "$merged" ] || fail "the merge job left no catalogue"
"$tool" render --all --quiet --out "$work/whole" --assets "$root/assets"
diff -r "$work/whole" "$merged" > "$work/diff.txt" || { head -20 "$work/diff.txt"; fail "the merged catalogue differs from one render --all"; }
say "ok: $count steps; the merged catalogue is byte for byte one render --all"
