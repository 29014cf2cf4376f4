import type { Context, Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../domain/errors.js";
import { longerThan } from "../../domain/text.js";
import type { AuthService, GrantRequest } from "../../services/auth/auth.service.js";
import { CREDENTIALS_BODY_BYTES, readBodyText } from "../body.js";
import { clientAddress } from "../client-address.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";
import { TOKEN_EXAMPLES } from "./request-examples.js";

export const AUTH_PREFIX = "/api-gateway/auth-service/platform-auth";

const tokenForm = z.object({
  grant_type: z.enum(["password", "refresh_token"]),
  username: z.string().optional(),
  password: z.string().optional(),
  refresh_token: z.string().optional(),
});

const tokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal("bearer"),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  scope: z.string(),
  user_id: z.number().int(),
  jti: z.string(),
});

/**
 * Parameters may come as URL parameters or as a form-urlencoded body (spec: Authentication); body
 * values win over URL values.
 */
async function readParams(c: Context<AppEnv>): Promise<Record<string, string>> {
  const out: Record<string, string> = { ...c.req.query() };
  const text = await readBodyText(c);
  if (text.length === 0) return out;
  const type = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new AppError(
      "unsupported_media_type",
      "the token endpoint takes application/x-www-form-urlencoded",
      [
        {
          path: "Content-Type",
          message: `expected application/x-www-form-urlencoded, got ${type || "none"}`,
        },
      ],
    );
  }
  for (const [k, v] of new URLSearchParams(text)) out[k] = v;
  return out;
}

function required(params: Record<string, string>, name: string): string {
  const v = params[name];
  if (v === undefined || v === "") {
    throw new AppError("invalid_request", `${name} is required`, [{ path: name, message: "required" }]);
  }
  if (longerThan(v, 1024))
    throw new AppError("invalid_request", `${name} is too long`, [{ path: name, message: "too long" }]);
  return v;
}

export function authRoutes(auth: AuthService) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "post",
        path: `${AUTH_PREFIX}/oauth/token`,
        tag: "auth",
        summary: "Obtain an access token (password grant) or renew it (refresh_token grant)",
        description:
          "The client credential goes in `Authorization: Basic base64(clientId:clientSecret)`. The parameters may also come as URL parameters; values in the body win.",
        auth: false,
        tokenEndpoint: true,
        bodyLimitBytes: CREDENTIALS_BODY_BYTES,
        commits: false,
        query: tokenForm.partial(),
        body: tokenForm,
        bodyType: "application/x-www-form-urlencoded",
        examples: TOKEN_EXAMPLES,
        responses: {
          200: { description: "token issued", schema: tokenResponse },
          400: {
            description:
              "a parameter missing (`invalid_request`), or a grant_type other than password and refresh_token (`unsupported_grant_type`); `error` is the same OAuth 2.0 code (RFC 6749 §5.2)",
            codes: ["unsupported_grant_type", "invalid_request"],
          },
          401: {
            description:
              "wrong client credential, username, password or refresh token, one answer for all: `error` is `invalid_grant`, or `invalid_client` when no `Basic` client credential was sent",
            codes: ["invalid_credentials"],
          },
          415: { description: "body is not form-urlencoded" },
          429: {
            description:
              "too many failed logins for this user name from this address, or from this address (docs/security.md#login-policy); `Retry-After` gives the seconds to wait",
            codes: ["too_many_attempts"],
          },
        },
      },
      async (c) => {
        const params = await readParams(c);
        // a missing parameter is `invalid_request`, an unknown grant `unsupported_grant_type` (RFC 6749 §5.2)
        const grantType = required(params, "grant_type");
        let req: GrantRequest;
        if (grantType === "password") {
          req = {
            grant_type: "password",
            username: required(params, "username"),
            password: required(params, "password"),
          };
        } else if (grantType === "refresh_token") {
          req = { grant_type: "refresh_token", refresh_token: required(params, "refresh_token") };
        } else {
          throw new AppError("unsupported_grant_type", `grant_type '${grantType}' is not supported`, [
            { path: "grant_type", message: "expected 'password' or 'refresh_token'" },
          ]);
        }
        const token = await auth.grant(c.req.header("authorization"), req, {
          via: "http",
          address: clientAddress(c),
        });
        c.header("Cache-Control", "no-store");
        return c.json(token);
      },
    );
  };
}
