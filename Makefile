# Wallboard — build, run and test. `make run` and `make test` work on a fresh Debian 12 machine
# with Swift: they install the Debian packages that are missing first (apt-get, as root or with
# sudo). Nothing is installed with pip: the tests use Debian's own Python and its packages.

SWIFT ?= swift
CONFIG ?= debug
BUILD_FLAGS ?=
# Release builds link the Swift runtime and Foundation statically: the binary needs no toolchain.
RELEASE_FLAGS ?= --static-swift-stdlib
CONFIG_FLAGS = $(if $(filter release,$(CONFIG)),$(RELEASE_FLAGS)) $(BUILD_FLAGS)
# Debian packages the build links (all that `make build` and `make install` need). SDL2 is not
# among them: its ABI is declared in Sources/CSDL2/shim.h and the library is opened at run time,
# so a board on DRM, the framebuffer, a terminal or a file never needs it (nor the Mesa, LLVM,
# X11 and Wayland development packages libsdl2-dev would bring).
# ngtcp2 (0.12 on Debian 12) with its GnuTLS crypto and GnuTLS are the QUIC transport's
# (`orchestra+quic://`): their headers build the board; the libraries are opened at run time
# when a QUIC source first connects (Sources/CQUIC/shim.h), never linked. libnats (3.4 on Debian
# 12) likewise: its header builds the NATS module, the library (libnats3.4, which libnats-dev
# brings) is opened when a NATS connection is first made (Sources/CNATS/shim.h).
BUILD_PACKAGES := pkg-config tzdata zlib1g-dev libfreetype-dev libsqlite3-dev libdrm-dev \
	libngtcp2-dev libngtcp2-crypto-gnutls-dev libgnutls28-dev libnats-dev
# The library a window needs at run time: `make run` shows one on a desktop, and the SDL tests
# open windows (dummy driver, Xvfb).
WINDOW_PACKAGES := libsdl2-2.0-0
# Debian packages only the tests use: Python with Pillow (an independent PNG decoder) and
# protobuf, protoc and the well-known .proto files (the Orchestra test peer), Xvfb (a real X
# server for the SDL window tests) with xwininfo/xprop (x11-utils), xdotool and a window
# manager (openbox) for the fullscreen tests, and systemd-analyze (systemd; procps for the unit's
# /bin/kill, which `systemd-analyze verify` looks for) to measure the installed unit; for the QUIC
# tests, openssl (the test certificates) and python3-venv (the QUIC peer's venv under .build/,
# where scripts/quic-venv.sh installs aioquic from PyPI: never into the system Python), and Go
# with Debian's quic-go for the peer configured like upstream's orchestrator
# (scripts/upstream-peer.sh builds it offline); nats-server for the NATS tests' hub (NATSHub,
# whose users' NKeys scripts/nats-nkey.sh makes with openssl).
TEST_PACKAGES := $(WINDOW_PACKAGES) python3 python3-pil python3-protobuf protobuf-compiler libprotobuf-dev xvfb x11-utils xdotool openbox systemd procps \
	openssl python3-venv golang-go golang-github-lucas-clemente-quic-go-dev nats-server
# Debian packages `make vm-test` uses: QEMU, a static busybox for the guest, kmod (depmod and
# modprobe's dependency lists for the kernel's modules), cpio, strip; Debian's kernel package is
# fetched with apt-get download into .build/vm-test, never installed.
VM_PACKAGES := qemu-system-x86 busybox-static kmod cpio binutils python3 python3-pil
# The aarch64 guest's: QEMU for arm (qemu-system-aarch64), and qemu-user-static, which runs the
# arm64 board on this machine for the snapshots its screens are checked against; its kernel and
# busybox are bookworm's arm64 packages, fetched with a private apt into .build/vm-test/aarch64,
# never installed.
VM_PACKAGES_AARCH64 := qemu-system-arm qemu-user-static kmod cpio binutils python3 python3-pil
# The Python the tests run: Debian's, where the packages above are installed.
PYTHON ?= /usr/bin/python3
# Where `make test` installs a release build to check it runs without the toolchain.
INSTALL_TEST := $(CURDIR)/.build/install-test
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
UNITDIR ?= /etc/systemd/system
DESTDIR ?=

# $(call install_packages,PACKAGES): installs those not installed yet (apt-get update once, then
# apt-get install without recommends: only what the packages need), with sudo unless root.
install_packages = missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

.PHONY: all deps run-deps test-deps build release run test vm-test pi pi-test sanitize fuzz fuzz-cases lint format bench soak screenshots install uninstall clean

all: build

# Installs the missing Debian packages the build needs.
deps:
	@$(call install_packages,$(BUILD_PACKAGES))

# Installs the missing Debian packages the build and a window need.
run-deps:
	@$(call install_packages,$(BUILD_PACKAGES) $(WINDOW_PACKAGES))

# Installs the missing Debian packages the build and the tests need (one apt-get update at most).
test-deps:
	@$(call install_packages,$(BUILD_PACKAGES) $(TEST_PACKAGES))

build: deps
	$(SWIFT) build -c $(CONFIG) $(CONFIG_FLAGS)

release:
	$(MAKE) build CONFIG=release

# Builds and shows the board: the sources ARGS names, else the built-in simulated team (the
# board's own default; a `--source` in ARGS replaces it, and its journal is that set's own).
run: run-deps
	$(SWIFT) build -c $(CONFIG) --product wallboard $(CONFIG_FLAGS)
	"$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/wallboard" run $(ARGS)

# Builds and passes every test. A release build is installed into .build/install-test first, for
# the tests that check it runs without the Swift toolchain (Tests/InstallTests).
test: test-deps
	scripts/quic-venv.sh > /dev/null
	scripts/upstream-peer.sh > /dev/null
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	rm -rf $(INSTALL_TEST)
	$(MAKE) --no-print-directory install DESTDIR=$(INSTALL_TEST) PREFIX=/usr/local
	WALLBOARD_PYTHON=$(PYTHON) WALLBOARD_INSTALLED=$(INSTALL_TEST)/usr/local $(SWIFT) test --skip-build

# The kiosk path on a real kernel (Tests/VM/run.sh): Debian's kernel in QEMU (software emulation),
# first an x86_64 guest with standard VGA, virtio-gpu and cirrus and the board installed as `make
# install` installs it, then an aarch64 guest (-M virt, Cortex-A53, bookworm's arm64 kernel) with
# virtio-gpu and the arm64 board of `make pi`; on DRM and on the framebuffer, each screen checked
# against `snapshot` of the same moment, with the night's DPMS, SIGTERM's exit status and the
# console after it. About a minute and a half a device, the aarch64 one too.
# VM_ARCHS chooses the guests (x86_64, aarch64), VM_DEVICES the x86_64 guest's devices and
# VM_DEVICES_AARCH64 the aarch64 guest's. Both guests run when one fails; the status is 1 then.
VM_ARCHS ?= x86_64 aarch64
VM_DEVICES ?= std virtio cirrus
VM_DEVICES_AARCH64 ?= virtio
VM_PREFIX := $(CURDIR)/.build/vm-test/prefix
vm_arch = $(filter $(1),$(VM_ARCHS))
vm-test: $(if $(call vm_arch,aarch64),pi)
	$(if $(filter-out x86_64 aarch64,$(VM_ARCHS))$(if $(strip $(VM_ARCHS)),,none),$(error VM_ARCHS="$(VM_ARCHS)": x86_64, aarch64 or both))
	@$(call install_packages,$(BUILD_PACKAGES) $(if $(call vm_arch,x86_64),$(VM_PACKAGES)) $(if $(call vm_arch,aarch64),$(VM_PACKAGES_AARCH64)))
	$(if $(call vm_arch,x86_64),rm -rf $(VM_PREFIX))
	$(if $(call vm_arch,x86_64),$(MAKE) --no-print-directory install DESTDIR=$(VM_PREFIX) PREFIX=/usr/local)
	status=0; \
	$(if $(call vm_arch,x86_64),PYTHON=$(PYTHON) Tests/VM/run.sh $(VM_PREFIX)/usr/local $(VM_DEVICES) || status=1;) \
	$(if $(call vm_arch,aarch64),PYTHON=$(PYTHON) VM_ARCH=aarch64 VM_SYSROOT=$(PI_SYSROOT) Tests/VM/run.sh $(PI_INSTALL) $(VM_DEVICES_AARCH64) || status=1;) \
	exit $$status

# The board for a Raspberry Pi (aarch64, Raspberry Pi OS / Debian 12) from this x86_64 machine, from
# Debian's archive only, all under .build/pi (scripts/pi-toolchain.sh: a trixie root whose swiftlang
# 6.0.3 is the cross-compiler, its arm64 runtime, a bookworm arm64 sysroot, a Swift SDK); the
# machine's apt is left as it is but for debootstrap, installed when missing. The release build
# runs in the root (the repository mounted at its own path) with the Swift runtime linked in,
# into .build/pi/build, so a second run compiles only what changed; stripped, it is laid out
# under .build/pi/install as a /usr/local tree (bin, share/wallboard with assets/ and Layouts/
# and the default config, share/doc/wallboard, lib/systemd/system/wallboard.service) and packed
# into .build/pi/wallboard-VERSION-arm64.tar.gz, for `tar -C /usr/local -xzf` on the Pi. The
# binary may need no glibc newer than bookworm's 2.36 (checked). Needs root (debootstrap, chroot).
PI := $(CURDIR)/.build/pi
PI_SYSROOT := $(PI)/sysroot
PI_INSTALL := $(PI)/install
PI_PREFIX := /usr/local
PI_VERSION = $(shell sed -n 's/.*static let version = "\(.*\)"/\1/p' Sources/WallboardCLI/App.swift)
PI_TARBALL = $(PI)/wallboard-$(PI_VERSION)-arm64.tar.gz
PI_BIN := $(PI)/build/aarch64-unknown-linux-gnu/release/wallboard
PI_PACKAGES := debootstrap
pi:
	@$(call install_packages,$(PI_PACKAGES))
	scripts/pi-toolchain.sh
	scripts/pi-toolchain.sh exec env PKG_CONFIG_SYSROOT_DIR=$(PI_SYSROOT) \
	  PKG_CONFIG_PATH=$(PI_SYSROOT)/usr/lib/aarch64-linux-gnu/pkgconfig:$(PI_SYSROOT)/usr/share/pkgconfig \
	  swift build -c release --product wallboard --static-swift-stdlib --scratch-path $(PI)/build \
	  --swift-sdks-path $(PI)/sdk --swift-sdk wallboard-pi $(BUILD_FLAGS)
	@glibc="$$(readelf -V $(PI_BIN) | grep -oE 'GLIBC_2\.[0-9]+' | sort -t. -k2 -n -u | tail -n1)"; \
	  [ "$$(echo $${glibc#GLIBC_2.})" -le 36 ] || { echo "pi: the binary needs $$glibc; bookworm has 2.36"; exit 1; }
	rm -rf $(PI_INSTALL)
	install -d $(PI_INSTALL)/bin $(PI_INSTALL)/share/wallboard $(PI_INSTALL)/share/doc/wallboard $(PI_INSTALL)/lib/systemd/system
	scripts/pi-toolchain.sh exec aarch64-linux-gnu-strip -o $(PI_INSTALL)/bin/wallboard $(PI_BIN)
	cp -R assets Layouts $(PI_INSTALL)/share/wallboard/
	install -d $(PI_INSTALL)/share/wallboard/scripts
	install -m 755 scripts/nats-nkey.sh $(PI_INSTALL)/share/wallboard/scripts/nats-nkey.sh
	cp docs/*.md $(PI_INSTALL)/share/doc/wallboard/
	sed -e 's|@BINDIR@|$(PI_PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@DOCDIR@|$(PI_PREFIX)/share/doc/wallboard|g' \
	  assets/systemd/wallboard.service.in > $(PI_INSTALL)/lib/systemd/system/wallboard.service
	tar -C $(PI_INSTALL) --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$$(git log -1 --format=%ct) \
	  -cf - bin lib share | gzip -n > $(PI_TARBALL).new && mv $(PI_TARBALL).new $(PI_TARBALL)
	@ls -l $(PI_INSTALL)/bin/wallboard $(PI_TARBALL)

# The arm64 build draws what the x86_64 build draws (Tests/Pi/run.sh): the installed arm64 binary
# of `make pi`, run here under qemu-user (qemu-aarch64-static -L .build/pi/sysroot, bookworm's arm64
# libraries), against the host's release build (as `make install` builds it): snapshots of the
# bundled layouts, sizes, every theme, rotations and time zones on the simulated team and the
# worked example at fixed moments, byte for byte, and inspect's JSON, the same. About a minute
# once both are built.
PI_TEST_PACKAGES := qemu-user-static binutils python3 python3-pil
pi-test: pi
	@$(call install_packages,$(BUILD_PACKAGES) $(PI_TEST_PACKAGES))
	$(SWIFT) build -c release --product wallboard $(RELEASE_FLAGS) $(BUILD_FLAGS)
	PYTHON=$(PYTHON) Tests/Pi/run.sh "$$($(SWIFT) build -c release --show-bin-path)/wallboard" $(PI_INSTALL) $(PI_SYSROOT)

# The whole suite under AddressSanitizer (memory errors; Swift itself traps on overflow and out-of
# -bounds access in these debug builds), then under ThreadSanitizer (data races). Each builds in a
# scratch folder of its own (.build/asan, .build/tsan), so .build/debug is left as it was; the
# tests run the binary of their own build. Leak checking is off: the Swift runtime's and
# Foundation's one-time allocations at exit are not leaks of the board's (`make soak` measures
# memory instead).
sanitize: test-deps
	scripts/quic-venv.sh > /dev/null
	scripts/upstream-peer.sh > /dev/null
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/asan $(BUILD_FLAGS)
	WALLBOARD_PYTHON=$(PYTHON) ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/asan
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/tsan $(BUILD_FLAGS)
	WALLBOARD_PYTHON=$(PYTHON) TSAN_OPTIONS=halt_on_error=1 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/tsan

# The acceptance fuzz of issue 9 (Tests/FuzzTests) with more cases than `make test` runs, a few
# minutes: mutated events files and layouts, decoded, reduced, projected and drawn in process.
# FUZZ_SEED picks other cases (make test runs seed 9); a failure names its case and seed.
FUZZ_CASES ?= 15000
FUZZ_LAYOUTS ?= 30000
FUZZ_SEED ?= 1
fuzz-cases: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	WALLBOARD_FUZZ_CASES=$(FUZZ_CASES) WALLBOARD_FUZZ_LAYOUTS=$(FUZZ_LAYOUTS) WALLBOARD_FUZZ_SEED=$(FUZZ_SEED) \
	  $(SWIFT) test --skip-build --filter FuzzTests

# The libFuzzer targets (Tests/Fuzzers): every decoder of outside input, built with
# -sanitize=fuzzer,address into .build/fuzz, each run for FUZZ_SECONDS from its seed corpus
# (Tests/Fuzzers/Corpus/<target>) into a working corpus under .build/fuzz/corpus. A crash, leak or
# hang stops it and leaves the input as .build/fuzz/<target>-crash-…; FUZZ_TARGETS picks some.
# FUZZ_RUNS, when set, stops a target after that many inputs if it comes before FUZZ_SECONDS.
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?= -1
FUZZ_TARGETS ?= framer protobuf jsonl frontmatter layout theme config codec dbrow quicstream tools relay
fuzz: deps
	WALLBOARD_FUZZ=1 $(SWIFT) build -c release --product wallboard-fuzz --scratch-path .build/fuzz \
	  -Xswiftc -sanitize=fuzzer,address $(BUILD_FLAGS)
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p .build/fuzz/corpus/$$t && \
	  WALLBOARD_FUZZ_TARGET=$$t .build/fuzz/release/wallboard-fuzz .build/fuzz/corpus/$$t Tests/Fuzzers/Corpus/$$t \
	    -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=.build/fuzz/$$t- > .build/fuzz/$$t.log 2>&1 || { tail -40 .build/fuzz/$$t.log; exit 1; }; \
	  echo "$$t: $$(grep -E 'stat::number_of_executed_units' .build/fuzz/$$t.log | tr -s ' ' | cut -d' ' -f2) runs in $$(grep -oE 'in [0-9]+ second' .build/fuzz/$$t.log | tail -1 | cut -d' ' -f2) s, no crash, leak or hang"; \
	done

# Formatting, and no clock read outside the clock's files (scripts/clock-reads.sh).
lint:
	$(SWIFT) format lint --strict --recursive --configuration .swift-format Sources Tests Package.swift
	@# The pure modules read no file and no clock: no I/O module imported (zone files: ZoneFiles).
	@if grep -rEn '^\s*(public |internal |@testable )?import (Glibc|Foundation|SQLite|Dispatch|Transport|Journal)\b' Sources/WallboardCore Sources/Projections Sources/SourceKit; then \
	  echo "lint: WallboardCore, Projections and SourceKit are pure: the imports above do I/O"; exit 1; fi
	scripts/clock-reads.sh Sources
	scripts/function-lengths.sh Sources/WallboardCLI 80

format:
	$(SWIFT) format --in-place --recursive --configuration .swift-format Sources Tests Package.swift

# The benchmark report, in release mode: every figure the issues ask for (throughputs, frame
# times, PNG encoding, workspace and journal figures, the stripped binary's size, the process's
# floor, a snapshot's CPU and memory beside headless Chromium's showing the same board as a web
# page, running boards' memory and idle CPU on each display, the QUIC transport against the
# test peers), each beside its goal, printed as one table and written as JSON to BENCH_JSON. A
# missed goal is named, not an error. BENCH_ARGS=--footprint-only runs the size, floor,
# snapshot, Chromium and running boards alone (issue 25).
# The same figures under the aarch64 guest come in the same table (BENCH_GUEST=aarch64, the
# default): `make pi`'s board booted in `make vm-test`'s guest (Tests/VM/bench.sh: QEMU's software
# emulation, virtio-gpu at 1920x1080), its binary, --version floor, a snapshot's peak, start to
# first frame on DRM and on the framebuffer, and running boards' memory and idle CPU; 75-95 s
# measured, after `make pi` (long the first time). BENCH_GUEST= leaves them out;
# BENCH_ARGS=--guest-only runs them alone.
# Debian packages only the bench uses: Chromium (its memory is the snapshot's yardstick) and
# binutils (strip); installed with the tests' packages (one apt-get update at most).
BENCH_PACKAGES := chromium binutils
BENCH_JSON ?= .build/bench.json
BENCH_GUEST ?= $(if $(filter --quic-only --nats-only,$(BENCH_ARGS)),,aarch64)
bench: $(if $(BENCH_GUEST),pi)
	$(if $(filter-out aarch64,$(BENCH_GUEST)),$(error BENCH_GUEST="$(BENCH_GUEST)": aarch64 or nothing))
	@$(call install_packages,$(BUILD_PACKAGES) $(TEST_PACKAGES) $(BENCH_PACKAGES) $(if $(BENCH_GUEST),$(VM_PACKAGES_AARCH64)))
	scripts/quic-venv.sh > /dev/null
	scripts/upstream-peer.sh > /dev/null
	$(SWIFT) build -c release --product wallboard-bench $(RELEASE_FLAGS) $(BUILD_FLAGS)
	$(SWIFT) build -c release --product wallboard $(RELEASE_FLAGS) $(BUILD_FLAGS)
	"$$($(SWIFT) build -c release --show-bin-path)/wallboard-bench" \
	  --wallboard "$$($(SWIFT) build -c release --show-bin-path)/wallboard" --json $(BENCH_JSON) \
	  $(if $(BENCH_GUEST),--guest $(PI_INSTALL)) $(BENCH_ARGS)

# A month on the wall, fast, and a live feed (scripts/soak.sh): the simulated team, then 30 days
# of JSON Lines on standard input (30 s each), then 2,000 events a second dated now for
# SOAK_SECONDS (default 600; CI 120), each through the whole path to a png: display with a
# journal, resident memory sampled every second; fails when it grows more than 2 MB (4 MB for
# the live feed) after the warm-up, or when the live feed's journal is past its bound.
SOAK_SECONDS ?= 600
soak: deps
	$(SWIFT) build -c release --product wallboard $(RELEASE_FLAGS) $(BUILD_FLAGS)
	PYTHON=$(PYTHON) scripts/soak.sh "$$($(SWIFT) build -c release --show-bin-path)/wallboard" $(SOAK_SECONDS)

# Regenerates the README's screenshot with the product itself. A screenshot whose pixels are
# unchanged is left as it is (compared with Pillow when it is there), so the tree stays clean.
SAME_PIXELS = import sys; from PIL import Image; a, b = (Image.open(p).convert("RGBA") for p in sys.argv[1:]); \
  sys.exit(0 if a.size == b.size and a.tobytes() == b.tobytes() else 1)
screenshots: deps
	$(SWIFT) build -c release --product wallboard $(RELEASE_FLAGS) $(BUILD_FLAGS)
	"$$($(SWIFT) build -c release --show-bin-path)/wallboard" snapshot --source sim:seed=1 \
	  --at 2026-11-12T10:00:00Z --tz UTC --size 1920x1080 --out .build/screenshot.png
	@if cmp -s .build/screenshot.png docs/screenshot.png || \
	  $(PYTHON) -B -c '$(SAME_PIXELS)' .build/screenshot.png docs/screenshot.png 2>/dev/null; then \
	  echo "docs/screenshot.png: pixels unchanged, left as it is"; \
	else mv .build/screenshot.png docs/screenshot.png; echo "docs/screenshot.png redrawn"; fi

# Installs the binary, its data, a config and the systemd unit (see docs/kiosk.md).
install: deps
	$(SWIFT) build -c release --product wallboard $(RELEASE_FLAGS) $(BUILD_FLAGS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/wallboard $(DESTDIR)$(PREFIX)/share/doc/wallboard
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/wallboard" $(DESTDIR)$(PREFIX)/bin/wallboard
	cp -R assets Layouts $(DESTDIR)$(PREFIX)/share/wallboard/
	install -d $(DESTDIR)$(PREFIX)/share/wallboard/scripts
	install -m 755 scripts/nats-nkey.sh $(DESTDIR)$(PREFIX)/share/wallboard/scripts/nats-nkey.sh
	cp docs/*.md $(DESTDIR)$(PREFIX)/share/doc/wallboard/
	install -d $(DESTDIR)$(SYSCONFDIR)/wallboard $(DESTDIR)$(UNITDIR)
	[ -e $(DESTDIR)$(SYSCONFDIR)/wallboard/wallboard.conf ] || install -m 644 assets/systemd/wallboard.conf $(DESTDIR)$(SYSCONFDIR)/wallboard/wallboard.conf
	sed -e 's|@BINDIR@|$(PREFIX)/bin|g' -e 's|@SYSCONFDIR@|$(SYSCONFDIR)|g' -e 's|@DOCDIR@|$(PREFIX)/share/doc/wallboard|g' \
	  assets/systemd/wallboard.service.in > $(DESTDIR)$(UNITDIR)/wallboard.service
	@if [ -z "$(DESTDIR)" ]; then \
	  id wallboard >/dev/null 2>&1 || useradd --system --home-dir /var/lib/wallboard --shell /usr/sbin/nologin --groups video,tty wallboard; \
	  command -v systemctl >/dev/null && systemctl daemon-reload 2>/dev/null || true; \
	  echo "Installed. Start on boot with: systemctl enable --now wallboard"; \
	fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/wallboard $(DESTDIR)$(UNITDIR)/wallboard.service
	rm -rf $(DESTDIR)$(PREFIX)/share/wallboard $(DESTDIR)$(PREFIX)/share/doc/wallboard

clean:
	rm -rf .build
