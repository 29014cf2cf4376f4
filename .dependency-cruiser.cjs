/**
 * Layer rules of src/ (docs/architecture.md, "Layers"), checked by `npm run lint:layers` in `npm test`.
 *
 * dependency-cruiser rather than Biome's `noRestrictedImports`: Biome matches the import string as
 * written, so a folder-to-folder rule would take one override per folder and patterns over relative
 * specifiers whose target depends on how deep the importing file sits (`../db/x.js`, `../../db/x.js`),
 * and it does not look for cycles at all. dependency-cruiser resolves every import to a file
 * (TypeScript's `.js` → `.ts` included), matches the importing folder against the imported one, and
 * finds cycles across the whole graph.
 *
 * Type-only imports count like any other (`tsPreCompilationDeps`): a layer that names another layer's
 * type depends on it. Dynamic `import()` counts too.
 */

/**
 * Files at the src/ root that every layer except domain/ may use: the event bus, logging, metrics, the
 * version, the start error (raised by config loading, the database lock and the parts alike), and
 * durable file writes (credentials, screen keys, reports, backups, labels).
 */
const SHARED = "^src/(events|log|log-destination|metrics|version|start-error|durable-file)\\.ts$";

/**
 * The composition root (app/: main, the agent and its parts, the lifecycle, the command line): builds
 * everything, so it may import everything.
 */
const ROOT = ["^src/app/"];

/** Each folder under src/ and the folders it may import besides its own and the shared files. */
const LAYERS = {
  domain: [],
  db: ["domain"],
  services: ["domain", "db"],
  http: ["services", "domain", "config"],
  // the station file's schema is configuration (config/station-file.schema.ts); reading the file and
  // checking it against the drivers and profiles is the devices' (devices/station-file/)
  devices: ["domain", "config"],
  station: ["services", "devices", "domain", "config"],
  sync: ["services", "db", "domain", "config"],
  // webhook delivery: the outbox and endpoint tables, the pure retry decisions, its config section
  "webhook-delivery": ["db", "domain", "config"],
  // station printing joins the layout to a label printer driver (labels/pack-labels.ts)
  labels: ["domain", "devices", "config"],
  // pure schemas: what the station file names of the drivers is checked under devices/station-file/
  config: ["domain"],
};

/**
 * Subfolders that may import more than their layer, and what more: the station's own routes
 * (station/routes/: its API, scans and simulator) and the operator screen (station/screen/: its page
 * and data) are served over HTTP, so they use http/'s route helpers, request context, body reading,
 * examples and client address (http/ never imports them back: app/ mounts them).
 */
const EXTRA = {
  "station/routes": ["http"],
  "station/screen": ["http"],
};

const folders = (names) => `^src/(${names.join("|")})/`;

/**
 * The doors of services/ (docs/architecture.md#services-by-aggregate): from outside a services/ folder,
 * only its door is imported; the files of a folder import each other freely. A folder's door is its
 * `*.service.ts` (notifications/ has two: the notification log and the dead letters). Exceptions:
 * - a folder that is one module the aggregates build on, rather than an aggregate, is entered through
 *   the file named as the folder: unit-of-work/unit-of-work.ts (every transaction opens there; it also
 *   hands out what the disk refused and the storage health and budget it reports to) and
 *   request-record/request-record.ts (the service request as pick/, put/ and the others read it);
 * - status/ has two doors: agent-status.ts (the running agent's readiness and status) and
 *   station-status.ts (the summary alone, which `pps-edge status` builds from a running agent's answers
 *   without loading the database code agent-status.ts needs).
 */
const DOORS = [
  "^src/services/[^/]+/[^/]+\\.service\\.ts$",
  "^src/services/(?<folder>[^/]+)/\\k<folder>\\.ts$",
  "^src/services/status/(agent|station)-status\\.ts$",
];

const layerRules = Object.entries(LAYERS).map(([layer, allowed]) => {
  const extra = Object.keys(EXTRA).filter((sub) => sub.startsWith(`${layer}/`));
  return {
    name: `layer-${layer}`,
    comment:
      layer === "domain"
        ? "domain/ is the pure core: it imports nothing else of src/."
        : `${layer}/ may import only ${[...allowed.map((a) => `${a}/`), "the shared src/ root files"].join(", ")}.`,
    severity: "error",
    from: extra.length ? { path: `^src/${layer}/`, pathNot: folders(extra) } : { path: `^src/${layer}/` },
    to: {
      path: "^src/",
      pathNot: layer === "domain" ? [folders(["domain"])] : [folders([layer, ...allowed]), SHARED],
    },
  };
});

const extraRules = Object.entries(EXTRA).map(([sub, more]) => {
  const layer = sub.split("/")[0];
  const allowed = [layer, ...LAYERS[layer], ...more];
  return {
    name: `layer-${sub.replaceAll("/", "-")}`,
    comment: `${sub}/ may import what ${layer}/ may, and ${more.map((m) => `${m}/`).join(", ")}.`,
    severity: "error",
    from: { path: `^src/${sub}/` },
    to: { path: "^src/", pathNot: [folders(allowed), SHARED] },
  };
});

/** Where each driver-level package may be imported from (docs/architecture.md: who owns which IO). */
const PACKAGES = [
  { name: "hardware-packages", packages: "node-hid|serialport|@serialport/[^/]+", owner: "devices" },
  { name: "mqtt-packages", packages: "mqtt|aedes", owner: "sync" },
  // The unit of work in services/ takes its handle type from db/open.ts (`Sqlite`), so no file outside
  // db/ needs these packages, not even for a type.
  { name: "database-packages", packages: "better-sqlite3|drizzle-orm", owner: "db" },
];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No cycles anywhere in src/: each module can be read, tested and started after what it uses.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    ...layerRules,
    ...extraRules,
    {
      name: "services-door",
      comment: "A services/ folder is entered through its door (DOORS above), from outside the folder.",
      severity: "error",
      // $1: the importing file's own folder (services/<folder> or the layer), whose files are not doors
      from: { path: "^src/(services/[^/]+|[^/]+)" },
      to: { path: "^src/services/[^/]+/", pathNot: ["^src/$1/", ...DOORS] },
    },
    {
      name: "shared-root-files",
      comment:
        "The shared root files sit under every layer but domain/: they import only domain/ and each other.",
      severity: "error",
      from: { path: SHARED },
      to: { path: "^src/", pathNot: [folders(["domain"]), SHARED] },
    },
    {
      name: "unlisted-folder",
      comment:
        "A folder under src/ that is not in the layer table above: give it a row before it imports src/.",
      severity: "error",
      from: { path: "^src/[^/]+/", pathNot: [folders(Object.keys(LAYERS)), ...ROOT] },
      to: { path: "^src/" },
    },
    {
      name: "unlisted-root-file",
      comment: "A file at the src/ root is shared by the layers; the composition root lives in app/.",
      severity: "error",
      from: { path: "^src/[^/]+$", pathNot: [...ROOT, SHARED] },
      to: { path: "^src/" },
    },
    ...PACKAGES.map(({ name, packages, owner }) => ({
      name,
      comment: `${packages.replaceAll("|", ", ")} are imported only under src/${owner}/.`,
      severity: "error",
      from: { path: "^src/", pathNot: `^src/${owner}/` },
      to: { path: `(^|/)node_modules/(${packages})/` },
    })),
    {
      name: "no-tests-in-src",
      comment: "The product never imports test or benchmark code.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|bench)/" },
    },
    {
      name: "no-unresolvable",
      comment: "An import that does not resolve would slip past every rule above.",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    tsPreCompilationDeps: true,
    // Beside this file, so the rules also run from another folder (the rule test's fixture).
    tsConfig: { fileName: `${__dirname}/tsconfig.json` },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
    },
  },
};
