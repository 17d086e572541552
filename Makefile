# odrpack: `make sample` runs the tool on SampleProject/, `make test` runs every test.
SWIFT ?= swift
BUILD_FLAGS ?=
ODRPACK = .build/debug/odrpack

.PHONY: all deps build release dist dist-check sample report test test-all test-quick test-browser lint format fuzz bench bench-compare bench-scale stats test-clone test-action test-bazel install uninstall clean
PREFIX ?= /usr/local

all: build

# Linux: libdeflate, zlib, libarchive (the tests' reader), libcurl (loaded by upload when it runs, never linked: the upload
# tests need it) and pkg-config come from apt when they are missing. macOS: zlib and libcurl are in the SDK and the
# OS; libarchive and pkg-config come from Homebrew, and libarchive (keg-only) is found through its .pc file.
UNAME := $(shell uname)
ifeq ($(UNAME),Darwin)
export PKG_CONFIG_PATH := $(shell brew --prefix libarchive 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
endif
deps:
ifeq ($(UNAME),Darwin)
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libarchive || ! pkg-config --exists libdeflate; then \
		echo "installing libarchive libdeflate pkg-config"; brew install libarchive libdeflate pkg-config; \
	fi
else
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libarchive || ! pkg-config --exists libdeflate || ! { /sbin/ldconfig -p 2>/dev/null | grep -q 'libcurl\.so\.4 '; } || [ ! -f /usr/include/zlib.h ]; then \
		echo "installing libarchive-dev libdeflate-dev zlib1g-dev libcurl4 pkg-config"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq libarchive-dev libdeflate-dev zlib1g-dev libcurl4 pkg-config; \
	fi
endif

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# Linux: the Swift runtime linked in, so the binary starts faster, which a no-op build notices. Darwin has the
# runtime in the OS and ignores --static-swift-stdlib with a warning, so it is not passed there.
ifeq ($(UNAME),Darwin)
STATIC_STDLIB =
else
STATIC_STDLIB = --static-swift-stdlib
endif
release: deps
	$(SWIFT) build -c release --product odrpack $(STATIC_STDLIB) $(BUILD_FLAGS)

# Release archives (docs/install.md): dist/odrpack-<version>-<target>.tar.gz and its .sha256 for this machine, the
# binary self-contained (Linux: the Swift runtime, Foundation, libdeflate, zlib and libstdc++ linked in, glibc 2.34 the
# floor, which Packaging/linux_floor.py checks; libcurl loaded by upload alone). dist-check runs the archive on a
# minimal Debian 12 root (Linux, as root; debootstrap makes the root once, kept under .build/dist-check): every
# command on a copy of the sample, then upload without and with libcurl.
dist: deps
	@command -v python3 >/dev/null 2>&1 || { echo "make dist needs python3 (it writes the archive)"; exit 1; }
	@if [ "$(UNAME)" != Darwin ] && ! command -v objdump >/dev/null 2>&1; then \
		echo "installing binutils (Packaging/linux_floor.py reads the binary with objdump)"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq binutils; \
	fi
	bash Packaging/dist.sh
dist-check: dist
	@python3 -c 'import cryptography' >/dev/null 2>&1 || { \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-cryptography; }
	bash Packaging/dist-check.sh

sample: build
	$(ODRPACK) plan SampleProject/odrpack.yml
	$(ODRPACK) plan SampleProject/odrpack.yml --format background-assets
	$(ODRPACK) build SampleProject/odrpack.yml --output SampleProject/build
	@echo "Wrote SampleProject/build:"
	@cd SampleProject/build && ls -1 . OnDemandResources
	$(ODRPACK) verify SampleProject/build

# The sample's HTML size report: one self-contained page.
report: build
	@mkdir -p SampleProject/build
	$(ODRPACK) report SampleProject/odrpack.yml --output SampleProject/build/odrpack-report.html

# strace (Linux, from apt when missing) lets the durability tests read the order of a build's flushes and renames;
# without it (or where ptrace is not allowed) those tests are skipped, not failed. The de_DE.UTF-8 locale (generated
# from Debian's locales package) lets a determinism test build under a locale that writes decimal commas. Python's
# cryptography (apt, else pip) lets the App Store Connect stand-in (Tests/AppStoreConnect) verify upload's ES256 tokens.
test: deps
ifneq ($(UNAME),Darwin)
	@if ! command -v strace >/dev/null 2>&1; then \
		echo "installing strace"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		( $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq strace ) \
			|| echo "strace could not be installed: the durability tests will be skipped"; \
	fi
	@if ! locale -a 2>/dev/null | grep -qi '^de_DE.utf-\?8$$'; then \
		echo "generating the de_DE.UTF-8 locale"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		( command -v localedef >/dev/null 2>&1 || ( $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq locales ) ) \
			&& $$SUDO localedef -i de_DE -f UTF-8 de_DE.UTF-8 \
			|| echo "de_DE.UTF-8 could not be generated: the locale determinism test will be skipped"; \
	fi
endif
	@if ! python3 -c 'import cryptography' >/dev/null 2>&1; then \
		echo "installing python3-cryptography (the App Store Connect stand-in checks upload's tokens with it)"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		( [ "$(UNAME)" != Darwin ] && $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-cryptography ); \
		python3 -c 'import cryptography' >/dev/null 2>&1 || python3 -m pip install --quiet cryptography \
			|| echo "cryptography could not be installed: the upload tests will be skipped"; \
	fi
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

# make test's behaviours plus the full-size runs (every seed and round of the property and chaos runs, the 4 GiB and
# 44,000-file trees, the memory gates): the suites' `.fullLevel` trait and TestLevel.rounds read ODRPACK_TEST_ALL
# (Tests/ODRPackTests/Support/TestLevel.swift). .ci/run runs this.
test-all:
	ODRPACK_TEST_ALL=1 $(MAKE) test

# Every suite but those tagged slow (Tests/ODRPackTests/Support/Tag+Suites.swift), for the loop between edits; `make
# test` runs them all. swift test 6.3 filters by name only (--skip tag:NAME matches no test), so the names of the suites
# whose @Suite(...) traits hold the tag are read from the sources and skipped by name; none tagged skips none.
suites_tagged = $(shell find Tests -name '*.swift' -exec perl -0777 -ne 'while (/\@Suite\(((?:(?!\bstruct\b).)*?)\)\s*struct\s+(\w+)/sg) { my ($$traits, $$name) = ($$1, $$2); print "$$name\n" if $$traits =~ /\.$(1)\b/ }' {} + | sort | paste -sd'|' -)
test-quick: deps
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build --skip '$(or $(call suites_tagged,slow),^$$)' $(BUILD_FLAGS)

# The toolchain's formatter (swift format, configured by .swift-format): `make format` rewrites the tree, `make lint`
# fails, naming them, when files are not as it would write them.
SWIFT_FILES = $(shell git ls-files '*.swift' 2>/dev/null)
format:
	$(SWIFT) format --in-place --parallel $(SWIFT_FILES)
lint:
	@unformatted=$$(printf '%s\n' $(SWIFT_FILES) | xargs -P 4 -I{} sh -c '$(SWIFT) format "{}" | cmp -s - "{}" || echo "{}"'); \
	if [ -n "$$unformatted" ]; then echo "not formatted as swift format writes them (run make format):"; echo "$$unformatted"; exit 1; fi; \
	echo "lint: every Swift file is formatted"
	@if ! command -v shellcheck >/dev/null 2>&1; then \
		echo "installing shellcheck"; \
		if [ "$(UNAME)" = Darwin ]; then brew install shellcheck; else \
			SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
			$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq shellcheck; \
		fi; \
	fi
	@for module in yaml:pyyaml check_jsonschema:check-jsonschema; do \
		if ! python3 -c "import $${module%%:*}" >/dev/null 2>&1; then \
			echo "installing $${module#*:}"; \
			python3 -m pip install --quiet "$${module#*:}" 2>/dev/null \
				|| python3 -m pip install --quiet --user --break-system-packages "$${module#*:}" || exit 1; \
		fi; \
	done
	python3 Tests/Action/lint_actions.py

# The GitHub Action (action.yml) run as the runner runs it, against `make dist`'s archives served on 127.0.0.1:
# install, a second install from the tool cache, a tampered archive, a failing validate, the json output
# (Tests/Action/test_action.py; `python3 Tests/Action/test_action.py DIR` runs it on another folder of archives).
test-action: dist
	python3 Tests/Action/test_action.py dist

# The App Store Connect stand-in by hand (docs/store.md#the-stand-in): an API key made once in .build/asc-standin,
# then Tests/AppStoreConnect/standin.py on http://127.0.0.1:$(ASC_STANDIN_PORT) with the sample's app, until Ctrl-C.
ASC_STANDIN_PORT ?= 8090
ASC_STANDIN = .build/asc-standin
.PHONY: asc-standin
asc-standin:
	@python3 -c 'import cryptography' 2>/dev/null || { echo "the stand-in needs python3 with cryptography (make test installs it)"; exit 1; }
	@mkdir -p $(ASC_STANDIN)
	@[ -f $(ASC_STANDIN)/AuthKey_STANDIN1.p8 ] || python3 -c 'from cryptography.hazmat.primitives.asymmetric import ec; from cryptography.hazmat.primitives import serialization as s; k = ec.generate_private_key(ec.SECP256R1()); open("$(ASC_STANDIN)/AuthKey_STANDIN1.p8", "wb").write(k.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, s.NoEncryption())); open("$(ASC_STANDIN)/public.pem", "wb").write(k.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo))'
	@echo '{"apps": [{"id": "1234567890", "bundleId": "com.example.bamboo"}]}' > $(ASC_STANDIN)/config.json
	@echo "upload to it: ASC_KEY_ID=STANDIN1 ASC_ISSUER_ID=69a6de70-0000-47e3-e053-5b8c7c11a4d1 ASC_PRIVATE_KEY_PATH=$(ASC_STANDIN)/AuthKey_STANDIN1.p8 ASC_APP_ID=1234567890 ODRPACK_ASC_API=http://127.0.0.1:$(ASC_STANDIN_PORT) odrpack upload BUILD_DIR --all"
	python3 Tests/AppStoreConnect/standin.py --state $(ASC_STANDIN)/state --public-key $(ASC_STANDIN)/public.pem --key-id STANDIN1 --issuer 69a6de70-0000-47e3-e053-5b8c7c11a4d1 --config $(ASC_STANDIN)/config.json --port $(ASC_STANDIN_PORT)

# Opens the report and diff pages in headless Chromium (installed from apt when missing).
test-browser: build
	@if ! command -v chromium >/dev/null 2>&1; then \
		echo "installing chromium"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; \
	fi
	bash Tests/Browser/check-pages.sh

# In-process libFuzzer targets (Fuzz/Targets), each run for FUZZ_SECONDS from its seed corpus (Fuzz/Corpus); what
# they find is kept in .build-fuzz/corpus, a crashing input in .build-fuzz/crashes (and make fails). lld links them:
# SwiftPM gives an executable its own main, which hands over to libFuzzer's driver. Leak detection is off: corelibs
# Foundation's plist parser leaks on malformed input, which is not this project's to fix.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS = FuzzTagManifest FuzzGlob FuzzBuildManifest FuzzStreamingZip FuzzPbxproj FuzzBinaryPlist
FUZZ_FLAGS = -c debug --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
fuzz: deps
	@for target in $(FUZZ_TARGETS); do ODRPACK_FUZZ=1 $(SWIFT) build $(FUZZ_FLAGS) --product $$target || exit 1; done
	@mkdir -p .build-fuzz/crashes
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$target; \
		echo "fuzzing $$target for $(FUZZ_SECONDS) s"; \
		ASAN_OPTIONS=detect_leaks=0 .build-fuzz/debug/$$target -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 -print_final_stats=1 \
			-artifact_prefix=.build-fuzz/crashes/$$target- .build-fuzz/corpus/$$target Fuzz/Corpus/$$target \
			> .build-fuzz/$$target.log 2>&1; status=$$?; \
		grep -E "^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|SUMMARY)" .build-fuzz/$$target.log; \
		if [ $$status -ne 0 ]; then tail -40 .build-fuzz/$$target.log; exit 1; fi; \
	done

# rules_odrpack (bazel/, docs/bazel.md) with Debian's bazel-bootstrap (Bazel 4.2.3, installed from apt when bazel is
# missing), with no download: Tests/Bazel/run.sh. Not part of `make test`.
test-bazel: deps
	@if ! command -v bazel >/dev/null 2>&1; then \
		echo "installing bazel-bootstrap"; \
		SUDO=$$( [ "$$(id -u)" -eq 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq bazel-bootstrap; \
	fi
	bash Tests/Bazel/run.sh

# Times odrpack against sequential bsdtar on a generated ~1 GB game; writes .build/bench/results.json.
bench: deps
	bash Benchmarks/run.sh

# make bench's commands with two binaries, run by run alternately so both see the same machine (make bench once first):
# OLD=PATH NEW=PATH [RUNS=3]. Prints a table of medians (docs/performance.md).
bench-compare:
	bash Benchmarks/compare.sh "$(OLD)" "$(NEW)" $(RUNS)

# Issue 48: the upload suites from a fresh clone in /tmp, in a private mount namespace where the folders beside this
# checkout are hidden (Linux, root): the tests need nothing outside the repository. Not part of `make test`.
test-clone: deps
	bash Tests/Isolation/upload-from-clone.sh

# The house-plan figures of docs/architecture.md#figures (functions of 60+ lines, path joins, NSString path calls,
# string inside-checks, files that branch on the pack format, SPEC citations), recomputed from Sources/.
stats:
	@python3 Benchmarks/code_stats.py

# Issue 38's scale: time and peak memory of build, no-op, validate, verify and diff at 100k, 300k and 1M files (a large
# random media file and thousands of small level files per pack); writes .build/bench-scale/results.json. Not part of
# `make test`. SCALE_SIZES, SCALE_MEDIA_MB, SCALE_PACKS and SCALE_RUNS choose the trees (Benchmarks/scale.sh).
bench-scale: deps
	bash Benchmarks/scale.sh

# The release binary, shell completions and a man page under PREFIX. The completions are ArgumentParser's, generated by
# the binary (files and folders for every path, the values of every enumerated option); the man page is docs/odrpack.1,
# written by hand for its EXIT STATUS, ENVIRONMENT, FILES and EXAMPLES, and kept in step with --help by HelpAndCompletionTests.
install: release
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 .build/release/odrpack $(DESTDIR)$(PREFIX)/bin/odrpack
	.build/release/odrpack --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/odrpack
	.build/release/odrpack --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_odrpack
	.build/release/odrpack --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/odrpack.fish
	install -m 0644 docs/odrpack.1 $(DESTDIR)$(PREFIX)/share/man/man1/odrpack.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/odrpack $(DESTDIR)$(PREFIX)/share/bash-completion/completions/odrpack \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_odrpack $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/odrpack.fish \
		$(DESTDIR)$(PREFIX)/share/man/man1/odrpack.1

clean:
	rm -rf .build dist SampleProject/build
