// The bare baseline of scan → light: a plain serialport script on the same pseudo-terminals and the
// agent's own database (left as the agent stopped: the operator logged in, the rack presented), doing
// the same lookup the agent does for an item scan in pick mode (src/db/scan.repo.ts `item` and
// `picks`: the barcode's item, the first pick work for it at a slot of a presented rack in work
// order, its bin), as one prepared statement, then writing that bin's light frame (SorTexx,
// cumulative on, green). `EXC-CANCEL` turns the lit bin off. No seat state, no checks, no events.
import Database from "better-sqlite3";
import { SerialPort } from "serialport";

const [dbFile, scannerPath, ptlPath, binsJson] = process.argv.slice(2);
/** bin id → the light module's address ("SSSCCC"), as in the station file */
const lights = new Map(Object.entries(JSON.parse(binsJson)));
const db = new Database(dbFile, { readonly: true });
const work = db.prepare(
  `SELECT sr.bin_id AS binId, min(r.quantity, l.expected - l.picked - l.short) AS quantity
     FROM barcodes b
     JOIN reservations r ON r.item_id = b.item_id
     JOIN locations loc ON loc.id = r.location JOIN racks rk ON rk.msu = loc.msu
     JOIN pick_lines l ON l.id = r.line_id
     JOIN service_requests sr ON sr.id = l.request_id
    WHERE b.barcode = ? AND r.quantity > 0 AND l.expected - l.picked - l.short > 0
      AND sr.type = 'PICK' AND sr.state IN ('cancellation_locked', 'pick_started') AND sr.bin_id IS NOT NULL
    ORDER BY sr.priority_rank, sr.pick_before IS NULL, sr.pick_before, sr.id, l.position, r.location
    LIMIT 1`,
);
const open = (path) =>
  new Promise((ok, fail) => {
    const p = new SerialPort({ path, baudRate: 9600, autoOpen: false });
    p.open((e) => (e ? fail(e) : ok(p)));
  });
const scanner = await open(scannerPath);
const ptl = await open(ptlPath);
ptl.on("data", () => {}); // the controller's answers, read and dropped
let lit = null;

function onScan(text) {
  if (text === "EXC-CANCEL") {
    if (lit) ptl.write(`<${lit}300>`);
    lit = null;
    return;
  }
  const w = work.get(text);
  const address = w ? lights.get(w.binId) : undefined;
  if (!address) return;
  lit = address;
  ptl.write(`<${address}210>`);
}

let line = "";
scanner.on("data", (chunk) => {
  line += chunk.toString("latin1");
  let i = line.indexOf("\r");
  while (i >= 0) {
    onScan(line.slice(0, i));
    line = line.slice(i + 1);
    i = line.indexOf("\r");
  }
});
process.stdout.write("READY 0 {}\n");
process.on("SIGTERM", () => process.exit(0));
