# gpstrackd: `make demo` replays the bundled sample, `make test` runs the tests, `make bench`
# prints the benchmark figures, `make fuzz` and `make soak` run the fuzzers and the soak.
# Each installs missing Debian packages first.
SWIFT ?= swift
SAMPLE ?= samples/walk-and-drive.gpsd.json
FENCES ?= config/fences.geojson

.PHONY: all build deps test-deps demo replay-demo test test-repeat check format test-systemd fuzz soak bench text-order sample install install-files man deb clean docs-screenshot

all: build

deps:
	scripts/deps.sh build

test-deps:
	scripts/deps.sh test

build: deps
	$(SWIFT) build

# The live demo: gpsfake feeds a real gpsd the bundled NMEA route; gpstrackd follows it.
demo: build
	scripts/deps.sh demo
	scripts/demo.sh

# The same route replayed offline from its gpsd JSON log.
replay-demo: build
	.build/debug/gpstrackd replay --fences $(FENCES) $(SAMPLE)

# The edit-test loop: the formatter's lint and every in-process test (the core, the simulator,
# the tracking pipeline with an in-memory journal, the daemon's suites that start no process),
# timed after the build. `make test` runs these and everything else. The tests' temporary
# files go to a directory of the run's own, removed after it (as `make test`'s shards do).
CHECK_SUITES = GPSTrackCoreTests|HomeAssistantTests|InputSourceTests|InputSourceThreadTests|InputOutletsTests|StateDatabaseTests|OutboxTests|UplinkAgeLimitTests|ReconnectBackoffTests|TransportBackoffTests|SeaLevelHeightTests|OwnTracksEventTests|ConfigBoundsTests|ConfigurationDumpTests|IntegerConversionTests|SecurityDocTests|SecurityRightsDocTests|GPSTrackProtocolTests|BrokerWireTests|HostileFiguresTests|ModuleShapeTests|GPSTrackSimTests|GPSTrackPipelineTests|DegradedPointsTests|GPSDDecoderTests|GPSDTPVTests|GPSDDropCountTests|GPSDSkyTests|NativeThreadTests|StoppableThreadTests|ManPageTests
check:
	$(SWIFT) build --build-tests
	@start=$$(date +%s); \
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests && \
	tmp=$$(mktemp -d /tmp/check.XXXXXX) && TMPDIR=$$tmp $(SWIFT) test --skip-build --filter '$(CHECK_SUITES)'; \
	rc=$$?; rm -rf "$$tmp"; [ $$rc -eq 0 ] && \
	scripts/fuzz.sh --typecheck && \
	echo "make check: lint, in-process tests and the fuzz harnesses' types passed in $$(( $$(date +%s) - start )) s after the build"

# Formats the tree with the project's .swift-format (line length 120).
format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests

# scripts/test-counts.py counts the Swift tests and the system test's checks, prints every skip
# with its reason and ends with `N passed, N failed, N skipped`; under CI=true a skip fails, and
# anything of gpsfake's or gpstrackd's the run left in /tmp or /dev/shm fails too.
# The Swift suites run in TEST_SHARDS processes at once: most live tests wait on real processes,
# and one process runs only as many tests at a time as the machine has cores (15 min against 6).
TEST_SHARDS ?= 4
test: test-deps
	@# Home Assistant's venv (HomeAssistantLiveTests; minutes of downloads the first time) is
	@# installed in the background, beside the build (CPU-bound while pip waits on the network)
	@# and the other tests; HomeAssistantLiveTests waits for it (scripts/ha-venv.sh).
	@mkdir -p .build; touch .build/ha-venv.pending; (scripts/ha-venv.sh > .build/ha-venv.log 2>&1 &)
	$(SWIFT) build --build-tests
	scripts/test-counts.py reset
	@# The package's release build goes beside the Swift suites, at a lower priority: they mostly
	@# wait on real processes (the longest, a five-minute outage), and the flake hunt runs them
	@# beside a busy process a core. Five minutes saved; either failing fails the run.
	(nice -n 10 $(MAKE) deb > .build/deb.log 2>&1; echo $$? > .build/deb.rc) & deb=$$!; \
	  bin=$$($(SWIFT) build --show-bin-path); GPSTRACKD_BIN=$$bin/gpstrackd \
	    scripts/test-counts.py swift --shards $(TEST_SHARDS) -- $$bin/gpstrackdPackageTests.xctest; swift=$$?; \
	  wait $$deb; cat .build/deb.log; echo "swift suites: exit $$swift; make deb: exit $$(cat .build/deb.rc)"; \
	  [ $$swift -eq 0 ] && [ "$$(cat .build/deb.rc)" = 0 ]
	scripts/test-counts.py checks systemd -- Tests/systemd/run.sh gpstrackd_*.deb
	@# The soak waits on a real-time feed and uses little CPU: the fuzzers' build and runs go
	@# beside it (three minutes saved), and both must pass.
	FUZZ_SECONDS=$(TEST_FUZZ_SECONDS) scripts/fuzz.sh $(TEST_FUZZERS) & fuzz=$$!; \
	  SOAK_MIN=3 SOAK_FAULT_S=30 scripts/soak.py $$($(SWIFT) build --show-bin-path); soak=$$?; \
	  wait $$fuzz; fuzzed=$$?; \
	  echo "soak: exit $$soak; fuzzers: exit $$fuzzed"; cat .build/fuzz/failures.txt 2>/dev/null; \
	  [ $$soak -eq 0 ] && [ $$fuzzed -eq 0 ]
	scripts/test-counts.py judge

# The flake hunt: the Swift tests whose id (`Module.Suite/test()`) matches the regular expression
# FILTER, N runs one after another, each dealt to TEST_SHARDS processes at once, beside a busy
# process per core at normal priority. Each failed run's logs stay in .build/test-repeat/run-I;
# the output ends with `repeat: R runs, F failed` (docs/TESTING.md).
N ?= 20
FILTER ?= GPSTrackDaemonTests
test-repeat: test-deps
	scripts/ha-venv.sh
	$(SWIFT) build --build-tests
	bin=$$($(SWIFT) build --show-bin-path); GPSTRACKD_BIN=$$bin/gpstrackd \
	  scripts/test-counts.py repeat $(N) '$(FILTER)' --shards $(TEST_SHARDS) -- $$bin/gpstrackdPackageTests.xctest

# docs/export-day.png: the seeded day's map page (`export --format html`) as MapPageTests renders
# and checks it (scripts/page-screenshot.sh, headless Chromium with the network off); and
# docs/homeassistant-device.png, the box's device page in a running Home Assistant, as
# HomeAssistantLiveTests takes it (Tests/ha/ha_screenshot.py).
docs-screenshot: test-deps
	$(SWIFT) build --build-tests
	GPSTRACKD_BIN=$$($(SWIFT) build --show-bin-path)/gpstrackd GPSTRACK_DOCS_SCREENSHOT=$(CURDIR)/docs/export-day.png \
		$(SWIFT) test --skip-build --filter MapPageTests
	scripts/ha-venv.sh
	GPSTRACKD_BIN=$$($(SWIFT) build --show-bin-path)/gpstrackd \
		GPSTRACK_DOCS_HA_SCREENSHOT=$(CURDIR)/docs/homeassistant-device.png \
		$(SWIFT) test --skip-build --filter HomeAssistantLiveTests

# libFuzzer harnesses (fuzz/*/harness.swift) for the gpsd line path, the GeoJSON loader, the
# config parser, the control request parser and framing, the MQTT command parser and its commands
# run, IIO scan types, the state database's restore and the uplinks' HTTP replies, each for
# FUZZ_SECONDS from its seed corpus (in `make test`, TEST_FUZZ_SECONDS: ten harnesses in two and
# a half minutes, beside the soak).
FUZZ_SECONDS ?= 300
TEST_FUZZ_SECONDS ?= 15
TEST_FUZZERS = broker-command-run config control control-framing geojson gpsd-line http-reply iio-scan \
	mqtt-command state-restore
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# The daemon for SOAK_MIN minutes on a 10 Hz feed through a real gpsd, with a fault every
# SOAK_FAULT_S seconds (gpsd and broker restarts, SIGHUP, watchers, a SIGKILL); scripts/soak.py.
SOAK_MIN ?= 30
SOAK_FAULT_S ?= 60
soak: test-deps
	$(SWIFT) build
	SOAK_MIN=$(SOAK_MIN) SOAK_FAULT_S=$(SOAK_FAULT_S) scripts/soak.py $$($(SWIFT) build --show-bin-path)

# The system test alone: the package under a real systemd (PID 1 in a namespace), as root.
test-systemd: deb
	Tests/systemd/run.sh gpstrackd_*.deb

# The release build as the package ships it (debian/rules' SWIFTBUILD, kept in step): the Swift
# runtime linked statically, by lld with packed relocations, identical code folded, no symbol
# exported, the functions that run placed first (debian/text-order.txt), libstdc++ linked in.
BENCH_BUILD = $(SWIFT) build -c release --static-swift-stdlib -Xswiftc -use-ld=lld \
  -Xlinker -z -Xlinker pack-relative-relocs -Xlinker --icf=safe -Xlinker --no-export-dynamic \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections \
  -Xlinker --symbol-ordering-file=$(CURDIR)/debian/text-order.txt -Xlinker --no-warn-symbol-ordering \
  -Xlinker -T -Xlinker $(CURDIR)/debian/text-private.ld -Xswiftc -L$(CURDIR)/debian/static-cxx
bench: deps
	scripts/deps.sh bench
	$(BENCH_BUILD) --product gpstrackd
	$(BENCH_BUILD) --product gpstrack-bench
	$(BENCH_BUILD) --product gpstrackctl
	$(MAKE) $(BENCH_VENV)/ok || echo "no Python comparison: could not install shapely and geographiclib"
	GPSTRACKD_BENCH_PYTHON=$$(test -f $(BENCH_VENV)/ok && echo $(BENCH_VENV)/bin/python) \
	  $$($(BENCH_BUILD) --show-bin-path)/gpstrack-bench
	gcc -O2 -shared -fPIC -o .build/malloc_count.so bench/malloc_count.c
	BIN=$$($(BENCH_BUILD) --show-bin-path)/gpstrackd BENCH=$$($(BENCH_BUILD) --show-bin-path)/gpstrack-bench \
	  BENCH_PYTHON=$$(test -f $(BENCH_VENV)/ok && echo $(BENCH_VENV)/bin/python) ALLOC_LIB=.build/malloc_count.so \
	  scripts/bench-replay.py
	BIN=$$($(BENCH_BUILD) --show-bin-path)/gpstrackd BENCH=$$($(BENCH_BUILD) --show-bin-path)/gpstrack-bench \
	  scripts/bench-live.sh
	BIN=$$($(BENCH_BUILD) --show-bin-path)/gpstrackd BENCH=$$($(BENCH_BUILD) --show-bin-path)/gpstrack-bench \
	  scripts/bench-floor.sh
	BIN=$$($(BENCH_BUILD) --show-bin-path)/gpstrackd BENCH=$$($(BENCH_BUILD) --show-bin-path)/gpstrack-bench \
	  scripts/bench-beside.sh

# Writes debian/text-order.txt again (the functions that run, first in the release link's text)
# from callgrind runs of the release build: after changes to start-up or the per-fix path.
text-order: deps
	scripts/deps.sh text-order
	$(BENCH_BUILD) --product gpstrackd
	$(BENCH_BUILD) --product gpstrack-bench
	$(SWIFT) build --product gpstrackctl
	BUILD="$(BENCH_BUILD)" scripts/text-order.sh $$($(BENCH_BUILD) --show-bin-path)/gpstrackd \
	  $$($(SWIFT) build --show-bin-path)/gpstrackctl $$($(BENCH_BUILD) --show-bin-path)/gpstrack-bench

# Regenerates the bundled samples from the seeded simulator.
sample: build
	.build/debug/gpstrack-bench --write-sample $(SAMPLE)
	.build/debug/gpstrack-bench --write-nmea samples/walk-and-drive.nmea

# Installs the daemon, its unit, its sysusers entry, the man pages, a sample config and sample
# fences. `install-files` copies what is built (the package build uses it with its own layout).
PREFIX ?= /usr/local
DESTDIR ?=
SYSCONFDIR ?= /etc
UNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
MANDIR ?= $(PREFIX)/share/man
BINDIR_BUILT ?= $$($(SWIFT) build -c release --show-bin-path)
MANPAGES := gpstrackd.8 gpstrackctl.1 gpstrackd.conf.5 gpstrackd-fences.5
install: deps man
	$(SWIFT) build -c release --product gpstrackd
	$(SWIFT) build -c release --product gpstrackctl
	$(MAKE) install-files

install-files:
	install -D -m 0755 $(BINDIR_BUILT)/gpstrackd $(DESTDIR)$(PREFIX)/bin/gpstrackd
	install -D -m 0755 $(BINDIR_BUILT)/gpstrackctl $(DESTDIR)$(PREFIX)/bin/gpstrackctl
	install -d $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(SYSCONFDIR)/gpstrackd
	sed 's|/usr/local/bin/gpstrackd|$(PREFIX)/bin/gpstrackd|; s|/etc/gpstrackd/|$(SYSCONFDIR)/gpstrackd/|' \
	  systemd/gpstrackd.service > $(DESTDIR)$(UNITDIR)/gpstrackd.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/gpstrackd.service
	install -m 0644 systemd/gpstrackd.sysusers $(DESTDIR)$(SYSUSERSDIR)/gpstrackd.conf
	test -e $(DESTDIR)$(SYSCONFDIR)/gpstrackd/gpstrackd.conf || \
	  install -m 0644 config/gpstrackd.conf $(DESTDIR)$(SYSCONFDIR)/gpstrackd/gpstrackd.conf
	install -m 0644 config/fences.geojson $(DESTDIR)$(SYSCONFDIR)/gpstrackd/fences.geojson.example
	for page in $(MANPAGES); do \
	  install -D -m 0644 .build/man/$$page $(DESTDIR)$(MANDIR)/man$${page##*.}/$$page || exit 1; done

# The man pages, from man/*.scd (scdoc).
man: $(MANPAGES:%=.build/man/%)
.build/man/%: man/%.scd
	@command -v scdoc >/dev/null || scripts/deps.sh test
	@mkdir -p .build/man
	scdoc < $< > $@

# The Debian package, built with debhelper: .build/deb/gpstrackd_<version>_<arch>.deb, copied
# beside the Makefile for `apt-get install ./gpstrackd_*.deb`. lintian must find no error.
deb: deps
	scripts/deps.sh deb
	rm -f gpstrackd_*.deb
	rm -rf .build/deb debian/gpstrackd debian/.debhelper debian/debhelper-build-stamp debian/files debian/*.substvars debian/*.debhelper.log
	dpkg-checkbuilddeps
	debian/rules binary
	cp .build/deb/gpstrackd_*.deb .
	rm -rf debian/gpstrackd debian/.debhelper debian/debhelper-build-stamp debian/files debian/*.substvars
	lintian --fail-on error gpstrackd_*.deb

clean:
	rm -rf .build

# A Python with Shapely and GeographicLib for the benchmark's comparison (from PyPI).
BENCH_VENV := .build/bench-venv
$(BENCH_VENV)/ok:
	python3 -m venv $(BENCH_VENV) && $(BENCH_VENV)/bin/pip install -q shapely geographiclib && touch $@
