# make install PREFIX=~/.local: the release build of smokescreen in $(PREFIX)/bin and the assets it
# ships in $(PREFIX)/share/smokescreen/assets (where the tool looks beside itself).
# The installed tool links Swift's runtime statically, as every release build of the tool on Linux now does
# (Package.swift), and compiles every target for it (--static-swift-stdlib): an empty run (`smokescreen
# list`) takes 6.1 ms against 6.2 for .build/release/smokescreen and 15.5 before either (median of 60),
# 19 MB resident instead of 28 (docs/performance.md, Start-up). It builds in its own folder, so
# `swift run -c release` is not rebuilt.
PREFIX ?= /usr/local
BIN = $(PREFIX)/bin
SHARE = $(PREFIX)/share/smokescreen

.PHONY: build install uninstall
SCRATCH = .build-install

build:
	swift build -c release --product smokescreen --static-swift-stdlib --scratch-path $(SCRATCH)

install: build
	install -d "$(BIN)" "$(SHARE)"
	install -m 755 $(SCRATCH)/release/smokescreen "$(BIN)/smokescreen"
	rm -rf "$(SHARE)/assets"
	cp -R assets "$(SHARE)/assets"

uninstall:
	rm -f "$(BIN)/smokescreen"
	rm -rf "$(SHARE)"
