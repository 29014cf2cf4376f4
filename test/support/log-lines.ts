/**
 * Captures the agent's log lines (a pino or pino-pretty destination) and checks them: each line one
 * JSON object with no key twice at any depth (JSON.parse would silently keep the last one).
 */
import { Writable } from "node:stream";

export class LogLines extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (err?: Error) => void): void {
    for (const line of String(chunk).split("\n")) if (line !== "") this.lines.push(line);
    done();
  }

  text(): string {
    return this.lines.join("\n");
  }
}

/** Keys that occur twice in one object of a JSON text, at any depth. */
export function duplicateKeys(json: string): string[] {
  const dups: string[] = [];
  const stack: Array<{ keys: Set<string> | null; expectKey: boolean }> = [];
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (ch === '"') {
      let j = i + 1;
      while (json[j] !== '"') j += json[j] === "\\" ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(json.slice(i, j + 1)) as string;
        if (top.keys.has(key)) dups.push(key);
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
    } else if (ch === "{") stack.push({ keys: new Set(), expectKey: true });
    else if (ch === "[") stack.push({ keys: null, expectKey: false });
    else if (ch === "}" || ch === "]") stack.pop();
    else if (ch === ",") {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
    }
  }
  return dups;
}
