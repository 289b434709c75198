# A private apt, sourced by the scripts that fetch Debian packages without touching the machine's
# apt (scripts/check-ngtcp2-1x.sh, scripts/pi-toolchain.sh): its own sources.list, preferences,
# state, cache and an empty dpkg status under one folder. Bash; the caller defines `die`.

# private_apt_options DIR [ARCH]: sets A=DIR and APT to the options that make apt-get and
# apt-cache use it (only ARCH's packages when given). No side effect.
private_apt_options() {
  A="$1"
  APT=(
    -o "Dir::Etc::SourceList=$A/etc/sources.list"
    -o "Dir::Etc::SourceParts=$A/etc/sources.list.d"
    -o "Dir::Etc::Preferences=$A/etc/preferences"
    -o "Dir::Etc::PreferencesParts=$A/etc/preferences.d"
    -o "Dir::State=$A/state"
    -o "Dir::State::status=$A/status"
    -o "Dir::Cache=$A/cache"
    -o "Acquire::Languages=none"
    -o "APT::Get::List-Cleanup=false"
  )
  if [ -n "${2:-}" ]; then APT+=(-o "APT::Architecture=$2" -o "APT::Architectures=$2"); fi
  # As root apt downloads as _apt, which cannot write into these root-owned folders.
  [ "$(id -u)" -ne 0 ] || APT+=(-o "APT::Sandbox::User=root")
}

# private_apt_update SOURCES-LINE…: the folders of $A, these `deb …` lines as its sources, and
# `apt-get update` (its log in $A/update.log, shown when it fails).
private_apt_update() {
  local line
  mkdir -p "$A/etc/sources.list.d" "$A/etc/preferences.d" "$A/state/lists/partial" \
    "$A/cache/archives/partial" "$A/debs"
  : >"$A/status"
  : >"$A/etc/sources.list"
  for line in "$@"; do echo "$line" >>"$A/etc/sources.list"; done
  apt-get -q "${APT[@]}" update >"$A/update.log" 2>&1 || {
    cat "$A/update.log" >&2
    die "apt-get update (${A##*/})"
  }
}
