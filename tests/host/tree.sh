#!/usr/bin/env bash
# The tree's structural rules (layering, prototypes in headers, no outside
# documents cited, file sizes, where shell commands live), checked by
# reading the source: tests/host/tree.py says what each rule is.
# Prints TAP lines.
set -u
cd "$(dirname "$0")/../.."
exec python3 tests/host/tree.py .
