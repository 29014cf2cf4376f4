/**
 * The embedded broker's door and ACL as aedes hooks (docs/mqtt.md#embedded-broker-credentials-and-acl):
 * `authenticate` decides who a connection is, `authorizePublish`, `authorizeSubscribe` and
 * `authorizeForward` ask broker-acl.ts what that principal may do. The agent's own client id is bound
 * to the agent's secret, so nobody else can take it over (aedes would otherwise close the agent's
 * connection in favour of the newcomer).
 */
import { timingSafeEqual } from "node:crypto";
import type { AedesOptions, AuthenticateError, Client } from "aedes";
import type { Logger } from "pino";
import type { Role } from "../domain/roles.js";
import type { ForbiddenEvent, LiveSession } from "../services/auth/auth.service.js";
import { type BrokerPrincipal, brokerAcl, mayConnect } from "./broker-acl.js";

/** An API user as the broker sees it after its password was checked. */
export interface BrokerUser {
  id: number;
  username: string;
  role: Role;
}

/** Checks an API user's password (the same user store as the HTTP API): the user, or undefined. */
export type VerifyUser = (
  username: string,
  password: string,
  address?: string,
) => Promise<BrokerUser | undefined>;

/** Where role refusals go, and who watches users' connections for revocation (services/auth). */
export interface BrokerAccess {
  onForbidden(e: ForbiddenEvent): void;
  track(s: LiveSession): () => void;
}

/** A connect refused before any password was checked (those are recorded by the login itself). */
export interface BrokerRefusal {
  username: string | undefined;
  address: string | undefined;
  reason: "reserved_client_id" | "no_credentials";
}

export interface BrokerGuardOptions {
  /** The station's branch, `ppsedge/v1/<site>/<ppsId>`. */
  root: string;
  /** The agent's own client id, username and the secret generated for this process. */
  agent: { clientId: string; username: string; secret: string };
  /** Clients without credentials are let in (only on loopback: config refuses it otherwise). */
  anonymous: boolean;
  verifyUser: VerifyUser;
  /** Where such refusals go (the security event log). */
  onRefused?: ((refusal: BrokerRefusal) => void) | undefined;
  /** Role refusals and revocation; none in tests of the ACL alone. */
  access?: BrokerAccess;
  log: Logger;
}

type Hooks = Required<
  Pick<AedesOptions, "authenticate" | "authorizePublish" | "authorizeSubscribe" | "authorizeForward">
> & {
  /** A client's connection ended: stop watching it. */
  closed(client: Client): void;
};

/** CONNACK return codes of MQTT 3.1.1 §3.2.2.3. */
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

function refusal(returnCode: number, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

function addressOf(client: Client): string | undefined {
  return (client.conn as { remoteAddress?: string } | undefined)?.remoteAddress;
}

function sameSecret(given: Buffer | undefined, secret: string): boolean {
  const expected = Buffer.from(secret);
  return given !== undefined && given.length === expected.length && timingSafeEqual(given, expected);
}

function logRefusal(log: Logger, client: Client, username: string | undefined, reason: string): void {
  log.warn(
    { client: client.id, username, address: addressOf(client) },
    `mqtt broker: connect refused: ${reason}`,
  );
}

export function brokerGuard(opts: BrokerGuardOptions): Hooks {
  const acl = brokerAcl(opts.root);
  const principals = new WeakMap<Client, BrokerPrincipal>();
  /** Users' connections, watched until they close (a removed or changed user's are closed at once). */
  const watched = new Map<Client, () => void>();
  const forbid = (p: BrokerPrincipal | undefined, what: string, address: string | undefined) => {
    if (p?.kind === "user")
      opts.access?.onForbidden({ username: p.username, role: p.role, via: "mqtt", what, address });
  };
  const who = (client: Client | null): BrokerPrincipal | undefined =>
    client ? principals.get(client) : undefined;
  const refuse = (client: Client, username: string | undefined, reason: string) =>
    logRefusal(opts.log, client, username, reason);
  /** Watches a user's connection: it is closed when the user is removed or changed (services/auth). */
  const watch = (client: Client, user: BrokerUser) => {
    const { id: userId, username, role } = user;
    const end = () => client.close();
    watched.set(
      client,
      opts.access?.track({ userId, username, role, what: "mqtt_client", end }) ?? (() => {}),
    );
  };

  async function identify(
    client: Client,
    username: string | undefined,
    password: Buffer | undefined,
  ): Promise<BrokerPrincipal | AuthenticateError> {
    const address = addressOf(client);
    if (client.id === opts.agent.clientId) {
      if (username === opts.agent.username && sameSecret(password, opts.agent.secret))
        return { kind: "agent" };
      refuse(client, username, "the agent's client id");
      opts.onRefused?.({ username, address, reason: "reserved_client_id" });
      return refusal(NOT_AUTHORIZED, "client id reserved for the agent");
    }
    if (username === undefined && password === undefined) {
      if (opts.anonymous) return { kind: "anonymous" };
      refuse(client, username, "no credentials");
      opts.onRefused?.({ username, address, reason: "no_credentials" });
      return refusal(NOT_AUTHORIZED, "credentials required");
    }
    const user =
      username && password ? await opts.verifyUser(username, password.toString("utf8"), address) : undefined;
    if (user) {
      const p: BrokerPrincipal = { kind: "user", username: user.username, role: user.role };
      if (mayConnect(p)) {
        watch(client, user);
        return p;
      }
      forbid(p, "connect", address);
      refuse(client, username, `the role ${user.role} may not connect`);
      return refusal(NOT_AUTHORIZED, `the role ${user.role} may not connect`);
    }
    refuse(client, username, "wrong username or password");
    return refusal(BAD_USERNAME_OR_PASSWORD, "wrong username or password");
  }

  return {
    authenticate(client, username, password, done) {
      identify(client, username, password).then(
        (p) => {
          if (p instanceof Error) return done(p, false);
          principals.set(client, p);
          done(null, true);
        },
        (err: Error) => done(refusal(3, err.message), false),
      );
    },
    authorizePublish(client, packet, done) {
      const p = who(client);
      if (p && acl.mayPublish(p, packet.topic, packet.retain)) return done(null);
      opts.log.warn({ client: client?.id, topic: packet.topic }, "mqtt broker: publish refused");
      if (client) forbid(p, `publish ${packet.topic}`, addressOf(client));
      // aedes closes the connection: MQTT 3.1.1 has no negative PUBACK (§3.3.5).
      done(new Error(`not authorized to publish to ${packet.topic}`));
    },
    authorizeSubscribe(client, sub, done) {
      const p = who(client);
      if (p && acl.maySubscribe(p, sub.topic)) return done(null, sub);
      opts.log.warn({ client: client.id, filter: sub.topic }, "mqtt broker: subscription refused");
      forbid(p, `subscribe ${sub.topic}`, addressOf(client));
      // null: SUBACK 0x80 for this filter, the connection stays.
      done(null, null);
    },
    authorizeForward(client, packet) {
      const p = who(client);
      return p && acl.mayReceive(p, packet.topic) ? packet : null;
    },
    closed(client) {
      watched.get(client)?.();
      watched.delete(client);
    },
  };
}
