// Counts the SQL an agent process runs, by statement text: loaded before the agent with
// `node --import` (`npm run bench -- <bench> --sql-count`), it wraps better-sqlite3's prepare, exec
// and transaction. Counting windows as the station agent's (a SIGUSR2 closes one); on exit the
// windows are written to <out>/<pid>.txt (`out` from the import's query string), most run first. Instruments a run
// to count, never one to time: the wrapping costs a little on every statement. It patches this
// checkout's better-sqlite3: an --agent-dir checkout must use the same node_modules (a link to it).
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");
const proto = Database.prototype;
const windows = [];
let current = new Map();
const count = (key) => current.set(key, (current.get(key) ?? 0) + 1);
const short = (sql) => sql.replace(/\s+/g, " ").trim();

const prepare = proto.prepare;
proto.prepare = function countedPrepare(sql, ...rest) {
  const st = prepare.call(this, sql, ...rest);
  const text = short(sql);
  for (const m of ["run", "get", "all", "iterate"]) {
    const f = st[m];
    st[m] = function counted(...args) {
      count(`${m}  ${text}`);
      return f.apply(this, args);
    };
  }
  return st;
};

const exec = proto.exec;
proto.exec = function countedExec(sql) {
  count(`exec  ${short(sql)}`);
  return exec.call(this, sql);
};

const transaction = proto.transaction;
proto.transaction = function countedTransaction(fn) {
  const t = transaction.call(this, fn);
  const db = this;
  // a transaction inside another is a savepoint in better-sqlite3
  const wrap = (kind) =>
    function counted(...args) {
      count(db.inTransaction ? "tx  savepoint (nested)" : `tx  ${kind}`);
      return t[kind].apply(this, args);
    };
  const out = wrap("default");
  for (const kind of ["deferred", "immediate", "exclusive"]) out[kind] = wrap(kind);
  out.database = db;
  return out;
};

process.on("SIGUSR2", () => {
  windows.push(current);
  current = new Map();
});
process.on("exit", () => {
  windows.push(current);
  const dir = new URL(import.meta.url).searchParams.get("out");
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const text = windows
    .map((w, i) => {
      const rows = [...w].sort((a, b) => b[1] - a[1]);
      const total = rows.reduce((n, [, c]) => n + c, 0);
      return [`window ${i}: ${total} calls`, ...rows.map(([k, c]) => `${String(c).padStart(9)}  ${k}`)].join(
        "\n",
      );
    })
    .join("\n\n");
  writeFileSync(join(dir, `${process.pid}.txt`), `${text}\n`);
});
