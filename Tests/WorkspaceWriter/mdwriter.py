"""A second process that writes an Orchestra `.projects/` tree the way plugin-storage-markdown does.

For Wallboard's tests (orchestra-storage.md §2). Front matter comes from a small emitter that
follows gopkg.in/yaml.v3 3.0.1's rules: keys sorted, 4-space block lists, `[]` for an empty
list, strings plain unless they would resolve to another type (double-quoted), start with an
indicator or hold `: `/` #` or edge spaces (single-quoted), or hold characters yaml.v3 does not
print (controls, anything above U+FFFF: double-quoted with escapes) or tabs (double-quoted on
one line); multi-line strings as literal blocks (`|-`, `|`, `|+`, `|4-`), tabs in them kept as
they are (yaml.v3's `tab_characters` rule: a tab forbids plain and single-quoted, not a block). Files are written in place (truncate, write),
optionally in two parts with a pause (a half-written file), then the `.version` sidecar:
decimal, no newline. Delete = remove the file, then the sidecar. The lossy `export_markdown`
layout too (hand-made `key: value`, JSON project.json, no sidecars).

Commands, one JSON object per line on stdin, each answered `OK <n>` or `ERR <message>`:

  {"feature": {...}, "project": "web", "body": "...", "split": 40, "pause": 0.3}
  {"delete": "FEAT-ABC", "project": "web"}
  {"project_json": {...}, "project": "web"}
  {"export_feature": {...}, "project": "web", "body": "..."}
  {"export_project": {"slug": "web", "name": "web"}}
  {"render": {...}}          answers `TEXT <json string>`: the front matter alone

It ends when stdin ends. Debian's python3, standard library only.
"""

import decimal
import json
import os
import re
import sys
import time

from lineprotocol import say, serve

INDICATORS = set("#,[]{}&*!|>'\"%@`")
OLD_BOOLS = {
    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
    "on", "On", "ON", "off", "Off", "OFF",
}
NULLS = {"", "~", "null", "Null", "NULL"}
BOOLS = {"true", "True", "TRUE", "false", "False", "FALSE"}
SPECIAL_FLOATS = {
    ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
    ".nan", ".NaN", ".NAN",
}
FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
BASE60 = re.compile(r"^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$")
TIMESTAMP = re.compile(
    r"^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}"
    r"(?:[Tt][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?(?:Z|[-+][0-9]{2}:[0-9]{2})"
    r"| [0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]+)?)?$"
)


def resolves_elsewhere(s):
    """Whether yaml.v3 would read the plain scalar `s` as something other than a string."""
    if s in NULLS or s in BOOLS or s in SPECIAL_FLOATS or s == "<<":
        return True
    if s in OLD_BOOLS or BASE60.match(s):
        return True  # yaml.v3 quotes these for YAML 1.1 readers
    plain = s.replace("_", "")
    if s and s[0] in "+-.0123456789":
        if FLOAT.match(plain):
            return True
        body = plain.lstrip("+-")
        for prefix, base in (("0x", 16), ("0o", 8), ("0b", 2)):
            if body.startswith(prefix):
                try:
                    int(body[2:], base)
                    return True
                except ValueError:
                    pass
        if TIMESTAMP.match(s):
            return True
    return False


def printable(c):
    """libyaml's is_printable (yaml.v3 emits unicode, but nothing above U+FFFF)."""
    o = ord(c)
    return (
        o == 0x0A
        or 0x20 <= o <= 0x7E
        or 0xA0 <= o <= 0xD7FF
        or (0xE000 <= o <= 0xFFFD and o != 0xFEFF)
    )


BREAKS = "\n\r\u0085\u2028\u2029"


def double_quoted(s):
    escapes = {
        "\0": "0", "\a": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f", "\r": "r",
        "\x1b": "e", '"': '"', "\\": "\\", "\u0085": "N", "\u00a0": "_", "\u2028": "L", "\u2029": "P",
    }
    out = ['"']
    for c in s:
        o = ord(c)
        if printable(c) and c not in BREAKS and c not in '"\\' and o != 0xFEFF:
            out.append(c)
        elif c in escapes:
            out.append("\\" + escapes[c])
        elif o <= 0xFF:
            out.append("\\x%02X" % o)
        elif o <= 0xFFFF:
            out.append("\\u%04X" % o)
        else:
            out.append("\\U%08X" % o)
    out.append('"')
    return "".join(out)


def analyze(s):
    """libyaml's analyze_scalar, reduced to what a block mapping needs."""
    special = any(not printable(c) or ord(c) == 0xFEFF for c in s if c not in BREAKS and c != "\t") or any(
        c in "\r\u0085\u2028\u2029" for c in s
    )
    # libyaml's `tab_characters`: no plain or single-quoted scalar, but a block may hold tabs.
    tabs = "\t" in s
    block_ind = s.startswith("---") or s.startswith("...")
    for i, c in enumerate(s):
        followed = i + 1 == len(s) or s[i + 1] in " \t" + BREAKS
        preceded = i == 0 or s[i - 1] in " \t" + BREAKS
        if i == 0:
            if c in INDICATORS:
                block_ind = True
            if c in "?:" and followed:
                block_ind = True
            if c == "-" and followed:
                block_ind = True
        else:
            if c == ":" and followed:
                block_ind = True
            if c == "#" and preceded:
                block_ind = True
    space_break = any(s[i] == " " and s[i + 1] in BREAKS for i in range(len(s) - 1))
    leading = s[:1] in (" ", "\n")
    trailing = s[-1:] in (" ", "\n")
    trailing_space = s[-1:] == " "
    multiline = "\n" in s
    plain_ok = not (block_ind or leading or trailing or multiline or special or space_break or tabs)
    single_ok = not (special or space_break or multiline or tabs)
    block_ok = not (special or space_break or trailing_space)
    return plain_ok, single_ok, block_ok


def go_float(x):
    """strconv.FormatFloat(x, 'g', -1, 64), as yaml.v3 writes every number of a structpb."""
    if x != x:
        return ".nan"
    if x in (float("inf"), float("-inf")):
        return ".inf" if x > 0 else "-.inf"
    if x == 0:
        return "-0" if str(x).startswith("-") else "0"
    sign = "-" if x < 0 else ""
    t = decimal.Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(map(str, t.digits))
    dp = len(digits) + t.exponent
    exp = dp - 1
    if exp < -4 or exp >= 6:  # shortest formatting decides by precision 6
        mantissa = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
        return "%s%se%s%02d" % (sign, mantissa, "-" if exp < 0 else "+", abs(exp))
    if dp <= 0:
        return sign + "0." + "0" * (-dp) + digits
    if dp >= len(digits):
        return sign + digits + "0" * (dp - len(digits))
    return sign + digits[:dp] + "." + digits[dp:]


def scalar(v, indent, in_list=False):
    """The text after `key: ` (or `- `) for `v`, with the lines a literal block adds."""
    if v is None:
        return "null"
    if v is True or v is False:
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return go_float(float(v))
    s = str(v)
    plain_ok, single_ok, block_ok = analyze(s)
    if "\n" in s:
        if not block_ok:
            return double_quoted(s)
        if in_list and s[:1] in (" ", "\n"):
            raise ValueError("yaml: a leading-space multi-line string in a list cannot be marshalled")
        hint = "4" if s[:1] in (" ", "\n") else ""
        if not s.endswith("\n"):
            chomp = "-"
        elif len(s) == 1 or s[-2] == "\n":
            chomp = "+"
        else:
            chomp = ""
        parts = s.split("\n")
        if s.endswith("\n"):
            parts = parts[:-1]
        pad = " " * indent
        return "|" + hint + chomp + "\n" + "\n".join(pad + p if p else "" for p in parts)
    if resolves_elsewhere(s):
        return double_quoted(s)
    if plain_ok:
        return s
    if single_ok:
        return "'" + s.replace("'", "''") + "'"
    return double_quoted(s)


def front_matter(mapping):
    """yaml.Marshal of a mapping with keys sorted (Go byte order = code point order)."""
    lines = []
    for key in sorted(mapping):
        v = mapping[key]
        name = key if key != "<<" else "!!merge <<"
        if isinstance(v, list):
            if not v:
                lines.append(name + ": []")
                continue
            lines.append(name + ":")
            for item in v:
                lines.append("    - " + scalar(item, 6, in_list=True))
        else:
            lines.append(name + ": " + scalar(v, 4))
    return "\n".join(lines) + "\n"


def feature_metadata(f):
    """plugin-tools-features' featureToMetadata: the keys always written, then the non-empty."""
    m = {k: f.get(k, "") for k in ("id", "project_id", "title", "description", "status", "priority")}
    m["version"] = f.get("version", 0)
    for k in ("created_at", "updated_at"):
        m[k] = f.get(k, "2026-11-03T10:00:00Z")
    for k in ("assignee", "estimate", "kind"):
        if f.get(k):
            m[k] = f[k]
    for k in ("labels", "depends_on", "blocks"):
        if f.get(k):
            m[k] = list(f[k])
    for k, v in f.get("extra", {}).items():
        m[k] = v
    return m


def write_in_place(path, data, split=None, pause=0.0):
    """os.WriteFile: open with O_TRUNC, write (here optionally in two parts, to be caught half-way)."""
    os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        if split is not None:
            os.write(fd, data[:split])
            os.fsync(fd)
            time.sleep(pause)
            os.write(fd, data[split:])
        else:
            os.write(fd, data)
    finally:
        os.close(fd)


def bump_sidecar(path):
    try:
        with open(path + ".version", "rb") as f:
            current = int(f.read().decode())
    except (OSError, ValueError):
        current = 0
    write_in_place(path + ".version", str(current + 1).encode())
    return current + 1


def main():
    root = os.path.join(sys.argv[1], ".projects")

    def handle(c):
        project = c.get("project", "web")
        if "render" in c:
            say("TEXT " + json.dumps(front_matter(c["render"])))
            say("OK 0")
        elif "feature" in c:
            f = dict(c["feature"])
            f.setdefault("project_id", project)
            body = c.get("body")
            if body is None:
                body = "# %s\n\n%s\n" % (f.get("title", ""), f.get("description", ""))
            data = ("---\n" + front_matter(feature_metadata(f)) + "---\n\n" + body).encode()
            path = os.path.join(root, project, "features", f["id"] + ".md")
            write_in_place(path, data, c.get("split"), c.get("pause", 0.0))
            if c.get("sidecar", True):
                say("OK %d" % bump_sidecar(path))
            else:
                say("OK 0")
        elif "delete" in c:
            path = os.path.join(root, project, "features", c["delete"] + ".md")
            os.remove(path)
            try:
                os.remove(path + ".version")
            except FileNotFoundError:
                pass
            say("OK 0")
        elif "project_json" in c:
            path = os.path.join(root, project, "project.json")
            write_in_place(path, ("---\n" + front_matter(c["project_json"]) + "---\n\n").encode())
            say("OK %d" % bump_sidecar(path))
        elif "export_feature" in c:
            f = c["export_feature"]
            keys = ("id", "type", "title", "project_slug", "status", "priority", "kind", "assignee", "estimate")
            text = "".join("%s: %s\n" % (k, f.get(k, "feature" if k == "type" else "")) for k in keys)
            body = c.get("body", "# %s\n" % f.get("title", ""))
            path = os.path.join(root, f.get("project_slug", project), "features", f["id"] + ".md")
            write_in_place(path, ("---\n" + text + "---\n\n" + body).encode())
            say("OK 0")
        elif "export_project" in c:
            p = c["export_project"]
            path = os.path.join(root, p["slug"], "project.json")
            write_in_place(path, json.dumps(p, separators=(",", ":")).encode())
            say("OK 0")
        else:
            say("ERR unknown command")

    serve(handle)

if __name__ == "__main__":
    main()
