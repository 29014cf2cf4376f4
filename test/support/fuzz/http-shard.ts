import { afterAll, describe, expect, it } from "vitest";
import { deadline } from "../deadline.js";
import { fuzzRoute, type HttpFuzz, shard, startHttpFuzz } from "./http-fuzz.js";
import { runs, selected } from "./run.js";

export const SHARDS = 4;

/**
 * One test file's share of the routes (vitest runs the files in parallel): every route of the shard
 * gets `FUZZ_RUNS` hostile requests in process against a seeded agent on a real SQLite file.
 */
export async function describeShard(index: number): Promise<void> {
  const f: HttpFuzz = await startHttpFuzz();
  afterAll(() => f.t.close());
  describe(`hostile requests on every route, shard ${index + 1} of ${SHARDS}`, () => {
    it("the route list comes from the registry and is the whole API", () => {
      expect(f.routes.length).toBeGreaterThan(60);
      expect(f.routes.filter((r) => r.body).length).toBeGreaterThan(20);
    });
    for (const spec of shard(f.routes, index, SHARDS)) {
      const name = `${spec.method.toUpperCase()} ${spec.path}`;
      it.skipIf(!selected(name))(
        name,
        async () => {
          const stats = await fuzzRoute(f, spec);
          expect(stats.tried).toBeGreaterThanOrEqual(runs());
        },
        deadline(120_000),
      );
    }
  });
}
