# Thin wrappers: every target delegates to scripts/, which run the idempotent scripts/setup.sh
# first, so `make run` and `make test` work on a fresh machine. See README.md.
# WEBKIT_TAG=webkit2_41 make ... builds against WebKitGTK 4.1 (Debian 13 / Ubuntu 24.04);
# make package builds for 4.1 whatever WEBKIT_TAG says (PACKAGE_WEBKIT=4.0 for a 4.0 package).

.PHONY: run test build build-dev package package-test bench bindings docs e2e interop smoke setup clean icon flake

run:        ## set up, build and run the app (under Xvfb when there is no display)
	scripts/run.sh

test:       ## everything CI runs; ends with "smoke: N passed, N failed"
	scripts/test.sh

build:      ## frontend + production binary: build/bin/agentdesk
	scripts/build.sh

build-dev:  ## dev-tag binary for e2e: build/bin/agentdesk-dev
	scripts/build-dev.sh

package:    ## Debian package for WebKitGTK 4.1 (PACKAGE_WEBKIT=4.0 for 4.0): build/bin/agentdesk_<version>_<arch>.deb
	scripts/package-deb.sh

package-test: ## install the .deb (root or sudo), start it from its menu entry under Xvfb, remove it
	scripts/package-test.sh

bench:      ## Go benchmarks, then the e2e perf script (numbers only, no timed assertions)
	scripts/bench.sh

bindings:   ## regenerate frontend/wailsjs after changing bound Go methods/types
	scripts/bindings.sh

docs:       ## rewrite the generated tables of the docs (verbs, packages, layers, data-testids)
	go run ./scripts/docgen

flake:      ## flake hunt: go test -race -count=$(COUNT) per package (PKG=./backend/acp COUNT=200)
	scripts/flake.sh $(or $(PKG),./...) $(or $(COUNT),200)

e2e:        ## headless Chromium against the dev-tag binary
	scripts/e2e.sh

interop:    ## the real Claude Code and Codex, offline, against scripted model servers (installs them once into ~/.cache)
	scripts/interop.sh

smoke:      ## real-window self-test of the production binary
	scripts/smoke.sh

setup:      ## install/check system packages, Go/Node, npm deps, Wails CLI
	scripts/setup.sh

icon:       ## redraw build/appicon.png
	scripts/make-icon.sh

clean:      ## remove build outputs (not node_modules or caches)
	scripts/clean.sh
