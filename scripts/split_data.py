#!/usr/bin/env python3
"""Split binary `volkhv datagen` files into held-out and training files.

usage: scripts/split_data.py VALID TRAIN N SRC [SRC ...]

The first N records of each SRC go to VALID, the rest to TRAIN, both under
the first file's header (records::binary::Header: 28 bytes plus the length of
its text; every record is 64 bytes). Holding out the start of each file keeps
the held-out positions in other games than the training ones (bar the one
game cut in two), whichever generation of data they come from.
"""
import struct
import sys

RECORD = 64


def header_and_records(path):
    data = open(path, "rb").read()
    text_len = struct.unpack("<I", data[24:28])[0]
    start = 28 + text_len
    count = (len(data) - start) // RECORD
    return data[:start], data[start : start + count * RECORD], count


def main(argv):
    if len(argv) < 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    valid, train, held, sources = argv[1], argv[2], int(argv[3]), argv[4:]
    header, held_out, training = None, [], []
    for source in sources:
        head, records, count = header_and_records(source)
        header = header or head
        held_out.append(records[: held * RECORD])
        training.append(records[held * RECORD :])
        print(f"{source}: {count} records")
    with open(valid, "wb") as f:
        f.write(header + b"".join(held_out))
    with open(train, "wb") as f:
        f.write(header + b"".join(training))
    n_valid = sum(map(len, held_out)) // RECORD
    n_train = sum(map(len, training)) // RECORD
    print(f"{n_valid} held out, {n_train} for training")


if __name__ == "__main__":
    main(sys.argv)
