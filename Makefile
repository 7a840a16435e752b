# OpenBench's build: `make EXE=<output file> [EVALFILE=<chess network>]`,
# run in the repository root. The default target builds the engine binary
# for this machine's CPU and writes it to $(EXE).
# (The default name is not `volkhv`: that is the binary crate's folder.)
#
#   make                          ./volkhv-native, with eval/params/chess.nnue
#   make EXE=/tmp/volkhv-dev      another output file
#   make EVALFILE=/nets/x.nnue    embed another chess network (same layout)

# The crate and binary that make `volkhv`.
PACKAGE  := volkhv
BIN      := volkhv

EXE      ?= volkhv-native
EVALFILE ?=
CARGO    ?= cargo

# eval/build.rs reads the network's path from the environment; an empty
# EVALFILE keeps the default network.
ifneq ($(strip $(EVALFILE)),)
export VOLKHV_EVALFILE := $(abspath $(EVALFILE))
endif

.PHONY: all bench clean

all:
	$(CARGO) rustc --release -p $(PACKAGE) --bin $(BIN) -- -C target-cpu=native --emit link=$(abspath $(EXE))

# The signature OpenBench compares: `<nodes> nodes <nps> nps`.
bench: all
	$(abspath $(EXE)) bench

clean:
	$(CARGO) clean
