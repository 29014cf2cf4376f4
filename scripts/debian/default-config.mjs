// The commented default /etc/pps-edge/pps-edge.yaml of the package, written from the README's
// configuration table (key, variable, default, meaning) and the defaults the config schema gives an
// empty file (parseConfig of the built agent). Every line is a comment: the file as shipped is the
// empty config, and removing the leading `# ` of a key (and of its section lines) sets that key.
import { stringify } from "yaml";

const WIDTH = 110;

/** Station-specific notes for keys whose value on an installed station differs from the README's. */
const STATION_NOTES = {
  dataDir: {
    value: "/var/lib/pps-edge",
    note: "On a station the unit and /usr/bin/pps-edge set PPS_EDGE_DATA_DIR=/var/lib/pps-edge, which wins over this file: change it in /etc/pps-edge/pps-edge.env",
  },
};

const HEADER = `# /etc/pps-edge/pps-edge.yaml: the configuration of the pps-edge station agent (a conffile: an upgrade
# keeps your edits). Every key is shown commented out, with its default where it has one; to set a key,
# remove the leading "# " of its line and of its section lines (e.g. "http:"). An unknown key or a bad
# value stops the start, naming the key. Then: sudo systemctl restart pps-edge
# Each key can also be set by its variable (PPS_EDGE_ + the key path in upper snake case), which wins over
# this file. Keep secrets (mqtt.password, clientSecret, adminPassword, metrics.token) as variables in
# /etc/pps-edge/pps-edge.env (sudo chmod 600 it: systemd reads it as root), not here.
# The full table: README "Configuration" (/opt/pps-edge/README.md).
`;

/** Rows of the README's "Configuration" table: key, variable, default and meaning cells. */
export function configRows(readme) {
  const start = readme.indexOf("\n## Configuration\n");
  if (start < 0) throw new Error('README has no section "Configuration"');
  const end = readme.indexOf("\n## ", start + 4);
  const rows = [];
  for (const line of readme.slice(start, end).split("\n")) {
    if (!line.startsWith("| `")) continue;
    const [key, variable, fallback, meaning] = line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((c) => c.trim());
    rows.push({ key: key.replaceAll("`", ""), variable: variable.replaceAll("`", ""), fallback, meaning });
  }
  if (rows.length === 0) throw new Error("README's Configuration section has no table rows");
  return rows;
}

function valueAt(tree, path) {
  let node = tree;
  for (const seg of path) node = node === null || typeof node !== "object" ? undefined : node[seg];
  return node;
}

function yamlValue(value) {
  if (value === undefined) return "";
  if (Array.isArray(value)) return `[${value.map((v) => stringify(v).trim()).join(", ")}]`;
  return stringify(value).trim();
}

/** Words of a text as comment lines behind `prefix`, no line over WIDTH characters. */
function wrap(text, prefix) {
  const lines = [];
  let line = prefix;
  for (const word of text.split(/\s+/)) {
    if (line.length + word.length + 1 > WIDTH && line !== prefix) {
      lines.push(line);
      line = prefix;
    }
    line += `${line === prefix ? "" : " "}${word}`;
  }
  lines.push(line);
  return lines;
}

/** The file's text: the header, then each key of the table in its order, nested under its sections. */
export function defaultConfigYaml(readme, defaults) {
  const out = [HEADER];
  let open = [];
  for (const row of configRows(readme)) {
    const path = row.key.split(".");
    const sections = path.slice(0, -1);
    let same = 0;
    while (same < sections.length && open[same] === sections[same]) same++;
    // a blank comment line between top-level groups, then the section lines this key opens
    if (same === 0 && (sections.length > 0 || open.length > 0) && out.length > 1) out.push("#");
    for (let i = same; i < sections.length; i++) out.push(`# ${"  ".repeat(i)}${sections[i]}:`);
    open = sections;
    const indent = "  ".repeat(sections.length);
    const station = STATION_NOTES[row.key];
    const value = station ? station.value : yamlValue(valueAt(defaults, path));
    const fallback = value === "" && row.fallback !== "—" ? ` Default: ${row.fallback}.` : "";
    const note = station ? ` ${station.note}.` : "";
    const meaning = /[.…:;]$/.test(row.meaning) ? row.meaning : `${row.meaning}.`;
    out.push(...wrap(`${meaning}${fallback}${note} (${row.variable})`, `# ${indent}# `));
    out.push(`# ${indent}${path.at(-1)}:${value === "" ? "" : ` ${value}`}`);
  }
  return `${out.join("\n")}\n`;
}
