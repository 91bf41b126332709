#!/usr/bin/env python3
"""Runs a command with stdin and stdout on a pseudo-terminal, as a user at a terminal runs it, and types
an answer each time the command asks: answer-in-pty.py MARK ANSWERS_FILE COMMAND [ARG…]. MARK is text the
prompt ends with (`] `); ANSWERS_FILE holds the answers, one a line, typed in order, each after the next
prompt shows. Prints what the terminal showed (CR LF as LF) and exits with the command's status."""
import os, pty, select, sys, time

mark, answers_file = sys.argv[1], sys.argv[2]
answers = open(answers_file, encoding="utf-8").read().split("\n")
if answers and answers[-1] == "":
    answers.pop()
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[3], sys.argv[3:])
output = b""
asked = 0
deadline = time.time() + 300
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    text = output.decode("utf-8", "replace")
    if text.count(mark) > asked and asked < len(answers):
        os.write(fd, (answers[asked] + "\r").encode("utf-8"))
        asked += 1
_, status = os.waitpid(pid, 0)
sys.stdout.write(output.decode("utf-8", "replace").replace("\r\n", "\n"))
sys.exit(os.waitstatus_to_exitcode(status))
