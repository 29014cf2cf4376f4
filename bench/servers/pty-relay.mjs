// The bare round trip: the same pseudo-terminals with no agent in between. Reads scan lines on the
// scanner's agent end and writes the light frame the agent would write on the controller's.
import { SerialPort } from "serialport";

const [scannerPath, ptlPath] = process.argv.slice(2);
const open = (path) =>
  new Promise((ok, fail) => {
    const p = new SerialPort({ path, baudRate: 9600, autoOpen: false });
    p.open((e) => (e ? fail(e) : ok(p)));
  });
const scanner = await open(scannerPath);
const ptl = await open(ptlPath);
ptl.on("data", () => {}); // the controller's answers, read and dropped
const reply = { "BC-A": "<001001210>", "EXC-CANCEL": "<001001300>" };
let line = "";
scanner.on("data", (chunk) => {
  line += chunk.toString("latin1");
  let i = line.indexOf("\r");
  while (i >= 0) {
    const frame = reply[line.slice(0, i)];
    if (frame) ptl.write(frame);
    line = line.slice(i + 1);
    i = line.indexOf("\r");
  }
});
process.stdout.write("READY 0 {}\n");
process.on("SIGTERM", () => process.exit(0));
