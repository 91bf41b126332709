#!/usr/bin/env python3
"""store-counts.py: how the store is written, counted as a reader would (docs/architecture.md, "One store,
two engines"). Prints four counts, each with what it found:

1. Forwarding lines: a method of the store modules (PetStoreCore, PetStoreSQLite, PetStorePostgres) whose
   body opens a transaction only to make the same call again on another object
   (`func records(…) { try read { try $0.records(query) } }`, `core.x`, `core(db).x`, `s.x`).
2. Engine answers: a `Store` method whose body hands the same call to the engine (`try engine.check()`):
   what only an engine does, named once in `StoreEngine`; listed, not hidden.
3. Methods both engine types (`SQLiteRepository`, `PostgresRepository`) define: each engine's answer to a
   `StoreEngine` requirement (the engine-specific primitive), and any other method with the same name on
   both (store logic written twice, or a private helper of each: read them).
4. Lines written twice: a statement (60 characters or more, whitespace folded, comments left out) found
   both in the SQLite engine and in the PostgreSQL engine, or in an engine and in the core's `Store`.

Usage: scripts/store-counts.py [--list] [--root DIR]   (--list prints every line counted; --root reads another
checkout, or a tree of a test's own)
"""
import os
import re
import sys

ROOT = sys.argv[sys.argv.index("--root") + 1] if "--root" in sys.argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
MODULES = {"core": "Sources/PetStoreCore", "sqlite": "Sources/PetStoreSQLite", "postgres": "Sources/PetStorePostgres"}
LIST = "--list" in sys.argv


def swift_files(module, include_transfer=False):
    out = []
    for base, dirs, files in os.walk(os.path.join(ROOT, MODULES[module])):
        rel = os.path.relpath(base, ROOT)
        if not include_transfer and rel.startswith("Sources/PetStoreCore/Transfer"):
            continue
        out += [os.path.join(base, f) for f in files if f.endswith(".swift")]
    return sorted(out)


def functions(path, with_type=False):
    """(name, signature line number, body text) of each func in the file, the body up to its closing brace;
    `with_type`: (type, name, …), the type or extension at the file's top level the func is in."""
    text = open(path, encoding="utf-8").read()
    found = []
    tops = [(t.start(), t.group(2)) for t in re.finditer(r"^(?:public |final |private |fileprivate )*(extension|struct|class|enum)\s+(\w+)", text, re.M)]
    for m in re.finditer(r"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)\s*(<[^>]*>)?\s*\(", text):
        name = m.group(1)
        owner = ([t for at, t in tops if at < m.start()] or [""])[-1]
        # The body: the first `{` after the parameter list at depth 0 of parentheses, to its matching `}`.
        i, depth = m.end(), 1
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        j = text.find("{", i)
        newline = text.find("\n", i)
        if j < 0 or (0 <= text.find("\n}", i) < j and text[i:j].count("\n") > 3):
            continue
        if re.search(r"\n\s*(func|var|let|case)\b", text[i:j]):  # a requirement without a body
            continue
        depth, k = 1, j + 1
        while k < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[k], 0)
            k += 1
        item = (name, text.count("\n", 0, m.start()) + 1, text[j + 1:k - 1])
        found.append((owner,) + item if with_type else item)
    return found


def statements(body):
    return [s for s in (re.sub(r"//.*", "", line).strip() for line in body.split("\n")) if s]


def rel(path):
    return os.path.relpath(path, ROOT)


# 1. Forwarding lines.
forwarding = []
for module in MODULES:
    for path in swift_files(module):
        for name, line, body in functions(path):
            lines = statements(body)
            if len(lines) > 3:
                continue
            joined = " ".join(lines)
            pattern = (r"^(return )?try (read|write|readTransaction|writeTransaction)\b[^{]*\{\s*(\w+ in\s*)?(try )?"
                       r"(\$0|s|core|core\(db\)|store|store\(db[^)]*\))\.%s\(" % re.escape(name))
            if re.search(pattern, joined):
                forwarding.append((rel(path), line, name))

# 2. Engine answers in Store.
answers = []
for path in swift_files("core"):
    if not os.path.basename(path).startswith("Store"):
        continue
    for name, line, body in functions(path):
        lines = statements(body)
        if len(lines) == 1 and re.match(r"^(return )?(try )?engine\.%s\(" % re.escape(name), lines[0]):
            answers.append((rel(path), line, name))

# 3. Methods both engines define (on the engine types themselves: their helpers in types of their own,
# such as the two search indexes' `refresh`, are each engine's own code).
requirements = set()
for path in [os.path.join(ROOT, MODULES["core"], f) for f in ("StoreEngine.swift", "PetlogStore.swift", "History.swift",
                                                              "DemoStore.swift", "MoneyRepository.swift")]:
    if not os.path.exists(path):
        continue
    requirements |= set(re.findall(r"^\s*func\s+([A-Za-z_]\w*)", open(path, encoding="utf-8").read(), re.M))
defined = {}
for module, engine in (("sqlite", "SQLiteRepository"), ("postgres", "PostgresRepository")):
    names = set()
    for path in swift_files(module):
        names |= {name for owner, name, _, _ in functions(path, with_type=True) if owner == engine}
    defined[module] = names
both = sorted(defined["sqlite"] & defined["postgres"])
primitives = [n for n in both if n in requirements]
twice = [n for n in both if n not in requirements]

# 4. Lines written twice.
def lines_of(module, only_store=False):
    out = {}
    for path in swift_files(module):
        if only_store and not os.path.basename(path).startswith("Store"):
            continue
        for _, line, body in functions(path):
            for s in statements(body):
                s = re.sub(r"\s+", " ", s)
                if len(s) >= 60 and not s.startswith(("///", "\"\"\"")):
                    out.setdefault(s, rel(path))
    return out

sqlite, postgres, store = lines_of("sqlite"), lines_of("postgres"), lines_of("core", only_store=True)
engines_twice = sorted(set(sqlite) & set(postgres))
store_and_engine = sorted((set(sqlite) | set(postgres)) & set(store))


def show(title, items, fmt):
    print(f"{title}: {len(items)}")
    if LIST or len(items) <= 20:
        for item in items:
            print("  " + fmt(item))


show("forwarding lines (a transaction making the same call again)", forwarding, lambda f: f"{f[0]}:{f[1]} {f[2]}")
show("engine answers in Store (StoreEngine's primitives, handed on)", answers, lambda f: f"{f[2]}")
show("methods both engines define for a StoreEngine or repository requirement", primitives, lambda n: n)
show("other methods both engines define (store logic written twice, or a helper to read)", twice, lambda n: n)
show("statements in both engines", engines_twice, lambda s: f"{sqlite[s]} · {postgres[s]}: {s[:110]}")
show("statements in an engine and in Store", store_and_engine, lambda s: f"{store[s]}: {s[:110]}")
