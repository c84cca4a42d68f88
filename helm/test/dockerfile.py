"""A static reading of the repository's Dockerfile: stages and their instructions.

No image can be built on these machines (no registry to pull a base image from), so the tests
check what the Dockerfile says against the chart and the build's output instead.
"""
import json
import re
import shlex


class Stage:
    def __init__(self, base, name):
        self.base = base
        self.name = name
        self.instructions = []  # (INSTRUCTION, argument text)

    def all(self, instruction):
        return [arg for ins, arg in self.instructions if ins == instruction]

    def last(self, instruction):
        found = self.all(instruction)
        return found[-1] if found else None


def parse(path):
    text = open(path).read()
    logical, current = [], ""
    for line in text.splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        if stripped.startswith("#") and current:
            continue
        if stripped.endswith("\\"):
            current += stripped[:-1] + " "
            continue
        logical.append(current + stripped)
        current = ""
    stages, args = [], {}
    for line in logical:
        instruction, _, arg = line.partition(" ")
        instruction = instruction.upper()
        arg = arg.strip()
        if instruction == "ARG" and not stages:
            name, _, default = arg.partition("=")
            args[name] = default
        elif instruction == "FROM":
            m = re.match(r"(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?$", arg, re.I)
            base = re.sub(r"\$\{(\w+)\}", lambda g: args.get(g.group(1), ""), m.group(1))
            stages.append(Stage(base, m.group(2)))
        elif stages:
            stages[-1].instructions.append((instruction, arg))
    return stages


def exec_form(arg):
    """The argument list of an exec-form CMD/ENTRYPOINT (JSON array), or None for shell form."""
    try:
        value = json.loads(arg)
        return value if isinstance(value, list) else None
    except json.JSONDecodeError:
        return None


def copies(stage):
    """(from stage or None, [sources], destination) for each COPY of a stage."""
    out = []
    for arg in stage.all("COPY"):
        words = shlex.split(arg)
        source_stage = None
        flags = [w for w in words if w.startswith("--")]
        for f in flags:
            if f.startswith("--from="):
                source_stage = f.split("=", 1)[1]
        paths = [w for w in words if not w.startswith("--")]
        out.append((source_stage, paths[:-1], paths[-1]))
    return out


def env(stage):
    """The ENV of a stage as a dict (KEY=VALUE form)."""
    out = {}
    for arg in stage.all("ENV"):
        for word in shlex.split(arg):
            key, _, value = word.partition("=")
            out[key] = value
    return out


def healthcheck_command(stage):
    arg = stage.last("HEALTHCHECK")
    if arg is None:
        return None
    m = re.search(r"\bCMD\s+(.*)$", arg)
    return exec_form(m.group(1)) if m else None
