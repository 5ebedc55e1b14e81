#!/usr/bin/env bash
# scripts/check-layers.sh LIBDIR FOLDER... — checks that each layer calls
# only itself and the layers after it.
#
# FOLDERS are the Makefile's layers, top first, each an archive
# LIBDIR/libFOLDER.a (a / in FOLDER becomes -). For every symbol a layer's
# objects call but do not define, the layer that defines it must come
# later in the list. A link catches most calls upwards on its own (it
# scans each archive once, left to right), but not one into an object the
# program holds already for another reason; this catches every one, for
# every object, whichever program uses it. Prints each call upwards
# (caller's object, symbol, the layer above that defines it) and exits 1
# if there is any; says nothing and exits 0 otherwise.
set -euo pipefail
dir=$1
shift

# One line per symbol an archive defines or needs: "RANK D|U SYMBOL MEMBER",
# RANK the layer's place in the list.
rank=0
for folder in "$@"; do
  nm -A "$dir/lib${folder//\//-}.a" 2>/dev/null |
    awk -v r="$rank" -v f="$folder" '
      # nm -A: "archive:member: [value] TYPE name"
      { n = split($0, p, ":"); member = p[2]; rest = p[n]
        k = split(rest, w, " "); t = w[k - 1]; s = w[k]
        if (t == "U") print r, "U", s, f "/" member
        else if (t ~ /^[TDBRVWCG]$/) print r, "D", s, f }'
  rank=$((rank + 1))
done |
  awk '
    $2 == "D" { if (!($3 in def)) { def[$3] = $1; where[$3] = $4 } next }
    { use[NR] = $0 }
    END {
      bad = 0
      for (i in use) {
        split(use[i], u, " ")
        if ((u[3] in def) && def[u[3]] < u[1]) {
          printf "check-layers: %s calls %s, defined in %s, a layer above it\n", u[4], u[3], where[u[3]]
          bad = 1
        }
      }
      exit bad
    }' | sort
