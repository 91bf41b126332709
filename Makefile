# petlog — what the README runs. `make demo` and `make test` work as root on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= swift
APT_PACKAGES := libsqlite3-dev libcairo2-dev libpango1.0-dev fonts-noto-cjk fonts-nanum fonts-mplus fonts-droid-fallback fonts-urw-base35 \
  poppler-utils sqlite3 jq \
  libtesseract-dev libleptonica-dev tesseract-ocr tesseract-ocr-eng tesseract-ocr-kor tesseract-ocr-jpn tesseract-ocr-osd \
  libheif-dev libheif-examples \
  python3-gi python3-gi-cairo gir1.2-pango-1.0 python3-pil bc groff-base postgresql-15 zsh fish imagemagick \
  libqrencode-dev zbar-tools chromium python3-venv
# chromium: Debian's, the headless browser the serve test drives (Tests/browser, Playwright launches it by its path);
# python3-venv: the folder Playwright is installed into (.build/browser-venv, never system-wide).
# libqrencode-dev: the emergency card's QR code (Sources/CQRencode); zbar-tools: the tests decode it with zbarimg.
# zsh, fish: the completion tests drive them on a pseudo-terminal beside bash. imagemagick: the report tests make JPEGs.
# postgresql-15: the throwaway server the PostgreSQL tests start (scripts/pg-test-server.sh; the service is not used).
# tesseract + leptonica for the OCR module and its language data (osd: the receipt's script and turn);
# libheif-dev: HEIC photos (the OCR module's CHeif), heif-enc from libheif-examples makes them in the tests; PyGObject, pycairo and Pillow (Debian's,
# for /usr/bin/python3) draw the receipt test set (scripts/make-receipts.py) and the generated receipts (scripts/receipt-gen.py,
# which also draws with fonts-droid-fallback and fonts-urw-base35's C059/Nimbus/P052); bc for bench/ocr.sh; groff checks the man page.
# The tests read petlog's .ics files back with a real iCalendar parser.
PIP_PACKAGES := icalendar==7.3.0
# The FHIR export's tests validate bundles with fhir.resources 6.5.0 (FHIR R4), which needs pydantic 1: installed
# into a folder of their own (.build/python-fhir, on PYTHONPATH in FHIRExportTests only), so that the machine's
# pydantic 2, which other Python tools need, stays as it is.
PIP_FHIR_PACKAGES := fhir.resources==6.5.0 pydantic==1.10.17
# Playwright for Python drives Debian's chromium in the browser test (Tests/browser/serve_browser.py, docs/testing.md): in a
# venv of its own under .build, its bundled driver only (no browser download: the test launches /usr/bin/chromium).
PIP_BROWSER_PACKAGES := playwright==1.65.2
BROWSER_VENV := .build/browser-venv
# Test tools install silently: pip's output goes to .build/pip*.log and is shown only when pip fails; no
# warning about running as root, and no check of the target folder against the machine's other packages
# (the FHIR folder's pydantic 1 is meant to differ from the system's pydantic 2).
PIP_QUIET := python3 -m pip install -q --disable-pip-version-check --no-warn-conflicts --root-user-action=ignore
PREFIX ?= /usr/local
DEMO_DIR ?= $(shell mktemp -d -t petlog-demo.XXXXXX 2>/dev/null || echo /tmp/petlog-demo)

.PHONY: setup build build-tests release demo test soak fuzz install bench bench-ocr bench-receipts receipts clean man static deb

## setup: install the system packages petlog builds and tests with, when missing (needs root).
setup:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi; \
	fi
	@python3 -c 'import icalendar' 2>/dev/null || { mkdir -p .build; $(PIP_QUIET) $(PIP_PACKAGES) > .build/pip.log 2>&1 || \
	  $(PIP_QUIET) --break-system-packages $(PIP_PACKAGES) > .build/pip.log 2>&1 || { cat .build/pip.log; exit 1; }; }
	@PYTHONPATH=.build/python-fhir python3 -c 'import fhir.resources' 2>/dev/null || { mkdir -p .build; \
	  $(PIP_QUIET) --upgrade --target .build/python-fhir $(PIP_FHIR_PACKAGES) > .build/pip-fhir.log 2>&1 || { cat .build/pip-fhir.log; exit 1; }; }
	@$(BROWSER_VENV)/bin/python -c 'import playwright' 2>/dev/null || { mkdir -p .build; rm -rf $(BROWSER_VENV); \
	  { python3 -m venv $(BROWSER_VENV) && $(BROWSER_VENV)/bin/python -m pip install -q --disable-pip-version-check --no-warn-conflicts --root-user-action=ignore $(PIP_BROWSER_PACKAGES); } \
	  > .build/pip-browser.log 2>&1 || { cat .build/pip-browser.log; exit 1; }; }

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

## demo: a demo household in a fresh temporary database, a weight chart and a vet report, then a look at it,
## and a demo account (a fresh random password) to open it in a browser with `petlog serve`.
demo: build
	@bin=$$($(SWIFT) build --show-bin-path)/petlog; dir="$(DEMO_DIR)"; db="$$dir/petlog.sqlite"; \
	$$bin demo --db "$$db" && \
	echo && $$bin --db "$$db" pet list && \
	echo && $$bin --db "$$db" log Coco --since 7d && \
	echo && $$bin --db "$$db" due --within 60d && \
	echo && $$bin --db "$$db" chart weight Coco Nabi Mochi --since 1y -o "$$dir/weight.png" && \
	$$bin --db "$$db" report Coco --since 1y -o "$$dir/coco-report.pdf" --question "Is the weight change a concern?" && \
	echo && echo "Demo database: $$db" && echo "Weight chart:  $$dir/weight.png" && echo "Vet report:    $$dir/coco-report.pdf" && \
	echo "Try: $$bin --db $$db log --kind visit,vaccination" && \
	pw=$$(head -c 12 /dev/urandom | base64 | tr -d '/+=') && \
	printf '%s\n' "$$pw" | $$bin --db "$$db" user add demo --role owner --password-stdin > /dev/null && \
	echo && echo "In a browser: $$bin --db $$db serve" && echo "  then open http://127.0.0.1:8080/ and sign in as demo, password $$pw"

## test: every unit test and the fast end-to-end tests, with fixed seeds (a short crash run included), TEST_WORKERS
## at a time (default three on two cores: a test process keeps about half a core busy, the rest is waiting on
## petlog, PostgreSQL and files; docs/testing.md, "Time"), the browser test beside them; the long soaks are
## `make soak`. Summary: "N passed, M failed".
FAST_SKIP := ShelterImportTests|testWritersKilledMidWriteDisturbNoOtherWriter|testAWriterGivesUpAfterTheDocumentedThirtySecondsInTotal|ServerLoadTests|testAThousandWritesFromEightWritersOnABusyServer
## Both stores in one run, with no list to keep (docs/testing.md): each test of a suite that touches a store (a
## StoreTestCase, every CLITestCase among them) runs on SQLite and then on PostgreSQL, on one throwaway
## PostgreSQL 15 the whole run shares (needs postgresql-15, make setup; without it, SQLite only, said below).
## A failure names its store ("[on PostgreSQL] …").
## For CI (.ci/run): BUILT=1 when everything is built already (no second, no-op build; make soak takes it too),
## TEST_SKIP=… for tests the soak part has just run longer, with random seeds.
## The build the tests run (make test, make soak, make build-tests, .ci/run; docs/testing.md, "Time"): the release
## configuration without optimization, with testable imports and the tests' hooks (PETLOG_TEST_HOOKS), in its own
## folder (.build-tests) beside the debug and release builds. No DEBUG: argument-parser's definition checks (a third
## of a debug petlog run's CPU) run once in CommandDefinitionTests instead of in every petlog run.
## TEST_BUILD= tests the debug build in .build instead.
TEST_BUILD ?= -c release -Xswiftc -Onone -Xswiftc -enable-testing -Xswiftc -DPETLOG_TEST_HOOKS --scratch-path .build-tests
BUILT ?=
TEST_SKIP ?=
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) * 3 / 2 )))
build-tests: setup
	$(SWIFT) build $(TEST_BUILD) --build-tests
test: $(if $(BUILT),,setup)
	@$(if $(BUILT),true,$(SWIFT) build $(TEST_BUILD) --build-tests 2>&1 | grep -E "error|warning: unre|Build complete") ; \
	rm -f .build/test.xml .build/test-times.tsv .build/browser.log; browser=; bin=$$($(SWIFT) build $(TEST_BUILD) --show-bin-path); \
	if [ -x $(BROWSER_VENV)/bin/python ]; then $(BROWSER_VENV)/bin/python Tests/browser/serve_browser.py --petlog "$$bin/petlog" \
	  --screenshots .build/screenshots --store sqlite --store postgres > .build/browser.log 2>&1 & browser=$$!; \
	else echo "not run: Playwright is not installed (make setup installs it into $(BROWSER_VENV))" > .build/browser.log; fi; \
	set -o pipefail; PETLOG_TEST_TIMES=$(CURDIR)/.build/test-times.tsv \
	  PETLOG_CRASH_SEED=20261123 PETLOG_CRASH_TRIALS=40 $(SWIFT) test $(TEST_BUILD) --skip-build --parallel --num-workers $(TEST_WORKERS) \
	  --xunit-output .build/test.xml --skip '$(FAST_SKIP)$(if $(TEST_SKIP),|$(TEST_SKIP))' 2>&1 | tee .build/test.log; status=$$?; \
	echo "browser test (Tests/browser/serve_browser.py, headless chromium, run beside the Swift tests):"; \
	if [ -n "$$browser" ]; then wait $$browser || status=1; fi; cat .build/browser.log; \
	$(call xunit_summary,.build/test.xml,.build/browser.log); python3 scripts/test-times.py .build/test.xml .build/test-times.tsv; \
	if [ -x /usr/lib/postgresql/15/bin/initdb ]; then \
	  echo "each store suite ran on SQLite and on PostgreSQL: $$(grep -c 'error: .*\[on SQLite\]' .build/test.log) failures on SQLite, $$(grep -c 'error: .*\[on PostgreSQL\]' .build/test.log) on PostgreSQL"; \
	else echo "PostgreSQL store: not tested (postgresql-15 is not installed; make setup installs it)"; fi; \
	exit $$status

## soak: crash and concurrency soaks with random seeds (printed, replay with PETLOG_CRASH_SEED=…), 1,000
## weights for one pet from 8 writers on a busy PostgreSQL server (numbers in .build/one-pet-writers.txt) and
## the big shelter import (skipped without ../shared/bench), one at a time; beside them the 30-second lock
## wait, which only waits (the test binary run by the test's name; its log is appended to .build/soak.log).
SOAK_BESIDE := testAWriterGivesUpAfterTheDocumentedThirtySecondsInTotal
soak: $(if $(BUILT),,setup)
	@$(if $(BUILT),true,$(SWIFT) build $(TEST_BUILD) --build-tests 2>&1 | grep -E "error|Build complete") ; \
	xctest=$$($(SWIFT) build $(TEST_BUILD) --show-bin-path)/petlogPackageTests.xctest; \
	$$xctest petlogTests.StoreSafetyTests/$(SOAK_BESIDE) > .build/soak-beside.log 2>&1 & beside=$$!; \
	set -o pipefail; $(SWIFT) test $(TEST_BUILD) --skip-build --filter 'CrashSafetyTests|ConcurrencyTests|$(FAST_SKIP)' --skip '$(SOAK_BESIDE)' 2>&1 | tee .build/soak.log; status=$$?; \
	wait $$beside || status=1; grep -E "^Test Case .*(passed|failed)|error:" .build/soak-beside.log; \
	grep -hE "seed [0-9]+" .build/soak.log | grep -v "^Test" | cut -c1-200; \
	python3 -c 'import re,sys; runs=[re.findall(r"Executed (\d+) tests?, with (?:(\d+) tests? skipped and )?(\d+) failures?", open(p).read())[-1] for p in sys.argv[1:]]; n,k,f=(sum(int(r[i] or 0) for r in runs) for i in range(3)); print(f"{n-f-k} passed, {f} failed" + (f" ({k} skipped)" if k else ""))' .build/soak.log .build/soak-beside.log; \
	cat .build/soak-beside.log >> .build/soak.log; \
	exit $$status

# "N passed, M failed" from the xUnit file `swift test --parallel` writes.
# With a second file (the browser test's log), its "N passed, N failed" is added in.
define xunit_summary
python3 -c 'import re,sys; t=open(sys.argv[1]).read(); n=t.count("<testcase "); f=t.count("<failure"); k=t.count("<skipped"); \
b=re.findall(r"^(\d+) passed, (\d+) failed", open(sys.argv[2]).read() if len(sys.argv) > 2 else "", re.M); \
p=n-f-k+(int(b[-1][0]) if b else 0); f+=int(b[-1][1]) if b else 0; print(f"{p} passed, {f} failed" + (f" ({k} skipped)" if k else ""))' $(1) $(2)
endef

## fuzz: each libFuzzer target in Fuzz/ (the parsers) for FUZZ_SECONDS, built with -sanitize=fuzzer,address
## (Linux; docs/testing.md), FUZZ_JOBS at a time (a libFuzzer run uses one core; default one per core).
## Seeds in Fuzz/Corpus/<target>/ are only read; inputs found go to Fuzz/.build/corpus/,
## a failing input to Fuzz/.build/crashes/. FUZZ_TARGETS=FuzzMass runs one.
FUZZ_SECONDS ?= 20
FUZZ_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
FUZZ_BUILD := $(SWIFT) build --package-path Fuzz -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
FUZZ_TARGETS ?= $(filter-out FuzzSupport,$(notdir $(wildcard Fuzz/Sources/Fuzz*)))
fuzz:
	@mkdir -p Fuzz/.build/crashes; \
	if ! $(FUZZ_BUILD) > Fuzz/.build/build.log 2>&1; then grep -v "Cannot export local symbol" Fuzz/.build/build.log | tail -n 40; exit 1; fi; \
	grep -v "Cannot export local symbol" Fuzz/.build/build.log | tail -n 1; \
	bin=$$($(FUZZ_BUILD) --show-bin-path); failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p Fuzz/.build/corpus/$$t; rm -f Fuzz/.build/$$t.status; \
	  { SWIFT_BACKTRACE=enable=no $$bin/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	      -artifact_prefix=Fuzz/.build/crashes/$$t- Fuzz/.build/corpus/$$t Fuzz/Corpus/$$t > Fuzz/.build/$$t.log 2>&1 < /dev/null; \
	    echo $$? > Fuzz/.build/$$t.status; } & \
	  while [ "$$(jobs -rp | wc -l)" -ge $(FUZZ_JOBS) ]; do wait -n; done; \
	done; wait; \
	for t in $(FUZZ_TARGETS); do \
	  [ "$$(cat Fuzz/.build/$$t.status 2>/dev/null)" = 0 ] || { failed="$$failed $$t"; grep -v "^    #\|^ *r[a-z0-9]* 0x" Fuzz/.build/$$t.log | tail -n 30; }; \
	  echo "fuzz: $$t: $$(sed -n 's/^stat::number_of_executed_units: *//p' Fuzz/.build/$$t.log) inputs in $(FUZZ_SECONDS) s"; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: FAILED:$$failed (inputs in Fuzz/.build/crashes/; replay: $$bin/TARGET FILE)"; exit 1; fi

## install: the release binary in $(PREFIX)/bin, petlog.1 in $(PREFIX)/share/man/man1, and the bash, zsh and fish
## completions (generated by the binary itself) in the standard folders under $(PREFIX)/share; DESTDIR for staging.
BASH_COMPLETION_DIR ?= $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR ?= $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR ?= $(PREFIX)/share/fish/vendor_completions.d
install: release man
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0644 petlog.1 $(DESTDIR)$(PREFIX)/share/man/man1/petlog.1
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(BASH_COMPLETION_DIR) $(DESTDIR)$(ZSH_COMPLETION_DIR) $(DESTDIR)$(FISH_COMPLETION_DIR)
	bin=$$($(SWIFT) build -c release --show-bin-path); for p in petlog petlog-ocr petlog-fetch; do install -m 0755 $$bin/$$p $(DESTDIR)$(PREFIX)/bin/$$p; done
	bin=$$($(SWIFT) build -c release --show-bin-path)/petlog; \
	$$bin --generate-completion-script bash > $(DESTDIR)$(BASH_COMPLETION_DIR)/petlog && \
	$$bin --generate-completion-script zsh > $(DESTDIR)$(ZSH_COMPLETION_DIR)/_petlog && \
	$$bin --generate-completion-script fish > $(DESTDIR)$(FISH_COMPLETION_DIR)/petlog.fish && \
	chmod 0644 $(DESTDIR)$(BASH_COMPLETION_DIR)/petlog $(DESTDIR)$(ZSH_COMPLETION_DIR)/_petlog $(DESTDIR)$(FISH_COMPLETION_DIR)/petlog.fish

## man: petlog.1 from the command definitions (argument-parser's generate-manual plugin, built offline from
## the package's own checkout), finished by scripts/man-page.py (README examples, groff-clean); checked by groff -ww -Tutf8
## (the device man uses on a UTF-8 terminal; -Tps has no Hangul or kana glyphs for the README's examples).
MAN_DATE ?= $(shell git log -1 --format=%cs 2>/dev/null || date +%F)
man: release
	$(SWIFT) package plugin generate-manual --configuration release --date $(MAN_DATE) >/dev/null
	python3 scripts/man-page.py .build/plugins/GenerateManual/outputs/petlog/petlog.1 README.md petlog.1
	@w=$$(groff -ww -man -z petlog.1 2>&1; groff -ww -man -z -Tutf8 petlog.1 2>&1); if [ -n "$$w" ]; then echo "$$w"; exit 1; fi
	@echo "petlog.1: $$(grep -c '^\.It Em' petlog.1) command entries, groff -ww clean"

## static: the release binary with the Swift runtime and Foundation (ICU data included) linked in, in its own
## scratch folder (.build-static) beside the dynamic release build; it needs only system libraries (ldd checked).
STATIC_BUILD := $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-static
TOOLCHAIN_DIR := $(shell d=$$(readlink -f "$$(command -v $(SWIFT))" 2>/dev/null); echo "$${d%/usr/bin/*}")
static: setup
	for p in petlog petlog-ocr petlog-fetch; do $(STATIC_BUILD) --product $$p 2>&1 | grep -E "error|warning: unre|Build complete" || true; done
	@for p in petlog petlog-ocr petlog-fetch; do bin=$$($(STATIC_BUILD) --show-bin-path)/$$p; test -x $$bin || exit 1; \
	if ldd $$bin | grep -F "$(TOOLCHAIN_DIR)/"; then echo "static: $$bin links the toolchain"; exit 1; fi; \
	echo "$$bin: $$(stat -c %s $$bin) bytes, no library from $(TOOLCHAIN_DIR)"; done

## deb: petlog_VERSION_ARCH.deb (dpkg-deb) with the static binary, petlog.1 and the completions; lintian when
## installed (errors fail the build). VERSION is PetlogVersion.current (what petlog --version says, also from a
## tarball without git); DEB_REVISION the package's.
VERSION ?= $(shell sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/PetModel/PetlogVersion.swift)
DEB_REVISION ?= 1
deb: static man
	@deb=$$(bash scripts/make-deb.sh "$$($(STATIC_BUILD) --show-bin-path)/petlog" petlog.1 $(VERSION)-$(DEB_REVISION) .) && \
	echo "$$deb: $$(stat -c %s $$deb) bytes" && \
	if command -v lintian >/dev/null; then lintian --fail-on error --suppress-tags-from-file scripts/debian/lintian-suppress $$deb; \
	else echo "lintian not installed: not checked"; fi

clean:
	rm -rf .build .build-static .build-tests petlog.1 petlog_*.deb

## receipts: redraw the OCR test set (Tests/OCRTests/Fixtures/receipts) from scripts/make-receipts.py.
receipts: setup
	/usr/bin/python3 scripts/make-receipts.py

## bench-ocr: OCREngine beside the tesseract command, per receipt and on a 12 MP photo, then the fields read by
## expense scan under en, ko, ja and a C locale, on the receipt set (each also upside down) and on phone photos (docs/ocr.md).
bench-ocr: setup
	bash bench/ocr.sh
	$(SWIFT) build -c release --product petlog >/dev/null && $(SWIFT) build -c release --product petlog-ocr >/dev/null && \
	  /usr/bin/python3 bench/receipt-fields.py "$$($(SWIFT) build -c release --show-bin-path)/petlog" Tests/OCRTests/Fixtures/receipts && \
	  /usr/bin/python3 scripts/make-receipts.py --phone .build/receipts-phone && \
	  /usr/bin/python3 bench/receipt-fields.py "$$($(SWIFT) build -c release --show-bin-path)/petlog" .build/receipts-phone

## bench-receipts: receipts petlog has never seen (scripts/receipt-gen.py, seed 45045, RECEIPTS=400), drawn into .build/receipts-gen
## and scored (scripts/receipt-score.py): the tuning half, then the held-out half, under a C locale and with petlog in another
## language, beside the tesseract command (docs/ocr.md, issue 45). RECEIPT_JOBS=2 scans two at once (times less clean).
RECEIPTS ?= 400
RECEIPT_JOBS ?= 1
bench-receipts: setup
	$(SWIFT) build -c release --product petlog >/dev/null && $(SWIFT) build -c release --product petlog-ocr >/dev/null
	/usr/bin/python3 scripts/receipt-gen.py --count $(RECEIPTS) --out .build/receipts-gen
	bin="$$($(SWIFT) build -c release --show-bin-path)"; \
	  /usr/bin/python3 scripts/receipt-score.py "$$bin/petlog" .build/receipts-gen/tune --title "tuning half" --jobs $(RECEIPT_JOBS) && \
	  /usr/bin/python3 scripts/receipt-score.py "$$bin/petlog" .build/receipts-gen/heldout --title "held-out half" --jobs $(RECEIPT_JOBS)

## bench: petlog beside gnuplot, matplotlib, ReportLab, sqlite3 and the C floors, in one run (docs/benchmarks.md).
bench: setup
	bash bench/run.sh
	$(MAKE) bench-ocr
