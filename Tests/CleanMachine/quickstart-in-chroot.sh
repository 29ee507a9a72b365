#!/usr/bin/env bash
# The README's two-command quick start (script/quickstart, then script/test) on a fresh Debian 12 that has
# only Swift installed: a debootstrapped bookworm chroot, the host's Swift toolchain bind-mounted into it,
# and the Swift packages resolved from the host's local mirror, as git on the host does.
#
# Usage (as root, on a Debian-like host with Swift at /opt/swift and the package mirror at
# /opt/swift-packages):
#   Tests/CleanMachine/quickstart-in-chroot.sh [--full] [CHROOT]      steps 1-6 (7 too with --full)
#   Tests/CleanMachine/quickstart-in-chroot.sh --full-test-only [CHROOT]
#                                  step 7 alone, on the clone and packages a previous run left
# CHROOT defaults to /work/chroot-bookworm (it must be outside the repository). Logs go to CHROOT-logs/.
#
# Steps:
#   1. debootstrap bookworm (--variant=minbase) into CHROOT; skipped when CHROOT holds a finished system.
#   2. Install the Swift toolchain's own Debian packages, nothing of the project's (see SWIFT_PACKAGES
#      below). The packages installed once this step first succeeded are recorded as the base; a rerun
#      first purges whatever a previous run's script/quickstart or script/test added on top of it, so
#      that every run starts from "only Swift installed".
#   3. Bind-mount /opt/swift and /opt/swift-packages read-only at the same paths, copy the host's
#      url.*.insteadOf git settings (github.com -> /opt/swift-packages/) into the chroot's /etc/gitconfig
#      (nothing else of the host's git config), and check swift and the mirror from inside.
#   4. As a user without sudo (newcomer), on a fresh clone of HEAD: script/quickstart must exit 1, print
#      the one apt-get command to run, and install nothing.
#   5. As root, on a fresh clone of HEAD (/root/smokescreen): time script/quickstart; it must exit 0,
#      install the missing packages itself, and leave out/vesper-timeline-to-detail/frame_0000.png ...
#      frame_0033.png and manifest.json.
#   6. As root: time script/test --filter 'SceneSchemaTests|ReferenceRendererTests|LintAccuracyTests|
#      LivePreviewBrowserTests|NewcomerTests' (pycairo, jsonschema, chromium, ffmpeg).
#   7. (--full or --full-test-only) As root: time script/test, the whole suite.
#
# The Swift toolchain's packages (step 2). swift.org gives two lists for Debian 12; this installs their
# union, with apt's defaults (Recommends included), as a user who followed either would have it:
#   - swift.org's Debian 12 install instructions (the same list as swift-docker's debian/12 Dockerfile and
#     swiftly's "debian12" entry): binutils libicu-dev libcurl4-openssl-dev libedit-dev libsqlite3-dev
#     libncurses-dev libpython3-dev libxml2-dev pkg-config uuid-dev tzdata git gcc libstdc++-12-dev
#     unzip zip
#   - swift.org's list of the toolchain's runtime dependencies in the form it gives for Ubuntu 24.04
#     (swiftly's "ubuntu2404" entry), with Debian 12's gcc version: binutils git gnupg2 libc6-dev
#     libcurl4-openssl-dev libedit2 libgcc-12-dev libpython3-dev libsqlite3-0 libstdc++-12-dev
#     libxml2-dev libncurses-dev libz3-dev pkg-config tzdata unzip zlib1g-dev
#   - and ca-certificates (git and apt over https; any real install has it).
# With their dependencies and Recommends that is 248 packages on top of minbase (seen 2026-11-28). Of
# the project's own packages (script/packages.sh) the base then has pkg-config and zlib1g-dev (on both
# lists), libicu-dev (on swift.org's Debian list, and a dependency of libxml2-dev) and fonts-dejavu-core
# (libc6-dev -> libc-dev-bin, which recommends libc-devtools -> libgd3 -> libfontconfig1 ->
# fontconfig-config -> it); step 2 prints the overlap it finds.
#
# What else differs from a plain debootstrap, and why:
#   - /usr/sbin/policy-rc.d answers 101, so that no package starts a daemon inside the chroot (munge and
#     Slurm would otherwise run on the host's network and keep the chroot busy): the usual for chroots.
#   - /etc/apt/sources.list also has bookworm-updates and bookworm-security, as an installed system has.
#   - /etc/hosts gets the standard localhost lines if debootstrap left none; /etc/resolv.conf is copied.
#   - Commands inside run under `env -i` with HOME, USER, LOGNAME, PATH (/opt/swift/usr/bin first),
#     TERM and LANG=C.UTF-8 only.
# Mounts: a new proc on CHROOT/proc, /sys bound read-only, /dev bound (not recursively), /dev/pts bound,
# a new tmpfs on CHROOT/dev/shm (Chromium), /opt/swift and /opt/swift-packages bound read-only. All are
# unmounted by the EXIT trap, on every way out; processes left running inside the chroot are ended
# first (found by their root directory, by pid). The host's own mounts are never touched.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
SWIFT_DIR=/opt/swift
MIRROR_DIR=/opt/swift-packages
DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SECURITY_MIRROR=${SECURITY_MIRROR:-http://deb.debian.org/debian-security}
SWIFT_PACKAGES=(binutils git gnupg2 libc6-dev libcurl4-openssl-dev libedit2 libedit-dev libgcc-12-dev gcc
    libpython3-dev libsqlite3-0 libsqlite3-dev libstdc++-12-dev libxml2-dev libncurses-dev libz3-dev
    libicu-dev uuid-dev pkg-config tzdata unzip zip zlib1g-dev ca-certificates)
TEST_FILTER='SceneSchemaTests|ReferenceRendererTests|LintAccuracyTests|LivePreviewBrowserTests|NewcomerTests'
CHROOT_PATH=$SWIFT_DIR/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
USER_PATH=$SWIFT_DIR/usr/bin:/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games
NEWCOMER=newcomer

FULL=0
ONLY_FULL=0
ROOT=""
while [ $# -gt 0 ]; do
    case "$1" in
        --full) FULL=1 ;;
        --full-test-only) FULL=1; ONLY_FULL=1 ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        -*) echo "unknown option: $1" >&2; exit 64 ;;
        *) [ -z "$ROOT" ] || { echo "one CHROOT only" >&2; exit 64; }; ROOT=$1 ;;
    esac
    shift
done
ROOT=$(realpath -m "${ROOT:-/work/chroot-bookworm}")
LOG=$ROOT-logs
STATE=$ROOT/var/lib/smokescreen-chroot

# ---------------------------------------------------------------------------------------------------------
# Reporting
SUMMARY=()      # one "name: result" a check
FAILED=0
header() { printf '\n========== %s ==========\n' "$*"; }
note() { printf '  %s\n' "$*"; }
pass() { SUMMARY+=("PASS $1: ${2:-}"); printf '  PASS %s %s\n' "$1" "${2:-}"; }
fail() { SUMMARY+=("FAIL $1: ${2:-}"); printf '  FAIL %s %s\n' "$1" "${2:-}" >&2; FAILED=1; }
info() { SUMMARY+=("     $1: ${2:-}"); }
die() { echo "quickstart-in-chroot: $*" >&2; exit 2; }

# ---------------------------------------------------------------------------------------------------------
# Mounts, and the trap that undoes them
MOUNTED=()
chroot_pids() {   # processes whose root directory is the chroot, one pid a line
    local p r
    for p in /proc/[0-9]*; do
        r=$(readlink "$p/root" 2>/dev/null) || continue
        [ "$r" = "$ROOT" ] && echo "${p#/proc/}"
    done
    return 0
}
end_chroot_processes() {
    local pids
    pids=$(chroot_pids)
    [ -n "$pids" ] || return 0
    note "ending processes left inside the chroot: $(echo $pids)"
    kill -TERM $pids 2>/dev/null || true
    sleep 2
    pids=$(chroot_pids)
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null || true
    sleep 1
}
mounts_under_root() { findmnt -rn -o TARGET | awk -v r="$ROOT" 'index($0, r "/") == 1' | sort -r; }
unmount_all() {
    local i target
    end_chroot_processes
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do
        target=${MOUNTED[i]}
        mountpoint -q "$target" || continue
        umount "$target" 2>/dev/null || { end_chroot_processes; umount "$target" 2>/dev/null; } \
            || { echo "  umount $target: busy, detaching it (umount -l)" >&2; umount -l "$target"; }
    done
    MOUNTED=()
}
mount_at() {      # mount_at TARGET MOUNT-ARGUMENTS...: mounts, and remembers TARGET for the trap
    local target=$1; shift
    mkdir -p "$target"
    mountpoint -q "$target" && die "$target is already a mount point"
    mount "$@" "$target"
    MOUNTED+=("$target")
}
bind_ro() {       # bind_ro SOURCE TARGET
    mount_at "$2" --bind "$1"
    mount -o remount,bind,ro "$2"
}
on_exit() {
    local rc=$?
    set +e
    trap - EXIT INT TERM HUP
    if [ ${#MOUNTED[@]} -gt 0 ]; then
        header "Unmounting"
        unmount_all
    fi
    local left
    left=$(mounts_under_root)
    if [ -n "$left" ]; then
        echo "  still mounted under $ROOT: $left" >&2
        rc=1
    else
        note "nothing is mounted under $ROOT"
    fi
    header "Summary"
    local line
    for line in "${SUMMARY[@]}"; do echo "  $line"; done
    [ "$rc" -eq 0 ] && [ "$FAILED" -ne 0 ] && rc=1
    if [ "$rc" -eq 0 ]; then
        echo "quickstart-in-chroot: ALL CHECKS PASSED (chroot $ROOT, logs $LOG)"
    else
        echo "quickstart-in-chroot: FAILED (exit $rc; chroot $ROOT, logs $LOG)"
    fi
    exit "$rc"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# ---------------------------------------------------------------------------------------------------------
# Running things inside
in_chroot() {     # in_chroot 'COMMAND': bash -c COMMAND as root inside, with a clean environment
    chroot "$ROOT" /usr/bin/env -i HOME=/root USER=root LOGNAME=root PATH="$CHROOT_PATH" \
        TERM="${TERM:-dumb}" LANG=C.UTF-8 /bin/bash -c "$1"
}
as_newcomer() {   # as_newcomer 'COMMAND': the same as the user without sudo
    local uid gid
    uid=$(chroot "$ROOT" id -u "$NEWCOMER")
    gid=$(chroot "$ROOT" id -g "$NEWCOMER")
    chroot --userspec="$uid:$gid" "$ROOT" /usr/bin/env -i HOME=/home/$NEWCOMER USER=$NEWCOMER \
        LOGNAME=$NEWCOMER PATH="$USER_PATH" TERM="${TERM:-dumb}" LANG=C.UTF-8 /bin/bash -c "$1"
}
installed_packages() {   # the packages dpkg has installed inside, sorted
    chroot "$ROOT" dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' | awk '$1 == "ii" { print $2 }' | sort -u
}
new_packages_in_log() {  # apt-get's "NEW packages" lists in a log, one package a line
    awk '/^The following NEW packages will be installed:/ { on = 1; next }
         on && /^  / { for (i = 1; i <= NF; i++) print $i; next }
         { on = 0 }' "$1" | sed 's/[*]$//' | sort -u
}
wrap() { fold -s -w 100 | sed 's/^/      /'; echo; }
run_logged() {    # run_logged LOGFILE COMMAND...: runs, tees to LOGFILE, sets RUN_RC and RUN_SECONDS
    # In the background with `wait`, so that a signal to this script runs its trap at once.
    local logfile=$1 start; shift
    start=$(date +%s)
    rm -f "$logfile.rc"
    { set +e; "$@" </dev/null 2>&1; echo $? >"$logfile.rc"; } | tee "$logfile" &
    wait $! || true
    RUN_RC=$(cat "$logfile.rc" 2>/dev/null || echo 255)
    rm -f "$logfile.rc"
    RUN_SECONDS=$(($(date +%s) - start))
}
clone_head() {    # clone_head TARGET-INSIDE-THE-CHROOT
    rm -rf "${ROOT:?}$1"
    git clone --quiet --no-local "$REPO" "$ROOT$1"
}
build_time() {    # what SwiftPM said its build took, in a log
    grep -oE "(Build of product '[^']*' complete|Build complete)! \([0-9.]+s\)" "$1" | tail -1 | grep -oE '[0-9.]+s' || echo "n/a"
}
test_totals() {   # the test totals swift test printed in a log
    local xc st
    xc=$(grep -E "Executed [0-9]+ tests?, with" "$1" | tail -1 | sed -E 's/^[[:space:]]*//') || true
    st=$(grep -E "Test run with [0-9]+ tests?" "$1" | tail -1 | sed -E 's/^[^A-Za-z]*//') || true
    echo "XCTest: ${xc:-no XCTest summary}; Swift Testing: ${st:-no Swift Testing summary}"
}

# ---------------------------------------------------------------------------------------------------------
header "Preflight"
[ "$(id -u)" -eq 0 ] || die "run this as root (debootstrap, chroot and mount need it)"
case "$ROOT/" in
    /|/bin/*|/boot/*|/dev/*|/etc/*|/lib*|/opt/*|/proc/*|/run/*|/sbin/*|/sys/*|/usr/*|/var/*) die "refusing CHROOT=$ROOT" ;;
    "$REPO"/*) die "CHROOT must be outside the repository ($REPO)" ;;
esac
[ "$ROOT" != "/" ] || die "refusing CHROOT=/"
[ -x "$SWIFT_DIR/usr/bin/swift" ] || die "no Swift toolchain at $SWIFT_DIR"
[ -d "$MIRROR_DIR" ] || die "no Swift package mirror at $MIRROR_DIR"
git -C "$REPO" rev-parse --verify -q HEAD >/dev/null || die "$REPO is not a git repository with a commit"
mkdir -p "$(dirname "$ROOT")" "$LOG"
exec 9>"$ROOT.lock"
flock -n 9 || die "another run holds $ROOT.lock"
if ! command -v debootstrap >/dev/null 2>&1; then
    note "installing debootstrap on the host"
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q debootstrap
fi
stale=$(mounts_under_root)
if [ -n "$stale" ]; then
    note "unmounting what a killed earlier run left mounted: $(echo $stale)"
    mapfile -t MOUNTED < <(echo "$stale" | sort)
    unmount_all
fi
HEAD=$(git -C "$REPO" rev-parse HEAD)
note "repository $REPO at HEAD $HEAD ($(git -C "$REPO" status --porcelain | wc -l) uncommitted changes there are not part of the clone)"
note "chroot $ROOT; logs $LOG; host $(. /etc/os-release; echo "$PRETTY_NAME"), $(nproc) cores"
info "repository HEAD" "$HEAD"

# ---------------------------------------------------------------------------------------------------------
mount_everything() {
    header "Mounting /proc, /sys, /dev, /dev/pts, /dev/shm, $SWIFT_DIR, $MIRROR_DIR"
    mount_at "$ROOT/proc" -t proc proc
    bind_ro /sys "$ROOT/sys"
    mount_at "$ROOT/dev" --bind /dev
    mount_at "$ROOT/dev/pts" --bind /dev/pts
    mount_at "$ROOT/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev shm
    bind_ro "$SWIFT_DIR" "$ROOT$SWIFT_DIR"
    bind_ro "$MIRROR_DIR" "$ROOT$MIRROR_DIR"
    findmnt -rn -o TARGET,FSTYPE,OPTIONS | awk -v r="$ROOT" 'index($1, r "/") == 1 { print "  " $0 }'
}

if [ "$ONLY_FULL" -eq 1 ]; then
    [ -f "$STATE/base-packages" ] && [ -d "$ROOT/root/smokescreen" ] \
        || die "--full-test-only needs a chroot and a /root/smokescreen clone that a previous run left"
    cp -L --remove-destination /etc/resolv.conf "$ROOT/etc/resolv.conf"
    mount_everything
else

# ---------------------------------------------------------------------------------------------------------
header "Step 1: debootstrap Debian 12 (bookworm, minbase) into $ROOT"
if [ -f "$STATE/debootstrap-done" ] && [ -x "$ROOT/usr/bin/apt-get" ]; then
    note "skipped: $ROOT already holds a finished system ($(cat "$STATE/debootstrap-done"))"
    info "debootstrap" "skipped (finished earlier: $(cat "$STATE/debootstrap-done"))"
else
    if [ -e "$ROOT" ] && [ -n "$(ls -A "$ROOT" 2>/dev/null)" ]; then
        # An unfinished debootstrap (interrupted): debootstrap cannot resume it, so start again.
        [ -d "$ROOT/debootstrap" ] || [ -x "$ROOT/usr/bin/apt-get" ] \
            || die "$ROOT is not empty and does not look like an unfinished debootstrap; remove it or name another folder"
        [ -z "$(mounts_under_root)" ] || die "something is still mounted under $ROOT"
        note "removing an unfinished debootstrap in $ROOT"
        rm -rf --one-file-system "${ROOT:?}"
    fi
    note "debootstrap --variant=minbase bookworm $ROOT $DEBIAN_MIRROR (full output: $LOG/debootstrap.log)"
    run_logged "$LOG/debootstrap.log" debootstrap --variant=minbase bookworm "$ROOT" "$DEBIAN_MIRROR" >/dev/null
    [ "$RUN_RC" -eq 0 ] || die "debootstrap failed with status $RUN_RC (see $LOG/debootstrap.log)"
    grep -E '^I: (Retrieving Release|Base system installed)' "$LOG/debootstrap.log" | sed 's/^/  /' || true
    took=$RUN_SECONDS
    mkdir -p "$STATE"
    echo "$(date -u +%FT%TZ), took ${took}s" >"$STATE/debootstrap-done"
    rm -f "$STATE/base-packages"
    pass "debootstrap" "${took}s"
fi

# ---------------------------------------------------------------------------------------------------------
header "Step 2: the Swift toolchain's own Debian packages (nothing of the project's)"
cat >"$ROOT/etc/apt/sources.list" <<EOF
deb $DEBIAN_MIRROR bookworm main
deb $DEBIAN_MIRROR bookworm-updates main
deb $SECURITY_MIRROR bookworm-security main
EOF
printf '#!/bin/sh\n# No daemons start inside this chroot (Tests/CleanMachine/quickstart-in-chroot.sh).\nexit 101\n' \
    >"$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"
cp -L --remove-destination /etc/resolv.conf "$ROOT/etc/resolv.conf"
grep -qs localhost "$ROOT/etc/hosts" || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >>"$ROOT/etc/hosts"
mount_everything

if [ -f "$STATE/base-packages" ]; then
    extra=$(comm -13 "$STATE/base-packages" <(installed_packages))
    if [ -n "$extra" ]; then
        note "a previous run installed $(echo "$extra" | wc -l) packages on top of the base; purging them"
        in_chroot "DEBIAN_FRONTEND=noninteractive apt-get purge -y -q $(echo $extra)" >"$LOG/reset-purge.log" 2>&1 \
            || die "purging the previous run's packages failed (see $LOG/reset-purge.log); remove $ROOT to start again"
    fi
fi
# A fresh system has no Swift package caches, clones or users of this script's.
rm -rf "$ROOT/root/smokescreen" "$ROOT/root/.cache/org.swift.swiftpm" "$ROOT/root/.swiftpm" \
    "$ROOT/home/$NEWCOMER/smokescreen" "$ROOT/home/$NEWCOMER/.cache" "$ROOT/home/$NEWCOMER/.swiftpm"
run_logged "$LOG/swift-packages.log" in_chroot "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ${SWIFT_PACKAGES[*]}"
[ "$RUN_RC" -eq 0 ] || die "installing the Swift toolchain's packages failed (see $LOG/swift-packages.log)"
if [ ! -f "$STATE/base-packages" ]; then
    installed_packages >"$STATE/base-packages"
    note "recorded the base: $(wc -l <"$STATE/base-packages") packages"
fi
if cmp -s "$STATE/base-packages" <(installed_packages); then
    pass "only-swift base" "$(wc -l <"$STATE/base-packages") packages installed, the same as the recorded base"
else
    fail "only-swift base" "the installed packages differ from the recorded base: $(diff "$STATE/base-packages" <(installed_packages) | grep '^[<>]' | tr '\n' ' ')"
fi
# Which of the project's packages the base already has (expected: only those on Swift's own list, or
# their dependencies).
project_packages=$(bash -c ". '$REPO/script/packages.sh'; printf '%s\n' \"\${SMOKESCREEN_TOOL_PACKAGES[@]}\" \"\${SMOKESCREEN_TEST_PACKAGES[@]}\"" | sort -u)
overlap=$(comm -12 <(echo "$project_packages") <(installed_packages) | tr '\n' ' ')
note "of the project's packages, the base has: ${overlap:-none}"
info "project packages already in the base" "${overlap:-none}"

fi  # ONLY_FULL

# ---------------------------------------------------------------------------------------------------------
if [ "$ONLY_FULL" -eq 0 ]; then
header "Step 3: the host's Swift toolchain and package mirror inside"
: >"$ROOT/etc/gitconfig"
# The host's system and global settings (run outside any repository): only url.<base>.insteadOf.
{ git -C / config --get-regexp '^url\..*\.insteadof$' || true; } | while read -r key value; do
    git config --file "$ROOT/etc/gitconfig" --add "$key" "$value"
done
note "the chroot's /etc/gitconfig (copied from the host's url.*.insteadOf settings):"
sed 's/^/    /' "$ROOT/etc/gitconfig"
if in_chroot 'swift --version' >"$LOG/swift-version.log" 2>&1; then
    pass "swift inside" "$(grep -m1 'Swift version' "$LOG/swift-version.log")"
else
    fail "swift inside" "swift --version failed: $(tr '\n' ' ' <"$LOG/swift-version.log")"
fi
if in_chroot 'git ls-remote https://github.com/apple/swift-argument-parser' >"$LOG/mirror.log" 2>&1; then
    pass "package mirror inside" "git ls-remote https://github.com/apple/swift-argument-parser lists $(grep -c refs/tags "$LOG/mirror.log") tags"
else
    fail "package mirror inside" "$(tr '\n' ' ' <"$LOG/mirror.log")"
fi

# ---------------------------------------------------------------------------------------------------------
header "Step 4: script/quickstart as a user without sudo, before any of the project's packages"
chroot "$ROOT" id "$NEWCOMER" >/dev/null 2>&1 || chroot "$ROOT" useradd -m -s /bin/bash "$NEWCOMER"
clone_head "/home/$NEWCOMER/smokescreen"
chroot "$ROOT" chown -R "$NEWCOMER:$NEWCOMER" "/home/$NEWCOMER/smokescreen"
note "sudo inside: $(in_chroot 'command -v sudo || echo "not installed"')"
expected_missing=$(in_chroot 'cd /root && . /home/newcomer/smokescreen/script/packages.sh && smokescreen_missing_packages "${SMOKESCREEN_TOOL_PACKAGES[@]}"' | tr '\n' ' ' | sed 's/ $//')
note "the tool's packages missing now: $expected_missing"
before=$(installed_packages)
status_sum=$(md5sum <"$ROOT/var/lib/dpkg/status")
run_logged "$LOG/nonroot-quickstart.log" as_newcomer "cd ~/smokescreen && script/quickstart"
nonroot_rc=$RUN_RC
command_lines=$(grep -cE '^    sudo apt-get update && sudo apt-get install -y ' "$LOG/nonroot-quickstart.log" || true)
printed=$(grep -E '^    sudo apt-get update && sudo apt-get install -y ' "$LOG/nonroot-quickstart.log" | head -1 \
    | sed -E 's/.*apt-get install -y //' || true)
if [ "$nonroot_rc" -eq 1 ]; then pass "non-root exit status" "1"; else fail "non-root exit status" "$nonroot_rc, not 1"; fi
if [ "$command_lines" -eq 1 ] && [ "$printed" = "$expected_missing" ]; then
    pass "non-root apt-get command" "one command, naming exactly the missing packages"
else
    fail "non-root apt-get command" "$command_lines command lines; named '$printed', missing were '$expected_missing'"
fi
if [ "$before" = "$(installed_packages)" ] && [ "$status_sum" = "$(md5sum <"$ROOT/var/lib/dpkg/status")" ]; then
    pass "non-root installed nothing" "dpkg's status unchanged"
else
    fail "non-root installed nothing" "dpkg's status changed"
fi
if [ -e "$ROOT/home/$NEWCOMER/smokescreen/.build" ]; then
    fail "non-root stopped before building" ".build exists"
else
    pass "non-root stopped before building" "no .build"
fi

# ---------------------------------------------------------------------------------------------------------
header "Step 5: time script/quickstart as root"
clone_head /root/smokescreen
before_list=$(installed_packages)
run_logged "$LOG/quickstart.log" in_chroot 'cd /root/smokescreen && time script/quickstart'
quickstart_rc=$RUN_RC
installed_by_quickstart=$(comm -13 <(echo "$before_list") <(installed_packages))
echo "$installed_by_quickstart" >"$LOG/quickstart-installed-packages.txt"
announced=$(grep -m1 '^smokescreen: installing ' "$LOG/quickstart.log" | sed 's/^smokescreen: installing //' || true)
if [ "$quickstart_rc" -eq 0 ]; then
    pass "quickstart exit status" "0 in ${RUN_SECONDS}s (apt + build + render)"
else
    fail "quickstart exit status" "$quickstart_rc after ${RUN_SECONDS}s (see $LOG/quickstart.log)"
fi
info "quickstart wall time" "${RUN_SECONDS}s; bash time: $(grep -E '^real' "$LOG/quickstart.log" | tail -1 | tr '\t' ' '); swift build: $(build_time "$LOG/quickstart.log")"
still_missing=$(in_chroot '. /root/smokescreen/script/packages.sh && smokescreen_missing_packages "${SMOKESCREEN_TOOL_PACKAGES[@]}"' | tr '\n' ' ')
if [ "$announced" = "$expected_missing" ] && [ -z "$still_missing" ]; then
    pass "quickstart installed the missing packages itself" "$announced"
else
    fail "quickstart installed the missing packages itself" "announced '$announced'; missing before '$expected_missing'; still missing '$still_missing'"
fi
note "apt's NEW packages during script/quickstart ($(new_packages_in_log "$LOG/quickstart.log" | wc -l)):"
new_packages_in_log "$LOG/quickstart.log" | tr '\n' ' ' | wrap
info "packages script/quickstart installed" "$(echo "$installed_by_quickstart" | grep -c . || true) in all (dpkg), list in $LOG/quickstart-installed-packages.txt"
out=$ROOT/root/smokescreen/out/vesper-timeline-to-detail
missing_frames=()
for i in $(seq 0 33); do
    f=$(printf '%s/frame_%04d.png' "$out" "$i")
    if [ ! -s "$f" ] || [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
        missing_frames+=("$(basename "$f")")
    fi
done
frame_count=$(find "$out" -maxdepth 1 -name 'frame_*.png' 2>/dev/null | wc -l)
manifest_ok=0
[ -s "$out/manifest.json" ] && python3 -m json.tool "$out/manifest.json" >/dev/null 2>&1 && manifest_ok=1
if [ ${#missing_frames[@]} -eq 0 ] && [ "$frame_count" -eq 34 ] && [ "$manifest_ok" -eq 1 ]; then
    pass "render output" "out/vesper-timeline-to-detail/: frame_0000.png ... frame_0033.png (34 PNGs) and a valid manifest.json"
else
    fail "render output" "frames missing or not PNG: ${missing_frames[*]:-none}; frame_*.png count $frame_count; manifest.json valid: $manifest_ok"
fi
note "out/vesper-timeline-to-detail/: $(ls "$out" 2>/dev/null | wc -l) files, $(du -sh "$out" 2>/dev/null | cut -f1)"

# ---------------------------------------------------------------------------------------------------------
header "Step 6: time script/test --filter '$TEST_FILTER' as root"
before_list=$(installed_packages)
run_logged "$LOG/test-filtered.log" in_chroot "cd /root/smokescreen && time script/test --filter '$TEST_FILTER'"
installed_by_test=$(comm -13 <(echo "$before_list") <(installed_packages))
echo "$installed_by_test" >"$LOG/test-installed-packages.txt"
if [ "$RUN_RC" -eq 0 ]; then
    pass "filtered script/test exit status" "0 in ${RUN_SECONDS}s"
else
    fail "filtered script/test exit status" "$RUN_RC after ${RUN_SECONDS}s (see $LOG/test-filtered.log)"
fi
info "filtered script/test totals" "$(test_totals "$LOG/test-filtered.log")"
info "filtered script/test wall time" "${RUN_SECONDS}s; bash time: $(grep -E '^real' "$LOG/test-filtered.log" | tail -1 | tr '\t' ' '); swift build: $(build_time "$LOG/test-filtered.log")"
test_missing=$(in_chroot '. /root/smokescreen/script/packages.sh && smokescreen_missing_packages "${SMOKESCREEN_TOOL_PACKAGES[@]}" "${SMOKESCREEN_TEST_PACKAGES[@]}" python3-cairo python3-jsonschema' | tr '\n' ' ')
if [ -z "$test_missing" ]; then
    pass "script/test installed what the tests need" "$(grep '^smokescreen: installing ' "$LOG/test-filtered.log" | sed 's/^smokescreen: installing //' | tr '\n' '+' | sed 's/+$//; s/+/ + /g')"
else
    fail "script/test installed what the tests need" "still missing: $test_missing"
fi
skips=$(grep -ciE "skipped" "$LOG/test-filtered.log" || true)
note "lines mentioning a skip: $skips"
grep -iE "skipped|XCTSkip" "$LOG/test-filtered.log" | grep -vE "^Test Suite" | head -20 | sed 's/^/    /' || true
note "apt's NEW packages during script/test ($(new_packages_in_log "$LOG/test-filtered.log" | wc -l)):"
new_packages_in_log "$LOG/test-filtered.log" | tr '\n' ' ' | wrap
info "packages script/test installed" "$(echo "$installed_by_test" | grep -c . || true) in all (dpkg), list in $LOG/test-installed-packages.txt"

fi  # ONLY_FULL == 0

# ---------------------------------------------------------------------------------------------------------
if [ "$FULL" -eq 1 ]; then
    header "Step 7: time script/test (the whole suite) as root"
    before_list=$(installed_packages)
    run_logged "$LOG/test-full.log" in_chroot 'cd /root/smokescreen && time script/test'
    comm -13 <(echo "$before_list") <(installed_packages) >"$LOG/test-full-installed-packages.txt"
    if [ "$RUN_RC" -eq 0 ]; then
        pass "full script/test exit status" "0 in ${RUN_SECONDS}s"
    else
        fail "full script/test exit status" "$RUN_RC after ${RUN_SECONDS}s (see $LOG/test-full.log)"
    fi
    info "full script/test totals" "$(test_totals "$LOG/test-full.log")"
    info "full script/test wall time" "${RUN_SECONDS}s; bash time: $(grep -E '^real' "$LOG/test-full.log" | tail -1 | tr '\t' ' '); swift build: $(build_time "$LOG/test-full.log")"
    info "packages installed by the full run" "$(grep -c . "$LOG/test-full-installed-packages.txt" || true)"
fi
