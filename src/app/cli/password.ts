/**
 * The password a person gives `user add` and `user reset-password`: asked twice on the terminal without
 * echo (the `read` package mutes the output while a line is typed), or the first line of standard
 * input when it is piped (`echo … | pps-edge user add NAME`). It must keep the product's one rule
 * (domain/password-policy.ts) before anything is changed.
 */
import { read } from "read";
import { passwordProblem } from "../../domain/password-policy.js";
import { type Io, UsageError } from "./context.js";

async function firstLine(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  // One line: the password, without the newline a shell adds.
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}

async function ask(io: Io, prompt: string): Promise<string> {
  // terminal: the line is read key by key with echo off, even when standard error is redirected
  return read({
    prompt,
    silent: true,
    replace: "",
    terminal: true,
    input: io.stdin,
    output: io.prompt ?? process.stderr,
  });
}

/** Reads the new password of `user`; a refused one is a UsageError saying why (nothing changed). */
export async function readNewPassword(io: Io, user: string): Promise<string> {
  let password: string;
  if (io.stdin.isTTY) {
    password = await ask(io, `New password for ${user}:`);
    if ((await ask(io, "The same again:")) !== password) {
      throw new UsageError("password: the two entries differ; nothing changed");
    }
  } else {
    password = await firstLine(io.stdin);
  }
  const problem = passwordProblem(password);
  if (problem !== null) {
    const from = io.stdin.isTTY ? "typed" : "read from standard input";
    throw new UsageError(`password refused (${from}): ${problem}; nothing changed`);
  }
  return password;
}

/** Reads a supervisor's new PIN as a password is read (twice on a terminal, else one line of stdin). */
export async function readNewPin(
  io: Io,
  user: string,
  problemOf: (pin: string) => string | null,
): Promise<string> {
  let pin: string;
  if (io.stdin.isTTY) {
    pin = await ask(io, `New supervisor PIN for ${user}:`);
    if ((await ask(io, "The same again:")) !== pin)
      throw new UsageError("PIN: the two entries differ; nothing changed");
  } else {
    pin = await firstLine(io.stdin);
  }
  const problem = problemOf(pin);
  if (problem !== null) throw new UsageError(`PIN refused: ${problem}; nothing changed`);
  return pin;
}
