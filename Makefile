# make install PREFIX=~/.local: the release build of smokescreen in $(PREFIX)/bin and the assets it
# ships in $(PREFIX)/share/smokescreen/assets (where the tool looks beside itself).
PREFIX ?= /usr/local
BIN = $(PREFIX)/bin
SHARE = $(PREFIX)/share/smokescreen

.PHONY: build install uninstall
build:
	swift build -c release --product smokescreen

install: build
	install -d "$(BIN)" "$(SHARE)"
	install -m 755 .build/release/smokescreen "$(BIN)/smokescreen"
	rm -rf "$(SHARE)/assets"
	cp -R assets "$(SHARE)/assets"

uninstall:
	rm -f "$(BIN)/smokescreen"
	rm -rf "$(SHARE)"
