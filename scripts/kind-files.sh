#!/usr/bin/env bash
# kind-files.sh KIND [COMMAND] [--features FILE…]: the files outside the tests that a record kind really
# touches, one a line, then their count. A file counts when it names the kind as code: its Swift type
# (`Grooming`) or command (`GroomCommand` for `groom`, given as COMMAND), its enum case (`.grooming`), its
# descriptor entry, its table in a migration (`CREATE TABLE grooming`, its `record_kind` row), its localized
# names (`kind.grooming`, `kindGrooming`, a code group such as `groomingTask`, in Localization/*.swift and in
# the three language tables Localization/Strings/*.txt), or its words in assets/care-names.json. A file where
# the word only appears in prose or in another name (`groomer`) does not count.
# --features FILE…: the files that are features built on the kind (a chart of it, a line of the vet report),
# not the kind itself: listed apart, after the kind's own files, each with whether it names the kind; the
# kind's count leaves them out. A feature file that does not name the kind is said, not counted.
# Usage: scripts/kind-files.sh grooming Groom
#        scripts/kind-files.sh walk Walk --features Sources/PetViews/ChartComposer.swift …
set -u
kind=${1:?usage: kind-files.sh KIND [COMMAND] [--features FILE…]}
shift
Type="$(tr '[:lower:]' '[:upper:]' <<< "${kind:0:1}")${kind:1}"
Command=$Type
if [ $# -gt 0 ] && [ "$1" != "--features" ]; then Command=$1; shift; fi
features=()
if [ $# -gt 0 ]; then
    [ "$1" = "--features" ] || { echo "usage: kind-files.sh KIND [COMMAND] [--features FILE…]" >&2; exit 64; }
    shift
    features=("$@")
fi
cd "$(dirname "$0")/.."
pattern="\\b${Type}\\b|\\b${Command}Command\\b|[^a-zA-Z\"._-]\\.${kind}\\b|\\bkind\\.${kind}\\b|\\bkind${Type}\\b|\\b${kind}[A-Z][A-Za-z]*\\b"
pattern+="|CREATE TABLE (petlog\\.)?${kind}\\b|'${kind}'|\"${kind}[A-Za-z]*\": *[\\[{]"
# The language tables: a line that names the kind's strings (`kind.walk = 산책`, `groomingTask.bath = …`).
strings="^([A-Za-z]+ )?(kind\\.${kind}|${kind}[A-Z][A-Za-z]*\\.[a-z-]+) ="
all=$( (grep -rlE "$pattern" Sources Localization assets --include='*.swift' --include='*.json'
        grep -lE "$strings" Localization/Strings/*.txt) | sort -u)
for f in "${features[@]}"; do
    [ -f "$f" ] || { echo "kind-files.sh: no file $f" >&2; exit 66; }
done
own=()
for f in $all; do
    is_feature=0
    for g in "${features[@]}"; do [ "$f" = "$g" ] && is_feature=1; done
    [ $is_feature = 0 ] && own+=("$f")
done
printf '%s\n' "${own[@]}"
echo "${#own[@]} files"
if [ ${#features[@]} -gt 0 ]; then
    echo "features built on the kind:"
    named=0
    for g in "${features[@]}"; do
        if printf '%s\n' $all | grep -qxF "$g"; then echo "$g"; named=$((named + 1)); else echo "$g (does not name the kind)"; fi
    done
    echo "$named feature files"
fi
