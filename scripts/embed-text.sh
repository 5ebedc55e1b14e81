#!/bin/sh
# scripts/embed-text.sh NAME FILE... — prints a C file that defines the text
# of the FILEs, one after the other, as the string constant NAME, so the
# binary carries them and never looks them up at run time (runtime/cpu-shim.h
# is embedded this way; codegen/device.cuh and device-packed.cuh together).
#
# Each line becomes one string literal ending in \n; backslashes, double
# quotes and question marks (trigraphs) are escaped. Plain POSIX sh and sed.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 NAME FILE..." >&2; exit 2; }
name=$1
shift
for file in "$@"; do
  [ -s "$file" ] || { echo "$0: $file is missing or empty" >&2; exit 1; }
done
printf '/* Generated from %s by scripts/embed-text.sh: do not edit. */\n' "$*"
printf 'extern const char %s[];\n' "$name"
printf 'const char %s[] =\n' "$name"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/  "/' -e 's/$/\\n"/' "$@"
printf '  ;\n'
