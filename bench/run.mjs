// `npm run bench`: runs each benchmark (or those named as arguments) and writes its JSON result to
// bench/results/<name>-<time>.json and <name>-latest.json.
import { writeResult } from "./lib.mjs";

const benches = {
  items: () => import("./items.bench.mjs"),
  mqtt: () => import("./mqtt.bench.mjs"),
  picks: () => import("./picks.bench.mjs"),
  "scan-light": () => import("./scan-light.bench.mjs"),
  screen: () => import("./screen.bench.mjs"),
};

const wanted = process.argv.slice(2);
for (const [name, loader] of Object.entries(benches)) {
  if (wanted.length && !wanted.includes(name)) continue;
  process.stderr.write(`bench ${name}: running\n`);
  const result = await (await loader()).run();
  const file = writeResult(name, result);
  process.stdout.write(`${JSON.stringify({ name, ...result }, null, 2)}\n`);
  process.stderr.write(`bench ${name}: written to ${file}\n`);
}
