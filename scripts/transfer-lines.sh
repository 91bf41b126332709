#!/bin/bash
# The transfer code's size as a reader would count it (issue 43, step 3): every line of every file whose
# reason to exist is moving a household in or out, wherever it lives. Four places:
#   formats   Sources/PetTransfer/ (the import readers, FHIR)
#   core      Sources/PetStoreCore/Transfer/ (the import batch and its writing, the export writers the store calls),
#             and the core's files named for transfer outside it (Store+Import, Store+Exports)
#   engines   each engine's own transfer files (names with Transfer, Import, Export or CSV; an engine's checks,
#             backup and undo live in files of their own and are not counted)
#   cli       the import and export commands
# Usage: scripts/transfer-lines.sh [REV]   (default: the working tree; a commit counts that commit's files,
# e.g. 71c3d3e, where issue 43 counted 4,691 lines in PetStoreCore/Transfer alone).
# Prints each file's lines, each place's total and the sum; `-q` prints the sum only.
set -euo pipefail
cd "$(dirname "$0")/.."
quiet=0
[ "${1:-}" = "-q" ] && { quiet=1; shift; }
rev=${1:-}

files() {  # every .swift file of the tree (or of REV)
    if [ -n "$rev" ]; then git ls-tree -r --name-only "$rev" -- Sources
    elif git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        git ls-files --cached --others --exclude-standard -- Sources | while read -r f; do [ -f "$f" ] && echo "$f"; done
    else find Sources -name '*.swift'  # a tree without its git (a copy, a tarball)
    fi | grep '\.swift$'
}
lines() {  # lines of one file (a last line without its newline counts too)
    if [ -n "$rev" ]; then git show "$rev:$1"; else cat "$1"; fi | awk 'END { print NR }'
}
place() {
    case "$1" in
        Sources/PetTransfer/*) echo formats ;;
        Sources/PetStoreCore/Transfer/*) echo core ;;
        Sources/PetStoreCore/*)  # the store's own transfer entry points outside Transfer/ (Store+Import, Store+Exports)
            case "${1##*/}" in *Transfer*|*Import*|*Export*|*CSV*) echo core ;; esac ;;
        Sources/PetStoreSQLite/*|Sources/PetStorePostgres/*)
            case "${1##*/}" in *Transfer*|*Import*|*Export*|*CSV*) echo engines ;; esac ;;
        Sources/petlog/*)
            case "${1##*/}" in ImportCommand.swift|ExportCommand.swift) echo cli ;; esac ;;
    esac
}

total=0
declare -A sums=()
out=""
while read -r f; do
    p=$(place "$f")
    [ -n "$p" ] || continue
    n=$(lines "$f")
    sums[$p]=$(( ${sums[$p]:-0} + n ))
    total=$((total + n))
    out+=$(printf '%6d  %-8s %s' "$n" "$p" "$f")$'\n'
done < <(files | sort)

if [ "$quiet" = 1 ]; then echo "$total"; exit 0; fi
printf '%s' "$out"
for p in formats core engines cli; do printf '%6d  %s\n' "${sums[$p]:-0}" "$p"; done
printf '%6d  transfer code%s\n' "$total" "${rev:+ at $rev}"
