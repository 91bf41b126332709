#!/usr/bin/env python3
"""Finishes the petlog(1) page argument-parser's generate-manual plugin wrote (`make man`).

The plugin's page has every subcommand with its options; this adds what it cannot know and fixes
what groff -ww warns about:
  - blank lines in help discussions become .Pp (mdoc warns on empty input lines);
  - a discussion with indented lines (the global options table) is kept as a literal display;
  - an EXAMPLES section: the README's "A minute with petlog" block, verbatim;
  - characters outside ASCII are written as groff escapes (\\[uXXXX]), so the page renders the same
    with or without preconv.

usage: man-page.py GENERATED.1 README.md OUT.1
"""
import re
import sys


def escape_text(line):
    """A line of text for a literal display: backslashes, leading dots and apostrophes, non-ASCII."""
    line = line.replace("\\", "\\e")
    if line.startswith((".", "'")):
        line = "\\&" + line
    return line


def non_ascii(text):
    return "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)


def readme_examples(readme):
    text = open(readme, encoding="utf-8").read()
    m = re.search(r"^## A minute with petlog\n.*?```sh\n(.*?)```", text, re.S | re.M)
    if not m:
        sys.exit("man-page.py: no example block under '## A minute with petlog' in " + readme)
    # The page must render on every groff device without warnings (`groff -ww -man -z`), and the PostScript
    # fonts have no Hangul or kana: a comment in another script is left out, a command in one is skipped.
    out = []
    for line in m.group(1).rstrip("\n").split("\n"):
        if all(ord(c) < 128 for c in line):
            out.append(line)
            continue
        command, _, comment = line.partition("#")
        if all(ord(c) < 128 for c in command):
            out.append(command.rstrip())
    return out


def main(generated, readme, out):
    lines = open(generated, encoding="utf-8").read().split("\n")
    result = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".") or line.startswith("'") or line == "" and False:
            result.append(line)
            i += 1
            continue
        # A run of text lines (a help discussion): literal when any is indented, else filled text.
        run = []
        while i < len(lines) and not lines[i].startswith("."):
            run.append(lines[i])
            i += 1
        while run and run[-1] == "":
            run.pop()
        if any(l.startswith("  ") for l in run):
            result.append(".Bd -literal")
            result.extend(escape_text(l) if l else "" for l in run)
            result.append(".Ed")
        else:
            result.extend(".Pp" if l == "" else l for l in run)
    # In a literal display an empty line is fine for groff but still warned about by mdoc: use a blank request.
    result = ["." if l == "" else l for l in result]
    examples = [".Sh EXAMPLES", "Every command has", ".Fl -help ;", ".Ic petlog help", "lists them all.",
                ".Bd -literal"] + [escape_text(l) if l else "." for l in readme_examples(readme)] + [".Ed"]
    at = next((k for k, l in enumerate(result) if l.startswith('.Sh "EXIT STATUS"')), len(result))
    result[at:at] = examples
    text = "\n".join(result).rstrip("\n") + "\n"
    open(out, "w", encoding="utf-8").write(non_ascii(text))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
