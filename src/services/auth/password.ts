import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

/**
 * scrypt password hashes (docs/architecture.md#auth: never stored in clear). Parameters are stored with each
 * hash so they can be raised later without breaking existing users. N=2^15, r=8, p=1 needs 32 MiB and
 * takes tens of milliseconds: asynchronous so a login never stalls a scan.
 */
const N = 1 << 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 64 * 1024 * 1024;

/**
 * The last derivation begun or waiting: each next one starts when it has settled. One at a time, the
 * others waiting in order (docs/limits.md): a derivation needs 128·N·r bytes (32 MiB) outside the heap,
 * and Node's thread pool runs four at once, so logins arriving together (the token endpoint, the
 * screen's sign-in, the embedded broker's CONNECTs) lifted the agent's RSS by up to 128 MiB while they
 * lasted. One at a time, 32 MiB is all they take, and the pool's other threads stay free for file work;
 * a login waits one derivation's time (tens of milliseconds) for each ahead of it. The wait is bounded
 * by the connection limits: every waiting login holds a connection.
 */
let last: Promise<unknown> = Promise.resolve();

function derive(
  password: string,
  salt: Buffer,
  n: number,
  r: number,
  p: number,
  len: number,
): Promise<Buffer> {
  const run = () =>
    new Promise<Buffer>((resolve, reject) => {
      scrypt(password, salt, len, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
        err ? reject(err) : resolve(key),
      );
    });
  const key = last.then(run, run);
  last = key.catch(() => undefined);
  return key;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P, KEYLEN);
  return `scrypt$${N}$${R}$${P}$${salt.toString("base64")}$${key.toString("base64")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, saltB64, keyB64] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(keyB64, "base64");
  const key = await derive(
    password,
    Buffer.from(saltB64, "base64"),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash that never matches, used to spend the same time when a user does not exist. */
export const DUMMY_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString("base64")}$${Buffer.alloc(KEYLEN).toString("base64")}`;

/** URL-safe random secret (client secret, generated passwords, bearer tokens). */
export function randomSecret(bytes = 24): string {
  return randomBytes(bytes).toString("base64url");
}
