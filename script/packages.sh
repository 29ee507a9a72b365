# The Debian packages Smokescreen needs, and one way to install the missing ones. Sourced by
# script/quickstart, script/test and .ci/run; not run on its own.

# What building and running the tool needs (headers of the C libraries it links, and its fonts).
# libisal-dev: ISA-L's deflate for the default `fast` PNG preset; libharfbuzz-dev and libicu-dev: text
# shaping, line breaks and bidi; libarchive-dev: merge reads .tar/.tar.gz parts; libgif-dev and
# libimagequant-dev: GIF previews; libssl-dev: the SHA-256 of every file written.
SMOKESCREEN_TOOL_PACKAGES=(libpng-dev zlib1g-dev libisal-dev pkg-config libfreetype-dev libharfbuzz-dev libicu-dev libssl-dev
    libarchive-dev libgif-dev libimagequant-dev fonts-inter fonts-noto-cjk fonts-dejavu-core fonts-ipafont-gothic)

# What the tests need besides: ffmpeg (MP4 previews; the independent reader of APNG and GIF), chromium
# (the HTML report and the live preview's page in a real browser), python3 and libcairo2-dev (the
# reference renderer's pycairo is built against Debian's cairo), hb-shape and LineBreakTest.txt (the
# text tests' references), fonts-dejavu-extra (a font family found by the names inside its files),
# Slurm and munge (the scale-out test's one-node cluster), curl and make (the documented commands: the
# live preview's API asked once, `make -n install`).
SMOKESCREEN_TEST_PACKAGES=(ffmpeg chromium python3 libcairo2-dev libharfbuzz-bin unicode-data fonts-dejavu-extra
    slurmctld slurmd slurm-client munge curl make)

# The packages of "$@" that dpkg does not have installed, one a line.
smokescreen_missing_packages() {
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -qE "ok installed$" || echo "$pkg"
    done
}

# Installs the missing packages of "$@" with apt-get: as root, or through sudo when it can be used
# without a password; otherwise prints the one command to run and returns 1.
smokescreen_install_packages() {
    if ! command -v dpkg-query >/dev/null 2>&1; then
        echo "smokescreen: this is not a Debian-like system (no dpkg); install the equivalents of: $*" >&2
        return 1
    fi
    local missing
    mapfile -t missing < <(smokescreen_missing_packages "$@")
    [ "${#missing[@]}" -eq 0 ] && return 0
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            sudo="sudo"
        else
            echo "smokescreen: missing Debian packages: ${missing[*]}" >&2
            echo "smokescreen: install them (as root), then run this again:" >&2
            echo "    sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
            return 1
        fi
    fi
    echo "smokescreen: installing ${missing[*]}"
    $sudo apt-get update -q
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}
