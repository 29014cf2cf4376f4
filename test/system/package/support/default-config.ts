import { parse } from "yaml";

/** `# <indent>key:` or `# <indent>key: value`: a key line of the commented default config. */
const KEY_LINE = /^# ((?: {2})*)([A-Za-z]+):(?: (.+))?$/;

interface KeyLine {
  index: number;
  depth: number;
  name: string;
  value: string | undefined;
  section: boolean;
}

function keyLines(yaml: string): KeyLine[] {
  const lines = yaml.split("\n");
  const keys = lines.flatMap((line, index) => {
    const m = KEY_LINE.exec(line);
    return m
      ? [{ index, depth: (m[1] as string).length / 2, name: m[2] as string, value: m[3], section: false }]
      : [];
  });
  keys.forEach((k, i) => {
    k.section = k.value === undefined && (keys[i + 1]?.depth ?? 0) > k.depth;
  });
  return keys;
}

/** The key paths a commented config names, in order. */
export function configKeysOf(yaml: string): string[] {
  const open: string[] = [];
  return keyLines(yaml).flatMap((k) => {
    open.length = k.depth;
    if (k.section) {
      open.push(k.name);
      return [];
    }
    return [[...open, k.name].join(".")];
  });
}

/** The config as it reads with every key that shows a value uncommented (and the sections they are in). */
export function uncommentKeys(yaml: string): unknown {
  const lines = yaml.split("\n");
  const keys = keyLines(yaml);
  // a section is uncommented when a key under it shows a value (an empty section would read as null)
  const shown = (i: number): boolean => {
    const k = keys[i] as KeyLine;
    if (!k.section) return k.value !== undefined;
    for (let j = i + 1; j < keys.length && (keys[j] as KeyLine).depth > k.depth; j++)
      if (shown(j)) return true;
    return false;
  };
  keys.forEach((k, i) => {
    if (shown(i)) lines[k.index] = (lines[k.index] as string).slice(2);
  });
  return parse(lines.join("\n"));
}
