import type { AuthUser } from "../services/auth/auth.service.js";

/** Per-request values set by middleware. */
export type AppEnv = {
  Variables: {
    requestId: string;
    /** The matched route pattern, for metrics and logs. */
    route: string;
    user: AuthUser;
    /** The body limit in force (body.ts `limitBody`). */
    bodyLimitBytes: number;
    /** The body once read (body.ts `readBodyText`): a middleware that had to read it leaves it for the route. */
    bodyText: string | undefined;
  };
};
