// Baseline named by the issues: a bare Hono handler that inserts the posted JSON into better-sqlite3
// at synchronous=FULL (WAL), and answers it back with its id. No validation, no indexes, no auth.
import { serve } from "@hono/node-server";
import Database from "better-sqlite3";
import { Hono } from "hono";

const [file] = process.argv.slice(2);
const db = new Database(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = FULL");
db.exec("CREATE TABLE IF NOT EXISTS docs (id INTEGER PRIMARY KEY, doc TEXT NOT NULL)");
const insert = db.prepare("INSERT INTO docs (doc) VALUES (?)");

const app = new Hono();
app.post("/*", async (c) => {
  const body = await c.req.json();
  const id = Number(insert.run(JSON.stringify(body)).lastInsertRowid);
  return c.json({ ...body, id });
});
const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
  process.stdout.write(`READY ${info.port} {}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
