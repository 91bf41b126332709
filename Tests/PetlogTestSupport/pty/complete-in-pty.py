#!/usr/bin/env python3
"""Types a command line into a real interactive shell on a pseudo-terminal, presses TAB, then Enter, and
prints the words the command received (as JSON), so a test sees what completion inserted exactly as the
shell quoted it.

    complete-in-pty.py SHELL SETUP_FILE ARGS_FILE TYPED…

SHELL is bash, zsh or fish; SETUP_FILE is sourced first (it loads the completion script and puts a
`petlog` on PATH that writes its arguments, NUL-separated, to ARGS_FILE unless asked to complete, and
touches ARGS_FILE.completed each time a completion request has been answered);
each TYPED is what the user types before TAB (a TAB in it is pressed there too), one command line each, in one shell session. Prints a
JSON list with, for each, the list of arguments the command received (null when it never ran).

After each TAB the driver waits for the answer (ARGS_FILE.completed) and for the shell to finish drawing
it (its output quiet for a moment; a TAB no request answers waits at most 1.2 s); after Enter for ARGS_FILE
(which the wrapper renames into place whole), then for the shell's next prompt before the next line is
typed (its own event, then quiet for a moment); after the setup line for its prompt, and at the end for the
shell to exit, not for fixed times.
"""
import json, os, pty, re, select, sys, time

shell, setup, args_file = sys.argv[1:4]
lines = sys.argv[4:]
READY = "READY>"


def command():
    if shell == "bash":
        return ["/bin/bash", "--norc", "--noprofile", "-i"]
    if shell == "zsh":
        return ["/usr/bin/zsh", "-f", "-i"]
    return ["/usr/bin/fish", "--no-config", "-i"]


def init():
    if shell == "bash":
        return f"PS1='{READY} '; bind 'set show-all-if-ambiguous on' 2>/dev/null; source {setup}\n"
    if shell == "zsh":
        return f"PS1='{READY} '; autoload -U compinit; compinit -u -D; source {setup}\n"
    return f"function fish_prompt; echo '{READY} '; end; source {setup}\n"


pid, fd = pty.fork()
if pid == 0:
    env = dict(os.environ, TERM="dumb" if shell != "fish" else "xterm", HISTFILE="/dev/null")
    os.execve(command()[0], command(), env)

output = b""


def read_for(seconds, until=None):
    global output
    end = time.time() + seconds
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return False
            output += chunk
            if until is not None and until in output.decode("utf-8", "replace"):
                return True
    return False


def send(text):
    os.write(fd, text.encode("utf-8"))


def read_until_quiet(quiet, longest):
    """Reads until the shell has written nothing for `quiet` seconds (at most `longest`)."""
    global output
    end = time.time() + longest
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], quiet)
        if not r:
            return
        try:
            output += os.read(fd, 65536)
        except OSError:
            return


answered = args_file + ".completed"


def drain():
    """Reads what the shell has written so far, without waiting."""
    read_until_quiet(0, 1.0)


def at_prompt():
    """Whether the output ends at a fresh prompt: nothing but escape sequences and blanks after the last one
    (a prompt redrawn with the line being completed has its typed text after it)."""
    text = output.decode("utf-8", "replace")
    i = text.rfind(READY)
    if i < 0:
        return False
    rest = re.sub(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])", "", text[i + len(READY):])
    return rest.strip(" \r\n\x07\x08") == ""


def wait_for_prompt(longest):
    end = time.time() + longest
    drain()
    while not at_prompt() and time.time() < end:
        read_for(0.02)
    # Then quiet for a moment: fish goes on drawing (and reading its terminal) after its prompt, and keys
    # typed into that moment were lost under load.
    read_until_quiet(0.05, 0.3)


def wait_for_answer(longest):
    """Waits until a completion request has been answered (the wrapper touches the file), at most `longest`."""
    end = time.time() + longest
    while time.time() < end:
        if os.path.exists(answered):
            os.unlink(answered)
            return True
        read_for(0.02)
    return False


# The shell's first words (a prompt, a terminal query), then the setup line.
read_for(1.5, until="")
read_until_quiet(0.1, 1.0)
send(init())
# The prompt the setup line sets, drawn after it: not a count of READY in the output (bash on a dumb terminal
# echoes the long setup line scrolled, without its `PS1='READY> '`, so a count of two waited the whole 10 s).
wait_for_prompt(10)
results = []
for typed in lines:
    if os.path.exists(args_file):
        os.unlink(args_file)
    # A TAB inside TYPED is pressed there too (`petlog log \t\t`: complete, then complete again).
    for piece in typed.split("\t"):
        if os.path.exists(answered):
            os.unlink(answered)
        send(piece)
        read_until_quiet(0.05, 0.2)
        send("\t")
        if wait_for_answer(1.2):
            read_until_quiet(0.1, 1.0)
    send("\r")
    deadline = time.time() + 8
    ran = False
    while time.time() < deadline:
        if os.path.exists(args_file):
            ran = True
            break
        read_for(0.02)
    if ran:
        data = open(args_file, "rb").read()
        results.append([w.decode("utf-8", "surrogateescape") for w in data.split(b"\0")[:-1]])
    else:
        results.append(None)
        send("\x03")
    wait_for_prompt(2.0)
send("exit\r")
# The shell's exit, not a fixed wait (at most 0.5 s; then it is killed).
end = time.time() + 0.5
while time.time() < end and os.waitpid(pid, os.WNOHANG) == (0, 0):
    read_for(0.02)
try:
    os.kill(pid, 9)
except OSError:
    pass
if all(r is None for r in results):
    sys.stderr.write(output.decode("utf-8", "replace")[-3000:])
print(json.dumps(results, ensure_ascii=False))
