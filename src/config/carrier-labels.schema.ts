import { z } from "zod";
import { commaSeparated, count, flag } from "./config-values.js";

/**
 * `printing.carrierLabels`: where the agent may fetch a carrier's own label from, and how
 * (docs/station.md#carrier-labels, docs/security.md#carrier-label-urls). Empty `allowHosts`: no carrier
 * label is fetched, and an order that names one fails to print, in words.
 */
const hostPattern = z
  .string()
  .regex(
    /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*\.?$|^\[?[0-9A-Fa-f:.]+\]?$/,
    "a host name, `*.example.com` or an IP address",
  );

export const CARRIER_LABEL_DEFAULTS = {
  allowHosts: [] as string[],
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  allowHttp: false,
  allowLoopback: false,
  allowLinkLocal: false,
  packingSlip: false,
};

export const carrierLabelsSchema = z
  .object({
    allowHosts: z
      .preprocess(commaSeparated, z.array(hostPattern).max(100).default([]))
      .describe(
        "hosts a carrier label URL may name (comma-separated in the variable): `labels.carrier.example`, or `*.carrier.example` for its subdomains; empty: no carrier label is fetched and such an order fails to print, in words",
      ),
    caFile: z
      .string()
      .min(1)
      .optional()
      .describe("PEM CA bundle trusted for carrier label HTTPS, added to the system's CAs"),
    timeoutMs: count(100, 120_000, CARRIER_LABEL_DEFAULTS.timeoutMs).describe(
      "the whole fetch (connection, redirects, body) must end within this",
    ),
    maxBytes: count(1024, 64 * 1024 * 1024, CARRIER_LABEL_DEFAULTS.maxBytes).describe(
      "a carrier label larger than this is refused while it is read",
    ),
    allowHttp: flag.default(false).describe("let carrier label URLs be `http://` (unencrypted; a lab)"),
    allowLoopback: flag
      .default(false)
      .describe("let carrier label hosts resolve to this computer (loopback; a lab)"),
    allowLinkLocal: flag
      .default(false)
      .describe("let carrier label hosts resolve to link-local addresses (never metadata services)"),
    packingSlip: flag
      .default(false)
      .describe("after the carrier's label, print the agent's own label as a packing slip"),
  })
  .strict()
  .default(CARRIER_LABEL_DEFAULTS);

export type CarrierLabelsConfig = z.infer<typeof carrierLabelsSchema>;
