/**
 * `pps-edge sim …`: drives the simulated devices of a running agent over its station API
 * (docs/architecture.md#the-station-model: with no hardware configured the agent runs simulated
 * scanners, lights, buttons and sensors). It signs in like any API client: the client credential and the
 * admin user's password from the config, or from the credentials file the agent generated on its first
 * start.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Argument, Command, InvalidArgumentError } from "commander";
import type { Config } from "../../config/config.schema.js";
import { CREDENTIALS_FILE } from "../../services/auth/auth.service.js";
import { type Cli, EXIT, loadCliConfig } from "./context.js";

function quantity(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("a whole number of pieces");
  return Number(value);
}

export function defineSim(cli: Cli): Command {
  const sim = new Command("sim")
    .description("drive the simulated devices of a running agent (over its station API)")
    .addHelpText(
      "after",
      "\nSigns in with clientSecret and adminPassword from the config, or the credentials file of the first start.\nExit code 3: the station engine refused the action (the reason is printed).",
    );
  const send = async (cmd: Command, action: SimAction, call: (calls: typeof simCalls) => SimCall) => {
    const { config } = loadCliConfig(cmd, cli.io);
    cli.code = await simCommand(config, action, call(simCalls), cli.io);
  };
  sim
    .command("scan")
    .description("a scan on the seat's simulated scanner")
    .argument("<seat>")
    .argument("<barcode>")
    .action((seat: string, barcode: string, _o, cmd: Command) =>
      send(cmd, "scan", (c) => c.scan(seat, barcode)),
    );
  sim
    .command("press")
    .description("the bin's button")
    .argument("<bin>", "the bin (ppsBinId)")
    .addArgument(new Argument("[button]").choices(["confirm", "shortage"]).default("confirm"))
    .action((bin: string, button: "confirm" | "shortage", _o, cmd: Command) =>
      send(cmd, "press", (c) => c.press(bin, button)),
    );
  sim
    .command("sensor")
    .description("the bin's beam blocked (on) or clear (off)")
    .argument("<bin>", "the bin (ppsBinId)")
    .addArgument(new Argument("<state>").choices(["on", "off"]))
    .action((bin: string, state: string, _o, cmd: Command) =>
      send(cmd, "sensor", (c) => c.sensor(bin, state === "on")),
    );
  sim
    .command("keyin")
    .description("a quantity keyed in at the seat")
    .argument("<seat>")
    .argument("<quantity>", "pieces", quantity)
    .action((seat: string, n: number, _o, cmd: Command) => send(cmd, "keyin", (c) => c.keyin(seat, n)));
  sim
    .command("lights")
    .description("what the lights show")
    .action((_o, cmd: Command) => send(cmd, "lights", (c) => c.lights()));
  sim
    .command("seats")
    .description("each seat's step")
    .action((_o, cmd: Command) => send(cmd, "seats", (c) => c.seats()));
  return sim;
}

interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
}

type Json = Record<string, unknown>;

function baseUrl(config: Config): string {
  if (config.http.publicUrl) return config.http.publicUrl;
  const host = ["0.0.0.0", "::"].includes(config.http.host) ? "127.0.0.1" : config.http.host;
  // with http.tls, Node must trust the certificate's CA: NODE_EXTRA_CA_CERTS (docs/security.md)
  const scheme = config.http.tls.certFile ? "https" : "http";
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${config.http.port}`;
}

function credentials(config: Config): { basic: string; user: string; password: string } {
  const file = join(resolve(config.dataDir), CREDENTIALS_FILE);
  const saved = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, string>) : {};
  const secret = config.clientSecret ?? saved.clientSecret;
  const password =
    config.adminPassword ?? (saved.adminUser === config.adminUser ? saved.adminPassword : undefined);
  if (!secret || !password) {
    throw new Error(
      `no credentials: set clientSecret and adminPassword in the config, or keep ${file} from the first start`,
    );
  }
  return {
    basic: `Basic ${Buffer.from(`${config.clientId}:${secret}`).toString("base64")}`,
    user: config.adminUser,
    password,
  };
}

async function call(base: string, token: string, method: string, path: string, body?: Json): Promise<Json> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  if (!res.ok) throw new Error(`${res.status} ${String(json.code)}: ${String(json.message)}`);
  return json;
}

function describeLight(l: Json): string {
  const where = l.ppsBinId ? `bin ${String(l.ppsBinId)}` : `${String(l.deviceId)}/${String(l.address)}`;
  if (l.mode !== "show") return `${where}: ${String(l.mode)}`;
  return `${where}: ${[l.color, l.quantity, l.blink ? "blinking" : undefined].filter((x) => x !== undefined).join(" ")}`;
}

function describeOutcome(o: Json | null): string {
  if (!o) return "no effect";
  const who = o.seat ? `${String(o.seat)}: ` : "";
  if (o.result === "refused") return `${who}refused (${String(o.reason)}): ${String(o.message)}`;
  if (o.result !== "done") return `${who}${String(o.result)}`;
  return `${who}${String(o.as)} → ${String(o.did)}${o.step ? ` (now ${String(o.step)})` : ""}`;
}

/** One call of the station API: method, path and body. */
export type SimCall = [method: string, path: string, body?: Json];

/** The call behind each `pps-edge sim` action (its arguments are checked by the command line). */
export const simCalls = {
  scan: (seat: string, barcode: string): SimCall => ["POST", "/station/sim/scan", { seat, barcode }],
  press: (bin: string, button: "confirm" | "shortage"): SimCall => [
    "POST",
    "/station/sim/press",
    { ppsBinId: bin, button },
  ],
  sensor: (bin: string, active: boolean): SimCall => [
    "POST",
    "/station/sim/sensor",
    { ppsBinId: bin, active },
  ],
  keyin: (seat: string, quantity: number): SimCall => [
    "POST",
    `/station/seats/${encodeURIComponent(seat)}/keyin`,
    { quantity },
  ],
  lights: (): SimCall => ["GET", "/station/sim/lights"],
  seats: (): SimCall => ["GET", "/station/engine"],
};

export type SimAction = keyof typeof simCalls;

/** Returns the exit code: 0 done, 3 refused by the station engine, 1 failure. */
export async function simCommand(config: Config, action: SimAction, req: SimCall, io: Io): Promise<number> {
  try {
    const base = baseUrl(config);
    const cred = credentials(config);
    const tokenRes = await fetch(`${base}/api-gateway/auth-service/platform-auth/oauth/token`, {
      method: "POST",
      headers: { Authorization: cred.basic, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", username: cred.user, password: cred.password }),
    });
    if (!tokenRes.ok) throw new Error(`sign-in refused (${tokenRes.status}) at ${base}`);
    const token = String(((await tokenRes.json()) as Json).access_token);
    const [method, path, body] = req;
    let answer: Json;
    try {
      answer = await call(base, token, method, path, body);
    } catch (e) {
      // a key-in the engine refuses is a 409 with its reason: say it like the other refusals
      if (action === "keyin" && String((e as Error).message).includes("scan_refused")) {
        io.out(`refused: ${(e as Error).message}`);
        return EXIT.refused;
      }
      throw e;
    }
    if (action === "seats") {
      for (const s of answer.seats as Json[]) io.out(`${String(s.seat)}: ${String(s.step)}`);
      return 0;
    }
    const outcome =
      action === "lights" ? null : action === "keyin" ? answer : (answer.outcome as Json | null);
    if (outcome) io.out(describeOutcome(outcome));
    const shown = action === "keyin" ? await call(base, token, "GET", "/station/sim/lights") : answer;
    const lights = ((shown.lights as Json[] | undefined) ?? []).filter((l) => l.mode !== "off");
    io.out(lights.length ? lights.map(describeLight).join("\n") : "all lights off");
    return outcome?.result === "refused" ? EXIT.refused : EXIT.ok;
  } catch (e) {
    io.err(`pps-edge sim: ${(e as Error).message}`);
    return 1;
  }
}
