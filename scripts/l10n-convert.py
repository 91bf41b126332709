#!/usr/bin/env python3
"""Carries strings written in the old format (Localization/L10nKey.swift, Tables/{en,ko,ja}.swift,
Messages.swift: what scripts/l10n-typed.py made until issue 43) into the string files the build reads
now (Localization/Strings/{en,ko,ja}.txt, see their headers), and the code groups at the end of
L10nKey.swift into Localization/CodeGroups.swift.

  python3 scripts/l10n-convert.py --from REF [--base BASE]
      A branch that still adds or changes strings in the old format: reads the old files as they are
      at git REF (a branch, a commit) and as they were at BASE (default: `git merge-base REF HEAD`, the
      commit the branch started from), and applies what the branch changed to the new files: a key it
      added goes in after the key that precedes it in the branch's L10nKey.swift (with its doc
      comment, and a `//` comment line right above it that the new files lack); a text, name or
      parameter order it changed is changed; a key it removed is removed. CodeGroups.swift gets the
      branch's change to `CodeGroup`/`requiredCodes` through `git merge-file`. Nothing else is touched,
      so strings added since in the new format stay. Running it twice changes nothing more.
      Merging this change into a main that still has old files with strings added since:
      `--from HEAD --base $(git merge-base HEAD MERGE_HEAD)`. Then `git rm` the old files
      (docs/architecture.md, "Carrying old-format strings over").
  python3 scripts/l10n-convert.py --from REF --fresh [--out DIR]
      Converts REF's old files whole (DIR: default the working tree's Localization/): how
      Strings/*.txt and CodeGroups.swift were made from main's old files; with --out /tmp/x it shows
      that they still are (`diff -r`).
  python3 scripts/l10n-convert.py [--fresh]
      The same from old files present in the working tree (a merge that left them there); delete
      them afterwards (`git rm Localization/L10nKey.swift Localization/Messages.swift
      Localization/Tables/*.swift`).
"""
import argparse, os, re, subprocess, sys, tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
LANGS = ['en', 'ko', 'ja']
OLD = {'keys': 'Localization/L10nKey.swift', 'messages': 'Localization/Messages.swift',
       **{lang: f'Localization/Tables/{lang}.swift' for lang in LANGS}}

HEADERS = {
    'en': """# English, and the declaration of every user-facing string: the build (Plugins/L10nPlugin, running
# Sources/l10n-gen) makes the L10n.Key enum, the typed constructors (L10n.Message) and the three
# languages' switches from this file and ko.txt, ja.txt; nothing it makes is checked in.
#
# One line per string:  caseName rawKey = text
#   caseName  the Swift name: L10n.Key.caseName and the constructor L10n.Message.caseName(…)
#   rawKey    the key in every table (ko.txt and ja.txt name the string by it; a code's display name
#             is `group.code`, e.g. species.dog)
#   text      the English text, to the end of the line; {name} is a value the constructor takes as
#             `name: String`, {n|one|other} picks a form by n. Escapes: \\n newline, \\t tab, \\\\ a
#             backslash, \\s a space (write a space at either end of a text as \\s: editors drop it).
# The constructor takes the placeholders in the order the text names them; `caseName(b, a)` gives
# another order. A `///` line documents the string below it (in the generated code too); `#` lines are
# comments. A new string: one line here, next to related ones, and its line in ko.txt and ja.txt.
# The build fails on a key missing from a language, a key a language has that English lacks, or a
# translation whose {placeholders} differ from English.
""",
    'ko': """# Korean: one line per string, `rawKey = text`, in the order of en.txt (see its header for the
# escapes and placeholders). Every key in en.txt has its line here, with the same {placeholders}:
# the build fails otherwise. A particle written after a placeholder ({name}을(를)) takes the form the
# value needs.
""",
    'ja': """# Japanese: one line per string, `rawKey = text`, in the order of en.txt (see its header for the
# escapes and placeholders). Every key in en.txt has its line here, with the same {placeholders}:
# the build fails otherwise.
""",
}

CODEGROUPS_HEADER = """// The groups of stored codes whose display names are strings (`group.code` in Strings/*.txt), and the
// codes each group must name. Hand-written: the keys and texts themselves are in Strings/.

extension L10n {
"""


# MARK: reading the old format

def swift_unescape(lit):
    out, i = [], 0
    while i < len(lit):
        c = lit[i]
        if c != '\\':
            out.append(c); i += 1; continue
        n = lit[i + 1]
        if n == 'u':
            close = lit.index('}', i)
            out.append(chr(int(lit[i + 3:close], 16))); i = close + 1; continue
        out.append({'n': '\n', 't': '\t', 'r': '\r', '0': '\0', '"': '"', "'": "'", '\\': '\\'}[n]); i += 2
    return ''.join(out)


def placeholders(text):
    seen = []
    for inside in re.findall(r'\{([^}]*)\}', text):
        name = inside.split('|')[0]
        if name not in seen:
            seen.append(name)
    return seen


class OldStrings:
    """The old files: `items` in L10nKey order, each ('comment', text) or ('key', raw); `keys[raw]` a dict
    with name, params (None: the English order), doc (lines), and a text per language."""

    def __init__(self, read):
        src = read(OLD['keys'])
        lines = src.split('\n')
        start = next(i for i, l in enumerate(lines) if re.match(r'\s*public enum Key\b', l))
        end = next(i for i in range(start + 1, len(lines)) if lines[i] == '    }')
        self.items, self.keys, doc = [], {}, []
        for line in lines[start + 1:end]:
            s = line.strip()
            m = re.match(r'case (\w+) = "([^"]+)"$', s)
            if m:
                name, raw = m.groups()
                self.keys[raw] = {'name': name, 'doc': doc, 'params': None}
                self.items.append(('key', raw)); doc = []
            elif s.startswith('///'):
                doc.append(s[3:].strip())
            elif s.startswith('//'):
                self.items.append(('comment', s[2:].strip()))
            elif s:
                sys.exit(f'{OLD["keys"]}: cannot read the line {line!r}')
        self.tail = '\n'.join(lines[end + 1:]).rstrip('\n') + '\n'
        by_name = {k['name']: raw for raw, k in self.keys.items()}
        for lang in LANGS:
            table = dict(re.findall(r'^        case \.(\w+): "(.*)"$', read(OLD[lang]), re.M))
            for raw, k in self.keys.items():
                if k['name'] not in table:
                    sys.exit(f'{OLD[lang]}: no text for {k["name"]}')
                k[lang] = swift_unescape(table[k['name']])
        msg_doc = []
        for line in read(OLD['messages']).split('\n'):
            s = line.strip()
            m = re.match(r'public static func (\w+)\((.*?)\) -> Self', s) or re.match(r'public static let (\w+) = ()', s)
            if m and m.group(1) in by_name:
                k = self.keys[by_name[m.group(1)]]
                params = [p.split(':')[0].strip() for p in m.group(2).split(',')] if m.group(2) else []
                if params != placeholders(k['en']):
                    k['params'] = params
                if msg_doc and not k['doc']:
                    k['doc'] = msg_doc
                msg_doc = []
            elif s.startswith('///'):
                msg_doc.append(s[3:].strip())
            else:
                msg_doc = []


# MARK: the new format

def escape(text):
    out = text.replace('\\', '\\\\').replace('\n', '\\n').replace('\t', '\\t')
    if any(ord(c) < 0x20 for c in out):
        sys.exit(f'a text has a control character the string files cannot hold: {text!r}')
    lead = len(out) - len(out.lstrip(' '))
    out = '\\s' * lead + out[lead:]
    trail = len(out) - len(out.rstrip(' '))
    return out[:len(out) - trail] + '\\s' * trail


def key_line(lang, raw, k):
    if lang == 'en':
        name = k['name'] + (f'({", ".join(k["params"])})' if k['params'] is not None else '')
        return [f'/// {d}'.rstrip() for d in k['doc']] + [f'{name} {raw} = {escape(k["en"])}'.rstrip()]
    return [f'{raw} = {escape(k[lang])}'.rstrip()]


def render(lang, entries):
    """entries: ('comment', text) | ('key', raw, k)."""
    out = [HEADERS[lang].rstrip('\n'), '']
    for e in entries:
        if e[0] == 'comment':
            out.append(f'# {e[1]}'.rstrip())
        else:
            out += key_line(lang, e[1], e[2])
    return '\n'.join(out) + '\n'


def parse_new(lang, text):
    """The entries of a new-format file (comments and keys; the header is not kept)."""
    entries, doc, body = [], [], False
    for line in text.split('\n'):
        if not body:
            if line.startswith('#'):
                continue
            body = True
        if not line.strip():
            continue
        if line.startswith('///'):
            doc.append(line[3:].strip()); continue
        if line.startswith('#'):
            entries.append(('comment', line[1:].strip())); continue
        left, sep, text_ = line.partition(' = ')
        if not sep:
            left, text_ = line.rstrip(' ='), ''
        k = {'doc': doc}
        if lang == 'en':
            m = re.match(r'(\w+)(?:\(([^)]*)\))? (\S+)$', left)
            if not m:
                sys.exit(f'{lang}.txt: cannot read the line {line!r}')
            k['name'], k['params'] = m.group(1), ([p.strip() for p in m.group(2).split(',')] if m.group(2) is not None else None)
            raw = m.group(3)
        else:
            raw = left.strip()
        k['text'] = text_
        entries.append(('key', raw, k)); doc = []
    return entries


def codegroups_file(tail):
    return CODEGROUPS_HEADER + tail.lstrip('\n')


# MARK: main

def git_reader(ref):
    def read(path):
        return subprocess.run(['git', 'show', f'{ref}:{path}'], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return read


def tree_reader(path):
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        return f.read()


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = open(path, encoding='utf-8').read() if os.path.exists(path) else None
    if old != text:
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        print(f'wrote {os.path.relpath(path, ROOT)}')


def fresh(old, out):
    for lang in LANGS:
        entries = [e if e[0] == 'comment' else ('key', e[1], old.keys[e[1]]) for e in old.items]
        write(os.path.join(out, 'Strings', f'{lang}.txt'), render(lang, entries))
    write(os.path.join(out, 'CodeGroups.swift'), codegroups_file(old.tail))
    print(f'{len(old.keys)} strings in en, ko and ja')


def merge(branch, base, out):
    """Applies what `branch` changed against `base` (both OldStrings) to the new files in `out`."""
    files = {lang: parse_new(lang, open(os.path.join(out, 'Strings', f'{lang}.txt'), encoding='utf-8').read()) for lang in LANGS}
    added = [raw for kind, raw in branch.items if kind == 'key' and raw not in base.keys]
    removed = [raw for raw in base.keys if raw not in branch.keys]
    changed = [raw for raw in branch.keys if raw in base.keys and branch.keys[raw] != base.keys[raw]]
    order = [raw for kind, raw in branch.items if kind == 'key']
    present = {e[1] for e in files['en'] if e[0] == 'key'}
    added += [raw for raw in changed if raw not in present]  # changed on the branch, but gone here: put back
    for lang in LANGS:
        entries = files[lang]
        index = {e[1]: e for e in entries if e[0] == 'key'}
        for raw in changed:
            if raw not in index:
                continue
            b, a, k = branch.keys[raw], base.keys[raw], index[raw][2]
            if b[lang] != a[lang]:
                k['text'] = escape(b[lang])
            if lang == 'en':
                if b['name'] != a['name']:
                    k['name'] = b['name']
                # scripts/l10n-typed.py wrote every constructor in the English order and without its doc
                # comment: a branch that ran it lost both without meaning to, so only a new order or
                # comment is taken (a constructor whose order the branch's callers do not use fails to
                # compile, never silently).
                if b['params'] != a['params'] and b['params'] is not None:
                    k['params'] = b['params']
                elif b['params'] != a['params'] and k['params'] is not None:
                    print(f'{raw}: the branch has {b["name"]} in the order of its English text again (scripts/l10n-typed.py '
                          f'does that); kept ({", ".join(k["params"])}): if its callers no longer compile, delete that list in en.txt')
                if b['doc'] != a['doc'] and b['doc']:
                    k['doc'] = b['doc']
        entries[:] = [e for e in entries if not (e[0] == 'key' and e[1] in removed)]
        for raw in [r for r in order if r in added]:
            if any(e[0] == 'key' and e[1] == raw for e in entries):
                continue
            b = branch.keys[raw]
            k = {'doc': b['doc'], 'name': b['name'], 'params': b['params'], 'text': escape(b[lang])}
            # After the nearest key before it in the branch's order that the file has; else first.
            pos = 0
            for prev in reversed(order[:order.index(raw)]):
                hit = [i for i, e in enumerate(entries) if e[0] == 'key' and e[1] == prev]
                if hit:
                    pos = hit[0] + 1
                    break
            new = [('key', raw, k)]
            # A comment line right above the key in the branch that the file lacks comes with it.
            at = branch.items.index(('key', raw))
            if at > 0 and branch.items[at - 1][0] == 'comment' and ('comment', branch.items[at - 1][1]) not in entries:
                new.insert(0, branch.items[at - 1])
            entries[pos:pos] = new
        text = [HEADERS[lang].rstrip('\n'), '']
        for e in entries:
            if e[0] == 'comment':
                text.append(f'# {e[1]}'.rstrip())
            else:
                k = e[2]
                if lang == 'en':
                    name = k['name'] + (f'({", ".join(k["params"])})' if k['params'] is not None else '')
                    text += [f'/// {d}'.rstrip() for d in k['doc']] + [f'{name} {e[1]} = {k["text"]}'.rstrip()]
                else:
                    text.append(f'{e[1]} = {k["text"]}'.rstrip())
        write(os.path.join(out, 'Strings', f'{lang}.txt'), '\n'.join(text) + '\n')
    # The code groups: a three-way merge of the branch's change into CodeGroups.swift.
    if branch.tail != base.tail:
        target = os.path.join(out, 'CodeGroups.swift')
        with tempfile.TemporaryDirectory() as tmp:
            pb, po = os.path.join(tmp, 'base'), os.path.join(tmp, 'branch')
            open(pb, 'w').write(codegroups_file(base.tail))
            open(po, 'w').write(codegroups_file(branch.tail))
            r = subprocess.run(['git', 'merge-file', '-L', 'CodeGroups.swift', '-L', 'base', '-L', 'branch', target, pb, po])
            if r.returncode != 0:
                print('CodeGroups.swift: conflicts marked in the file; resolve them by hand', file=sys.stderr)
            else:
                print('merged the code groups into CodeGroups.swift')
    print(f'{len(added)} added, {len(changed)} changed, {len(removed)} removed')


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--from', dest='ref', help='a git ref whose old-format files to read (default: the working tree)')
    p.add_argument('--base', help='the git ref the branch started from (default: git merge-base REF HEAD)')
    p.add_argument('--fresh', action='store_true', help='convert whole, replacing the new files')
    p.add_argument('--out', default=os.path.join(ROOT, 'Localization'), help='the Localization folder to write into')
    a = p.parse_args()
    branch = OldStrings(git_reader(a.ref) if a.ref else tree_reader)
    if a.fresh or not os.path.exists(os.path.join(a.out, 'Strings', 'en.txt')):
        return fresh(branch, a.out)
    base_ref = a.base
    if not base_ref:
        if not a.ref:
            sys.exit('old files in the working tree: give --base REF (the commit they were branched from)')
        base_ref = subprocess.run(['git', 'merge-base', a.ref, 'HEAD'], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()
    merge(branch, OldStrings(git_reader(base_ref)), a.out)


if __name__ == '__main__':
    main()
