"""The chart's settings against the running service's: every cairn.* setting rendered is bound as
rendered; values.yaml leaves every setting the service defaults empty (so each default is written
once, in the service), and the few it must render itself equal the service's defaults."""
import re
from pathlib import Path

import yaml

from chart import find

# Rendered from other values (paths, the mode, what the operator must name), not defaults of a setting.
DERIVED = {("store",), ("data-dir",), ("engine", "capacity-dir"), ("cassandra", "contact-points"),
           ("cassandra", "cache", "invalidation")}
# The actuator does not list cairn.cassandra.* (the Cassandra store's settings class lives in the
# object store library); its defaults are read from their one place in the source instead.
CASSANDRA_SETTINGS = "service/object-store/src/main/java/dev/cairn/store/cassandra/CassandraSettings.java"
CONSTANT = re.compile(r"\bDEFAULT_([A-Z_]+)\s*=\s*(.+?);", re.S)
SIZE = re.compile(r"^(\d+)(B|KB|MB|GB|TB)?$")
SIZE_UNITS = {None: 1, "B": 1, "KB": 2**10, "MB": 2**20, "GB": 2**30, "TB": 2**40}
SIMPLE_DURATION = re.compile(r"^(\d+)(ns|us|ms|s|m|h|d)$")
ISO_DURATION = re.compile(r"^PT?(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$")
SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400}


def kebab_to_camel(name):
    head, *rest = name.split("-")
    return head + "".join(p.capitalize() for p in rest)


def leaves(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from leaves(v, path + (k,))
    else:
        yield path, node


def lookup(node, path):
    for part in path:
        key = kebab_to_camel(part)
        if not isinstance(node, dict) or key not in node:
            return None
        node = node[key]
    return node


def normal(value):
    """A setting's value in one form, whichever way it was written (256MB or 268435456B, 5s or PT5S)."""
    text = str(value)
    m = SIZE.match(text)
    if m:
        return int(m.group(1)) * SIZE_UNITS[m.group(2)]
    m = SIMPLE_DURATION.match(text)
    if m:
        return float(m.group(1)) * SECONDS[m.group(2)]
    m = ISO_DURATION.match(text)
    if m and any(m.groups()):
        d, h, mins, s = (float(g) if g else 0 for g in m.groups())
        return d * 86400 + h * 3600 + mins * 60 + s
    return text.lower() if isinstance(value, bool) else text


def chart_defaults(chart):
    """{setting path: value} of the cairn.* settings the chart renders with its default values, in
    both modes (mode cassandra with the values it needs), but those DERIVED from other values."""
    out = {}
    for sets in ([], ["mode=cassandra", "cassandra.contactPoints={c1:9042}", "cassandra.replicaCount=1"]):
        docs = chart.render(sets=sets)
        config = yaml.safe_load(find(docs, "ConfigMap")["data"]["application.yaml"])
        for path, value in leaves(config["cairn"]):
            if path not in DERIVED and path[:1] != ("tls",) and not str(value).startswith("/"):
                out[path] = value
    return out


def source_default(root, path):
    """The default of a cairn.cassandra.* setting, from its DEFAULT_ constant, or None."""
    if path[0] != "cassandra":
        return None
    constants = {name: literal.strip() for name, literal in CONSTANT.findall((Path(root) / CASSANDRA_SETTINGS).read_text())}
    literal = constants.get(path[1].replace("-", "_").upper())
    if literal is None:
        return None
    if literal.startswith("Map.of("):
        items = re.findall(r'"([^"]+)"\s*,\s*([^,)]+)', literal)
        value = {k: v.strip().strip('"') for k, v in items}
        return value.get(path[2]) if len(path) > 2 else value
    return literal.strip('"')


def check_defaults_written_once(report, title, bean, reference, root):
    """No default of the chart's own for a setting the service defaults (the actuator lists it): the
    chart leaves it unrendered. What the chart must render itself (cairn.cassandra.*, which its own
    checks and the backup job use) equals the service's default."""
    duplicates = [f"cairn.{'.'.join(path)}: {value}" for path, value in sorted(reference.items())
                  if lookup(bean["properties"], path) is not None]
    report.check(f"{title}: values.yaml renders no default of its own for a setting the service defaults",
                 not duplicates, f"{duplicates}: leave them empty in values.yaml, the service's own default applies")
    for path, value in sorted(reference.items()):
        if lookup(bean["properties"], path) is None:
            service = source_default(root, path)
            report.check(f"{title}: the chart's default cairn.{'.'.join(path)}={value} is the service's ({service})",
                         service is not None and normal(service) == normal(value),
                         f"no default found in {CASSANDRA_SETTINGS}" if service is None
                         else "values.yaml and the service disagree: fix the one that is wrong")


def check_settings_bound(report, title, bean, rendered_config, container, awaiting_file):
    """Every cairn.* setting the chart renders is bound by the service, to the rendered value; but
    cairn.cassandra.*, which the actuator does not list: render_and_run checks those by their effect
    on the Cassandra cluster."""
    inputs = bean["inputs"]
    awaiting = {line.split("#")[0].strip() for line in Path(awaiting_file).read_text().splitlines()
                if line.split("#")[0].strip()}
    for path, value in leaves(rendered_config["cairn"]):
        if path[0] == "cassandra":
            continue
        key = "cairn." + ".".join(path)
        bound = lookup(inputs, path)
        if key in awaiting:
            report.check(f"{title}: {key} still awaiting the service (helm/test/awaiting-service.txt)", bound is None,
                         "the service binds it now: remove it from helm/test/awaiting-service.txt")
            continue
        if isinstance(value, list):
            ok = isinstance(bound, list) and [str(b["value"]) for b in bound] == [str(v) for v in value]
        else:
            ok = bound is not None and str(bound["value"]) == str(value)
        report.check(f"{title}: {key} bound by the service as rendered ({value})", ok, f"bound: {bound}")
    for var in container["env"]:
        if var["name"].startswith("CAIRN_") and not var["name"].startswith("CAIRN_CASSANDRA_"):
            found = [leaf for leaf in leaves(inputs) if leaf[0][-1] == "origin" and f'"{var["name"]}"' in str(leaf[1])]
            report.check(f"{title}: environment {var['name']} binds a cairn.* setting", bool(found), "not bound")
