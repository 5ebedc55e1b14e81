#!/bin/sh
# scripts/embed-text.sh NAME FILE — prints a C file that defines the text of
# FILE as the string constant NAME, so the binary carries the file and never
# looks it up at run time (runtime/cpu-shim.h is embedded this way).
#
# Each line becomes one string literal ending in \n; backslashes, double
# quotes and question marks (trigraphs) are escaped. Plain POSIX sh and sed.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 NAME FILE" >&2; exit 2; }
name=$1
file=$2
[ -s "$file" ] || { echo "$0: $file is missing or empty" >&2; exit 1; }
printf '/* Generated from %s by scripts/embed-text.sh: do not edit. */\n' "$file"
printf 'extern const char %s[];\n' "$name"
printf 'const char %s[] =\n' "$name"
sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/?/\\?/g' -e 's/^/  "/' -e 's/$/\\n"/' "$file"
printf '  ;\n'
