#!/usr/bin/env bash
# kind-files.sh KIND: the files outside the tests that a record kind really touches, one a line, then their
# count. A file counts when it names the kind as code: its Swift type (`Grooming`) or command (`GroomCommand`
# for `groom`, given as COMMAND), its enum case (`.grooming`), its descriptor entry, its table in a migration
# (`CREATE TABLE grooming`, its `record_kind` row), its localized names (`kind.grooming`, `kindGrooming`, a
# code group such as `groomingTask`), or its words in assets/care-names.json. A file where the word only
# appears in prose or in another name (`groomer`) does not count. Usage: scripts/kind-files.sh grooming Groom
set -u
kind=${1:?usage: kind-files.sh KIND [COMMAND]}
Type="$(tr '[:lower:]' '[:upper:]' <<< "${kind:0:1}")${kind:1}"
Command=${2:-$Type}
cd "$(dirname "$0")/.."
pattern="\\b${Type}\\b|\\b${Command}Command\\b|[^a-zA-Z\"._-]\\.${kind}\\b|\\bkind\\.${kind}\\b|\\bkind${Type}\\b|\\b${kind}[A-Z][A-Za-z]*\\b"
pattern+="|CREATE TABLE (petlog\\.)?${kind}\\b|'${kind}'|\"${kind}[A-Za-z]*\": *[\\[{]"
files=$(grep -rlE "$pattern" Sources Localization assets --include='*.swift' --include='*.json' | sort)
printf '%s\n' $files
echo "$(printf '%s\n' $files | grep -c .) files"
